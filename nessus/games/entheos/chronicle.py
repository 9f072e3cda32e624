"""The Entheos war told in words (strings only: no widgets, no charts): the bots you can play
against in plain words (`OPPONENTS`: the menu's words and keys), a move in words (the
engine's action codes as "steal 3"), the log's lines (the setup, the dice, each move, each turn's
resolution, the cards taken back), the result, what you are asked to do now (`roll_prompt`,
`move_prompt`), the heuristic hint, and the words beside the gods' odds (`gods_words`).

Another player's face-down card is never named. `who` is every seat's name ("you",
"player 2 (greedy)").
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from fractions import Fraction

from nessus import game
from nessus.games.entheos.heroes import GODS, HERO_NAMES, HEROES
from nessus.games.entheos.odds import WARS, Position
from nessus.games.entheos.state import (
    OVER,
    PLACE,
    REVEAL,
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
from nessus.games.entheos.table import ACTION_WORDS, HUMAN, SIDE_NAME
from nessus.numbers import number_html
from nessus.solver import Hint

TOP = 8
"""Hint rows shown (the best first)."""


# -- the players and their moves in words ------------------------------------------------------------------------------
BOTS = {
    "greedy": "greedy",
    "passive": "passive",
    "random_legal": "random",
    "lock_favourite": "lock the favourite",
    "swap_against_competitor": "swap against the rival",
}
"""The bots you can play against (`entheos.policies.policies`), each key with its plain words."""
MIXED = "one of each"
OPPONENTS = (*((words, key) for key, words in BOTS.items()), (MIXED, MIXED))
"""The bots menu: (words, key)."""


def seat_bots(opponents: str, players: int) -> tuple[str, ...]:
    """Each seat's player: "you", then the chosen bot's key (or the bots in turn for `MIXED`)."""
    if opponents == MIXED:
        bots = list(BOTS)
        return ("you", *(bots[i % len(bots)] for i in range(players - 1)))
    return ("you", *([opponents] * (players - 1)))


def bot_names(bots: Sequence[str]) -> tuple[str, ...]:
    """Each seat's player in plain words ("you", "random", "swap against the rival")."""
    return tuple(BOTS.get(b, b) for b in bots)


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


# -- the log --------------------------------------------------------------------------------------
def dice_line(s: State, faces: Mapping[int, str]) -> str:
    """The turn's roll: each rolled die's face and action, the kept ones said apart."""
    rolled = ", ".join(f"{HERO_NAMES[h]} {f} ({action_words(h, f)})" for h, f in faces.items())
    kept = [h for h in range(6) if h not in faces]
    keep = "; " + ", ".join(f"{HERO_NAMES[h]} keeps {s.faces[h]}" for h in kept) if kept else ""
    return f"Turn {s.turn + 1}, the dice: {rolled}{keep}."


def move_line(s: State, action: game.Action, who: Sequence[str]) -> str | None:
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
        return f"{who[seat].capitalize()} receives a god, face down."
    if isinstance(action, First):
        return f"{who[action.seat].capitalize()} intervene{'' if action.seat == HUMAN else 's'} first."
    p = s.current_player()
    name = who[p].capitalize()
    you = p == HUMAN
    if isinstance(action, Place):
        if you:
            return f"You {action_text(action)}."
        n = len(action.cards)
        return f"{name} places {'a card' if n == 1 else f'{n} cards'} face down."
    if isinstance(action, Reveal):
        return f"{name} {'reveal' if you else 'reveals'} {effect_words(f'{card_text(action.card)}: {action.effect}')}."
    if isinstance(action, Hold):
        held = card_text(action.card) if you else "a card"
        line = f"{name} {'hold' if you else 'holds'} {held} face down"
        if action.older is not None:
            line += f" and reveal{'' if you else 's'} an older {card_text(action.older)}: {action.effect}"
        return effect_words(line) + "."
    return f"{name}: {action}."


