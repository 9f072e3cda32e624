"""Validated game parameters.

Each game's rules are a frozen dataclass whose fields are declared by `Param`s: a default, an
allowed range and a help line. Building the rules checks every field, so a bad value raises a
`ValueError` naming the parameter and the allowed range, from Python and from the CLI alike.

>>> from nessus.games import renard
>>> renard.Rules(payout=20).payout
20
>>> renard.Rules(payout=500)
Traceback (most recent call last):
...
ValueError: payout must be an integer from 1 to 100, got 500
>>> renard.Rules.from_strings({"payout": "35"}).as_dict()["payout"]
35
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Self

Number = int | Fraction


@dataclass(frozen=True)
class Param:
    """A rules parameter: integers (kind=int) or exact fractions (kind=Fraction) in [lo, hi],
    a switch (kind=bool: lo=False, hi=True), or text (kind=str) of lo to hi characters (e.g. a
    file name), limited to `choices` when given (e.g. a variant's letter)."""

    name: str
    default: Number | bool | str
    lo: Number
    hi: Number
    help: str
    kind: type = int
    choices: tuple[str, ...] = ()

    def allowed(self) -> str:
        if self.kind is bool:
            return "true or false"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind is str:
            return f"a text of {self.lo} to {self.hi} characters"
        what = "an integer" if self.kind is int else "a number (e.g. 1/10 or 0.1)"
        return f"{what} from {self.lo} to {self.hi}"

    def check(self, value: Any) -> Number | bool | str:
        """The value if it is of the right kind and in range, else a ValueError."""
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ValueError(f"{self.name} must be {self.allowed()}, got {value!r}")
            return value
        if self.kind is str:
            bad = value not in self.choices if self.choices else not self.lo <= len(value) <= self.hi
            if not isinstance(value, str) or bad:
                raise ValueError(f"{self.name} must be {self.allowed()}, got {value!r}")
            return value
        ok_kind = isinstance(value, int) and not isinstance(value, bool)
        if self.kind is Fraction:
            ok_kind = ok_kind or isinstance(value, Fraction)
        if not ok_kind or not self.lo <= value <= self.hi:
            raise ValueError(f"{self.name} must be {self.allowed()}, got {value!r}")
        return Fraction(value) if self.kind is Fraction else value

    def parse(self, text: str) -> Number | bool | str:
        """Parse a value typed by a person ("12", "1/10", "0.1") and check it."""
        text = text.strip()
        if self.kind is bool:
            words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
            if text.lower() not in words:
                raise ValueError(f"{self.name} must be {self.allowed()}, got {text!r}")
            return words[text.lower()]
        if self.kind is str:
            return self.check(text)
        try:
            value: Number = int(text) if self.kind is int else Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{self.name} must be {self.allowed()}, got {text!r}") from None
        if self.kind is Fraction and value.denominator == 1:
            value = int(value)
        return self.check(value)


@dataclass(frozen=True)
class GameRules:
    """Base of every game's rules: validates the fields against the class's `params`."""

    params: ClassVar[tuple[Param, ...]] = ()
    counts: ClassVar[tuple[str, ...]] = ()
    """The parameters that are numbers of trials of `simulate`'s own beside `trials` (e.g. whole
    games played by the generic loop, too slow for `trials` of them)."""

    def __post_init__(self) -> None:
        for p in self.params:
            object.__setattr__(self, p.name, p.check(getattr(self, p.name)))
        self.validate()

    def validate(self) -> None:
        """Checks across parameters; games override it."""

    @classmethod
    def param(cls, name: str) -> Param:
        for p in cls.params:
            if p.name == name:
                return p
        allowed = ", ".join(p.name for p in cls.params) or "none"
        raise ValueError(f"unknown parameter {name!r}; allowed: {allowed}")

    @classmethod
    def from_strings(cls, values: Mapping[str, str]) -> GameRules:
        """Rules from NAME=VALUE strings (the CLI's --set), defaults for the rest."""
        return cls(**{name: cls.param(name).parse(text) for name, text in values.items()})

    def fewest_counts(self) -> Self:
        """These rules with each of `counts` at its least allowed value: the quickest simulation
        (e.g. to name its figures)."""
        return dataclasses.replace(self, **{name: self.param(name).lo for name in self.counts})

    def as_dict(self) -> dict[str, Any]:
        """The parameters as JSON-ready values (fractions as "p/q" strings)."""
        out = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = str(v) if isinstance(v, Fraction) else v
        return out


def count_param(name: str, default: int, help: str) -> Param:
    """A number of `simulate`'s own runs beside `--trials` (whole games, pairs of games; listed in
    the rules' `counts`): from 2, since a mean's t interval needs two, to 100,000."""
    return Param(name, default, 2, 100_000, help)


def field(p: Param) -> Any:
    """A dataclass field defaulting to the parameter's default."""
    return dataclasses.field(default=p.default)


def seat_names(text: str, players: int, allowed: tuple[str, ...], param: str = "bots") -> tuple[str, ...]:
    """The name at each seat from comma-separated `text`, repeated round the table; a ValueError
    naming `param` if a name is not `allowed`.

    >>> seat_names("bayes, naive", 3, ("naive", "bayes"))
    ('bayes', 'naive', 'bayes')
    """
    names = [n.strip() for n in text.split(",")]
    for name in names:
        if name not in allowed:
            raise ValueError(f"{param} must name bots among {', '.join(allowed)}, comma-separated, got {name!r}")
    return tuple(names[i % len(names)] for i in range(players))
