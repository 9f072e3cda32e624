"""What a class got (`Result`: its phases, lost pages, errors, the server's CPU and memory), in a
few lines of text (`Result.summary`), against issue 21's targets (`misses`), and classes side by
side in one markdown table (`table`)."""

from __future__ import annotations

import datetime
import os
import platform
import shlex
import statistics
from dataclasses import dataclass, field
from pathlib import Path

GB = 1e9 / 2**20  # MiB


def percentiles(values: list[float]) -> str:
    """p50, p95 and max of some seconds."""
    p50, p95, top = quantiles(values)
    return f"p50 {p50:.2f} s, p95 {p95:.2f} s, max {top:.2f} s"


def quantiles(values: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max (nan for none)."""
    t = sorted(values)
    if not t:
        return (float("nan"),) * 3
    return statistics.median(t), t[min(len(t) - 1, int(0.95 * len(t)))], t[-1]


@dataclass
class Phase:
    """One phase of a class: the pages opening, or everyone pressing one control."""

    name: str
    seconds: list[float] = field(default_factory=list)  # first chart, or click to answer, per student
    count: int = 0  # pages opened, or clicks made
    server_cpu: float = 0.0  # every process of `nessus serve`
    new_kernels_cpu: float = 0.0  # of it, kernels started during the phase
    browser_cpu: float = 0.0
    clicks_within: float = 0.0  # seconds between the first and the last click landing

    def per(self) -> float:
        """The server's CPU seconds per page (per click)."""
        return self.server_cpu / max(self.count, 1)


@dataclass
class Result:
    """What one class got."""

    engine: str
    mode: str
    dashboard: str
    students: int
    spread: float
    command: list[str] = field(default_factory=list)  # `nessus serve`'s arguments
    phases: list[Phase] = field(default_factory=list)
    lost: int = 0
    errors: list[str] = field(default_factory=list)
    ready_s: float = 0.0
    wall: float = 0.0
    idle_pss_mib: float = 0.0  # the server's, ready, before the first page
    pss_mib: float = 0.0  # the server's, every process summed, with the pages open (after the clicks)
    rss_mib: float = 0.0
    processes: int = 0
    kernel_pss_mib: list[float] = field(default_factory=list)
    kernel_rss_mib: list[float] = field(default_factory=list)

    @property
    def slug(self) -> str:
        """The name of its files: load-<engine>-<lesson|default>."""
        return f"load-{self.engine}-{'lesson' if self.mode == 'lesson mode' else 'default'}"

    @property
    def label(self) -> str:
        return f"{'Voilà' if self.engine == 'voila' else 'Solara'}, {self.mode}"

    def phase(self, name: str) -> Phase | None:
        return next((p for p in self.phases if p.name == name), None)

    def clicks(self) -> list[Phase]:
        return self.phases[1:]

    def per_click(self) -> float:
        """The server's CPU seconds per click, every click phase together."""
        return sum(p.server_cpu for p in self.clicks()) / max(sum(p.count for p in self.clicks()), 1)

    def unanswered(self) -> int:
        return sum(p.count - len(p.seconds) for p in self.clicks())

    def summary(self) -> str:
        """The figures, a few lines of text."""
        pages = self.phases[0] if self.phases else Phase("pages")
        arrive = f"arriving over {self.spread:g} s" if self.spread else "all at once"
        lines = [
            f"[load] {self.label}: {self.students} students on {self.dashboard}, {arrive}; wall {self.wall:.1f} s "
            f"(server ready after {self.ready_s:.0f} s: nessus serve {shlex.join(self.command)})",
            f"[load]   first chart: {percentiles(pages.seconds)}; {len(pages.seconds)} got a chart, "
            f"{self.lost} lost, {len(self.errors)} errors",
        ]
        lines += [
            f"[load]   {p.name} to its answer: {percentiles(p.seconds)}; {len(p.seconds)} of {p.count} answered, "
            f"the clicks within {p.clicks_within:.2f} s"
            for p in self.clicks()
        ]
        lines.append(
            f"[load]   server CPU: {pages.server_cpu:.1f} s = {pages.per():.2f} s per page; "
            + "; ".join(f"{p.name} {p.server_cpu:.2f} s = {1000 * p.per():.0f} ms per click" for p in self.clicks())
        )
        if any(p.new_kernels_cpu for p in self.phases):
            lines.append(
                "[load]   of it, kernels started during the phase: "
                + ", ".join(f"{p.name} {p.new_kernels_cpu:.1f} s" for p in self.phases)
            )
        lines.append(
            "[load]   browsers' CPU: "
            + ", ".join(
                f"{p.name} {p.browser_cpu:.1f} s = {p.browser_cpu / max(p.count, 1):.2f} s each" for p in self.phases
            )
        )
        lines.append(
            f"[load]   server memory with the pages open: PSS {self.pss_mib:.0f} MiB in all (ready, before the pages: "
            f"{self.idle_pss_mib:.0f}), RSS {self.rss_mib:.0f} MiB summed over {self.processes} processes"
        )
        if self.kernel_pss_mib:
            lines.append(
                f"[load]   {len(self.kernel_pss_mib)} kernels: PSS {sum(self.kernel_pss_mib):.0f} MiB in all, "
                f"median {statistics.median(self.kernel_pss_mib):.0f} MiB each "
                f"(RSS median {statistics.median(self.kernel_rss_mib):.0f} MiB, max {max(self.kernel_rss_mib):.0f})"
            )
        if self.engine == "solara":
            missed = misses(self)
            lines.append(
                "[load]   issue 21's targets: " + ("all met" if not missed else "missed: " + "; ".join(missed))
            )
        lines += [f"[load]   error: {e}" for e in self.errors[:5]]
        return "\n".join(lines)


def misses(result: Result) -> list[str]:
    """Issue 21's targets for the one-process engine that this class missed (30 students: memory
    at most 1 GB; 100: 1.5 GB; both: no page lost, 0.2 s of server CPU a page, 50 ms a click,
    Roll answered within 1 s at p95)."""
    roll = result.phases[1].seconds if len(result.phases) > 1 else []
    limit = 1.5 * GB if result.students > 30 else GB
    checks = [
        (result.lost == 0 and not result.unanswered(), f"{result.lost} lost, {result.unanswered()} unanswered"),
        (result.pss_mib <= limit, f"memory {result.pss_mib:.0f} MiB > {limit:.0f} MiB"),
        (result.phases[0].per() <= 0.2, f"{result.phases[0].per():.2f} s a page > 0.2 s"),
        (result.per_click() <= 0.05, f"{1000 * result.per_click():.0f} ms a click > 50 ms"),
        (bool(roll) and quantiles(roll)[1] <= 1.0, f"{result.phases[1].name} p95 {quantiles(roll)[1]:.2f} s > 1 s"),
    ]
    return [why for ok, why in checks if not ok]


def _p(values: list[float], top: bool = False) -> str:
    p50, p95, most = quantiles(values)
    return f"{p50:.2f} / {p95:.2f}" + (f" / {most:.2f}" if top else "") + " s"


def machine() -> str:
    """This machine in a few words: cores, memory, processor."""
    mem = next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
    gib = int(mem.split()[1]) / 2**20
    cpu = [
        line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines() if "model name" in line
    ]
    return f"{os.cpu_count()} cores, {gib:.0f} GiB RAM" + (f", {cpu[0]}" if cpu else "") + f", {platform.system()}"


def table(results: list[Result], command: str) -> str:
    """The classes side by side, a markdown table (for the README's "A class at once")."""
    first = results[0]
    arrive = f"arriving over {first.spread:g} s" if first.spread else "all at once"
    head = (
        f"{first.students} students on {first.dashboard}, {arrive}, {datetime.date.today().isoformat()}, "
        f"{machine()}, the browsers on the same machine: `{command}`"
    )

    def clicks(r: Result, name: str) -> str:
        p = r.phase(name)
        return _p(p.seconds) + ("" if len(p.seconds) == p.count else f" ({p.count - len(p.seconds)} unanswered)")

    def per_click(r: Result) -> str:
        each = ", ".join(f"{p.name} {1000 * p.per():.0f}" for p in r.clicks())
        return f"{1000 * r.per_click():.0f} ms ({each})"

    def memory(r: Result) -> str:
        kernels = f"; {len(r.kernel_pss_mib)} kernels" if r.kernel_pss_mib else ""
        return f"{r.pss_mib:.0f} MiB PSS (RSS {r.rss_mib:.0f}, {r.processes} processes{kernels})"

    rows = [
        ("first chart p50 / p95 / max", lambda r: _p(r.phases[0].seconds, top=True)),
        *(
            (f"{name} to answer p50 / p95", lambda r, name=name: clicks(r, name) if r.phase(name) else "–")
            for name in dict.fromkeys(p.name for r in results for p in r.clicks())
        ),
        ("lost pages", lambda r: f"{r.lost} of {r.students}"),
        ("errors", lambda r: str(len(r.errors))),
        ("server CPU per page", lambda r: f"{r.phases[0].per():.2f} s"),
        ("server CPU per click", per_click),
        ("server memory in all, pages open", memory),
    ]
    lines = [
        head,
        "",
        "| | " + " | ".join(r.label for r in results) + " |",
        "|---" * (len(results) + 1) + "|",
    ]
    lines += [f"| {name} | " + " | ".join(cell(r) for r in results) + " |" for name, cell in rows]
    lines += ["", "Served by: " + "; ".join(f"`nessus serve {shlex.join(r.command)}`" for r in results)]
    return "\n".join(lines)
