"""Entheos dashboard: be a god of the Trojan war against bots, with the exact odds of every duel
and each god's expected victory points beside you.

Left: the players (2 to 6: a bad number is a message and disables New game), the opponents
(greedy by default; the bots of `nessus.games.entheos.bots`), the battlefield (the three duels
as rows, Achaean | Trojan: each hero's name, combat points and die as a coloured chip with its
action, this turn's locks, reserves and kept faces, your gods' weights on their favourites), your
move — Roll the dice (chance drawn by the play loop), then the card(s) to place face down, then
at your reveal slot Reveal a placed card or Hold it (and reveal your oldest face-down card), each
with its target chosen from the legal effects — the heuristic hint (`State.hint`: the best move
and the best few values), every player's gods (yours; the others' face down until the end),
hands and face-down cards (the others' by count only), and the log (the bots' moves, the dice,
each resolution; the war's winner and the victory points at the end).

Right: the exact odds from the position (the heroes' points before this turn's dice; once they
are rolled, this turn resolved as they lie with the cards revealed so far): each duel's exact
distribution after the next turn (`war.next_turn`: the marginals of the war's 6**6 rolls) or to
the end, each duel alone (`duel.duel`), as the lead or as each hero's points, with a table of
its exact figures; and each god's expected victory points to the end simulated by `war.kernel`
(`WARS` wars, no interventions, 95% intervals), with the war's odds and your expected points.

Bots and chance play through `nessus.play.play` (one play loop); you are player 1. The pictures
are pure functions in `nessus.apps.entheos_views`.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

import ipywidgets as widgets
import numpy as np

from nessus import game, montecarlo
from nessus.apps import entheos_views as v
from nessus.dist import Dist
from nessus.games.entheos import war
from nessus.games.entheos.duel import duel
from nessus.games.entheos.heroes import GODS, HERO_NAMES
from nessus.games.entheos.policies import policies as bot_policies
from nessus.games.entheos.rules import PLAYERS, Rules
from nessus.games.entheos.state import DICE, OVER, PLACE, REVEAL, Hold, Reveal, State, card_text, initial_state
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML
from nessus.numbers import number_text
from nessus.play import play

HUMAN = v.HUMAN
WARS = 20_000
"""Wars simulated for each god's expected victory points (about 0.05 s)."""
SCOPES = (("next turn (the war)", "next"), ("to the end (each duel alone)", "alone"))
VIEWS = (("lead", "lead"), ("each hero's points", "points"))


@lru_cache(maxsize=256)
def next_turn(points: tuple[int, ...], places: tuple[int, ...]) -> tuple[Dist, ...]:
    """`war.next_turn`, remembered (a class asks for the same positions)."""
    return tuple(war.next_turn(points, places))


def war_kernel(
    turns: int,
    points: tuple[int, ...],
    places: tuple[int, ...],
    mine: tuple[int, ...],
    rng: np.random.Generator,
    n: int,
) -> dict[str, np.ndarray]:
    """`war.kernel` from the position, plus your victory points (`you_vp`: your gods' sum)."""
    out = war.kernel(turns, rng, n, points=points, places=places)
    out["you_vp"] = sum((out[f"god_{GODS[g].name.lower()}_ev"] for g in mine), np.zeros(n, dtype=np.int64))
    return out


@lru_cache(maxsize=128)
def simulate(
    turns: int, points: tuple[int, ...], places: tuple[int, ...], mine: tuple[int, ...]
) -> dict[str, montecarlo.Estimate]:
    """`WARS` wars from the position (a seed of its own: the same position, the same figures)."""
    seed = zlib.crc32(repr((turns, points, places, mine)).encode())
    return montecarlo.run(partial(war_kernel, turns, points, places, mine), WARS, seed).estimates


@dataclass(frozen=True)
class Position:
    """Where the odds start: the heroes' `points` and `places`, the turns `left`, in `words`, and
    a short `tag` ("turn 2 of 8, before the dice")."""

    points: tuple[int, ...]
    places: tuple[int, ...]
    left: int
    words: str
    tag: str


