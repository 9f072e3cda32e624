"""Entheos dashboard: be a god of the Trojan war against bots, with the exact odds of every duel
and each god's expected victory points beside you.

Left: the players (2 to 6: a bad number is a message and disables New game), the bots (in plain
words), the battlefield (the three duels, each hero's points and die), your move — Roll the dice,
then the card(s) to place face down, then at your reveal slot Reveal a placed card or Hold it,
each with its target chosen from the legal effects — the heuristic hint (`State.hint`), every
player's gods, hands and face-down cards (the others' hidden until the end), and the log.

Right: the exact odds from the position (`odds.start`): each duel's exact distribution after the
next turn or alone to the end, as the lead or as each hero's points, with its exact figures; each
god's expected victory points to the end without interventions (`odds.simulate`).

The game is a kit `Match` (`War`: it also waits for your Roll each turn); bots and chance play
through `nessus.play.play`; you are player 1. The pictures and words are pure functions in
`table` (the battlefield, the players), `chronicle` (the log, your prompt, the hint) and `views`
(the charts, your moves' buttons).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import ipywidgets as widgets

from nessus import game as protocol
from nessus.games.entheos import GAME, chronicle, odds
from nessus.games.entheos import table as t
from nessus.games.entheos import views as v
from nessus.games.entheos.policies import policies as bot_policies
from nessus.games.entheos.rules import PLAYERS, Rules
from nessus.games.entheos.state import DICE, PLACE, State, initial_state
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML
from nessus.kit.match import Match, log_html, seat_name, winners_text
from nessus.play import play

HUMAN = t.HUMAN
SCOPES = (("next turn (the war)", "next"), ("to the end (each duel alone)", "alone"))
VIEWS = (("lead", "lead"), ("each hero's points", "points"))


@dataclass
class War(Match):
    """The game on the page: a kit `Match` that also waits for you to roll each turn's dice
    (`rolled_for`: the turn whose dice you last asked to roll), tells a roll once all its dice
    are rolled and a turn's last reveal with its resolution (`chronicle`)."""

    rolled_for: int = -1
    rolling: dict[int, str] = field(default_factory=dict)

    @property
    def who(self) -> list[str]:
        """Every seat's name: "you", "player 2 (greedy)"."""
        return [seat_name(p, self.names) for p in range(len(self.names))]

    def awaiting_roll(self, s: protocol.State | None = None) -> bool:
        """A turn has begun whose dice you have not asked to roll yet."""
        s = self.state if s is None else s
        assert isinstance(s, State)
        return s.phase in (DICE, PLACE) and s.turn != self.rolled_for

    def roll(self) -> None:
        """Roll this turn's dice (chance, through the play loop); the bots place until it is your turn."""
        if self.over:
            raise ValueError("the game is over: press New game")
        if not self.awaiting_roll():
            raise ValueError("the dice are rolled already: play your card")
        assert isinstance(self.state, State)
        self.rolled_for = self.state.turn
        self.advance()

    def check(self, action: protocol.Action) -> None:
        """The kit's checks, and the dice first; a move you cannot make is said in words."""
        if not self.over and self.awaiting_roll():
            raise ValueError("roll the dice first")
        if not self.over and (not self.your_move() or action not in self.state.legal_actions()):
            raise ValueError(f"you cannot {chronicle.action_text(action)} now")
        super().check(action)

    def tell(self, state: protocol.State, action: protocol.Action) -> None:
        """Log a move before it is applied: a die joins the turn's roll (said once all are rolled),
        the last slot of a turn brings its resolution."""
        assert isinstance(state, State)
        if isinstance(action, str):
            self.rolling[state.to_roll[0]] = action
            if len(state.to_roll) == 1:
                self.lines.append(chronicle.dice_line(state, self.rolling))
                self.rolling = {}
            return
        self.lines += chronicle.move_lines(state, action, self.who)

    def advance(self) -> None:
        """Chance and the bots play until you decide, a turn's dice are to roll, or the game ends
        (the result in the log: the war's winner, the victory points, who won)."""
        self.state = play(self.state, dict(self.seats), self.rng, on_move=self.tell, until=self.awaiting_roll)
        if isinstance(self.state, State) and self.over:
            winners = winners_text(self.state.returns(), self.names)
            self.lines.append(chronicle.result_text(self.state, self.who, winners))


