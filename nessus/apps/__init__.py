"""Dashboards: ipywidgets + altair apps over the engine, served by Voila from `dashboards/`.

Each dashboard notebook in `dashboards/` is one call: `from nessus.apps import renard; renard.app()`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """A dashboard in the gallery: its notebook, title, one-line description and lesson (a notebook
    in notebooks/, without .ipynb)."""

    notebook: str
    title: str
    description: str
    lesson: str | None = None


GALLERY: tuple[Entry, ...] = (
    Entry(
        "le-renard.ipynb",
        "Le Renard",
        "Bet against the bank on a triple: roll, watch your bankroll, and see the exact ruin odds.",
        lesson="01-le-renard-one-in-36",
    ),
    Entry(
        "la-boue.ipynb",
        "La Boue",
        "Play a turn of Stuck in the Mud die by die while simulated turns fill in the exact distribution.",
        lesson="02-la-boue",
    ),
    Entry(
        "nessie.ipynb",
        "Nessie",
        "Push your luck card by card against automatic opponents, with your exact odds of sinking beside you.",
        lesson="03-nessie-bust-odds",
    ),
    Entry(
        "le-palais.ipynb",
        "Le Palais",
        "Poker dice: hold dice between three rolls, alone or against the machine, with the exact value of every hold.",
        lesson="04-le-palais",
    ),
    Entry(
        "le-naute.ipynb",
        "Le Naute",
        "Ship, captain and crew, then the cargo: every choice's exact value, and the cargo's distribution.",
        lesson="05-le-naute",
    ),
    Entry(
        "la-tresse.ipynb",
        "La Tresse",
        "Pass five dice round the table throw by throw, with every seat's exact chance of winning from the dice as "
        "they lie.",
        lesson="06-la-tresse",
    ),
    Entry(
        "les-trois.ipynb",
        "Les Trois",
        "Set aside at least one die per roll, lowest total wins: every choice's exact value, alone or against the "
        "machine, and your chance of the moon.",
        lesson="07-les-trois",
    ),
    Entry(
        "le-sept-fatal.ipynb",
        "Le Sept fatal (and Pig)",
        "Push your luck with two dice (a 7 wipes the turn) or Pig's one die: one turn for points with exact odds, or a "
        "game against the machine with your chance of winning.",
        lesson="08-le-sept-fatal",
    ),
    Entry(
        "les-royaumes.ipynb",
        "Les Royaumes",
        "Duel the bank's 2d6 within its kingdom: exact odds, fines and expected value for any fine, with running "
        "bankrolls.",
        lesson="09-les-royaumes",
    ),
    Entry(
        "le-legit.ipynb",
        "Le Légit",
        "Remove the 7-pairs, keep or reroll, alone or against the machine, with each choice's exact value and the "
        "first player's dilemma.",
        lesson="10-le-legit",
    ),
    Entry(
        "l-hypogeon.ipynb",
        "L'Hypogéon",
        "21 with dice: roll or stand with the exact value of each, alone or to the points target against the machine, "
        "and the best reply to any rule.",
        lesson="11-l-hypogeon",
    ),
    Entry(
        "nessos.ipynb",
        "Nessos",
        "Offer cards face down and bluff with Charon against bots, with the exact chance that a card offered to you is "
        "Charon and the value of accepting, refusing or passing it.",
        lesson="12-nessos-is-that-7-a-charon",
    ),
    Entry(
        "nyx.ipynb",
        "Nyx",
        "Symbol dice and dreams on a 3x3 matrix: keep one symbol or reroll with the exact expected rolls of every "
        "keep, and place the dream's shape by clicking its cells.",
        lesson="13-nyx-dreams-on-dice",
    ),
    Entry(
        "entheos.ipynb",
        "Entheos",
        "Be a god of the Trojan war against bots: roll the heroes' dice, play your action cards, and watch each duel's "
        "exact odds and each god's expected points.",
        lesson="14-entheos-war-of-dice",
    ),
)
