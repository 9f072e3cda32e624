"""The Entheos dashboard's pictures, pure functions of the game (no widgets, no maths beyond the
engine's): the battlefield (three duels, each hero's name, points and die as a coloured chip with
its action), the players' side (your gods and hand; the others' only as counts until the end),
the log lines, the hint table, the page's CSS, and the charts of the odds (altair): each duel's
exact distribution after the next turn (`war.next_turn`) or to the end alone (`duel.duel`), and
each god's expected victory points simulated from the position (`war.kernel`).

Hidden information stays hidden: another player's gods are named only once the game is over,
and their face-down cards only as how many (never which). Achaeans are drawn red and Trojans
blue, as in the rulebook.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from fractions import Fraction

import altair as alt
import polars as pl

from nessus import game
from nessus.dist import Dist
from nessus.games.entheos.heroes import FACES, GODS, HERO_NAMES, HEROES, SIDES
from nessus.games.entheos.state import (
    CARDS,
    DICE,
    OVER,
    PLACE,
    Deal,
    First,
    Hold,
    LineUp,
    Place,
    Reveal,
    SetAside,
    State,
    card_text,
    deal_schedule,
)
from nessus.montecarlo import Estimate
from nessus.numbers import Kind, number_html, number_text
from nessus.solver import Hint

HUMAN = 0
"""Your seat (player 1)."""
SIDE_INK = ("#c0392b", "#2e6fd8")
"""Achaeans red, Trojans blue (the rulebook's hero cards)."""
SIDE_NAME = ("Achaeans", "Trojans")
FACE_INK = {
    "blue": ("#2f6bd6", "#ffffff"),
    "green": ("#2e9e48", "#ffffff"),
    "yellow": ("#f5c518", "#222222"),
    "mauve": ("#9b5fc0", "#ffffff"),
    "white": ("#ffffff", "#222222"),
    "red": ("#d23c32", "#ffffff"),
}
"""Each die face's chip: (background, text)."""
ACTION_WORDS = {
    "steal1": "steal 1",
    "steal3": "steal 3",
    "rally": "rally",
    "guard": "guard",
    "rest": "rest",
    "falter": "falter",
    "": "to roll",
}
ACTION_HELP = {
    "steal1": "steals 1 point from the hero facing it",
    "steal3": "steals 3 points from the hero facing it",
    "rally": "every hero of its side gains 1 point from the reserve",
    "guard": "the other side's steals are 1 smaller",
    "rest": "does nothing",
    "falter": "does nothing, and the first-intervener card skips one more player",
}
CARD_HELP = {
    1: "a hero can be neither moved nor have its die changed this turn",
    2: "a hero takes its steal from the reserve: its opponent loses nothing",
    3: "set a hero's die to a face that makes it act (steal 1, steal 3, rally or guard)",
    4: "two heroes of one side swap places, keeping their dice",
    5: "the two heroes of a duel exchange their dice",
    6: "a hero's die is not rolled next turn",
}
BOTS = ("greedy", "passive", "random_legal", "lock_favourite", "swap_against_competitor")
"""The bots you can play against (`entheos.bots.policies`)."""
MIXED = "one of each"
OPPONENTS = (*BOTS, MIXED)
TOP = 8
"""Hint rows shown (the best first)."""


def seat_bots(opponents: str, players: int) -> tuple[str, ...]:
    """Each seat's player: "you", then the chosen bot (or the bots in turn for `MIXED`)."""
    if opponents == MIXED:
        return ("you", *(BOTS[i % len(BOTS)] for i in range(players - 1)))
    return ("you", *([opponents] * (players - 1)))


def seat_name(p: int, bots: Sequence[str]) -> str:
    """ "you" for seat 1, "player 2 (greedy)" for a bot."""
    return "you" if p == HUMAN else f"player {p + 1} ({bots[p]})"


def action_words(hero: int, face: str) -> str:
    """ "steal 3" for the hero's face ("to roll" for no face yet)."""
    return ACTION_WORDS[HEROES[hero].action(face) if face else ""]


def effect_words(text: str) -> str:
    """An effect's text with the engine's action codes in words ("shows green (steal 3)")."""
    for code, words in ACTION_WORDS.items():
        if code:
            text = text.replace(f"({code})", f"({words})")
    return text


def action_text(action: game.Action) -> str:
    """A move in words: str(action) with the cards named ("reveal 3 set face: Paris shows green (steal 3)")."""
    if isinstance(action, Place):
        return "place " + " and ".join(card_text(c) for c in action.cards) + " face down"
    if isinstance(action, Reveal):
        return effect_words(f"reveal {card_text(action.card)}: {action.effect}")
    if isinstance(action, Hold):
        if action.older is None:
            return f"hold {card_text(action.card)} face down"
        return effect_words(
            f"hold {card_text(action.card)} face down, reveal older {card_text(action.older)}: {action.effect}"
        )
    return effect_words(str(action))


# -- the battlefield ------------------------------------------------------------------------------
def chip_html(hero: int, face: str, dim: bool = False, note: str = "") -> str:
    """A die as a coloured chip with its action ("steal 3" on green); `dim`: last turn's face."""
    if not face:
        return "<span class='ent-chip none' title='not rolled yet'>to roll</span>"
    action = HEROES[hero].action(face)
    title = f"{face}: {ACTION_HELP[action]}" + (f" ({note})" if note else "")
    return (
        f"<span class='ent-chip face-{face}{' dim' if dim else ''}' data-face='{face}' data-action='{action}' "
        f"title='{html.escape(title)}'>{ACTION_WORDS[action]}</span>"
    )


def favour_marks(s: State, hero: int, player: int = HUMAN) -> str:
    """Your gods' weights on this hero ("×3" on a favourite, "×-1" on the one it loses by)."""
    marks = []
    for g in s.gods[player] if s.gods else ():
        w = GODS[g].favourites.get(HERO_NAMES[hero])
        if w is not None:
            kind = "plus" if w > 0 else "minus"
            marks.append(
                f"<span class='ent-fav {kind}' title='your god {html.escape(GODS[g].name)}: each point of "
                f"{HERO_NAMES[hero]} is worth {w} victory points'>{html.escape(GODS[g].name)} ×{w}</span>"
            )
    return "".join(marks)


def hero_html(s: State, hero: int) -> str:
    """One hero: name, points, die chip, this turn's marks (locked, from the reserve, keeps its face)."""
    side = HEROES[hero].side
    face = s.faces[hero]
    dim = bool(face) and s.phase == DICE and hero in s.to_roll  # last turn's face, rolled next
    chip = chip_html(hero, face, dim, "last turn's face: this die is rolled next" if dim else "")
    marks = [
        (label, cls)
        for label, cls, on in (
            ("🔒 locked", "locked", s.locked),
            ("reserve", "reserve", s.reserve),
            ("keeps face", "kept", s.kept),
        )
        if hero in on
    ]
    tags = "".join(f"<span class='ent-mark {cls}'>{label}</span>" for label, cls in marks)
    return (
        f"<div class='ent-hero {SIDES[side]}' data-hero='{HERO_NAMES[hero]}' data-points='{s.points[hero]}' "
        ">"
        f"<div class='ent-top'><b class='ent-name side-{side}'>{HERO_NAMES[hero]}</b>"
        f"<span class='ent-pts' title='combat points'>{s.points[hero]}</span></div>"
        f"<div class='ent-dice'>{chip}{tags}</div>"
        f"<div class='ent-favs'>{favour_marks(s, hero)}</div></div>"
    )


def phase_text(s: State, bots: Sequence[str]) -> str:
    """Where the turn stands, in words."""
    if s.phase == OVER:
        return f"The war is over after {s.turns} turns."
    if not s.places:
        return "Setting up."
    turn = f"Turn {s.turn + 1} of {s.turns}"
    if s.phase == DICE:
        return f"{turn}: the dice are to roll."
    who = seat_name(s.current_player(), bots)
    if s.phase == PLACE:
        return f"{turn}: {who} to place face down."
    return f"{turn}: {who} to reveal or hold (slot {s.step + 1} of {len(s.slots)})."


def field_html(s: State, bots: Sequence[str]) -> str:
    """The battlefield: the side totals, then the three duels as rows (Achaean | vs | Trojan)."""
    a, t = s.side_totals()
    first = seat_name(s.first, bots) if s.first >= 0 else "not drawn"
    head = (
        f"<div class='ent-head'><span><b class='side-0'>Achaeans {a}</b> – "
        f"<b class='side-1'>{t} Trojans</b></span>"
        f"<small>{html.escape(phase_text(s, bots))} First intervener: {html.escape(first)}.</small></div>"
    )
    rows = []
    for i in range(3):
        if not s.places:
            break
        left, right = s.places[i], s.places[i + 3]
        rows.append(
            f"<div class='ent-duel' data-duel='{i + 1}'>{hero_html(s, left)}<div class='ent-vs'>vs</div>"
            f"{hero_html(s, right)}</div>"
        )
    points = ",".join(map(str, s.points))
    return (
        f"<div class='ent-field' data-turn='{s.turn}' data-phase='{s.phase}' data-points='{points}' "
        f"data-totals='{a},{t}'>{head}{''.join(rows)}</div>"
    )


def legend_html() -> str:
    """The faces (every hero's die: the rulebook's Ulysses) and the six cards, folded."""
    faces = "".join(f"<span style='white-space:nowrap;margin-right:8px'>{chip_html(0, f)} {f}</span>" for f in FACES)
    cards = "".join(f"<li><b>{card_text(c)}</b>: {CARD_HELP[c]}</li>" for c in CARDS)
    return (
        "<details class='ent-legend'><summary>The dice and the six cards</summary>"
        f"<div style='margin:4px 0'>{faces}</div>"
        "<small>Steal: take points from the hero facing you (each guard of the other side makes it 1 smaller); "
        "rally: every hero of your side gains 1 point; red: nothing, and the first-intervener card skips a "
        f"player.</small><ul style='margin:4px 0;padding-left:18px;font-size:12px'>{cards}</ul></details>"
    )


# -- the players ----------------------------------------------------------------------------------
def card_chip(card: int, state: str = "") -> str:
    return (
        f"<span class='ent-card {state}' title='{html.escape(CARD_HELP[card])}'>{html.escape(card_text(card))}</span>"
    )


def back_chip(label: str) -> str:
    return f"<span class='ent-card back' title='face down'>{html.escape(label)}</span>"


def god_html(g: int) -> str:
    god = GODS[g]
    weights = ", ".join(f"{h} ×{w}" for h, w in god.favourites.items())
    return (
        f"<span class='ent-god side-{god.side}' data-god='{god.name}'>"
        f"<b>{html.escape(god.name)}</b> <small>({SIDE_NAME[god.side]}: {html.escape(weights)})</small></span>"
    )


def seats_html(s: State, bots: Sequence[str]) -> str:
    """Every player: gods (yours; the others' face down until the end), hand, face-down cards
    (yours by name, the others' by count), used cards, victory points once the game is over."""
    out = []
    over = s.phase == OVER
    vp = s.victory_points() if over else None
    to_move = -1 if s.phase in (OVER, DICE) else s.current_player()
    for p in range(s.players):
        mine = p == HUMAN
        if mine or over:
            gods = "".join(god_html(g) for g in s.gods[p]) or "none yet"
        else:
            n = len(s.gods[p])
            gods = f"<span class='ent-hidden'>{n} god{'s' if n != 1 else ''} face down</span>"
        if mine:
            hand = "".join(card_chip(c) for c in s.hands[p]) or "<small>empty</small>"
            down = "".join(card_chip(c, "placed") for c in s.placed[p]) + "".join(
                card_chip(c, "held") for _, c in s.held[p]
            )
        else:
            hand = f"<small>{len(s.hands[p])} cards</small>"
            down = "".join(back_chip("placed") for _ in s.placed[p]) + "".join(
                back_chip(f"turn {t + 1}") for t, _ in s.held[p]
            )
        used = "".join(card_chip(c, "used") for c in s.used[p]) or "<small>none</small>"
        flags = (" <span class='ent-first' title='first intervener'>⚑ first</span>" if p == s.first else "") + (
            " <span class='ent-turn'>to move</span>" if p == to_move else ""
        )
        score = f" <b class='ent-vp'>{vp[p]} victory points</b>" if vp is not None else ""
        out.append(
            f"<div class='ent-seat{' mine' if mine else ''}{' to-move' if p == to_move else ''}' data-seat='{p + 1}'>"
            f"<div><b>{html.escape(seat_name(p, bots).capitalize())}</b>{flags}{score}</div>"
            f"<div class='ent-gods'>{gods}</div>"
            f"<div class='ent-row'><small>hand</small> {hand}</div>"
            f"<div class='ent-row'><small>face down</small> {down or '<small>none</small>'}</div>"
            f"<div class='ent-row'><small>used</small> {used}</div></div>"
        )
    if over:
        dealt = {g for gods in s.gods for g in gods}
        out_of_play = ", ".join(GODS[g].name for g in range(len(GODS)) if g not in dealt)
        if out_of_play:
            out.append(f"<div class='ent-seat aside'><small>Gods not in play (set aside): {out_of_play}</small></div>")
    return f"<div class='ent-seats'>{''.join(out)}</div>"


# -- the log --------------------------------------------------------------------------------------
def dice_line(s: State, faces: Mapping[int, str]) -> str:
    """The turn's roll: each rolled die's face and action, the kept ones said apart."""
    rolled = ", ".join(f"{HERO_NAMES[h]} {f} ({action_words(h, f)})" for h, f in faces.items())
    kept = [h for h in range(6) if h not in faces]
    keep = "; " + ", ".join(f"{HERO_NAMES[h]} keeps {s.faces[h]}" for h in kept) if kept else ""
    return f"Turn {s.turn + 1}, the dice: {rolled}{keep}."


def move_line(s: State, action: game.Action, bots: Sequence[str]) -> str | None:
    """A log line for a move or a setup draw (None for a die: `dice_line` says the roll at once).
    Another player's face-down card is never named."""
    if isinstance(action, str):
        return None
    if isinstance(action, LineUp):
        return f"The line-up: {action}."
    if isinstance(action, SetAside):
        return "A god is set aside face down."
    if isinstance(action, Deal):
        _, seat, _ = deal_schedule(s.players)[len(s.aside) + sum(map(len, s.gods))]
        if seat == HUMAN:
            return f"You receive {GODS[action.god]}."
        return f"{seat_name(seat, bots).capitalize()} receives a god, face down."
    if isinstance(action, First):
        return f"{seat_name(action.seat, bots).capitalize()} intervene{'' if action.seat == HUMAN else 's'} first."
    p = s.current_player()
    who = seat_name(p, bots).capitalize()
    you = p == HUMAN
    if isinstance(action, Place):
        if you:
            return f"You {action_text(action)}."
        n = len(action.cards)
        return f"{who} places {'a card' if n == 1 else f'{n} cards'} face down."
    if isinstance(action, Reveal):
        return f"{who} {'reveal' if you else 'reveals'} {effect_words(f'{card_text(action.card)}: {action.effect}')}."
    if isinstance(action, Hold):
        held = card_text(action.card) if you else "a card"
        line = f"{who} {'hold' if you else 'holds'} {held} face down"
        if action.older is not None:
            line += f" and reveal{'' if you else 's'} an older {card_text(action.older)}: {action.effect}"
        return effect_words(line) + "."
    return f"{who}: {action}."


def resolution_line(before: State, after: State, bots: Sequence[str]) -> str:
    """The turn's resolution: every hero's points that changed, the totals, the next first intervener."""
    changes = [
        f"{HERO_NAMES[h]} {a}→{b}" for h, (a, b) in enumerate(zip(before.points, after.points, strict=True)) if a != b
    ]
    a, t = after.side_totals()
    moved = ", ".join(changes) if changes else "no point moves"
    verb = "intervene" if after.first == HUMAN else "intervenes"
    nxt = "" if after.phase == OVER else f" {seat_name(after.first, bots).capitalize()} {verb} first next."
    return f"Turn {before.turn + 1} resolved: {moved}. Achaeans {a}, Trojans {t}.{nxt}"


def recovery_line(before: State, after: State, bots: Sequence[str]) -> str | None:
    """Who took their cards back at the end of the turn."""
    back = [
        seat_name(p, bots)
        for p in range(after.players)
        if after.phase != OVER and len(after.hands[p]) == 6 and len(before.hands[p]) < 6
    ]
    return f"Cards taken back: {', '.join(back)}." if back else None


def result_text(s: State, bots: Sequence[str]) -> str:
    """The war's winner, each player's victory points, who won the game."""
    winner = s.war_winner()
    a, t = s.side_totals()
    war = (
        f"a tie, {a} to {t}: every god counts" if winner is None else f"the {SIDE_NAME[winner]} win the war, {a} to {t}"
    )
    vp = s.victory_points()
    win = [p for p, r in enumerate(s.returns()) if r]
    names = " and ".join(seat_name(p, bots) for p in win)
    verb = "win" if win == [HUMAN] else "wins" if len(win) == 1 else "share the win"
    points = ", ".join(f"{seat_name(p, bots)} {vp[p]}" for p in range(s.players))
    return f"Game over: {war}. Victory points: {points}. {names.capitalize()} {verb}."


def log_html(lines: Sequence[str]) -> str:
    """The log, the latest line first."""
    body = "".join(f"<div>{html.escape(line)}</div>" for line in reversed(lines[-120:]))
    return f"<div class='ent-log' data-lines='{len(lines)}'>{body}</div>"


# -- the hint ---------------------------------------------------------------------------------------
def hint_html(hint: Hint) -> str:
    """The hint's best move and the best few of every legal move with its value (a heuristic)."""
    order = sorted(hint.values.items(), key=lambda kv: -Fraction(kv[1]))
    rows = []
    for action, v in order[:TOP]:
        best = action == hint.best
        rows.append(
            f"<tr class='hint-row{' best' if best else ''}'><td>{html.escape(action_text(action))}</td>"
            f"<td style='white-space:nowrap'>{number_html(v, 'value')}</td></tr>"
        )
    more = len(order) - TOP
    tail = f"<tr><td colspan='2'><small>… and {more} more moves</small></td></tr>" if more > 0 else ""
    return (
        f"<div class='ent-hint-best'>Hint: <b class='ent-hint-move'>{html.escape(action_text(hint.best))}</b> "
        f"({number_html(hint.value, 'value')} victory points by the heuristic).</div>"
        "<small style='color:#555'>A heuristic (<code>State.hint</code>): your gods' victory points if the war "
        "ended with this turn's resolution and no one else played a card (a god of the side behind counts "
        "half); a placement is worth the best reveal it allows now.</small>"
        "<div class='nessus-wide'><table class='hint-table' cellpadding='3' style='border-collapse:collapse;"
        "width:100%;font-size:12px'><tr><th align='left'>move</th><th align='left'>value</th></tr>"
        f"{''.join(rows)}{tail}</table></div>"
    )


# -- the odds -------------------------------------------------------------------------------------
def duel_name(s: State, i: int) -> str:
    return f"{i + 1}. {HERO_NAMES[s.places[i]]} vs {HERO_NAMES[s.places[i + 3]]}"


def duel_frame(
    names: Sequence[str], dists: Sequence[Dist], view: str, starts: Sequence[tuple[int, int]]
) -> pl.DataFrame:
    """The duels' exact distributions as rows: `view` "lead" (the Achaean hero's points minus the
    Trojan's) or "points" (each hero's points), with the exact probability as text and `now`, the
    position's value (`starts`: each duel's points at the position)."""
    rows: dict[str, list] = {"duel": [], "x": [], "hero": [], "probability": [], "exact": [], "now": []}
    for name, dist, (a, b) in zip(names, dists, starts, strict=True):
        achaean, trojan = name.split(". ", 1)[1].split(" vs ")
        parts: list[tuple[str, Dist, int]]
        if view == "lead":
            parts = [("lead", dist.map(lambda ab: ab[0] - ab[1]), a - b)]
        else:
            parts = [(achaean, dist.map(lambda ab: ab[0]), a), (trojan, dist.map(lambda ab: ab[1]), b)]
        for hero, d, now in parts:
            for x, p in sorted(d.items()):
                rows["duel"].append(name)
                rows["x"].append(x)
                rows["hero"].append(hero)
                rows["probability"].append(float(p))
                rows["exact"].append(number_text(p))
                rows["now"].append(now)
    frame = pl.DataFrame(rows)
    if view == "lead":
        return frame.with_columns(
            ahead=pl.when(pl.col("x") > 0)
            .then(pl.lit("Achaean ahead"))
            .when(pl.col("x") < 0)
            .then(pl.lit("Trojan ahead"))
            .otherwise(pl.lit("level"))
        )
    side = {n: SIDE_NAME[h.side] for n, h in zip(HERO_NAMES, HEROES, strict=True)}
    return frame.with_columns(ahead=pl.col("hero").replace_strict(side, return_dtype=pl.String))


def duel_chart(frame: pl.DataFrame, view: str, title: str, subtitle: list[str]) -> alt.FacetChart:
    """Bars of each duel's exact distribution, one row per duel, the position's value (`now`) a
    dashed rule (in the points view, one per hero, in its side's colour)."""
    order = list(dict.fromkeys(frame["duel"].to_list()))
    y = alt.Y("probability:Q", title="P", axis=alt.Axis(tickCount=3, format=".2~f"))
    if view == "lead":
        colour = alt.Color(
            "ahead:N",
            scale=alt.Scale(
                domain=["Achaean ahead", "level", "Trojan ahead"], range=[SIDE_INK[0], "#9e9e9e", SIDE_INK[1]]
            ),
            legend=alt.Legend(orient="top", title=None),
        )
        x = alt.X("x:Q", title="lead of the Achaean hero (his points − the Trojan's)", axis=alt.Axis(tickMinStep=1))
        bars = (
            alt.Chart()
            .mark_bar(size=7)
            .encode(x=x, y=y, color=colour, tooltip=["duel", alt.Tooltip("x:Q", title="lead"), "exact"])
        )
        rule = (
            alt.Chart()
            .transform_aggregate(now="min(now)")
            .mark_rule(strokeDash=[4, 3], color="#222", strokeWidth=1.5)
            .encode(x="now:Q", tooltip=[alt.Tooltip("now:Q", title="lead at the position")])
        )
    else:
        colour = alt.Color(
            "ahead:N",
            scale=alt.Scale(domain=list(SIDE_NAME), range=list(SIDE_INK)),
            legend=alt.Legend(orient="top", title=None),
        )
        bars = (
            alt.Chart()
            .mark_line(point=alt.OverlayMarkDef(size=18), strokeWidth=1.5)
            .encode(
                x=alt.X("x:Q", title="a hero's points", axis=alt.Axis(tickMinStep=1)),
                y=y,
                color=colour,
                detail="hero:N",
                tooltip=["duel", "hero", alt.Tooltip("x:Q", title="points"), "exact"],
            )
        )
        rule = (
            alt.Chart()
            .transform_aggregate(now="min(now)", groupby=["hero", "ahead"])
            .mark_rule(strokeDash=[4, 3], strokeWidth=1.5)
            .encode(x="now:Q", color=colour, tooltip=["hero", alt.Tooltip("now:Q", title="points at the position")])
        )
    return (
        alt.layer(bars, rule, data=frame)
        .properties(width=300, height=62)
        .facet(
            row=alt.Row(
                "duel:N",
                sort=order,
                header=alt.Header(labelAngle=0, labelAlign="left", labelAnchor="start", labelOrient="top", title=None),
            ),
            title=alt.Title(title, subtitle=subtitle),
        )
        .resolve_scale(x="shared")
        .configure_facet(spacing=6)
    )


def duel_table(names: Sequence[str], dists: Sequence[Dist]) -> str:
    """Each duel's exact figures: expected points of both heroes, P(Achaean ahead), P(level), P(Trojan ahead)."""
    rows = []
    for name, d in zip(names, dists, strict=True):
        cells = (
            number_html(d.map(lambda ab: ab[0]).mean(), "value"),
            number_html(d.map(lambda ab: ab[1]).mean(), "value"),
            number_html(d.prob(lambda ab: ab[0] > ab[1])),
            number_html(d.prob(lambda ab: ab[0] == ab[1])),
            number_html(d.prob(lambda ab: ab[0] < ab[1])),
        )
        rows.append(f"<tr><td>{html.escape(name)}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return (
        "<div class='nessus-wide'><table class='ent-duels' cellpadding='2' style='border-collapse:collapse;"
        "font-size:12px'><tr><th align='left'>duel</th><th title='the Achaean hero&#39;s expected points'>E[A]</th>"
        "<th title='the Trojan hero&#39;s expected points'>E[T]</th><th>P(A ahead)</th><th>P(level)</th>"
        f"<th>P(T ahead)</th></tr>{''.join(rows)}</table></div>"
        "<small style='color:#555'>A: the duel's Achaean hero, T: its Trojan; E: expected points.</small>"
    )


Figure = Estimate | int
"""A figure of the war: simulated (an Estimate) or, once no turn is left, exact (an int)."""


def final_figures(points: Sequence[int], mine: Sequence[int]) -> dict[str, Figure]:
    """The war's figures when no turn is left (`war.kernel`'s names): who wins (1 or 0), each god's
    victory points, yours (`you_vp`), exactly."""
    a = sum(points[h] for h in range(6) if HEROES[h].side == 0)
    t = sum(points) - a
    named = dict(zip(HERO_NAMES, points, strict=True))
    totals = (a, t)
    gods = {
        g: god.victory_points(named) if totals[god.side] >= totals[1 - god.side] else 0 for g, god in enumerate(GODS)
    }
    out: dict[str, Figure] = {"p_achaeans_win": int(a > t), "p_trojans_win": int(t > a), "p_war_tied": int(a == t)}
    out |= {f"god_{GODS[g].name.lower()}_ev": vp for g, vp in gods.items()}
    out["you_vp"] = sum(gods[g] for g in mine)
    return out


def estimate_html(e: Figure, k: Kind = "value") -> str:
    """A simulated figure with its 95% interval, or an exact one."""
    if not isinstance(e, Estimate):
        return number_html(e, k)
    return (
        f"{number_html(e.value, k)} <small style='color:#555'>({number_html(e.ci[0], k, mark=False)} to "
        f"{number_html(e.ci[1], k, mark=False)})</small>"
    )


def gods_frame(estimates: Mapping[str, Figure], mine: Sequence[int]) -> pl.DataFrame:
    """Each god's expected victory points with its 95% interval (or exact); yours marked."""
    rows: dict[str, list] = {"god": [], "side": [], "ev": [], "low": [], "high": [], "yours": []}
    for g, god in enumerate(GODS):
        e = estimates[f"god_{god.name.lower()}_ev"]
        rows["god"].append(god.name + (" (yours)" if g in mine else ""))
        rows["side"].append(SIDE_NAME[god.side])
        value, low, high = (e.value, *e.ci) if isinstance(e, Estimate) else (e, e, e)
        rows["ev"].append(round(value, 3))
        rows["low"].append(round(low, 3))
        rows["high"].append(round(high, 3))
        rows["yours"].append(g in mine)
    return pl.DataFrame(rows)


def gods_chart(frame: pl.DataFrame, title: str, subtitle: list[str]) -> alt.LayerChart:
    """Each god's expected victory points (bars, yours outlined) with its 95% interval (a rule)."""
    order = frame["god"].to_list()
    y = alt.Y("god:N", sort=order, title=None)
    bars = (
        alt.Chart()
        .mark_bar(height=14)
        .encode(
            y=y,
            x=alt.X("ev:Q", title="expected victory points"),
            color=alt.Color(
                "side:N",
                scale=alt.Scale(domain=list(SIDE_NAME), range=list(SIDE_INK)),
                legend=alt.Legend(orient="top", title=None),
            ),
            opacity=alt.condition("datum.yours", alt.value(1.0), alt.value(0.45)),
            stroke=alt.condition("datum.yours", alt.value("#222"), alt.value(None)),
            strokeWidth=alt.condition("datum.yours", alt.value(2), alt.value(0)),
            tooltip=["god", "side", alt.Tooltip("ev:Q", title="expected", format=".3f"), "low", "high"],
        )
    )
    interval = alt.Chart().mark_rule(color="#222").encode(y=y, x="low:Q", x2="high:Q")
    return alt.layer(bars, interval, data=frame, title=alt.Title(title, subtitle=subtitle)).properties(
        width=300, height=150
    )


def war_html(estimates: Mapping[str, Figure], mine: Sequence[int], wars: int, note: str) -> str:
    """The war's figures (simulated, or exact when `wars` is 0): P(Achaeans win), P(Trojans win),
    P(tie), your expected victory points."""
    rows = [
        ("P(the Achaeans win the war)", estimate_html(estimates["p_achaeans_win"], "probability")),
        ("P(the Trojans win the war)", estimate_html(estimates["p_trojans_win"], "probability")),
        ("P(a tie: every god counts)", estimate_html(estimates["p_war_tied"], "probability")),
    ]
    if mine:
        gods = " + ".join(GODS[g].name for g in mine)
        rows.append((f"your expected victory points ({gods})", estimate_html(estimates["you_vp"])))
    body = "".join(f"<tr><td>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in rows)
    return (
        f"<div class='ent-war' data-wars='{wars}'><table cellpadding='2' style='border-collapse:collapse;"
        f"font-size:12px'>{body}</table><small style='color:#555'>{html.escape(note)}</small></div>"
    )


def page_css() -> str:
    return (
        "<style>"
        ".ent-field{border:1px solid rgba(128,128,128,.45);border-radius:8px;padding:6px;max-width:100%;"
        "box-sizing:border-box}"
        ".ent-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:2px 10px;font-size:14px;"
        "margin:0 2px 4px}"
        ".ent-head small{color:#555}"
        ".ent-duel{display:flex;align-items:stretch;gap:4px;margin:4px 0}"
        ".ent-vs{align-self:center;font-size:12px;color:#777;flex:none}"
        ".ent-hero{flex:1 1 0;min-width:0;border:2px solid;border-radius:7px;padding:3px 6px;box-sizing:border-box}"
        ".ent-top{display:flex;justify-content:space-between;align-items:baseline;gap:4px}"
        ".ent-name{font-size:14px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}"
        ".ent-pts{font:bold 22px/1.1 sans-serif}"
        ".ent-dice{display:flex;flex-wrap:wrap;gap:3px;align-items:center;margin-top:2px}"
        ".ent-chip{display:inline-block;border-radius:5px;padding:1px 7px;font:bold 12px/18px sans-serif;"
        "border:1px solid rgba(0,0,0,.35);white-space:nowrap}"
        + "".join(f".ent-chip.face-{f}{{background:{bg};color:{ink}}}" for f, (bg, ink) in FACE_INK.items())
        + ".ent-chip.dim{opacity:.4;border-style:dashed}"
        f".side-0{{color:{SIDE_INK[0]}}}.side-1{{color:{SIDE_INK[1]}}}"
        f".ent-hero.achaeans,.ent-god.side-0{{border-color:{SIDE_INK[0]}}}"
        f".ent-hero.trojans,.ent-god.side-1{{border-color:{SIDE_INK[1]}}}"
        'body[data-jp-theme-light="false"] .side-1{color:#7ea6ff}'
        'body[data-jp-theme-light="false"] .side-0{color:#ff7b6b}'
        'body[data-jp-theme-light="false"] .ent-head small,body[data-jp-theme-light="false"] .ent-row>small'
        "{color:var(--jp-ui-font-color2)}"
        ".ent-chip.none{background:transparent;color:#777;border-style:dashed}"
        ".ent-mark{font-size:11px;border-radius:4px;padding:0 4px;background:rgba(128,128,128,.18);white-space:nowrap}"
        ".ent-mark.locked{background:rgba(245,133,24,.3)}.ent-mark.reserve{background:rgba(92,184,92,.3)}"
        ".ent-favs{display:flex;flex-wrap:wrap;gap:2px}"
        ".ent-fav{font-size:10px;border-radius:3px;padding:0 3px;white-space:nowrap}"
        ".ent-fav.plus{background:rgba(92,184,92,.25)}.ent-fav.minus{background:rgba(176,0,32,.15)}"
        ".ent-seats{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0}"
        ".ent-seat{border:1px solid rgba(128,128,128,.5);border-radius:6px;padding:3px 6px;font-size:12px;"
        "flex:1 1 200px;max-width:100%;box-sizing:border-box}"
        ".ent-seat.mine{border-width:2px}.ent-seat.to-move{border-color:#f58518}"
        ".ent-turn{color:#f58518;font-weight:bold}.ent-first{color:#8a6d00}"
        ".ent-row{margin:1px 0}.ent-row>small{display:inline-block;min-width:58px;color:#666}"
        ".ent-god{display:inline-block;border-left:4px solid;padding:0 4px;margin:1px 4px 1px 0}"
        ".ent-card{display:inline-block;border:1px solid #777;border-radius:4px;padding:0 4px;margin:1px;"
        "background:#fffdf5;color:#222;white-space:nowrap;font-size:11px}"
        ".ent-card.placed{border-color:#f58518;border-width:2px}.ent-card.held{border-style:dashed}"
        ".ent-card.used{opacity:.55}"
        ".ent-card.back{background:repeating-linear-gradient(45deg,#6b4f1d 0 4px,#8a6a2f 4px 8px);color:#fff}"
        ".ent-log{max-height:200px;overflow-y:auto;font-size:12px;border:1px solid rgba(128,128,128,.3);"
        "padding:3px 6px;margin-top:4px}"
        ".ent-log div:first-child{font-weight:bold}"
        ".ent-prompt{margin:6px 0 2px;font-size:14px}"
        ".ent-over{padding:4px 6px;border:2px solid #5cb85c;border-radius:6px}"
        ".ent-moves .ent-group{display:flex;flex-wrap:wrap;align-items:center;gap:2px 4px;max-width:100%}"
        ".ent-moves .widget-button{width:auto;max-width:100%;height:auto;min-height:28px;white-space:normal;"
        "text-align:left;padding:2px 8px;margin:2px}"
        ".ent-moves .widget-dropdown{width:auto;max-width:100%;flex:1 1 200px}"
        ".ent-moves .widget-dropdown select{max-width:100%}"
        ".ent-legend summary{cursor:pointer;font-size:13px}"
        ".nessus-dash .widget-button.entheos-new-game,.nessus-dash .widget-button.entheos-hint-move"
        "{width:auto;padding:0 12px}"
        "</style>"
    )
