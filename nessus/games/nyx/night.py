"""The Nyx page's night against bots, in words and pictures (strings only: no widgets, no
charts): a shape's preview, the face-up cards, each player's side and the table, a few of your
legal moves as buttons' words (`choices`, `offered`), the prompt for your move, a move told in
the log (`move_line`). The symbol dice are drawn in `dice`."""

from __future__ import annotations

import html
from collections.abc import Sequence

from nessus import game
from nessus.games.nyx import matrix
from nessus.games.nyx.cards import CARDS, Card
from nessus.games.nyx.dice import COLOURS, PLURAL, mini_die, words
from nessus.games.nyx.matrix import SHAPES
from nessus.games.nyx.policies import end_night, policies
from nessus.games.nyx.rules import SYMBOLS, Rules
from nessus.games.nyx.state import (
    DREAM,
    NO_REROLL,
    SPELL,
    BuyBlack,
    BuyWhite,
    Draw,
    Dream,
    EndNight,
    NoReroll,
    Pass,
    Reroll,
    Roll,
    Spell,
    State,
    dice_text,
)

BOTS = ("odds", "greedy", "odds")
"""The bots in seats 2, 3 and 4 of a night against bots (you are seat 1)."""
HUMAN = 0
MAX_DREAMS = 6
"""The dream placements offered as buttons, best first."""
PER_DREAM = 2
"""The placements offered per face-up dream and symbol."""


def _nyx(state: game.State) -> State:
    if not isinstance(state, State):
        raise ValueError(f"a Nyx state is needed, got {type(state).__name__}")
    return state


def seats(rules: Rules) -> tuple[tuple[str, ...], dict[int, game.Policy]]:
    """Who plays a night against bots: each seat's name ("you", then the bots) and the bots'
    policies by seat."""
    names = ("you", *BOTS[: rules.players - 1])
    named = policies(rules)
    return names, {p: named[b] for p, b in enumerate(names) if p != HUMAN}


def shape_preview(shape: str) -> str:
    """The shape as little squares (one of its orientations)."""
    cells = SHAPES[shape]
    rows, cols = 1 + max(r for r, _ in cells), 1 + max(c for _, c in cells)
    squares = "".join(
        f"<span class='{'on' if (r, c) in cells else 'off'}'></span>" for r in range(rows) for c in range(cols)
    )
    return (
        f"<div class='nyx-shape-preview' title='{html.escape(shape)}, turned or flipped as you like' "
        f"style='grid-template-columns:repeat({cols},11px)'>{squares}</div>"
    )


