"""Nessos dashboard: play a game of the bluffing card game against bots, with the exact Bayes
posterior of every card offered to you beside you.

Left: the table (every player's points, Charon and cards face up; your hand face up, the others'
as backs with their counts), the cards offered this round (face down, with their announcements),
your move — Offer (a card of your hand, a receiver, the value announced) when you hold the
first-player token, Accept / Refuse / Pass (the card added, the receiver, its announcement) when
a card is offered to you — and the log. Right: the live panel for an offer you receive (the
posterior that each offered card is Charon, `State.posterior`; the Bayes table of the last one,
`odds.bayes_table`; the expected points of accept / refuse / pass, `State.hint`)
under the sender model you choose (naive, or bluffer with q), the posterior against q, and a
tournament of 200 games ("Watch 200 games": a Bayes bot with your sender model in your seat).

The bots play through `nessus.play.play` (a `kit.match.Match`); you are player 1. The table is
drawn in `nessos.table` (strings), the panel and the charts in `nessos.views`; a move is told by
`State.describe`.
"""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as widgets

from nessus.game import Action, Policy
from nessus.games.nessos import GAME
from nessus.games.nessos import views as v
from nessus.games.nessos.odds import MODELS, Sender
from nessus.games.nessos.policies import bayes, policies
from nessus.games.nessos.rules import BLUFF, BOT_NAMES, PLAYERS, Rules
from nessus.games.nessos.state import ACCEPT, REFUSE, Offer, Pass, State, initial_state
from nessus.games.nessos.table import CARD_CSS, HUMAN, card_name, chain_html, prompt_html, table_html
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML
from nessus.kit.match import Match, log_html, seat_name, winners_text
from nessus.play import tournament
from nessus.rules import seat_names

GAMES = 200
"""Games a "Watch" click plays."""
OPPONENTS = {"naive": "naive", "bluffer": "bluffer", "bayes": "bayes", "one of each": "naive,bluffer,bayes"}
"""The opponents you can choose: the bots seated round the table (one kind, or three in turn)."""


