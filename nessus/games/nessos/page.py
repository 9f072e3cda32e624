"""Nessos' page: a game against bots (a `kit.match.Match`, you in seat 1) with the exact Bayes
posterior of the cards offered to you beside you, under the sender model you choose, and a Hint:
each of your moves' chance to win against these bots, by rollouts on that posterior."""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import cast

import ipywidgets as widgets

from nessus.game import Action, Policy
from nessus.games.nessos import GAME, rollouts
from nessus.games.nessos import views as v
from nessus.games.nessos.deck import card_name
from nessus.games.nessos.odds import MODELS, Sender
from nessus.games.nessos.policies import bayes, policies
from nessus.games.nessos.rules import BLUFF, BOT_NAMES, PLAYERS, Rules
from nessus.games.nessos.state import ACCEPT, REFUSE, Offer, Pass, State, initial_state
from nessus.kit.base import Dashboard
from nessus.kit.common import TableHTML
from nessus.kit.hint import HintPanel, rollout_table
from nessus.kit.match import Match, log_html, seat_name, winners_text
from nessus.play import tournament
from nessus.rules import seat_names

GAMES, HINT_MOST = 200, 512
"""Games a "Watch" click plays; the Hint's rollouts a move at most (fewer where there are many moves)."""
OPPONENTS = {"naive": "naive", "bluffer": "bluffer", "bayes": "bayes", "one of each": "naive,bluffer,bayes"}
"""The opponents you can choose: the bots seated round the table (one kind, or three in turn)."""


