"""The `nessus` command line: report, simulate, serve, lab, games, data, publish.

Bad input never gives a traceback: one line on stderr naming the problem and the allowed
values, and exit code 2. Ctrl-C during a simulation prints the figures of the trials finished so
far and one line saying how many, with exit code 130.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import textwrap
import threading
from collections.abc import Sequence
from typing import NoReturn

from nessus import __version__, games
from nessus.serving import DEFAULT_ENGINE, ENGINES, serve_command

USAGE_ERROR = 2
INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
LONG_RUN = 60.0  # seconds: a simulation expected to take longer says so first
CONNECT_TIMEOUT = "10s"  # how long `--scheduler` waits for the scheduler to answer
HELP_TRIALS = 64  # trials of the small simulation that names a game's simulated figures


class UsageError(Exception):
    """A problem with what the user typed."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        if message.endswith("required: command"):
            message = "a command is required; allowed: report, simulate, serve, lab, games, data, publish"
        elif message.endswith("required: game"):
            message = f"a game is required; allowed: {', '.join(games.GAMES)}"
        raise UsageError(message)


def _positive_int(name: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a positive integer, got {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{name} must be a positive integer, got {value}")
        return value

    return parse


def _names(text: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip())


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"seed must be a non-negative integer, got {value}")
    return value


def _assignment(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"--set takes NAME=VALUE, got {text!r}")
    return name.strip(), value


def _parser() -> _Parser:
    parser = _Parser(prog="nessus", description="Exact odds and Monte Carlo checks for the games of Nessus.")
    parser.add_argument("--version", action="version", version=f"nessus {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    game_help = "one of: " + ", ".join(games.GAMES)
    help_help = "show this help; with a game, its parameters and figures"
    rep = sub.add_parser(
        "report",
        help="a game's exact headline figures",
        add_help=False,
        description="A game's exact headline figures. `nessus report GAME --help` lists its parameters and figures.",
    )
    rep.add_argument("-h", "--help", action="store_true", help=help_help)
    rep.add_argument("game", nargs="?", help=game_help)
    _report_options(rep)
    rep.set_defaults(command_parser=rep)

    sim = sub.add_parser(
        "simulate",
        help="a game's figures by Monte Carlo, with confidence intervals",
        add_help=False,
        description="A game's figures by Monte Carlo, with 95% confidence intervals. Ctrl-C stops "
        "and prints the figures so far. `nessus simulate GAME --help` lists the game's "
        "parameters and figures.",
    )
    sim.add_argument("-h", "--help", action="store_true", help=help_help)
    sim.add_argument("game", nargs="?", help=game_help)
    _simulate_options(sim)
    sim.set_defaults(command_parser=sim)

    srv = sub.add_parser("serve", help="serve the dashboards gallery, for one person or a class")
    srv.add_argument("--port", type=_positive_int("port"), default=8866)
    srv.add_argument(
        "--engine",
        choices=ENGINES,
        default=DEFAULT_ENGINE,
        help=f"solara: every page in one process (about 1 MiB a page); voila: a kernel per page (about 130 MiB), "
        f"with lesson-mode pools (default: {DEFAULT_ENGINE})",
    )
    srv.add_argument(
        "--ip",
        "--host",
        dest="ip",
        default="127.0.0.1",
        help="address to serve on: 0.0.0.0 serves the classroom's network (default: this machine only)",
    )
    srv.add_argument(
        "--students",
        type=_positive_int("students"),
        default=0,
        help="lesson mode: keep this many preheated kernels of each --dashboards page",
    )
    srv.add_argument(
        "--dashboards",
        type=_names,
        default=(),
        metavar="NAME,NAME",
        help="today's lesson's dashboards, e.g. le-palais,la-boue (with --students)",
    )
    srv.add_argument(
        "--max-viewers",
        type=_positive_int("max-viewers"),
        default=None,
        help="pages open at once before a page says the class is full (default: what the memory holds)",
    )
    srv.add_argument(
        "--pool-size", type=_positive_int("pool-size"), default=1, help="preheated kernels kept ready per dashboard"
    )
    srv.add_argument(
        "--no-preheat",
        action="store_true",
        help="start a fresh kernel for every page view instead (slower first chart)",
    )

    lab = sub.add_parser(
        "lab",
        help="open the lessons in JupyterLab",
        description="Open the lessons in JupyterLab: in a checkout, its notebooks/; installed, a copy the "
        "user can edit (lessons already there are kept, missing ones copied).",
    )
    lab.add_argument(
        "--dir",
        default="nessus-lessons",
        help="installed nessus: the folder the lessons are copied to (default: ./nessus-lessons)",
    )
    lab.add_argument("--port", type=_positive_int("port"), default=8888)
    lab.add_argument("--no-browser", action="store_true", help="do not open a browser")

    sub.add_parser("games", help="list the games")

    data = sub.add_parser("data", help="precomputed tables in data/: rebuild or check them")
    data.add_argument("action", choices=("rebuild", "check"))
    data.add_argument("game", nargs="*", help="games to rebuild or check (default: every game with tables)")

    pub = sub.add_parser("publish", help="run the lessons and write them as a static offline site")
    pub.add_argument("lesson", nargs="*", help="lessons to publish, e.g. 00-who-starts or 01 (default: all)")
    pub.add_argument("--out", default=None, help="output folder (default: site/ in the project)")
    pub.add_argument(
        "--dashboards-url", default="../voila/render/", help="where the widget notes link to the live dashboards"
    )
    return parser


def _report_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        type=_assignment,
        metavar="NAME=VALUE",
        help="a parameter of the game (repeat for several)",
    )
    parser.add_argument("--json", action="store_true", help="print the JSON contract instead of a table")


def _simulate_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trials", type=_positive_int("trials"), default=100_000, metavar="N", help="default: 100000")
    parser.add_argument(
        "--seed", type=_seed, default=0, metavar="N", help="default: 0; the same seed gives the same figures"
    )
    parser.add_argument(
        "--workers",
        type=_positive_int("workers"),
        default=None,
        metavar="N",
        help="run on a local Dask cluster of N processes",
    )
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786; default: DASK_SCHEDULER_ADDRESS)",
    )
    _report_options(parser)


