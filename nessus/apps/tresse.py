"""La Tresse dashboard: watch (or throw) a game where five dice are passed around the table,
with every seat's exact chance of winning from the position on the table.

Left: the table seen from above (who holds how many dice, the centre), the last throw with
where each die went, Throw / Play on / New game, the hint panel (every seat's P(win) from
here and the expected throws left) and the log. Right: P(win) by seat at the start for the
chosen number of players, and how each seat's chance moved during this game.

There is no decision in La Tresse: alone, you throw for every seat in turn; against the
machine, you throw your own dice and the other seats throw when you press Play on (or at once).
"""

from __future__ import annotations

import html
import math

import altair as alt
import ipywidgets as widgets
import numpy as np
import polars as pl

from nessus.apps.common import TableHTML
from nessus.apps.dicegame import HELD, OPTIMAL, TableDashboard, face_svg
from nessus.games import tresse
from nessus.games.tresse import CENTRE, LEFT, RIGHT, Solved
from nessus.numbers import Kind, number_html, number_text, rarity

ON_CLICK, AT_ONCE = "when you press Play on", "at once"
MACHINES = (ON_CLICK, AT_ONCE)
WHERE = {CENTRE: ("centre", "#d8f0d0", "#2e7d32"), LEFT: ("left", "#d9ecff", "#1f5f99"), RIGHT: ("right", "#ffe3c2", HELD)}
AGAIN = ("again", "#ffffff", "#777777")
OTHERS = ("#4c78a8", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac")
MAX_LOG = 200


# -- words and numbers -------------------------------------------------------------------------
def dice_word(k: int) -> str:
    """"1 die", "3 dice"."""
    return f"{k} di{'e' if k == 1 else 'ce'}"


def solved_html(s: Solved, kind: Kind = "probability") -> str:
    """An exact figure in the page's number format; a bracket as its middle, and how close it is proven to be."""
    if s.exact is not None:
        return number_html(s.exact, kind)
    mid, half = (s.low + s.high) / 2, (s.high - s.low) / 2
    return f"{number_html(float(mid), kind, approx=True)} <small style='color:#555'>(proven to within {rarity(float(half))})</small>"


def middle(s: Solved) -> float:
    """The figure as a float (a bracket's middle)."""
    return float((s.low + s.high) / 2)


def exact_text(s: Solved) -> str:
    """A figure for a tooltip: the fraction with its decimal when short, else its decimal (bracketed or not)."""
    if s.exact is not None:
        return number_text(s.exact)
    return f"between {float(s.low):.14f} and {float(s.high):.14f}"


def method_note(rules: tresse.Rules) -> str:
    """How the figures were solved, in one sentence."""
    if all(w.exact is not None for w in tresse.win_chances(rules)):
        return ("Exact: the absorbing Markov chain of turn starts is solved over the fractions, from every position "
                "(a long fraction is shown by its decimals: click one to read the fraction whole).")
    width = max(float(w.high - w.low) for w in tresse.win_chances(rules))
    return (f"Floats with a proven error bound: with {rules.players} players the chain is too large for exact fractions, so it "
            f"is solved in floating point and every figure is a rigorous bracket (here at most {rarity(width).removeprefix('about ')} wide).")


# -- the table seen from above -------------------------------------------------------------------
def seat_xy(seat: int, n: int, cx: float = 190, cy: float = 150, rx: float = 150, ry: float = 112) -> tuple[float, float]:
    """Where a seat (from 0) sits: seat 1 at the top, play going clockwise (each seat's left)."""
    a = -math.pi / 2 + 2 * math.pi * seat / n
    return cx + rx * math.cos(a), cy + ry * math.sin(a)


def table_svg(table: tresse.Table, you: int, short: list[str]) -> str:
    """Who holds how many dice around the table, the dice in the centre, the thrower ringed in
    blue, your seat tinted, the winner starred."""
    n = table.rules.players
    parts = ["<ellipse cx='190' cy='150' rx='108' ry='74' fill='#eef6ef' stroke='#8fb59a' stroke-width='2'/>",
             "<text x='190' y='98' text-anchor='middle' font-size='11' fill='#4b7a57'>play passes clockwise ↻</text>"]
    pile = "".join(f"<rect x='{190 - 7 * table.rules.dice + 14 * i + 1}' y='128' width='12' height='12' rx='2' "
                   f"fill='{'#ffffff' if i < table.centre else 'none'}' stroke='{'#333' if i < table.centre else '#aac7b1'}' "
                   f"stroke-dasharray='{'0' if i < table.centre else '2 2'}'/>" for i in range(table.rules.dice))
    parts.append(f"<g class='tresse-centre' data-dice='{table.centre}'>{pile}<text x='190' y='160' text-anchor='middle' "
                 f"font-size='12' fill='#2e5e3a'>centre: {table.centre} of {table.rules.dice}</text></g>")
    for seat in range(n):
        x, y = seat_xy(seat, n)
        held = table.holdings[seat]
        throwing = table.current == seat + 1
        won = table.winner == seat + 1
        fill = "#fff4e5" if seat == you else "#ffffff"
        stroke, width = ("#4c78a8", 3.5) if throwing else ("#2e7d32", 3) if won else ("#999", 1.2)
        dice = "".join(f"<rect x='{x - 6 * held + 12 * i + 1:.1f}' y='{y + 3:.1f}' width='10' height='10' rx='2' fill='#fff' "
                       f"stroke='#333'/>" for i in range(held))
        if not held:
            dice = f"<text x='{x:.1f}' y='{y + 12:.1f}' text-anchor='middle' font-size='11' fill='#aaa'>no dice</text>"
        star = "★ " if won else ""
        parts.append(
            f"<g class='tresse-place{' throwing' if throwing else ''}{' won' if won else ''}' data-seat='{seat + 1}' data-dice='{held}'>"
            f"<rect x='{x - 36:.1f}' y='{y - 20:.1f}' width='72' height='40' rx='8' fill='{fill}' stroke='{stroke}' stroke-width='{width}'/>"
            f"<text x='{x:.1f}' y='{y - 5:.1f}' text-anchor='middle' font-size='12' font-weight='bold' "
            f"fill='{'#2e7d32' if won else '#222'}'>{star}{html.escape(short[seat])}</text>{dice}</g>"
        )
    return (f"<svg class='tresse-table' width='380' height='300' viewBox='0 0 380 300' role='img' "
            f"aria-label='the table: dice held by each seat'>{''.join(parts)}</svg>")


def throw_html(faces: tuple[int, ...], seat: int, n: int, names: list[str]) -> str:
    """The dice of a throw, each tinted by where it goes, with its destination written below."""
    cells = []
    for f in faces:
        word, fill, ink = WHERE.get(f, AGAIN)
        to = {LEFT: names[(seat + 1) % n], RIGHT: names[(seat - 1) % n]}.get(f)
        caption = f"→ {to}" if to else word
        cells.append(f"<div class='tresse-die' data-face='{f}' data-to='{word}' style='text-align:center;width:64px'>"
                     f"{face_svg(f, 44, fill=fill, stroke=ink)}<div style='font-size:11px;color:{ink};font-weight:bold'>"
                     f"{html.escape(caption)}</div></div>")
    return f"<div style='display:flex;gap:2px;flex-wrap:wrap'>{''.join(cells)}</div>"


def throw_words(faces: tuple[int, ...], seat: int, n: int, names: list[str]) -> str:
    """Where the dice of a throw went, in words."""
    parts = []
    if faces.count(CENTRE):
        parts.append(f"{faces.count(CENTRE)} to the centre")
    if n == 2 and faces.count(LEFT) + faces.count(RIGHT):
        parts.append(f"{faces.count(LEFT) + faces.count(RIGHT)} to {names[1 - seat]}")
    else:
        if faces.count(LEFT):
            parts.append(f"{faces.count(LEFT)} left to {names[(seat + 1) % n]}")
        if faces.count(RIGHT):
            parts.append(f"{faces.count(RIGHT)} right to {names[(seat - 1) % n]}")
    again = sum(1 for f in faces if f not in WHERE)
    if again:
        parts.append(f"{again} to throw again")
    return ", ".join(parts)


# -- charts ----------------------------------------------------------------------------------------
def start_frame(rules: tresse.Rules, you: int, names: list[str]) -> pl.DataFrame:
    """P(win) by seat from the start: `seat`, `probability`, `exact`, `yours`."""
    wins = tresse.win_chances(rules)
    return pl.DataFrame({
        "seat": [f"{i + 1}" + (" (you)" if i == you else "") for i in range(rules.players)],
        "who": names,
        "probability": [middle(w) for w in wins],
        "exact": [exact_text(w) for w in wins],
        "yours": [i == you for i in range(rules.players)],
    })


def start_chart(frame: pl.DataFrame, title: alt.Title) -> alt.LayerChart:
    """Bars of P(win) by seat, yours in orange, labelled with their values."""
    order = frame["seat"].to_list()
    base = alt.Chart(frame).encode(x=alt.X("seat:N", sort=order, title="seat (seat 1 throws first; seat 2 is on its left)",
                                           axis=alt.Axis(labelAngle=0)))
    bars = base.mark_bar().encode(
        y=alt.Y("probability:Q", title="P(win)"),
        color=alt.condition(alt.datum.yours, alt.value(HELD), alt.value(OPTIMAL)),
        tooltip=["who", alt.Tooltip("probability:Q", format=".10f"), "exact"],
    )
    text = base.mark_text(dy=-6, fontSize=11, color="#333").encode(y="probability:Q", text=alt.Text("probability:Q", format=".3f"))
    return alt.layer(bars, text, title=title).properties(width=470, height=190)


def path_frame(path: list[tuple[Solved, ...]], names: list[str]) -> pl.DataFrame:
    """Every seat's P(win) after each throw of the game: `throw`, `who`, `probability`, `exact`."""
    rows: dict[str, list] = {"throw": [], "who": [], "probability": [], "exact": []}
    for k, chances in enumerate(path):
        for i, c in enumerate(chances):
            rows["throw"].append(k)
            rows["who"].append(names[i])
            rows["probability"].append(middle(c))
            rows["exact"].append(exact_text(c))
    return pl.DataFrame(rows)


def path_chart(frame: pl.DataFrame, names: list[str], you_name: str, title: alt.Title) -> alt.Chart:
    """One line per seat: its P(win) after each throw; yours thicker."""
    throws = max(int(frame["throw"].max()), 5)
    step = max(1, math.ceil(throws / 10))
    others = [name for name in names if name != you_name]
    colours = [HELD if name == you_name else OTHERS[others.index(name) % len(OTHERS)] for name in names]
    return (
        alt.Chart(frame, title=title)
        .mark_line(point=alt.OverlayMarkDef(size=18), interpolate="step-after")
        .encode(
            x=alt.X("throw:Q", title="throws so far", scale=alt.Scale(domain=[0, throws]),
                    axis=alt.Axis(values=list(range(0, throws + 1, step)), format="d")),
            y=alt.Y("probability:Q", title="P(win) from here", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("who:N", sort=names, title=None, scale=alt.Scale(domain=names, range=colours),
                            legend=alt.Legend(orient="right", symbolType="stroke")),
            strokeWidth=alt.condition(alt.datum.who == you_name, alt.value(3.5), alt.value(1.5)),
            tooltip=["who", "throw", alt.Tooltip("probability:Q", format=".10f"), "exact"],
        )
        .properties(width=440, height=200)
    )


class TresseDashboard(TableDashboard):
    """The widgets of the La Tresse page and the game they play."""

    notebook, title = "la-tresse.ipynb", "La Tresse"
    sentence = ("Five dice go round the table. The player holding dice throws them all: each 1 goes to the centre, "
                "each 2 to the left neighbour, each 5 to the right one, and the rest are thrown again until the hand "
                "is empty; then the next player to the left with dice plays. Whoever puts the last die into the "
                "centre wins. No decisions: pure chance. Beside (below on a phone): each seat's exact chance at the "
                "start, and how it moves during your game.")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, "tresse", tresse.PLAYERS, MACHINES,
                         "every seat's exact chance of winning from the dice as they lie, and the throws left")
        self.seats.machine.description = "they throw"
        self.seats.machine.style.description_width = "72px"
        self.seats.machine.layout.width = "300px"
        self.dice = self.param_field(tresse.DICE, width="150px")
        self.seats.box.children = (*self.seats.box.children, self.dice.widget)

        self.picture = widgets.HTML()
        self.last = widgets.HTML()
        self.throw_button = widgets.Button(description="Throw", button_style="primary", icon="refresh",
                                           layout=widgets.Layout(width="170px"))
        self.throw_button.add_class("roll-button")
        self.play_button = widgets.Button(description="Play on", button_style="success", icon="forward",
                                          layout=widgets.Layout(width="210px"))
        self.play_button.add_class("play-button")
        self.new_button = widgets.Button(description="New game")
        self.new_button.add_class("new-button")
        self.actions = [self.throw_button, self.play_button, self.new_button]
        for button, handler in zip(self.actions, (self.throw, self.play_on, self.restart)):
            button.on_click(self.guard(lambda _, handler=handler: handler()))
        self.result = widgets.HTML()
        self.hint.toggle.tooltip = "show every seat's exact chance of winning from here"
        self.log = widgets.HTML()
        self.start_pane = self.chart_pane("270px", "start")
        self.figures = TableHTML(name="la-tresse-figures")
        self.path_pane = self.chart_pane("270px", "this-game")

        self.dice.widget.observe(self.rules_guard(lambda _: self.restart()), names="value")

        self.page([
            self.seats.mode, self.seats.box, self.messages.widget,
            widgets.HBox([self.picture, self.last], layout=widgets.Layout(align_items="center")),
            widgets.HBox([self.throw_button, self.play_button, self.new_button]),
            self.status, self.result, self.hint.toggle, self.hint.widget, self.log,
        ], [self.start_pane.widget, self.figures, self.path_pane.widget], left_width="620px")
        self.new_mode()

    # -- controls -----------------------------------------------------------------------------
    def rules(self) -> tresse.Rules:
        """The rules in the controls, or a ValueError naming the bad one."""
        return tresse.Rules(players=self.seats.players.value(), dice=self.dice.value())

    @property
    def at_once(self) -> bool:
        """The machine seats throw as soon as it is their turn."""
        return self.seats.game and self.seats.machine.value == AT_ONCE

    def machine_turn(self) -> bool:
        """A machine seat is to throw (in a game against the machine)."""
        t = self.table
        return self.seats.game and not t.over and t.current != self.you + 1

    def new_mode(self) -> None:
        """Players, dice and your seat count in both modes; how the machines throw only in a game."""
        self.seats.box.layout.display = None
        self.seats.machine.layout.display = None if self.seats.game else "none"
        self.seats.new_players()

    def next_up(self) -> str:
        """Who throws next and how many dice, in words ("Player 3 throws 2 dice next")."""
        who = self.seats.name(self.table.current - 1)
        return f"{who} throw{'' if who == 'You' else 's'} {dice_word(self.table.hand)} next"

    def names(self) -> list[str]:
        """"You" or "Player n" for each seat."""
        return [self.seats.name(i) for i in range(self.rules_now.players)]

    # -- the game ---------------------------------------------------------------------------------
    def restart(self) -> None:
        """A new game with the rules in the controls (the machines before you throw at once if so set)."""
        self.rules_now = self.rules()
        self.messages.clear()
        self.you = self.seats.you
        self.table = tresse.Table.start(self.rules_now)
        self.path = [tresse.chances_from(self.table)]
        self.lines: list[str] = []
        self.last_throw: tuple[int, tuple[int, ...]] | None = None
        if self.at_once:
            self.machines_throw()
        self.draw_start()
        self.draw_game()

    def one_throw(self) -> None:
        """The seat to throw throws every die in hand: the table, the log and the chances after it."""
        before = self.table
        seat = before.current - 1
        self.table = before.throw(self.rng)
        faces = self.table.history[-1][1]
        self.path.append(tresse.chances_from(self.table))
        self.last_throw = (seat, faces)
        names = self.names()
        n = self.rules_now.players
        line = (f"<b>{self.table.throws}.</b> {html.escape(names[seat])}: "
                f"{''.join(face_svg(f, 18, fill=WHERE.get(f, AGAIN)[1], stroke=WHERE.get(f, AGAIN)[2]) for f in faces)} "
                f"{html.escape(throw_words(faces, seat, n, names))}.")
        if self.table.over:
            line += f" <b>{html.escape(names[seat])} put{'' if seat == self.you else 's'} the last die into the centre.</b>"
        elif self.table.current != before.current:
            nxt = names[self.table.current - 1]
            line += f" Turn over: {html.escape(nxt)} play{'' if nxt == 'You' else 's'}."
        self.lines.append(line)

    def machines_throw(self) -> None:
        """The machine seats throw until it is your turn or the game is over."""
        while self.machine_turn():
            self.one_throw()

    def throw(self) -> None:
        """Throw: one throw of the seat to play (yours, in a game against the machine)."""
        if self.table.over:
            raise ValueError("the game is over: press New game")
        if self.machine_turn():
            raise ValueError(f"it is {self.seats.name(self.table.current - 1)}'s turn: press Play on")
        self.one_throw()
        if self.at_once:
            self.machines_throw()
        self.messages.clear()
        self.draw_game()

    def play_on(self) -> None:
        """Play on: alone, the seat to play throws until its hand is empty; in a game, the machine
        seats throw until it is your turn."""
        if self.table.over:
            raise ValueError("the game is over: press New game")
        if self.seats.game:
            if not self.machine_turn():
                raise ValueError("it is your turn: press Throw")
            self.machines_throw()
        else:
            seat = self.table.current
            while not self.table.over and self.table.current == seat:
                self.one_throw()
        self.messages.clear()
        self.draw_game()

    # -- drawing ---------------------------------------------------------------------------------
    def draw_game(self) -> None:
        t, names = self.table, self.names()
        short = ["You" if i == self.you else f"Player {i + 1}" for i in range(len(names))]
        self.picture.value = table_svg(t, self.you, short)
        if self.last_throw is None:
            self.last.value = ("<div class='tresse-last' style='color:#666;font-size:13px;max-width:220px'>"
                               f"{html.escape(names[0])} hold{'' if names[0] == 'You' else 's'} the {dice_word(self.rules_now.dice)}.<br>"
                               "<span style='color:#2e7d32'>1: centre</span> · <span style='color:#1f5f99'>2: left</span> · "
                               f"<span style='color:{HELD}'>5: right</span> · 3, 4, 6: thrown again</div>")
        else:
            seat, faces = self.last_throw
            n = self.rules_now.players
            self.last.value = (f"<div class='tresse-last' style='max-width:225px'><div style='font-size:13px;margin-bottom:4px'>"
                               f"Throw {t.throws}: <b>{html.escape(names[seat])}</b> threw {dice_word(len(faces))}</div>"
                               f"{throw_html(faces, seat, n, names)}</div>")
        mine = not self.machine_turn()
        self.throw_button.disabled = t.over or not mine
        self.play_button.disabled = t.over or (self.seats.game and mine)
        if t.over:
            self.throw_button.description, self.play_button.description = "Throw", "Play on"
            winner = names[t.winner - 1]
            verb = "win" if t.winner - 1 == self.you else "wins"
            self.status.value = f"<div class='tresse-status' style='font-size:15px'><b>Game over</b> after {t.throws} throws.</div>"
            self.result.value = (f"<div class='tresse-result' style='font-weight:bold;font-size:15px;color:#2e7d32'>"
                                 f"★ {html.escape(winner)} {verb}: the last die is in the centre.</div>")
        else:
            hand = dice_word(t.hand)
            if not self.seats.game:
                self.throw_button.description = f"Throw {hand}"
                self.play_button.description = "Play on: end of the turn"
                todo = (f"{html.escape(self.next_up())}. You throw for every seat: <b>Throw</b> once, or <b>Play on</b> "
                        "to the end of this turn.")
            elif mine:
                self.throw_button.description = f"Throw your {hand}"
                self.play_button.description = "Play on"
                todo = f"<b>Your turn</b>: throw your {hand}."
            else:
                self.throw_button.description = "Throw"
                self.play_button.description = "Play on"
                held = t.holdings[self.you]
                yours = f"you hold {dice_word(held)}" if held else "you hold no dice"
                todo = f"{html.escape(self.next_up())} ({yours}): press <b>Play on</b>."
            self.status.value = f"<div class='tresse-status' style='font-size:15px'>{todo}</div>"
            self.result.value = ""
        self.hint.show(self.hint_html)
        self.draw_path()
        lines = "".join(f"<div>{line}</div>" for line in reversed(self.lines[-MAX_LOG:]))
        self.log.value = (f"<div class='tresse-log' data-throws='{t.throws}' style='font-size:13px;line-height:1.6;max-height:190px;"
                          f"overflow-y:auto;border-top:1px solid #ddd;margin-top:6px'>{lines}</div>")  # last: the page is then up to date

    def hint_html(self) -> str:
        """Every seat's P(win) from the table as it stands, and the expected throws left."""
        t, names = self.table, self.names()
        chances = self.path[-1]
        top = max(middle(c) for c in chances) or 1
        rows = []
        for i, c in enumerate(chances):
            colour = HELD if i == self.you else OPTIMAL
            bar = f"<span style='display:inline-block;height:9px;width:{max(1, round(70 * middle(c) / top))}px;background:{colour}'></span>"
            style = "background:#fff4e5;" if i == self.you else ""
            throwing = " <small style='color:#4c78a8'>throws</small>" if t.current == i + 1 else ""
            rows.append(f"<tr class='hint-row' data-seat='{i + 1}' style='{style}border-top:1px solid #eee'>"
                        f"<td>{html.escape(names[i])}{throwing}</td>"
                        f"<td align='center'>{t.holdings[i]}</td><td style='white-space:nowrap'>{solved_html(c)}</td><td>{bar}</td></tr>")
        left = tresse.throws_left(t)
        where = "the game is over." if t.over else (f"{html.escape(self.next_up())}, {t.centre} in the centre.")
        return (f"<div style='color:#555'>From here: {where}</div>"
                f"<div class='hint-best' style='margin:2px 0'>Expected throws left: <b>{solved_html(left, 'value')}</b></div>"
                "<div style='max-height:236px;overflow-y:auto;border:1px solid #ddd;margin-top:4px'>"
                "<table class='hint-table' cellpadding='3' style='border-collapse:collapse;width:100%;font-size:13px'>"
                "<tr style='background:#f4f4f4'><th align='left'>seat</th><th>dice</th><th align='left'>P(win) from here</th><th></th></tr>"
                f"{''.join(rows)}</table></div><small style='color:#555'>{html.escape(method_note(self.rules_now))}</small>")

    def draw_start(self) -> None:
        """P(win) by seat at the start for these rules, and the game's expected length."""
        r, names = self.rules_now, self.names()
        exact = all(w.exact is not None for w in tresse.win_chances(r))
        how = "exact" if exact else "proven brackets, narrower than 1 in a trillion"
        title = alt.Title(f"P(win) by seat: {r.players} players, {dice_word(r.dice)} ({how})",
                          subtitle=f"seat 1 starts with the {dice_word(r.dice)}; your seat ({self.you + 1}) in orange")
        self.start_pane.show(start_chart(start_frame(r, self.you, names), title))
        wins = tresse.win_chances(r)
        rows = [(f"P(you win), from the start (seat {self.you + 1})", wins[self.you]),
                ("P(seat 1 wins): the first thrower", wins[0]),
                ("expected throws in a game", tresse.expected_throws(r)),
                ("expected turns in a game", tresse.expected_turns(r))]
        body = "".join(f"<tr><td>{html.escape(a)}</td><td>{solved_html(b, 'probability' if a.startswith('P(') else 'value')}</td>"
                       "</tr>" for a, b in rows)
        self.figures.value = (f"<table class='figures' cellpadding='3' style='font-size:13px'>{body}</table>"
                              f"<small style='color:#555'>{html.escape(method_note(r))}</small>")

    def draw_path(self) -> None:
        """Every seat's P(win) from the position after each throw of this game."""
        names = self.names()
        exact = all(c.exact is not None for c in self.path[0])
        t = self.table
        state = "game over" if t.over else f"{t.throws} throw{'s' if t.throws != 1 else ''} so far"
        title = alt.Title("P(win) by seat during this game", subtitle=f"from the dice as they lay after each throw; {state}; "
                          + ("exact" if exact else "middles of proven brackets"))
        self.path_pane.show(path_chart(path_frame(self.path, names), names, names[self.you], title))


def app(seed: int | None = None) -> widgets.Widget:
    """The La Tresse dashboard as one widget."""
    return TresseDashboard(seed).view