def menu(description: str, width: str, label: str, *css: str, **kwargs) -> widgets.Dropdown:
    """A dropdown of this width with these CSS classes (`label`: its description's width)."""
    style = {"description_width": label}
    return widgets.Dropdown(description=description, layout={"width": width}, style=style, _dom_classes=css, **kwargs)


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
        players = list(range(int(PLAYERS.lo), int(PLAYERS.hi) + 1))
        self.players = menu("players", "150px", "70px", options=players, value=4)
        self.opponents = menu("opponents", "210px", "70px", "nessos-opponents", options=list(OPPONENTS.items()))
        self.opponents.value = OPPONENTS["one of each"]
        for control in (self.players, self.opponents):
            control.observe(self.guard(lambda _: self.new_game()), names="value")
        self.new_button = self.button("New game", self.new_game, "new-button", icon="refresh")
        self.card = menu("card", "140px", "40px", "nessos-card-choice")
        self.to = menu("to", "140px", "25px", "nessos-to")
        self.announce = menu("announce", "150px", "65px", "nessos-announce")
        self.card.observe(self.guard(lambda _: None if self._quiet else self.fill_announce()), names="value")
        self.announce.observe(self.guard(lambda _: None if self._quiet else self.draw_analysis()), names="value")
        offer, add = partial(self.chosen, Offer), partial(self.chosen, Pass)
        accept, refuse = partial(self.move, ACCEPT), partial(self.move, REFUSE)
        self.offer_button = self.button("Offer", offer, "offer-button", button_style="primary", icon="share")
        self.accept_button = self.button("Accept", accept, "accept-button", button_style="success", icon="check")
        self.refuse_button = self.button("Refuse", refuse, "refuse-button", button_style="danger", icon="times")
        self.pass_button = self.button("Add and pass", add, "pass-button", button_style="warning", icon="share")
        style = {"button_width": "80px", "description_width": "50px"}
        self.model = widgets.ToggleButtons(options=MODELS, value="bluffer", description="sender", style=style)
        self.model.add_class("nessos-model")
        self.bluff = self.param_field(BLUFF, width="170px")
        self.bluff.widget.description = "bluff q"
        self.bluff.widget.add_class("nessos-bluff")
        for control in (self.model, self.bluff.widget):
            control.observe(self.rules_guard(lambda _: self.new_model()), names="value")
        self.q = Fraction(BLUFF.default)
        self.hint = HintPanel("each move's chance to win against these bots, by rollouts")
        self.watch_button = self.button(f"Watch {GAMES} games", self.watch, "roll-button watch-button", icon="play")
        self.actions = [self.watch_button]  # what the sender model feeds (besides the panel and chart)
        self.table, self.chain, self.prompt, self.log = widgets.HTML(), widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.panel = TableHTML(name="nessos-bayes")
        self.chart, self.games_chart = self.chart_pane("300px", "posterior"), self.chart_pane("0px", "tournament")
        self.games_note = widgets.HTML()
        self._quiet = False
        self.choice_box = widgets.HBox([self.card, self.to, self.announce])
        self.answer_box = widgets.HBox([self.accept_button, self.refuse_button])
        buttons = widgets.HBox([self.offer_button, self.pass_button, self.hint.toggle])
        moves = [self.prompt, self.answer_box, self.choice_box, buttons, self.hint.widget]
        game = widgets.HBox([self.players, self.opponents, self.new_button])
        left = [widgets.HTML(v.CARD_CSS), self.table, self.chain, *moves, self.log, game]
        right = [widgets.HBox([self.model, self.bluff.widget]), self.messages.widget, self.panel, self.chart.widget]
        right += [widgets.HBox([self.watch_button, self.games_note]), self.games_chart.widget]
        self.page(left, right, left_width="470px")
        self.new_game()

    @property
    def bots(self) -> tuple[str, ...]:
        """The bot in each seat ("you" in seat 1)."""
        return ("you", *seat_names(self.opponents.value, self.players.value - 1, BOT_NAMES))

    @property
    def state(self) -> State:
        """The game's state now."""
        return cast(State, self.match.state)

    def new_game(self) -> None:
        """A new game: a fresh deal, you hold the first-player token; the bots play until you must decide."""
        bots, named, start = self.bots, policies(), initial_state(Rules(players=self.players.value))
        self.who = [seat_name(p, bots, v.HUMAN) for p in range(len(bots))]
        seats = {p: named[b] for p, b in enumerate(bots) if p != v.HUMAN}
        describe = partial(State.describe, who=self.who, you=v.HUMAN)
        self.match = Match(start, seats, self.rng, bots, describe, self.result, v.HUMAN)  # type: ignore[arg-type]
        self.match.lines.append(f"New game: you and {self.players.value - 1} bots ({', '.join(bots[1:])}).")
        self.match.advance()
        self.messages.clear()
        self.draw()

    def result(self, s: State) -> str:
        """The log's last line: how the game ended, who won (`kit.match.winners_text`), the points."""
        return s.end_text(winners_text(s.returns(), self.match.names, v.HUMAN))

    def chosen(self, kind: type[Offer] | type[Pass]) -> None:
        """Play the Offer or Pass the card / receiver / announcement choices make."""
        if self.card.value is None or self.to.value is None or self.announce.value is None:
            raise ValueError("choose a card, a receiver and an announcement first")
        self.move(kind(self.card.value, self.to.value, self.announce.value))

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
        """The sender model chosen, with the rules' hand size."""
        return Sender(self.model.value, self.q, self.state.rules.hand_size)

    def watch(self) -> None:
        """200 games with a Bayes bot using your sender model in seat 1, the chosen bots elsewhere."""
        if self.blocked:
            raise ValueError("fix the bluff value first")
        rules, sender, others = self.state.rules, self.sender(), self.bots[1:]
        seats: list[Policy | str] = [bayes(sender), *others]
        seed, names = int(self.rng.integers(2**31)), ["bayes, your model", *others]
        table = tournament(lambda: initial_state(rules), seats, GAMES, seed, names, named=policies(rules))
        self.games_chart.show(v.tournament_chart(table, GAMES))
        self.games_note.value = f"<small>{GAMES} games, {sender}</small>"

    def draw(self) -> None:
        """Your move's choices and buttons (those of an offer, or of an answer), the table, the log, the panel."""
        s = self.state
        mine = self.match.your_move()
        offering, receiving = mine and not s.chain, mine and bool(s.chain)
        passes = receiving and any(isinstance(a, Pass) for a in s.legal_actions())
        self.offer_button.disabled = not offering
        self.accept_button.disabled = self.refuse_button.disabled = not receiving
        self.pass_button.disabled = not passes
        self.offer_button.layout.display = None if offering or not mine else "none"
        self.pass_button.layout.display = self.answer_box.layout.display = None if receiving else "none"
        self.choice_box.layout.display = None if offering or passes else "none"
        self._quiet = True
        try:
            hand = sorted(set(s.hand(v.HUMAN)))
            card, to = self.card.value, self.to.value
            self.card.options = [(card_name(c), c) for c in hand]
            self.card.value = card if card in hand else hand[0] if hand else None
            eligible = s.eligible() if mine else []
            self.to.options = [(f"player {p + 1}", p) for p in eligible]
            self.to.value = to if to in eligible else eligible[0] if eligible else None
            self.fill_announce(draw=False)
        finally:
            self._quiet = False
        self.table.value = v.table_html(s, self.who)
        self.chain.value = v.chain_html(s)
        self.prompt.value = v.prompt_html(s, self.match.made)
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
        self.hint.show(partial(self.rollout_hint, s) if self.match.your_move() else None, "Wait for your turn.")

    def rollout_hint(self, s: State) -> str:
        """Your moves' chances to win against these bots, by rollouts (`rollouts.remembered`), your offer marked."""
        try:
            hint = rollouts.remembered(s, self.sender(), ("bayes", *self.bots[1:]), HINT_MOST)
        except ValueError as e:  # a bluffer who never bluffs cannot have offered this Charon
            return v.panel_note(f"{e}: try another q or the naive sender.", "")
        mine = Offer(self.card.value, self.to.value, self.announce.value) if not s.chain else None
        return rollout_table(hint, mine, rollouts.move_text, "points at the end")


def app(seed: int | None = None) -> widgets.Widget:
    """The Nessos dashboard as one widget."""
    return NessosDashboard(seed).view