class EntheosDashboard(Dashboard):
    """The widgets of the Entheos page and the game they play (you are seat 1)."""

    notebook, title = "entheos.ipynb", "Entheos"
    sentence = (
        "Six heroes fight three duels of the Trojan war: each turn their dice are rolled (steal 1 or 3 points from "
        "the hero facing them, rally their side, guard, rest or falter), then the gods — the players — play action "
        "cards face down and reveal them in turn to lock heroes, change dice or swap places. After the last turn the "
        "side with more points wins the war, and each god of that side scores its favourites' points. You are "
        "player 1 against bots. Beside (below on a phone): each duel's exact odds and each god's expected points."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.players = self.param_field(PLAYERS, width="150px")
        self.players.widget.add_class("entheos-players")
        self.opponents = widgets.Dropdown(
            options=list(v.OPPONENTS),
            value="greedy",
            description="bots",
            layout=widgets.Layout(width="250px"),
            style={"description_width": "40px"},
        )
        self.opponents.add_class("entheos-opponents")
        self.new_button = widgets.Button(description="New game", icon="refresh", button_style="primary")
        self.new_button.add_class("entheos-new-game")
        self.actions = [self.new_button]
        self.roll_button = widgets.Button(description="Roll the dice", button_style="primary", icon="refresh")
        self.roll_button.add_class("roll-button")
        self.roll_button.add_class("entheos-roll")
        self.hint_button = widgets.Button(description="Play the hint's move", icon="lightbulb-o")
        self.hint_button.add_class("entheos-hint-move")
        self.field, self.prompt, self.seats, self.log = widgets.HTML(), widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.hint = TableHTML(name="entheos-hint")
        self.moves = widgets.VBox()
        self.moves.add_class("ent-moves")

        self.scope = widgets.ToggleButtons(options=SCOPES, value="next", style={"button_width": "auto"})
        self.scope.add_class("entheos-scope")
        self.view_as = widgets.ToggleButtons(options=VIEWS, value="lead", style={"button_width": "auto"})
        self.view_as.add_class("entheos-view")
        self.position = widgets.HTML()
        self.duels = self.chart_pane("330px", "duels")
        self.duel_figures = TableHTML(name="entheos-duels")
        self.gods = self.chart_pane("230px", "gods")
        self.war = TableHTML(name="entheos-war")

        guard = self.guard
        self.players.widget.observe(self.rules_guard(lambda _: self.new_game()), names="value")
        self.opponents.observe(guard(lambda _: self.new_game()), names="value")
        self.new_button.on_click(guard(lambda _: self.new_game()))
        self.roll_button.on_click(guard(lambda _: self.roll()))
        self.hint_button.on_click(guard(lambda _: self.hint_move()))
        self.scope.observe(guard(lambda _: self.draw_duels()), names="value")
        self.view_as.observe(guard(lambda _: self.draw_duels()), names="value")

        self.lines: list[str] = []
        self.games = 0
        self.made = 0  # your moves so far (data-made, for tests to wait on)
        self.rolled_for = -1  # the turn whose dice you last asked to roll
        self.rolling: dict[int, str] = {}
        self.page(
            [
                widgets.HTML(v.page_css()),
                widgets.HBox([self.players.widget, self.opponents, self.new_button]),
                self.messages.widget,
                self.field,
                self.prompt,
                widgets.HBox([self.roll_button, self.hint_button]),
                self.moves,
                self.hint,
                self.seats,
                widgets.HTML(v.legend_html()),
                self.log,
            ],
            [
                widgets.HTML("<h4 style='margin:4px 0'>The exact odds of each duel</h4>"),
                self.scope,
                self.view_as,
                self.position,
                self.duels.widget,
                self.duel_figures,
                widgets.HTML("<h4 style='margin:8px 0 2px'>Each god's expected victory points</h4>"),
                self.gods.widget,
                self.war,
            ],
            left_width="470px",
        )
        self.new_game()

    # -- the game ---------------------------------------------------------------------------------
    @property
    def bots(self) -> tuple[str, ...]:
        return v.seat_bots(self.opponents.value, self.state.players)

    def new_game(self) -> None:
        """A new game with the players asked for (a bad number: a ValueError): the setup is drawn
        and the bots play until the first turn's dice are to roll."""
        players = int(self.players.value())
        self.state = initial_state(Rules(players=players))
        self.games += 1
        self.rolled_for = -1
        self.rolling = {}
        self.lines = [f"New game, {self.state.turns} turns: you against {', '.join(self.bots[1:])}."]
        self.messages.clear()
        self.play_on()
        self.draw()

    def awaiting_roll(self, s: game.State) -> bool:
        """A turn has begun whose dice you have not asked to roll yet."""
        assert isinstance(s, State)
        return s.phase in (DICE, PLACE) and s.turn != self.rolled_for

    def play_on(self) -> None:
        """Chance and the bots play (`nessus.play.play`) until you must decide, a turn's dice are
        to roll, or the game ends."""
        named = bot_policies(self.state.rules)
        seats = {p: named[b] for p, b in enumerate(self.bots) if p != HUMAN}
        end = play(self.state, seats, self.rng, on_move=self.told, until=self.awaiting_roll)
        assert isinstance(end, State)
        self.state = end
        if end.is_terminal():
            self.lines.append(v.result_text(end, self.bots))

    def told(self, s: game.State, action: game.Action) -> None:
        """Log a move before it is applied: a die joins the turn's roll (said once all are rolled),
        the last slot of a turn brings its resolution."""
        assert isinstance(s, State)
        bots = self.bots
        if isinstance(action, str):
            self.rolling[s.to_roll[0]] = action
            if len(s.to_roll) == 1:
                self.lines.append(v.dice_line(s, self.rolling))
                self.rolling = {}
            return
        line = v.move_line(s, action, bots)
        if line:
            self.lines.append(line)
        if s.phase == REVEAL and s.step == len(s.slots) - 1:
            after = s.apply(action)
            assert isinstance(after, State)
            self.lines.append(v.resolution_line(s, after, bots))
            back = v.recovery_line(s, after, bots)
            if back:
                self.lines.append(back)

    def mine(self) -> bool:
        """Whether you are to decide now (place, or reveal / hold)."""
        s = self.state
        return not s.is_terminal() and s.current_player() == HUMAN

    def roll(self) -> None:
        """Roll this turn's dice (chance, through the play loop); the bots place until it is your turn."""
        s = self.state
        if s.is_terminal():
            raise ValueError("the game is over: press New game")
        if not self.awaiting_roll(s):
            raise ValueError("the dice are rolled already: play your card")
        self.rolled_for = s.turn
        self.messages.clear()
        self.play_on()
        self.draw()

    def move(self, action: game.Action) -> None:
        """Your move, then chance's and the bots' until you decide again or the next dice are to roll."""
        s = self.state
        if s.is_terminal():
            raise ValueError("the game is over: press New game")
        if self.awaiting_roll(s):
            raise ValueError("roll the dice first")
        if s.current_player() != HUMAN or action not in s.legal_actions():
            raise ValueError(f"you cannot {v.action_text(action)} now")
        self.told(s, action)
        after = s.apply(action)
        assert isinstance(after, State)
        self.state = after
        self.made += 1
        self.messages.clear()
        self.play_on()
        self.draw()

    def hint_move(self) -> None:
        """The hint's move (or the roll, when the dice are to roll)."""
        if not self.state.is_terminal() and self.awaiting_roll(self.state):
            return self.roll()
        if not self.mine():
            raise ValueError("the game is over: press New game")
        self.move(self.state.hint().best)

    # -- drawing ----------------------------------------------------------------------------------
    def draw(self) -> None:
        s = self.state
        bots = self.bots
        over = s.is_terminal()
        rolling = not over and self.awaiting_roll(s)
        self.roll_button.layout.display = None if rolling else "none"
        self.roll_button.description = "Roll the dice" if s.phase == DICE else "Go on (every die keeps its face)"
        self.hint_button.layout.display = None if self.mine() and not rolling else "none"
        data = f"data-game='{self.games}' data-made='{self.made}' data-phase='{s.phase}' data-turn='{s.turn}'"
        if over:
            self.prompt.value = f"<div class='ent-prompt ent-over' {data}><b>{v.result_text(s, bots)}</b></div>"
            self.moves.children = ()
            self.hint.value = ""
        elif rolling:
            if s.phase == PLACE:
                kept = " <small>(every die keeps its face: nothing to roll)</small>"
            elif s.kept:
                one = len(s.kept) == 1
                names = ", ".join(HERO_NAMES[h] for h in s.kept)
                kept = f" <small>({names} keep{'s its face' if one else ' their faces'}: not rolled)</small>"
            else:
                kept = ""
            self.prompt.value = (
                f"<div class='ent-prompt' {data}><b>Turn {s.turn + 1} of {s.turns}: roll the dice.</b>{kept}</div>"
            )
            self.moves.children = ()
            self.hint.value = "<small style='color:#666'>The hint weighs your cards once the dice are rolled.</small>"
        else:
            self.draw_moves(data)
        self.seats.value = v.seats_html(s, bots)
        self.log.value = v.log_html(self.lines)
        self.field.value = v.field_html(s, bots)  # last: its data-phase and data-turn say the page is drawn
        self.draw_odds()

    def draw_moves(self, data: str) -> None:
        """Your choices: the card(s) to place, or your slot's reveals and holds grouped by card."""
        s = self.state
        hint = s.hint()
        values = hint.values
        if s.phase == PLACE:
            k = s.per_turn
            what = "the card" if k == 1 else "the two cards"
            text = (
                f"<b>Turn {s.turn + 1}: choose {what} to place face down.</b> <small>The others choose theirs at the "
                "same time, unseen; then each reveals in turn.</small>"
            )
        else:
            older = s.older(HUMAN)
            text = (
                f"<b>Your reveal slot ({s.step + 1} of {len(s.slots)}):</b> <small>reveal a card you placed and apply "
                "it now, or hold it face down"
                + (f" and reveal your older {card_text(older)} instead" if older is not None else "")
                + ".</small>"
            )
        self.prompt.value = f"<div class='ent-prompt' {data}>{text}</div>"
        groups: dict[tuple[str, int], list[game.Action]] = {}
        for a in s.legal_actions():
            key = (
                ("hold", a.card)
                if isinstance(a, Hold)
                else ("reveal", a.card)
                if isinstance(a, Reveal)
                else ("place", 0)
            )
            groups.setdefault(key, []).append(a)
        rows = []
        for (kind, card), actions in groups.items():
            if kind == "place":
                buttons = [
                    self.move_button(a, v.action_text(a).removesuffix(" face down"), a == hint.best) for a in actions
                ]
                head = widgets.HTML("<small><b>place face down</b></small>")
                rows.append(self.group(head, buttons))
                continue
            if len(actions) == 1:
                rows.append(
                    self.group(None, [self.move_button(actions[0], v.action_text(actions[0]), actions[0] == hint.best)])
                )
                continue
            best = max(actions, key=lambda a: values[a])
            options = [
                (f"{v.effect_words(str(self.effect(a)))} · hint {number_text(values[a], kind='value')}", i)
                for i, a in enumerate(actions)
            ]
            pick = widgets.Dropdown(options=options, value=actions.index(best))
            pick.add_class(f"entheos-target-{kind}-{card}")
            first = actions[0]
            older = first.older if isinstance(first, Hold) else None
            label = (
                f"Reveal {card_text(card)}"
                if older is None
                else f"Hold {card_text(card)}, reveal older {card_text(older)}"
            )
            button = widgets.Button(description=label, tooltip=f"{label}, with the effect chosen beside")
            button.add_class("entheos-move")
            button.add_class(f"move-{kind}")
            if hint.best in actions:
                button.button_style = "info"
            button.on_click(self.guard(lambda _, acts=actions, pick=pick: self.move(acts[pick.value])))
            rows.append(self.group(None, [button, pick]))
        self.moves.children = tuple(rows)
        self.hint.value = v.hint_html(hint)

    @staticmethod
    def effect(action: game.Action) -> object:
        assert isinstance(action, (Reveal, Hold))
        return action.effect

    def move_button(self, action: game.Action, label: str, best: bool) -> widgets.Button:
        b = widgets.Button(description=label, tooltip=v.action_text(action))
        b.add_class("entheos-move")
        b.add_class(f"move-{type(action).__name__.lower()}")
        if best:
            b.button_style = "info"
        b.on_click(self.guard(lambda _, a=action: self.move(a)))
        return b

    @staticmethod
    def group(head: widgets.Widget | None, items: Sequence[widgets.Widget]) -> widgets.HBox:
        box = widgets.HBox([*([head] if head is not None else []), *items])
        box.add_class("ent-group")
        return box

    # -- the odds ---------------------------------------------------------------------------------
    def position_now(self) -> Position:
        """Where the odds start: the heroes' points before this turn's dice; once they are rolled,
        this turn resolved as they lie (the cards revealed so far, no more)."""
        s = self.state
        left = s.turns - s.turn
        turn = f"turn {s.turn + 1} of {s.turns}"
        if s.phase == OVER:
            return Position(s.points, s.places, 0, "the war is over: the final points", "the war is over")
        if self.awaiting_roll(s):
            words = f"the heroes' points now, {left} turn{'s' if left != 1 else ''} to go"
            return Position(s.points, s.places, left, words, f"{turn}, before the dice")
        words = (
            f"this turn resolved as the dice lie (cards revealed so far, no more), then {left - 1} "
            f"turn{'s' if left != 2 else ''}"
        )
        return Position(s.resolution(), s.places, left - 1, words, f"{turn}, as the dice lie")

    def draw_odds(self) -> None:
        at = self.position_now()
        self.position.value = (
            f"<small class='ent-position' data-left='{at.left}' data-tag='{at.tag}' style='color:#555'>"
            f"Position ({at.tag}): from {at.words}.</small>"
        )
        self.draw_duels(at)
        self.draw_gods(at)

    def draw_duels(self, at: Position | None = None) -> None:
        """Each duel's exact distribution (the next turn of the war, or the duel alone to the end)."""
        s = self.state
        at = at or self.position_now()
        points, places, left = at.points, at.places, at.left
        names = [v.duel_name(s, i) for i in range(3)]
        pairs = [(points[places[i]], points[places[i + 3]]) for i in range(3)]
        if self.scope.value == "next" and left:
            dists: Sequence[Dist] = next_turn(points, places)
            title = "Each duel after the next turn (exact)"
            subtitle = [
                "the war's 6^6 rolls, no cards: rallies and guards",
                "act across a side (each duel's marginal);",
                f"dashed: the position ({at.tag})",
            ]
        elif self.scope.value == "alone" and left:
            dists = [duel(left, start=pair).dist for pair in pairs]
            title = f"Each duel alone to the end, {left} turn{'s' if left != 1 else ''} (exact)"
            subtitle = [
                "the duel isolated (Ulysses' faces): a rally lifts only",
                "its own hero, a guard weakens only the opponent's steal;",
                f"dashed: the position ({at.tag})",
            ]
        else:
            dists = [Dist({pair: 1}) for pair in pairs]
            title = "No turn left: the duels as they end"
            subtitle = [at.tag]
        view = self.view_as.value
        frame = v.duel_frame(names, dists, view, pairs)
        self.duels.show(v.duel_chart(frame, view, title, subtitle))
        self.duel_figures.value = v.duel_table(names, dists)

    def draw_gods(self, at: Position) -> None:
        """Each god's expected victory points to the end, simulated from the position (no interventions)."""
        s = self.state
        mine = tuple(s.gods[HUMAN]) if s.gods else ()
        estimates: Mapping[str, v.Figure]
        if at.left:
            estimates = simulate(at.left, at.points, at.places, mine)
            note = f"simulated: {WARS:,} wars, no interventions, from {at.words}; 95% intervals"
            subtitle = [
                f"simulated, {WARS:,} wars, no interventions,",
                f"from {at.tag}: {at.left} turn{'s' if at.left != 1 else ''} to go;",
                "95% intervals; yours outlined",
            ]
        else:
            estimates = v.final_figures(at.points, mine)
            over = at.tag == "the war is over"
            note = ("the war is over" if over else "no turn left after this one, as the dice lie") + (
                ": each god's victory points, exactly"
            )
            subtitle = [
                "the war is over: the final victory points" if over else "no turn left: the points as the dice lie",
                "(exact; 0 for a god of the losing side)",
            ]
        self.gods.show(v.gods_chart(v.gods_frame(estimates, mine), "Each god's expected victory points", subtitle))
        self.war.value = v.war_html(estimates, mine, WARS if at.left else 0, note)


def app(seed: int | None = None) -> widgets.Widget:
    """The Entheos dashboard as one widget."""
    return EntheosDashboard(seed).view


__all__: Sequence[str] = ("EntheosDashboard", "app")