def resolution_line(before: State, after: State, who: Sequence[str]) -> str:
    """The turn's resolution: every hero's points that changed, the totals, the next first intervener."""
    changes = [
        f"{HERO_NAMES[h]} {a}→{b}" for h, (a, b) in enumerate(zip(before.points, after.points, strict=True)) if a != b
    ]
    a, t = after.side_totals()
    moved = ", ".join(changes) if changes else "no point moves"
    verb = "intervene" if after.first == HUMAN else "intervenes"
    nxt = "" if after.phase == OVER else f" {who[after.first].capitalize()} {verb} first next."
    return f"Turn {before.turn + 1} resolved: {moved}. Achaeans {a}, Trojans {t}.{nxt}"


def recovery_line(before: State, after: State, who: Sequence[str]) -> str | None:
    """Who took their cards back at the end of the turn."""
    back = [
        who[p]
        for p in range(after.players)
        if after.phase != OVER and len(after.hands[p]) == 6 and len(before.hands[p]) < 6
    ]
    return f"Cards taken back: {', '.join(back)}." if back else None


def move_lines(s: State, action: game.Action, who: Sequence[str]) -> list[str]:
    """The log's lines for a move (`move_line`), and after the last slot of a turn its resolution."""
    lines = [line] if (line := move_line(s, action, who)) else []
    if s.phase == REVEAL and s.step == len(s.slots) - 1:
        after = s.apply(action)
        assert isinstance(after, State)
        lines.append(resolution_line(s, after, who))
        if back := recovery_line(s, after, who):
            lines.append(back)
    return lines


def result_text(s: State, who: Sequence[str], winners: str) -> str:
    """The war's winner, each player's victory points, who won the game (`winners`: "you win")."""
    winner = s.war_winner()
    a, t = s.side_totals()
    war = (
        f"a tie, {a} to {t}: every god counts" if winner is None else f"the {SIDE_NAME[winner]} win the war, {a} to {t}"
    )
    vp = s.victory_points()
    points = ", ".join(f"{who[p]} {vp[p]}" for p in range(s.players))
    return f"Game over: {war}. Victory points: {points}. {winners.capitalize()}."


# -- your move ------------------------------------------------------------------------------------
def roll_prompt(s: State) -> str:
    """The turn's dice are to roll (the heroes keeping their faces said apart)."""
    if s.phase == PLACE:
        kept = " <small>(every die keeps its face: nothing to roll)</small>"
    elif s.kept:
        one = len(s.kept) == 1
        names = ", ".join(HERO_NAMES[h] for h in s.kept)
        kept = f" <small>({names} keep{'s its face' if one else ' their faces'}: not rolled)</small>"
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
    return (
        f"<b>Your reveal slot ({s.step + 1} of {len(s.slots)}):</b> <small>reveal a card you placed and apply "
        "it now, or hold it face down"
        + (f" and reveal your older {card_text(older)} instead" if older is not None else "")
        + ".</small>"
    )


# -- the hint -------------------------------------------------------------------------------------
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


# -- the odds in words ------------------------------------------------------------------------------
def gods_words(at: Position) -> tuple[str, list[str]]:
    """The note under the gods' figures and the subtitle of their chart, from the position: simulated
    (`odds.WARS` wars) while turns are left, exact when none is."""
    if at.left:
        note = f"simulated: {WARS:,} wars, no interventions, from {at.words}; 95% intervals"
        subtitle = [
            f"simulated, {WARS:,} wars, no interventions,",
            f"from {at.tag}: {at.left} turn{'s' if at.left != 1 else ''} to go;",
            "95% intervals; yours outlined",
        ]
        return note, subtitle
    over = at.tag == "the war is over"
    note = ("the war is over" if over else "no turn left after this one, as the dice lie") + (
        ": each god's victory points, exactly"
    )
    subtitle = [
        "the war is over: the final victory points" if over else "no turn left: the points as the dice lie",
        "(exact; 0 for a god of the losing side)",
    ]
    return note, subtitle
