"""The Entheos table drawn (strings only): the battlefield (each hero's points and die as a
coloured chip with its action), every player's side (another player's gods named only once the
game is over, their face-down cards only counted), the legend, your prompt, and the page's CSS.
`who` is every seat's name ("you", "player 2 (greedy)").
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from nessus.games.entheos.heroes import ACTION_HELP, ACTION_WORDS, FACES, GODS, HERO_NAMES, HEROES, SIDES
from nessus.games.entheos.odds import SIDE_NAME
from nessus.games.entheos.state import CARD_HELP, CARDS, DICE, OVER, PLACE, State, card_text

HUMAN = 0
"""Your seat (player 1)."""
SIDE_INK = ("#c0392b", "#2e6fd8")
"""Achaeans red, Trojans blue (the rulebook's hero cards)."""
FACE_INK = {
    "blue": ("#2f6bd6", "#ffffff"),
    "green": ("#2e9e48", "#ffffff"),
    "yellow": ("#f5c518", "#222222"),
    "mauve": ("#9b5fc0", "#ffffff"),
    "white": ("#ffffff", "#222222"),
    "red": ("#d23c32", "#ffffff"),
}
"""Each die face's chip: (background, text)."""


# -- the battlefield ------------------------------------------------------------------------------
def chip_html(hero: int, face: str, dim: bool = False) -> str:
    """A die as a coloured chip with its action ("steal 3" on green); `dim`: last turn's face."""
    if not face:
        return "<span class='ent-chip none' title='not rolled yet'>to roll</span>"
    action = HEROES[hero].action(face)
    title = f"{face}: {ACTION_HELP[action]}" + (" (last turn's face: this die is rolled next)" if dim else "")
    return (
        f"<span class='ent-chip face-{face}{' dim' if dim else ''}' data-face='{face}' data-action='{action}' "
        f"title='{html.escape(title)}'>{ACTION_WORDS[action]}</span>"
    )


def favour_marks(s: State, hero: int, player: int = HUMAN) -> str:
    """Your gods' weights on this hero ("×3" on a favourite, "×-1" on the one it loses by)."""
    weights = [(GODS[g].name, GODS[g].favourites.get(HERO_NAMES[hero])) for g in s.gods[player]]
    return "".join(
        f"<span class='ent-fav {'plus' if w > 0 else 'minus'}' title='your god {html.escape(god)}: each point of "
        f"{HERO_NAMES[hero]} is worth {w} victory points'>{html.escape(god)} ×{w}</span>"
        for god, w in weights
        if w is not None
    )


def hero_html(s: State, hero: int) -> str:
    """One hero: name, points, die chip, this turn's marks (locked, from the reserve, keeps its face)."""
    side = HEROES[hero].side
    face = s.faces[hero]
    dim = bool(face) and s.phase == DICE and hero in s.to_roll  # last turn's face, rolled next
    marks = (("🔒 locked", "locked", s.locked), ("reserve", "reserve", s.reserve), ("keeps face", "kept", s.kept))
    tags = "".join(f"<span class='ent-mark {cls}'>{label}</span>" for label, cls, on in marks if hero in on)
    return (
        f"<div class='ent-hero {SIDES[side]}' data-hero='{HERO_NAMES[hero]}' data-points='{s.points[hero]}'>"
        f"<div class='ent-top'><b class='ent-name side-{side}'>{HERO_NAMES[hero]}</b>"
        f"<span class='ent-pts' title='combat points'>{s.points[hero]}</span></div>"
        f"<div class='ent-dice'>{chip_html(hero, face, dim)}{tags}</div>"
        f"<div class='ent-favs'>{favour_marks(s, hero)}</div></div>"
    )


def phase_text(s: State, who: Sequence[str]) -> str:
    """Where the turn stands, in words (`State.phase_text`, but the dice to roll said at once)."""
    if s.phase == OVER:
        return f"The war is over after {s.turns} turns."
    if s.phase == DICE:
        return f"Turn {s.turn + 1} of {s.turns}: the dice are to roll."
    return s.phase_text(who)


def field_html(s: State, who: Sequence[str]) -> str:
    """The battlefield: the side totals, then the three duels as rows (Achaean | vs | Trojan)."""
    a, t = s.side_totals()
    first = who[s.first] if s.first >= 0 else "not drawn"
    head = (
        f"<div class='ent-head'><span><b class='side-0'>Achaeans {a}</b> – "
        f"<b class='side-1'>{t} Trojans</b></span>"
        f"<small>{html.escape(phase_text(s, who))} First intervener: {html.escape(first)}.</small></div>"
    )
    rows = "".join(
        f"<div class='ent-duel' data-duel='{i + 1}'>{hero_html(s, s.places[i])}<div class='ent-vs'>vs</div>"
        f"{hero_html(s, s.places[i + 3])}</div>"
        for i in range(3 if s.places else 0)
    )
    points = ",".join(map(str, s.points))
    return (
        f"<div class='ent-field' data-turn='{s.turn}' data-phase='{s.phase}' data-points='{points}' "
        f"data-totals='{a},{t}'>{head}{rows}</div>"
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


# -- your prompt ----------------------------------------------------------------------------------
def roll_prompt(s: State) -> str:
    """The turn's dice are to roll (the heroes keeping their faces said apart)."""
    if s.phase == PLACE:
        kept = " <small>(every die keeps its face: nothing to roll)</small>"
    elif s.kept:
        names = ", ".join(HERO_NAMES[h] for h in s.kept)
        kept = f" <small>({names} keep{'s its face' if len(s.kept) == 1 else ' their faces'}: not rolled)</small>"
    else:
        kept = ""
    return f"<b>Turn {s.turn + 1} of {s.turns}: roll the dice.</b>{kept}"


def move_prompt(s: State) -> str:
    """Your choice: the card(s) to place face down, or at your reveal slot a reveal or a hold."""
    if s.phase == PLACE:
        what = "the card" if s.per_turn == 1 else "the two cards"
        return (
            f"<b>Turn {s.turn + 1}: choose {what} to place face down.</b> <small>The others choose theirs at the "
            "same time, unseen; then each reveals in turn.</small>"
        )
    older = s.older(HUMAN)
    instead = f" and reveal your older {card_text(older)} instead" if older is not None else ""
    return (
        f"<b>Your reveal slot ({s.step + 1} of {len(s.slots)}):</b> <small>reveal a card you placed and apply "
        f"it now, or hold it face down{instead}.</small>"
    )


# -- the players ----------------------------------------------------------------------------------
def card_chip(card: int, state: str = "") -> str:
    """A card face up: its number and name ("3 set face"), what it does as its title."""
    return (
        f"<span class='ent-card {state}' title='{html.escape(CARD_HELP[card])}'>{html.escape(card_text(card))}</span>"
    )


def back_chip(label: str) -> str:
    """A card face down: only its `label` ("placed", "turn 2")."""
    return f"<span class='ent-card back' title='face down'>{html.escape(label)}</span>"


def god_html(g: int) -> str:
    """A god: its name, its side and its favourites' weights."""
    god = GODS[g]
    weights = ", ".join(f"{h} ×{w}" for h, w in god.favourites.items())
    return (
        f"<span class='ent-god side-{god.side}' data-god='{god.name}'>"
        f"<b>{html.escape(god.name)}</b> <small>({SIDE_NAME[god.side]}: {html.escape(weights)})</small></span>"
    )


def seats_html(s: State, who: Sequence[str]) -> str:
    """Every player: gods (yours; the others' face down until the end), hand, face-down cards
    (yours by name, the others' by count), used cards, victory points once the game is over."""
    out = []
    over = s.phase == OVER
    vp = s.victory_points() if over else None
    to_move = s.current_player()  # chance and the end: no seat
    for p in range(s.players):
        mine = p == HUMAN
        if mine or over:
            gods = "".join(god_html(g) for g in s.gods[p]) or "none yet"
        else:
            n = len(s.gods[p])
            gods = f"<span class='ent-hidden'>{n} god{'s' if n != 1 else ''} face down</span>"
        if mine:
            hand = "".join(card_chip(c) for c in s.hands[p]) or "<small>empty</small>"
            down = [card_chip(c, "placed") for c in s.placed[p]] + [card_chip(c, "held") for _, c in s.held[p]]
        else:
            hand = f"<small>{len(s.hands[p])} cards</small>"
            down = [back_chip("placed") for _ in s.placed[p]] + [back_chip(f"turn {t + 1}") for t, _ in s.held[p]]
        used = "".join(card_chip(c, "used") for c in s.used[p]) or "<small>none</small>"
        first = " <span class='ent-first' title='first intervener'>⚑ first</span>" if p == s.first else ""
        moving = " <span class='ent-turn'>to move</span>" if p == to_move else ""
        score = f" <b class='ent-vp'>{vp[p]} victory points</b>" if vp is not None else ""
        out.append(
            f"<div class='ent-seat{' mine' if mine else ''}{' to-move' if p == to_move else ''}' data-seat='{p + 1}'>"
            f"<div><b>{html.escape(who[p].capitalize())}</b>{first}{moving}{score}</div>"
            f"<div class='ent-gods'>{gods}</div>"
            f"<div class='ent-row'><small>hand</small> {hand}</div>"
            f"<div class='ent-row'><small>face down</small> {''.join(down) or '<small>none</small>'}</div>"
            f"<div class='ent-row'><small>used</small> {used}</div></div>"
        )
    if over:
        dealt = {g for gods in s.gods for g in gods}
        out_of_play = ", ".join(GODS[g].name for g in range(len(GODS)) if g not in dealt)
        if out_of_play:
            out.append(f"<div class='ent-seat aside'><small>Gods not in play (set aside): {out_of_play}</small></div>")
    return f"<div class='ent-seats'>{''.join(out)}</div>"


def table_css() -> str:
    """The page's CSS: the battlefield, the players, the legend, your prompt and moves, the log."""
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
        ".ent-legend summary{cursor:pointer;font-size:13px}"
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
        ".nessus-dash .widget-button.entheos-new-game,.nessus-dash .widget-button.entheos-hint-move"
        "{width:auto;padding:0 12px}"
        "</style>"
    )
