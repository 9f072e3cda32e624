"""The `nessus` command line: report, simulate, serve, games, data.

Bad input never gives a traceback: one line on stderr naming the problem and the allowed
values, and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from nessus import games
from nessus.serving import serve_command

USAGE_ERROR = 2


class UsageError(Exception):
    """A problem with what the user typed."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        if message.endswith("required: command"):
            message = "a command is required; allowed: report, simulate, serve, games, data, publish"
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
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    game_help = "one of: " + ", ".join(games.GAMES)
    rep = sub.add_parser("report", help="a game's exact headline figures")
    rep.add_argument("game", help=game_help)
    rep.add_argument("--set", dest="sets", action="append", default=[], type=_assignment, metavar="NAME=VALUE")
    rep.add_argument("--json", action="store_true", help="print the JSON contract instead of a table")

    sim = sub.add_parser("simulate", help="a game's figures by Monte Carlo, with confidence intervals")
    sim.add_argument("game", help=game_help)
    sim.add_argument("--trials", type=_positive_int("trials"), default=100_000)
    sim.add_argument("--seed", type=_seed, default=0)
    sim.add_argument("--workers", type=_positive_int("workers"), default=None, help="run on a local Dask cluster")
    sim.add_argument("--set", dest="sets", action="append", default=[], type=_assignment, metavar="NAME=VALUE")
    sim.add_argument("--json", action="store_true")

    srv = sub.add_parser("serve", help="serve the dashboards gallery with Voila, for one person or a class")
    srv.add_argument("--port", type=_positive_int("port"), default=8866)
    srv.add_argument("--ip", "--host", dest="ip", default="127.0.0.1",
                     help="address to serve on: 0.0.0.0 serves the classroom's network (default: this machine only)")
    srv.add_argument("--students", type=_positive_int("students"), default=0,
                     help="lesson mode: keep this many preheated kernels of each --dashboards page")
    srv.add_argument("--dashboards", type=_names, default=(), metavar="NAME,NAME",
                     help="today's lesson's dashboards, e.g. le-palais,la-boue (with --students)")
    srv.add_argument("--max-viewers", type=_positive_int("max-viewers"), default=None,
                     help="pages open at once before a page says the class is full (default: what the memory holds)")
    srv.add_argument("--pool-size", type=_positive_int("pool-size"), default=1, help="preheated kernels kept ready per dashboard")
    srv.add_argument("--no-preheat", action="store_true", help="start a fresh kernel for every page view instead (slower first chart)")

    sub.add_parser("games", help="list the games")

    data = sub.add_parser("data", help="precomputed tables in data/: rebuild or check them")
    data.add_argument("action", choices=("rebuild", "check"))
    data.add_argument("game", nargs="*", help="games to rebuild or check (default: every game with tables)")

    pub = sub.add_parser("publish", help="run the lessons and write them as a static offline site")
    pub.add_argument("lesson", nargs="*", help="lessons to publish, e.g. 00-who-starts or 01 (default: all)")
    pub.add_argument("--out", default=None, help="output folder (default: site/ in the project)")
    pub.add_argument("--dashboards-url", default="http://localhost:8866/voila/render/",
                     help="where the widget notes link to the live dashboards")
    return parser


def _rules(game, sets: list[tuple[str, str]]):
    return game.Rules.from_strings(dict(sets))


def _print_report(report, as_json: bool) -> None:
    print(json.dumps(report.to_json(), indent=2) if as_json else report.to_text())


def _simulate(args) -> None:
    game = games.get(args.game)
    rules = _rules(game, args.sets)
    if args.workers:
        from dask.distributed import Client, LocalCluster

        with LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
            report = game.simulate(rules, args.trials, args.seed, client=client)
    else:
        report = game.simulate(rules, args.trials, args.seed, progress=None if sys.stderr.isatty() else False)
    _print_report(report, args.json)


def _serve(args) -> None:
    import subprocess

    from nessus import classroom
    from nessus.serving import ServeOptions

    if args.dashboards and not args.students:
        raise UsageError("--dashboards needs --students (how many to keep ready for), e.g. --students 30")
    if args.students and not args.dashboards:
        raise UsageError("--students needs --dashboards (today's lesson's pages), e.g. --dashboards le-palais")
    options = ServeOptions(port=args.port, ip=args.ip, preheat=not args.no_preheat, pool_size=args.pool_size,
                           students=args.students, lesson=args.dashboards, max_viewers=args.max_viewers)
    classroom.check_lesson(options.lesson, options.dashboards)
    command = serve_command(args.port, not args.no_preheat, args.pool_size, ip=args.ip, students=args.students,
                            lesson=args.dashboards, max_viewers=options.viewers())
    print(f"nessus: the dashboards gallery is at {options.url()}", flush=True)
    if options.url().startswith("http://localhost"):
        print("nessus: this machine only; `nessus serve --ip 0.0.0.0` serves the classroom's network", flush=True)
    if args.students:
        kept = sum(options.pools().values())
        print(f"nessus: lesson mode: {kept} kernels kept ready for {args.students} students "
              f"({', '.join(args.dashboards)}); about {kept * 3 // 2} s to prepare", flush=True)
    print(f"nessus: at most {options.viewers()} pages open at once; press Ctrl-C to stop", flush=True)
    try:
        subprocess.run(command, check=False)
    except KeyboardInterrupt:
        pass


def _data(args) -> int:
    from nessus import tables

    if args.action == "rebuild":
        for written in tables.rebuild(args.game):
            print(f"wrote {written}")
        return 0
    problems = tables.check(args.game)
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
    """Run the CLI; returns the exit code (0, or 2 on bad input)."""
    try:
        args = _parser().parse_args(argv)
        if args.command == "games":
            width = max(map(len, games.GAMES))
            for name, game in games.GAMES.items():
                print(f"{name.ljust(width)}  {game.TITLE}: {game.SUMMARY}")
        elif args.command == "report":
            game = games.get(args.game)
            _print_report(game.report(_rules(game, args.sets)), args.json)
        elif args.command == "simulate":
            _simulate(args)
        elif args.command == "serve":
            _serve(args)
        elif args.command == "data":
            return _data(args)
        elif args.command == "publish":
            return _publish(args)
    except (UsageError, ValueError) as e:
        print(f"nessus: error: {' '.join(str(e).split())}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:  # the reader went away (`nessus report ... | head`): not an error
        sys.stdout = open(os.devnull, "w")
    return 0


if __name__ == "__main__":
    sys.exit(main())