class NessosDashboard(Dashboard):
    """The widgets of the Nessos page and the game they play (you are seat 1)."""

    game = GAME
    sentence = (
        "Offer a card face down and announce its value — the truth for a creature, any value for Charon. The "
        "receiver accepts it, refuses it (it goes to the sender) or adds a card and passes them on. Creatures "
        "score their value; three Charon in front of you and you are out. You are player 1 against bots. Beside "
        "(below on a phone): the exact chance that a card offered to you is Charon, by Bayes from what you see."
    )

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        small = {"description_width": "70px"}
        self.players = widgets.Dropdown(
            options=list(range(int(PLAYERS.lo), int(PLAYERS.hi) + 1)),
            value=4,
            description="players",
            layout=widgets.Layout(width="150px"),
            style=small,
        )
        self.opponents = widgets.Dropdown(
            options=list(OPPONENTS.items()),
            value=OPPONENTS["one of each"],
            description="opponents",
            layout=widgets.Layout(width="210px"),
            style=small,
        )
        self.opponents.add_class("nessos-opponents")
        self.new_button = widgets.Button(description="New game", icon="refresh")
        self.new_button.add_class("new-button")

        self.card = widgets.Dropdown(
            description="card", layout=widgets.Layout(width="140px"), style={"description_width": "40px"}
        )
        self.card.add_class("nessos-card-choice")
        self.to = widgets.Dropdown(
            description="to", layout=widgets.Layout(width="140px"), style={"description_width": "25px"}
        )
        self.to.add_class("nessos-to")
        self.announce = widgets.Dropdown(
            description="announce", layout=widgets.Layout(width="150px"), style={"description_width": "65px"}
        )
        self.announce.add_class("nessos-announce")
        self.offer_button = widgets.Button(description="Offer", button_style="primary", icon="share")
        self.offer_button.add_class("offer-button")
        self.accept_button = widgets.Button(description="Accept", button_style="success", icon="check")
        self.accept_button.add_class("accept-button")
        self.refuse_button = widgets.Button(description="Refuse", button_style="danger", icon="times")
        self.refuse_button.add_class("refuse-button")
        self.pass_button = widgets.Button(description="Add and pass", button_style="warning", icon="share")
        self.pass_button.add_class("pass-button")

        self.model = widgets.ToggleButtons(
            options=list(MODELS),
            value="bluffer",
            description="sender",
            style={"button_width": "80px", "description_width": "50px"},
        )
        self.model.add_class("nessos-model")
        self.bluff = self.param_field(BLUFF, width="170px")
        self.bluff.widget.description = "bluff q"
        self.bluff.widget.add_class("nessos-bluff")
        self.q = Fraction(BLUFF.default)
        self.watch_button = widgets.Button(description=f"Watch {GAMES} games", icon="play")
        self.watch_button.add_class("roll-button")
        self.watch_button.add_class("watch-button")
        self.actions = [self.watch_button]  # what the sender model feeds (besides the panel and chart)

        self.table, self.chain, self.prompt, self.log = widgets.HTML(), widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.panel = TableHTML(name="nessos-bayes")
        self.chart = self.chart_pane("300px", "posterior")
        self.games_chart = self.chart_pane("0px", "tournament")
        self.games_note = widgets.HTML()
        self._quiet = False

        guard = self.guard
        self.new_button.on_click(guard(lambda _: self.new_game()))
        self.players.observe(guard(lambda _: self.new_game()), names="value")
        self.opponents.observe(guard(lambda _: self.new_game()), names="value")
        self.card.observe(guard(lambda _: None if self._quiet else self.fill_announce()), names="value")
        self.announce.observe(guard(lambda _: None if self._quiet else self.draw_analysis()), names="value")
        self.offer_button.on_click(guard(lambda _: self.move(self.chosen(Offer))))
        self.pass_button.on_click(guard(lambda _: self.move(self.chosen(Pass))))
        self.accept_button.on_click(guard(lambda _: self.move(ACCEPT)))
        self.refuse_button.on_click(guard(lambda _: self.move(REFUSE)))
        self.model.observe(self.rules_guard(lambda _: self.new_model()), names="value")
        self.bluff.widget.observe(self.rules_guard(lambda _: self.new_model()), names="value")
        self.watch_button.on_click(guard(lambda _: self.watch()))

        self.choice_box = widgets.HBox([self.card, self.to, self.announce])
        self.answer_box = widgets.HBox([self.accept_button, self.refuse_button])
        self.page(
            [
                widgets.HTML(CARD_CSS),
                self.table,
                self.chain,
                self.prompt,
                self.answer_box,
                self.choice_box,
                widgets.HBox([self.offer_button, self.pass_button]),
                self.log,
                widgets.HBox([self.players, self.opponents, self.new_button]),
            ],
            [
                widgets.HBox([self.model, self.bluff.widget]),
                self.messages.widget,
                self.panel,
                self.chart.widget,
                widgets.HBox([self.watch_button, self.games_note]),
                self.games_chart.widget,
            ],
            left_width="470px",
        )
        self.new_game()

    # -- the game -----------------------------------------------------------------------------
    @property
    def bots(self) -> tuple[str, ...]:
        """The bot in each seat ("you" in seat 1)."""
        return ("you", *seat_names(self.opponents.value, self.players.value - 1, BOT_NAMES))

    @property
    def state(self) -> State:
        state = self.match.state
        assert isinstance(state, State)
        return state

    def new_game(self) -> None:
        """A new game: a fresh deal, you hold the first-player token; the bots play (a `Match`)
        until you must decide."""
        bots, named = self.bots, policies()
        seats = {p: named[b] for p, b in enumerate(bots) if p != HUMAN}
        self.who = who = [seat_name(p, bots, HUMAN) for p in range(len(bots))]
        self.match = Match(
            initial_state(Rules(players=self.players.value)),
            seats,
            self.rng,
            bots,
            describe=lambda s, action: s.describe(action, who, HUMAN),  # type: ignore[attr-defined]
            result=lambda s: s.end_text(winners_text(s.returns(), bots, HUMAN)),  # type: ignore[attr-defined]
            you=HUMAN,
        )
        self.messages.clear()
        self.match.lines.append(f"New game: you and {self.players.value - 1} bots ({', '.join(bots[1:])}).")
        self.match.advance()
        self.draw()

    def chosen(self, kind: type[Offer] | type[Pass]) -> Offer | Pass:
        """The Offer or Pass the card / receiver / announcement choices make."""
        if self.card.value is None or self.to.value is None or self.announce.value is None:
            raise ValueError("choose a card, a receiver and an announcement first")
        return kind(self.card.value, self.to.value, self.announce.value)

    def move(self, action: Action) -> None:
        """Your move, then the bots' until it is yours again."""
        self.match.move(action)
        self.messages.clear()
        self.draw()

    def new_model(self) -> None:
        """The sender model or q changed: check q (a ValueError shown, Watch disabled), redraw."""
        try:
            self.q = self.bluff.value()
        except ValueError:
            raise ValueError(
                f"bluff q must be a probability from 0 to 1 (e.g. 1/10 or 0.1), got {self.bluff.widget.value!r}"
            ) from None
        self.messages.clear()
        self.games_note.value = ""
        self.draw_analysis()

    def sender(self) -> Sender:
        return Sender(self.model.value, self.q, self.state.rules.hand_size)

    def watch(self) -> None:
        """200 games with a Bayes bot using your sender model in seat 1, the chosen bots elsewhere."""
        if self.blocked:
            raise ValueError("fix the bluff value first")
        rules = self.state.rules
        sender = self.sender()
        names = ["bayes, your model", *self.bots[1:]]
        seats: list[Policy | str] = [bayes(sender), *self.bots[1:]]
        table = tournament(
            lambda: initial_state(rules),
            seats,
            games=GAMES,
            seed=int(self.rng.integers(2**31)),
            names=names,
            named=policies(rules),
        )
        self.games_chart.show(v.tournament_chart(table, GAMES))
        self.games_note.value = f"<small>{GAMES} games, {sender}</small>"

    # -- drawing ------------------------------------------------------------------------------
    def draw(self) -> None:
        s = self.state
        mine = self.match.your_move()
        offering = mine and not s.chain
        receiving = mine and bool(s.chain)
        passes = [a for a in s.legal_actions() if isinstance(a, Pass)] if receiving else []
        self.offer_button.disabled = not offering
        self.accept_button.disabled = self.refuse_button.disabled = not receiving
        self.pass_button.disabled = not passes
        self.offer_button.layout.display = None if offering or not mine else "none"
        self.pass_button.layout.display = None if receiving else "none"
        self.answer_box.layout.display = None if receiving else "none"
        self.choice_box.layout.display = None if offering or passes else "none"
        self._quiet = True
        try:
            hand = sorted(set(s.hand(HUMAN)))
            card, to = self.card.value, self.to.value
            self.card.options = [(card_name(c), c) for c in hand]
            self.card.value = card if card in hand else hand[0] if hand else None
            eligible = s.eligible() if mine else []
            self.to.options = [(f"player {p + 1}", p) for p in eligible]
            self.to.value = to if to in eligible else eligible[0] if eligible else None
            self.fill_announce(draw=False)
        finally:
            self._quiet = False
        self.table.value = table_html(s, self.who)
        self.chain.value = chain_html(s)
        self.prompt.value = prompt_html(s, self.match.made)
        self.log.value = log_html(self.match.lines, "nessos-log", keep=60)
        self.draw_analysis()

    def fill_announce(self, draw: bool = True) -> None:
        """The announcements allowed for the chosen card: its value, or any value for Charon."""
        card, was = self.card.value, self.announce.value
        options = list(self.state.announcements(card)) if card is not None else []
        quiet, self._quiet = self._quiet, True
        try:
            self.announce.options = options
            self.announce.value = was if was in options else max(options) if options else None
        finally:
            self._quiet = quiet
        if draw:
            self.draw_analysis()

    def draw_analysis(self) -> None:
        """The Bayes panel (an offer to you) and the posterior chart, under the chosen model."""
        s = self.state
        if s.chain and self.match.your_move():
            highlight = s.chain[-1].announced
            self.panel.value = v.offer_panel_html(s, self.sender())
        else:
            self.panel.value = v.waiting_panel_html(s)
            highlight = self.announce.value if self.announce.value is not None else max(s.rules.deck.values)
        chart = v.posterior_chart(s, highlight, self.q)
        if chart is not None:
            self.chart.show(chart)


def app(seed: int | None = None) -> widgets.Widget:
    """The Nessos dashboard as one widget."""
    return NessosDashboard(seed).view