class EntheosDashboard(Dashboard):
    """The widgets of the Entheos page and the game they play (you are seat 1)."""

    game = GAME
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
            options=list(chronicle.OPPONENTS),
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

        self.games = 0
        self.page(
            [
                widgets.HTML(t.table_css() + v.moves_css()),
                widgets.HBox([self.players.widget, self.opponents, self.new_button]),
                self.messages.widget,
                self.field,
                self.prompt,
                widgets.HBox([self.roll_button, self.hint_button]),
                self.moves,
                self.hint,
                self.seats,
                widgets.HTML(t.legend_html()),
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
    def state(self) -> State:
        assert isinstance(self.match.state, State)
        return self.match.state

    @property
    def bots(self) -> Sequence[str]:
        """Each seat's player in words: "you", then the bots."""
        return self.match.names

    def new_game(self) -> None:
        """A new game with the players asked for (a bad number: a ValueError): the setup is drawn
        and the bots play until the first turn's dice are to roll."""
        rules = Rules(players=int(self.players.value()))
        bots = chronicle.seat_bots(self.opponents.value, rules.players)
        named = bot_policies(rules)
        seats = {p: named[b] for p, b in enumerate(bots) if p != HUMAN}
        self.match = War(initial_state(rules), seats, self.rng, chronicle.bot_names(bots))
        self.games += 1
        self.match.lines.append(f"New game, {self.state.turns} turns: you against {', '.join(self.bots[1:])}.")
        self.messages.clear()
        self.match.advance()
        self.draw()

    def roll(self) -> None:
        """Roll this turn's dice; the bots place until it is your turn."""
        self.match.roll()
        self.messages.clear()
        self.draw()

    def move(self, action: protocol.Action) -> None:
        """Your move, then chance's and the bots' until you decide again or the next dice are to roll."""
        self.match.move(action)
        self.messages.clear()
        self.draw()

    def hint_move(self) -> None:
        """The hint's move (or the roll, when the dice are to roll)."""
        if self.match.awaiting_roll():
            return self.roll()
        if not self.match.your_move():
            raise ValueError("the game is over: press New game")
        self.move(self.state.hint().best)

    # -- drawing ----------------------------------------------------------------------------------
    def draw(self) -> None:
        s, match = self.state, self.match
        rolling = match.awaiting_roll()
        self.roll_button.layout.display = None if rolling else "none"
        self.roll_button.description = "Roll the dice" if s.phase == DICE else "Go on (every die keeps its face)"
        self.hint_button.layout.display = None if match.your_move() and not rolling else "none"
        data = f"data-game='{self.games}' data-made='{match.made}' data-phase='{s.phase}' data-turn='{s.turn}'"
        self.moves.children = ()
        if match.over:
            self.prompt.value = f"<div class='ent-prompt ent-over' {data}><b>{match.lines[-1]}</b></div>"
            self.hint.value = ""
        elif rolling:
            self.prompt.value = f"<div class='ent-prompt' {data}>{chronicle.roll_prompt(s)}</div>"
            self.hint.value = "<small style='color:#666'>The hint weighs your cards once the dice are rolled.</small>"
        else:
            self.prompt.value = f"<div class='ent-prompt' {data}>{chronicle.move_prompt(s)}</div>"
            hint = s.hint()
            self.moves.children = tuple(v.move_rows(s, hint, self.guard(self.move)))
            self.hint.value = chronicle.hint_html(hint)
        self.seats.value = t.seats_html(s, match.who)
        self.log.value = log_html(match.lines, "ent-log", keep=120)
        self.field.value = t.field_html(s, match.who)  # last: its data-phase and data-turn say the page is drawn
        self.draw_odds()

    # -- the odds ---------------------------------------------------------------------------------
    def draw_odds(self) -> None:
        at = odds.start(self.state, rolled=not self.match.awaiting_roll())
        self.position.value = (
            f"<small class='ent-position' data-left='{at.left}' data-tag='{at.tag}' style='color:#555'>"
            f"Position ({at.tag}): from {at.words}.</small>"
        )
        self.draw_duels(at)
        self.draw_gods(at)

    def draw_duels(self, at: odds.Position | None = None) -> None:
        """Each duel's exact distribution (the next turn of the war, or the duel alone to the end)."""
        at = at or odds.start(self.state, rolled=not self.match.awaiting_roll())
        names = [t.duel_name(self.state, i) for i in range(3)]
        dists, title, subtitle = v.duel_dists(at, self.scope.value)
        frame = odds.duel_frame(names, dists, self.view_as.value, at.duels)
        self.duels.show(v.duel_chart(frame, self.view_as.value, title, subtitle))
        self.duel_figures.value = v.duel_table(names, dists)

    def draw_gods(self, at: odds.Position) -> None:
        """Each god's expected victory points to the end, simulated from the position (no interventions)."""
        s = self.state
        mine = tuple(s.gods[HUMAN]) if s.gods else ()
        estimates: Mapping[str, odds.WarFigure]
        if at.left:
            estimates = odds.simulate(at.left, at.points, at.places, mine)
        else:
            estimates = odds.final_figures(at.points, mine)
        note, subtitle = chronicle.gods_words(at)
        frame = odds.gods_frame(estimates, mine)
        self.gods.show(v.gods_chart(frame, "Each god's expected victory points", subtitle))
        self.war.value = v.war_html(estimates, mine, odds.WARS if at.left else 0, note)


def app(seed: int | None = None) -> widgets.Widget:
    """The Entheos dashboard as one widget."""
    return EntheosDashboard(seed).view


__all__: Sequence[str] = ("EntheosDashboard", "app")
