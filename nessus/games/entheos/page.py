"""Entheos dashboard: be a god of the Trojan war against bots (you are player 1), with the exact
odds of every duel and each god's expected victory points beside you (`odds.Position`).

The game is a kit `Match` that also waits for your Roll (`War`), told by `State.tell`; `table`
draws the battlefield, the players and your prompt, `views` the charts, the hint and your moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as widgets

from nessus import game as protocol
from nessus.games.entheos import GAME, odds
from nessus.games.entheos import table as t
from nessus.games.entheos import views as v
from nessus.games.entheos.policies import PLAIN_NAMES
from nessus.games.entheos.policies import policies as bot_policies
from nessus.games.entheos.rules import BOT_NAMES, PLAYERS, Rules
from nessus.games.entheos.state import DICE, PLACE, State, action_text, initial_state
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML
from nessus.kit.hint import HintPanel, rollout_table
from nessus.kit.match import Match, log_html, seat_name, winners_text
from nessus.rollout import RolloutHint
from nessus.rules import seat_names

OPPONENTS = {**{words: key for key, words in PLAIN_NAMES.items()}, "one of each": ",".join(PLAIN_NAMES)}
"""The bots menu: its words, and the bots seated round the table (one kind, or each in turn)."""
SCOPES = (("next turn (the war)", "next"), ("to the end (each duel alone)", "alone"))
VIEWS = (("lead", "lead"), ("each hero's points", "points"))


@dataclass
class War(Match):
    """A kit `Match` that pauses where a turn's dice wait for your Roll (`rolled_for`: the turn whose
    dice you last asked to roll), told in the game's words (`State.tell`, `State.end_text`)."""

    rolled_for: int = -1

    def __post_init__(self) -> None:
        self.until, self.result = self.awaiting_roll, self.end_text

    @property
    def who(self) -> list[str]:
        """Every seat's name: "you", "player 2 (greedy)"."""
        return [seat_name(p, self.names) for p in range(len(self.names))]

    def awaiting_roll(self, s: protocol.State | None = None) -> bool:
        """A turn has begun whose dice you have not asked to roll yet."""
        s = self.state if s is None else s
        assert isinstance(s, State)
        return s.phase in (DICE, PLACE) and s.turn != self.rolled_for

    def check(self, action: protocol.Action) -> None:
        """The kit's checks, and the dice first; a move you cannot make is said in words."""
        if not self.over and self.awaiting_roll():
            raise ValueError("roll the dice first")
        if not self.over and (not self.your_move() or action not in self.state.legal_actions()):
            raise ValueError(f"you cannot {action_text(action)} now")
        super().check(action)

    def tell(self, state: protocol.State, action: protocol.Action) -> None:
        """Log a move before it is applied (`State.tell`)."""
        assert isinstance(state, State)
        self.lines += state.tell(action, self.who)

    def end_text(self, state: protocol.State) -> str:
        """The log's last line: the war's winner, the victory points, who won."""
        assert isinstance(state, State)
        return state.end_text(self.who, winners_text(state.returns(), self.names))


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
            options=list(OPPONENTS.items()),
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
        self.hint = HintPanel("each move's chance to win against these bots, by rollouts")
        self.rolled: RolloutHint | None = None
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
                widgets.HTML(t.table_css()),
                widgets.HBox([self.players.widget, self.opponents, self.new_button]),
                self.messages.widget,
                self.field,
                self.prompt,
                widgets.HBox([self.roll_button, self.hint_button, self.hint.toggle]),
                self.moves,
                self.hint.widget,
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
        """The game's state now."""
        assert isinstance(self.match.state, State)
        return self.match.state

    def new_game(self) -> None:
        """A new game (a bad number of players: a ValueError), played until its first roll."""
        rules = Rules(players=int(self.players.value()))
        bots = seat_names(self.opponents.value, rules.players - 1, BOT_NAMES)
        named, self.bots = bot_policies(rules), bots
        seats = {p + 1: named[b] for p, b in enumerate(bots)}
        names = [PLAIN_NAMES[b] for b in bots]
        self.match = War(initial_state(rules), seats, self.rng, ("you", *names))
        self.games += 1
        self.match.lines.append(f"New game, {self.state.turns} turns: you against {', '.join(names)}.")
        self.match.advance()
        self.draw()

    def roll(self) -> None:
        """Roll this turn's dice (chance, through the play loop); the bots place until it is your turn."""
        if self.match.over:
            raise ValueError("the game is over: press New game")
        if not self.match.awaiting_roll():
            raise ValueError("the dice are rolled already: play your card")
        self.match.rolled_for = self.state.turn
        self.match.advance()
        self.draw()

    def move(self, action: protocol.Action) -> None:
        """Your move, then chance's and the bots' until you decide again or the next dice are to roll."""
        self.match.move(action)
        self.draw()

    def hint_move(self) -> None:
        """The hint's move (or the roll, when the dice are to roll)."""
        if self.match.awaiting_roll():
            return self.roll()
        if not self.match.your_move():
            raise ValueError("the game is over: press New game")
        self.move(self.rollouts().best if self.hint.toggle.value else self.state.hint().best)

    def rollouts(self) -> RolloutHint:
        """The rollout hint at your move against the table's bots, remembered for this state."""
        if self.rolled is None or self.rolled.state is not self.state:
            rolled = self.state.hint("rollout", opponents=self.bots)
            assert isinstance(rolled, RolloutHint)
            self.rolled = rolled
        return self.rolled

    # -- drawing ----------------------------------------------------------------------------------
    def draw(self) -> None:
        """The whole page from the match, the messages cleared."""
        s, match = self.state, self.match
        self.messages.clear()
        rolling = match.awaiting_roll()
        self.roll_button.layout.display = None if rolling else "none"
        self.roll_button.description = "Roll the dice" if s.phase == DICE else "Go on (every die keeps its face)"
        self.hint_button.layout.display = None if match.your_move() and not rolling else "none"
        data = f"data-game='{self.games}' data-made='{match.made}' data-phase='{s.phase}' data-turn='{s.turn}'"
        self.moves.children = ()
        if match.over:
            self.prompt.value = f"<div class='ent-prompt ent-over' {data}><b>{match.lines[-1]}</b></div>"
            self.hint.show(None)
        elif rolling:
            self.prompt.value = f"<div class='ent-prompt' {data}>{t.roll_prompt(s)}</div>"
            self.hint.show(None, "The hint weighs your moves once the dice are rolled.")
        else:
            self.prompt.value = f"<div class='ent-prompt' {data}>{t.move_prompt(s)}</div>"
            self.moves.children = tuple(v.move_rows(s, s.hint(), self.guard(self.move)))
            self.hint.show(lambda: rollout_table(self.rollouts(), None, action_text, "victory points"))
        self.seats.value = t.seats_html(s, match.who)
        self.log.value = log_html(match.lines, "ent-log", keep=120)
        self.field.value = t.field_html(s, match.who)  # last: its data-phase and data-turn say the page is drawn
        self.draw_odds()

    # -- the odds ---------------------------------------------------------------------------------
    def draw_odds(self) -> None:
        """Where the odds start (once the dice are rolled, this turn resolved as they lie), each
        duel's exact odds and each god's expected victory points from there."""
        self.at = at = odds.start(self.state, rolled=not self.match.awaiting_roll())
        self.position.value = (
            f"<small class='ent-position' data-left='{at.left}' data-tag='{at.tag}' style='color:#555'>"
            f"Position ({at.tag}): from {at.words}.</small>"
        )
        self.draw_duels()
        mine = self.state.gods[t.HUMAN]
        figures = at.figures(mine)
        note, subtitle = v.gods_words(at)
        self.gods.show(v.gods_chart(odds.gods_frame(figures, mine), subtitle))
        self.war.value = v.war_html(figures, mine, odds.WARS if at.left else 0, note)

    def draw_duels(self) -> None:
        """Each duel's exact distribution (the next turn of the war, or the duel alone to the end)."""
        at, alone, view = self.at, self.scope.value == "alone", self.view_as.value
        duels = at.duel_odds(alone)
        self.duels.show(v.duel_chart(odds.duel_frame(at, duels, view), view, *v.duel_words(at, alone)))
        self.duel_figures.value = v.duel_table(at.names, duels)


def app(seed: int | None = None) -> widgets.Widget:
    """The Entheos dashboard as one widget."""
    return EntheosDashboard(seed).view