# -- the table ------------------------------------------------------------------------------------
def dice_html(dice: Sequence[int], size: int = 18) -> str:
    """Dice by colour and symbol (`engine.Dice`) as little dice."""
    return "".join(mini_die(SYMBOLS[k % 3], COLOURS[k // 3], size) for k, n in enumerate(dice) for _ in range(n))


def card_html(card: Card | None, slot: int) -> str:
    """A face-up card: its name, its shape (a dream) or symbols (a spell), its points."""
    if card is None:
        return f"<div class='nyx-card empty'><small>slot {slot + 1}</small><br>empty</div>"
    pts = f"{card.points} pt{'s' if card.points != 1 else ''}"
    if card.is_spell:
        what = "".join(mini_die(s, "black", 16) for s in card.symbols)
        when = "every night" if card.effect == "power" else "once"
        body = f"{what}<br><small>{pts} {when}</small>"
    else:
        sign = "−" if card.kind == "nightmare" else "+"
        kind = "nightmare: to each opponent" if card.kind == "nightmare" else "dream"
        body = f"{shape_preview(card.shape)} {html.escape(card.shape)}<br><small>{sign}{pts} {kind}</small>"
    return (
        f"<div class='nyx-card {card.kind}' title='{html.escape(str(card))}'><small>slot {slot + 1}</small><br>"
        f"<b>{html.escape(card.name)}</b><br>{body}</div>"
    )


def seat_html(s: State, p: int, who: str) -> str:
    """One player's side: points, dice, matrix (`matrix.draw`), this night's cards, active spells."""
    seat = s.seats[p]
    to_move = not s.is_terminal() and s.mover == p
    if seat.started:
        dice = dice_html(seat.free) or "no free dice"
        placed = seat.spent_black + seat.spent_white
        dice += f" <small>({placed} placed)</small>" if placed else ""
    else:
        dice = f"<small>{seat.black} black" + (f" + {seat.white} white" if seat.white else "") + " dice to roll</small>"
    bought = seat.pending_black + seat.pending_white
    night = ", ".join(html.escape(CARDS[c].name) for c in seat.night) or "nothing yet"
    active = ", ".join(html.escape(CARDS[c].name) for c in seat.active) or "none"
    gain, loss = seat.night_points()
    grid = "".join(
        f"<span class='{'on' if ch == '#' else 'off'}'></span>" for ch in matrix.draw(seat.matrix, "#") if ch != "\n"
    )
    return (
        f"<div class='nyx-seat{' to-move' if to_move else ''}' data-seat='{p + 1}' data-score='{seat.score}'>"
        f"<div><b>{html.escape(who.capitalize())}</b>: <b class='nyx-score'>{seat.score}</b> points"
        f"{' <span class=nyx-turn>to move</span>' if to_move else ''}</div>"
        "<div style='display:flex;gap:8px;align-items:flex-start'>"
        f"<div class='nyx-grid' title='matrix: {len(seat.matrix)} of 9 cells taken'>{grid}</div>"
        f"<div><div>{dice}</div><small>{seat.black} black, {seat.white} white dice"
        + (f", {bought} bought" if bought else "")
        + f"<br>this night: {night} (+{gain}"
        + (f", −{loss} to each opponent" if loss else "")
        + f")<br>active spells: {active}</small></div></div></div>"
    )


def table_html(s: State, who: Sequence[str]) -> str:
    """The table: the face-up dreams and spells, then every player's side (`who`: each seat's name)."""
    dreams = "".join(card_html(s.card_at(DREAM, i), i) for i in range(len(s.dreams)))
    spells = "".join(card_html(s.card_at(SPELL, i), i) for i in range(len(s.spells)))
    seats = "".join(seat_html(s, p, who[p]) for p in range(s.players))
    n = s.players
    return (
        f"<div class='nyx-table' data-turn='{s.turn}' data-scores='{','.join(map(str, s.scores))}'>"
        f"<div><small>Round {s.turn // n + 1}. Decks: {len(s.dream_deck)} dreams, {len(s.spell_deck)} spells"
        f"{' (a deck ran out: the game ends with this round)' if s.exhausted else ''}. Reserve: "
        f"{s.reserve_black} black, {s.reserve_white} white dice.</small></div>"
        f"<div class='nyx-row'><b>Dreams</b>{dreams}</div><div class='nyx-row'><b>Spells</b>{spells}</div>"
        f"<div class='nyx-seats'>{seats}</div></div>"
    )


def head_html() -> str:
    """The night's stylesheet, title and one line of what it is."""
    return (
        night_css() + "<h3 style='margin:4px 0'>A night against bots</h3><small style='color:#555'>"
        "You are player 1, against the odds and greedy bots. Each turn: reroll (or not), then one "
        "move; ending a night scores its dreams and spells.</small>"
    )


def prompt_html(s: State, game_number: int, best: game.Action | None, last: str) -> str:
    """Your move's prompt with the hint's move (`best`, a heuristic), or the `last` line of the
    log once the game is over (`data-game`: the games played on the page)."""
    if s.is_terminal() or best is None:
        return f"<div class='nyx-prompt nyx-over' data-game='{game_number}'><b>{last}</b></div>"
    what = "reroll or not" if s.phase == "choose" else "your move"
    return (
        f"<div class='nyx-prompt' data-game='{game_number}'><b>Your turn: {what}.</b> <small>Hint (a heuristic): "
        f"<span class='nyx-hint'>{s.describe(best)}</span>.</small></div>"
    )


Choice = tuple[str, str, game.Action]
"""A button for one of your moves: (group, label, action)."""


def _keep_rest(free: Sequence[int], i: int) -> tuple[int, ...]:
    return tuple(0 if k % 3 == i else n for k, n in enumerate(free))


def choices(s: State) -> list[Choice]:
    """A few of the mover's legal actions, grouped: before acting, no reroll, "keep <symbol>,
    reroll the rest" for each symbol held and reroll all; then the dreams best first (the card's
    worth, then the room the placement leaves, `matrix.best_placements`; at most `PER_DREAM` per
    dream and symbol, `MAX_DREAMS` in all), the spells, buying dice, passing and ending the night."""
    legal = s.legal_actions()
    seat = s.seats[s.mover]
    out: list[Choice] = []
    if s.phase == "choose":
        out.append(("dice", "No reroll: act with these dice", NO_REROLL))
        for i, symbol in enumerate(SYMBOLS):
            held = seat.free[i] + seat.free[3 + i]
            rest = _keep_rest(seat.free, i)
            if held and any(rest):
                out.append(("dice", f"Keep {words(symbol, held)}, reroll the rest", Reroll(rest)))
        out.append(("dice", f"Reroll all {seat.free_count} dice", Reroll(tuple(seat.free))))
        return [c for c in out if c[2] in legal]
    free = set(matrix.CELLS) - set(seat.matrix)
    dreams: list[tuple[tuple, Choice]] = []
    for slot, c in enumerate(s.dreams):
        if c is None:
            continue
        card = CARDS[c]
        ranked = matrix.best_placements(card.shape, free)
        for symbol in SYMBOLS:
            taken = 0
            for cells, room in ranked:
                action = Dream(slot, symbol, tuple(sorted(cells)))
                if taken >= PER_DREAM or action not in legal:
                    continue
                taken += 1
                label = (
                    f"{card.name} ({card.shape}, {'−' if card.kind == 'nightmare' else '+'}{card.points}) with "
                    f"{PLURAL[symbol]} on cells {','.join(map(str, action.cells))}"
                )
                dreams.append(((-s.card_value(card), -room, slot, SYMBOLS.index(symbol)), ("dreams", label, action)))
    out += [choice for _, choice in sorted(dreams, key=lambda pair: pair[0])[:MAX_DREAMS]]
    for a in legal:
        if isinstance(a, Spell):
            spell = s.card_at(SPELL, a.slot)
            assert spell is not None
            out.append(("spells and dice", f"{spell.name} ({' + '.join(spell.symbols)}, {spell.points} pt)", a))
    for a in legal:
        if isinstance(a, BuyBlack):
            out.append(("spells and dice", "Buy a black die (star + crescent + moon)", a))
        elif isinstance(a, BuyWhite):
            out.append(("spells and dice", "Buy a white die (a star)", a))
    if any(isinstance(a, Pass) for a in legal):
        out.append(("turn", "Pass (the night goes on)", Pass()))
    end = end_night(s)
    if end in legal:
        d = s.card_at(DREAM, end.dream) if end.dream is not None else None
        sp = s.card_at(SPELL, end.spell) if end.spell is not None else None
        gain, loss = seat.night_points()
        what = f"+{gain}" + (f", −{loss} to each opponent" if loss else "")
        gone = " and ".join(c.name for c in (d, sp) if c is not None)
        out.append(("turn", f"End the night ({what}; discard {gone or 'nothing'})", end))
    return out


def offered(s: State, best: game.Action | None) -> dict[str, list[Choice]]:
    """The moves shown as buttons by group (`choices`), the hint's move (`best`) added if it is
    not among them; none once the game is over (`best` None)."""
    if best is None:
        return {}
    shown = choices(s)
    if not any(a == best for *_, a in shown):
        shown.append(("hint", f"Hint's move: {s.describe(best)}", best))
    groups: dict[str, list[Choice]] = {}
    for choice in shown:
        groups.setdefault(choice[0], []).append(choice)
    return groups


def move_line(state: game.State, action: game.Action, names: Sequence[str]) -> str | None:
    """A log line for a move or a roll by the player to move in `state` (`names`: each seat's
    name, "you" or a player's; None for a card drawn)."""
    s = _nyx(state)
    if isinstance(action, Draw):
        return None
    who = names[s.mover]
    you = who == "you"
    if isinstance(action, Roll):
        return f"{who.capitalize()} roll{'' if you else 's'} {dice_text(action.dice)}."
    if isinstance(action, NoReroll):
        return f"{who.capitalize()} keep{'' if you else 's'} the dice."
    if isinstance(action, Reroll):
        return f"{who.capitalize()} reroll{'' if you else 's'} {dice_text(action.dice)}."
    if isinstance(action, EndNight):
        gain, loss = s.seats[s.mover].night_points()
        return f"{who.capitalize()}: {s.describe(action)} (+{gain}" + (
            f", −{loss} to each opponent)." if loss else ")."
        )
    return f"{who.capitalize()}: {s.describe(action)}."


def night_css() -> str:
    return (
        "<style>"
        ".nyx-night{margin-top:12px;border-top:1px solid rgba(128,128,128,.4);padding-top:6px;max-width:100%}"
        ".nyx-row{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:4px 0}"
        ".nyx-card{border:1px solid rgba(128,128,128,.5);border-radius:6px;padding:3px 6px;font-size:12px;"
        "min-width:96px;line-height:1.3}"
        ".nyx-card.nightmare{border-color:#b00020}.nyx-card.spell{border-color:#3d8fd6}.nyx-card.empty{opacity:.5}"
        ".nyx-seats{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0}"
        ".nyx-seat{border:1px solid rgba(128,128,128,.5);border-radius:6px;padding:4px 8px;font-size:13px;"
        "max-width:100%;box-sizing:border-box}"
        ".nyx-seat.to-move{border:2px solid #f58518}.nyx-turn{color:#f58518;font-weight:bold}"
        ".nyx-grid{display:grid;grid-template-columns:repeat(3,14px);gap:2px;margin:3px 0;flex:none}"
        ".nyx-grid span{width:14px;height:14px;border-radius:2px;border:1px solid rgba(128,128,128,.6)}"
        ".nyx-grid .on{background:#2b2b33}"
        ".nyx-moves .widget-button.nyx-move{width:auto;max-width:100%;height:auto;min-height:28px;"
        "white-space:normal;text-align:left;padding:2px 8px;margin:2px}"
        ".nyx-moves .nyx-group{display:flex;flex-wrap:wrap;align-items:center;max-width:100%}"
        ".nyx-log{max-height:220px;overflow-y:auto;font-size:12px;border:1px solid rgba(128,128,128,.3);"
        "padding:4px 6px;margin-top:4px}"
        ".nyx-log div:first-child{font-weight:bold}"
        "</style>"
    )