def _wrapped(name: str, width: int, text: str) -> str:
    return textwrap.fill(text, 100, initial_indent=f"  {name.ljust(width)}  ", subsequent_indent=" " * (width + 4))


def parameter_defaults(game) -> dict[str, str]:
    """Each parameter's default as `--set` takes it (true/false for a switch, none for no text)."""
    return {
        k: str(v).lower() if isinstance(v, bool) else (str(v) if v != "" else "none")
        for k, v in game.Rules().as_dict().items()
    }


def figure_help(command: str, game, rules) -> dict[str, str]:
    """The figures `nessus report|simulate GAME` gives under `rules`, each with its help line
    (a simulation's figures are named by a small one, of HELP_TRIALS trials)."""
    exact = game.report(rules).figures
    if command == "report":
        return {name: f.help for name, f in exact.items()}
    simulated = game.simulate(rules.fewest_counts(), HELP_TRIALS, 0, progress=False).figures
    return {name: f.help or (exact[name].help if name in exact else "simulated only") for name, f in simulated.items()}


def _game_help(command: str, game, rules) -> str:
    """`nessus report|simulate GAME --help`: the options, the game's parameters (range, default,
    help) and its figures (name and help) under these rules."""
    params = game.Rules.params
    width = max(len(p.name) for p in params)
    defaults = parameter_defaults(game)
    lines = ["parameters (--set NAME=VALUE):"]
    lines += [_wrapped(p.name, width, f"{p.help} ({p.allowed()}; default {defaults[p.name]})") for p in params]
    figures = figure_help(command, game, rules)
    changed = ", ".join(f"{k}={v}" for k, v in rules.as_dict().items() if v != game.Rules().as_dict()[k])
    lines += ["", f"figures ({'these rules: ' + changed if changed else 'default rules'}):"]
    width = max(map(len, figures))
    lines += [_wrapped(name, width, text) for name, text in figures.items()]
    parser = argparse.ArgumentParser(
        prog=f"nessus {command} {game.name}",
        description=f"{game.title}: {game.summary}",
        epilog="\n".join(lines),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    (_report_options if command == "report" else _simulate_options)(parser)
    return parser.format_help()


def _rules(game, sets: list[tuple[str, str]]):
    return game.Rules.from_strings(dict(sets))


def _print_report(report, as_json: bool) -> None:
    print(json.dumps(report.to_json(), indent=2) if as_json else report.to_text())


def _note(line: str) -> None:
    sys.stdout.flush()
    print(f"nessus: {line}", file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    """A duration of a minute or more, to the minute (to the hour from a day): "4 h 50 min"."""
    minutes = max(round(seconds / 60), 1)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(round(seconds / 3600), 24)
    return f"{days} d {hours} h" if hours else f"{days} d"


def _rate(per_second: float) -> str:
    """A rate to 3 significant digits: "575,000"."""
    if per_second < 100:
        return f"{per_second:.3g}"
    return f"{round(per_second, 2 - math.floor(math.log10(per_second))):,.0f}"


def _simulate(args, game, rules) -> int:
    """Run the simulation in the foreground (see montecarlo.foreground); returns the exit code."""
    from nessus import montecarlo

    progress = None if sys.stderr.isatty() else False

    def announce(seconds: float) -> None:
        if seconds > LONG_RUN:
            _note(
                f"about {_duration(seconds)} for {args.trials:,} trials at ~{_rate(args.trials / seconds)} trials/s; "
                "Ctrl-C stops and prints the figures so far"
            )

    def run(client) -> montecarlo.Outcome:
        return montecarlo.foreground(
            lambda n: game.simulate(rules, n, args.seed, client=client, progress=progress), args.trials, announce
        )

    address = args.scheduler or (os.environ.get("DASK_SCHEDULER_ADDRESS") if not args.workers else None)
    if args.workers and args.scheduler:
        raise UsageError("--workers starts a cluster here and --scheduler joins one: give one of them")
    if address:
        from dask.distributed import Client

        try:
            client = Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, ValueError, TypeError) as e:
            raise UsageError(f"--scheduler: no Dask scheduler answers at {address!r} ({e})") from None
        with client:
            outcome = run(client)
    elif args.workers:
        from dask.distributed import Client

        main_thread = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main_thread else None
        try:  # the worker processes start ignoring Ctrl-C, which is for this process to handle
            cluster = montecarlo.local_cluster(args.workers)
        finally:
            if main_thread:
                signal.signal(signal.SIGINT, previous)
        with cluster, Client(cluster) as client:
            outcome = run(client)
    else:
        outcome = run(None)
    if outcome.result is not None:
        doc = outcome.result.to_json()
        if outcome.interrupted:
            doc["interrupted"] = {"trials_done": outcome.trials, "trials_requested": outcome.requested}
        print(json.dumps(doc, indent=2) if args.json else outcome.result.to_text())
    if not outcome.interrupted:
        return 0
    what = "figures from those" if outcome.result is not None else "no figures"
    _note(f"interrupted after {outcome.trials:,} of {outcome.requested:,} trials; {what}")
    return INTERRUPTED


def _serve(args) -> None:
    import subprocess

    from nessus import classroom
    from nessus.serving import ServeOptions

    if args.dashboards and not args.students:
        raise UsageError("--dashboards needs --students (how many to keep ready for), e.g. --students 30")
    if args.students and not args.dashboards:
        raise UsageError("--students needs --dashboards (today's lesson's pages), e.g. --dashboards le-palais")
    options = ServeOptions(
        port=args.port,
        ip=args.ip,
        preheat=not args.no_preheat,
        pool_size=args.pool_size,
        students=args.students,
        lesson=args.dashboards,
        max_viewers=args.max_viewers,
        engine=args.engine,
    )
    classroom.check_lesson(options.lesson, options.dashboards)
    command = serve_command(
        args.port,
        not args.no_preheat,
        args.pool_size,
        ip=args.ip,
        students=args.students,
        lesson=args.dashboards,
        max_viewers=options.viewers(),
        engine=args.engine,
    )
    print(f"nessus: the dashboards gallery is at {options.url()}", flush=True)
    if options.url().startswith("http://localhost"):
        print("nessus: this machine only; `nessus serve --ip 0.0.0.0` serves the classroom's network", flush=True)
    if args.students and args.engine == "solara":
        lesson = ", ".join(args.dashboards)
        print(f"nessus: lesson mode: one process builds each student's page as it is asked for ({lesson})", flush=True)
    elif args.students:
        kept = sum(options.pools().values())
        print(
            f"nessus: lesson mode: {kept} kernels kept ready for {args.students} students "
            f"({', '.join(args.dashboards)}); about {kept * 3 // 2} s to prepare",
            flush=True,
        )
    print(f"nessus: at most {options.viewers()} pages open at once; press Ctrl-C to stop", flush=True)
    server = subprocess.Popen(command)
    signal.signal(signal.SIGTERM, lambda *_: server.terminate())  # stopped: stop the server (Voila: its kernels too)
    try:
        server.wait()
    except KeyboardInterrupt:  # Ctrl-C reached the server as well: let it shut down
        server.wait()


def _lab(args) -> int:
    """Run JupyterLab on the lessons (a copy the user can edit, when installed); returns its exit code."""
    import subprocess
    from pathlib import Path

    from nessus import paths

    folder = paths.NOTEBOOKS
    if paths.INSTALLED:
        folder = Path(args.dir).resolve()
        copied = paths.copy_lessons(folder)
        print(f"nessus: the lessons are in {folder} ({len(copied)} copied, the others kept as they were)", flush=True)
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={folder}", f"--port={args.port}"]
    if args.no_browser:
        command.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # a container's user: JupyterLab refuses root unless told
        command.append("--allow-root")
    server = subprocess.Popen(command, cwd=folder)
    signal.signal(signal.SIGTERM, lambda *_: server.terminate())
    try:
        return server.wait()
    except KeyboardInterrupt:  # Ctrl-C reached JupyterLab as well: it asks, then shuts down
        return server.wait()


def _data(args) -> int:
    from nessus import precompute

    if args.action == "rebuild":
        for written in precompute.rebuild(args.game):
            print(f"wrote {written}")
        return 0
    problems = precompute.check(args.game)
    for problem in problems:
        print(f"nessus: {problem}", file=sys.stderr)
    if not problems:
        print("every stored table equals a fresh computation")
    return 1 if problems else 0


def _publish(args) -> int:
    from pathlib import Path

    from nessus import publish

    try:
        publish.publish(args.lesson, Path(args.out) if args.out else publish.SITE, args.dashboards_url)
    except publish.LessonFailed as e:
        print(f"nessus: {e}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0, 2 on bad input, 130 after Ctrl-C)."""
    try:
        args = _parser().parse_args(argv)
        if args.command == "games":
            width = max(map(len, games.GAMES))
            for name, game in games.GAMES.items():
                print(f"{name.ljust(width)}  {game.title}: {game.summary}")
        elif args.command in ("report", "simulate"):
            if args.game is None and args.help:
                print(args.command_parser.format_help(), end="")
                return 0
            if args.game is None:
                raise UsageError(f"a game is required; allowed: {', '.join(games.GAMES)}")
            game = games.get(args.game)
            rules = _rules(game, args.sets)
            if args.help:
                print(_game_help(args.command, game, rules), end="")
            elif args.command == "report":
                _print_report(game.report(rules), args.json)
            else:
                return _simulate(args, game, rules)
        elif args.command == "serve":
            _serve(args)
        elif args.command == "lab":
            return _lab(args)
        elif args.command == "data":
            return _data(args)
        elif args.command == "publish":
            return _publish(args)
    except (UsageError, ValueError) as e:
        print(f"nessus: error: {' '.join(str(e).split())}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:  # the reader went away (`nessus report ... | head`): not an error
        sys.stdout = open(os.devnull, "w")
    except KeyboardInterrupt:
        _note("interrupted")
        return INTERRUPTED
    return 0


if __name__ == "__main__":
    sys.exit(main())
