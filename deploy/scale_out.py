"""Serve a bigger class from one machine: several `nessus serve` processes behind HAProxy.

    python3 deploy/scale_out.py --processes 2 --port 8866 --ip 0.0.0.0 -- --students 15 --dashboards le-palais

Starts N `nessus serve` backends (default: one per core) on the free loopback ports after --port,
each with the arguments after `--`, writes an HAProxy configuration to a temporary folder, runs
`haproxy` in the foreground, prints the address the students type, and stops everything on Ctrl-C
or SIGTERM.

Every page's kernel lives in one backend, so each student must stay on the backend that served
the page, websocket included. HAProxy pins a browser with a cookie it inserts (NESSUS) rather
than by address (nginx's `ip_hash`): a school's students often reach the server from one NAT
address, which `ip_hash` would send, all of them, to one backend. Standard library only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HEALTH = "/nessus/status"
START_TIMEOUT = 300  # seconds for a backend to answer HEALTH with its pools filled
STOP_TIMEOUT = 30  # seconds for a backend to shut its kernels down before it is killed


def free_ports(after: int, n: int) -> list[int]:
    """The first n loopback ports after `after` free now: 8867, 8868... by default, below the range
    where the kernels draw theirs."""
    found: list[int] = []
    port = after
    while len(found) < n:
        port += 1
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        found.append(port)
    return found


def haproxy_config(bind: str, port: int, backends: list[int], sticky: bool = True) -> str:
    """The HAProxy configuration: one frontend on bind:port, the backends on these loopback ports;
    without `sticky`, every request goes to a backend drawn at random (the tests' control)."""
    persist = (
        "    balance leastconn\n    cookie NESSUS insert indirect nocache\n" if sticky else "    balance random(1)\n"
    )
    servers = "".join(
        f"    server b{i} 127.0.0.1:{p}{f' cookie b{i}' if sticky else ''} check inter 2s\n"
        for i, p in enumerate(backends, 1)
    )
    return (
        "global\n    maxconn 2000\n\n"
        "defaults\n    mode http\n    timeout connect 5s\n    timeout client 1m\n"
        "    timeout server 5m\n    timeout tunnel 1h\n    timeout http-keep-alive 10s\n\n"
        f"frontend students\n    bind {bind}:{port}\n    default_backend nessus\n\n"
        f"backend nessus\n{persist}"
        f"    option httpchk GET {HEALTH}\n    http-check expect status 200\n{servers}"
    )


def students_address(ip: str, port: int) -> str:
    """The address students type: the LAN address when serving every interface (found without
    sending anything: a UDP socket's route), localhost for loopback."""
    host = ip
    if ip in ("", "0.0.0.0", "::"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect(("192.0.2.1", 9))
                host = s.getsockname()[0]
            except OSError:
                host = socket.gethostname()
    elif ip.startswith("127.") or ip in ("localhost", "::1"):
        host = "localhost"
    return f"http://{host}:{port}/"


def find_program(name: str, *beside: Path) -> str:
    """The path of a program: in one of `beside`, else on PATH; exits saying so if missing."""
    for folder in beside:
        if (folder / name).exists():
            return str(folder / name)
    found = shutil.which(name)
    if not found:
        sys.exit(f"scale_out: `{name}` not found (looked in {', '.join(map(str, beside))} and on PATH)")
    return found


def pools_filled(port: int) -> bool | None:
    """Whether the backend on this loopback port has filled its kernel pools (Voila's; Solara has
    none); None while it does not answer."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{HEALTH}", timeout=5) as r:
            pools = json.load(r)["pools"].values()
    except (OSError, ValueError, KeyError, http.client.HTTPException):
        return None
    return all(p["ready"] >= p["kept"] for p in pools)


def wait_filled(name: str, proc: subprocess.Popen, port: int) -> bool:
    """Wait until a backend's pools are filled (or START_TIMEOUT, then go on), so that the next
    backend's kernels do not start beside its own; whether it answers."""
    deadline = time.monotonic() + START_TIMEOUT
    while not (filled := pools_filled(port)):
        if proc.poll() is not None or (filled is None and time.monotonic() > deadline):
            return False
        if time.monotonic() > deadline:
            print(f"scale_out: {name}'s pools not filled after {START_TIMEOUT} s; going on", flush=True)
            break
        time.sleep(1)
    return True


def stop(procs: list[subprocess.Popen]) -> None:
    """Ask every process to stop (a backend then shuts its kernels down), then kill those left."""
    for sig in (signal.SIGINT, signal.SIGTERM):  # a second Ctrl-C would leave kernels behind
        signal.signal(sig, signal.SIG_IGN)
    for p in procs:
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + STOP_TIMEOUT
    for p in procs:
        try:
            p.wait(max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def parse(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """The options, and the arguments after `--` for every `nessus serve`."""
    ours, extra = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(
        usage="%(prog)s [options] [-- nessus serve options]",
        description=__doc__.split("\n\n")[0],
        epilog="Arguments after -- go to every backend.",
    )
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1, help="backends (default: the cores)")
    parser.add_argument("--port", type=int, default=8866, help="the port students use (default 8866)")
    parser.add_argument("--ip", default="127.0.0.1", help="0.0.0.0 serves the school's network (default: this machine)")
    parser.add_argument("--engine", choices=("voila", "solara"), help="passed to nessus serve (default: its own)")
    parser.add_argument("--haproxy", default=None, help="the haproxy program (default: /usr/sbin/haproxy or PATH)")
    parser.add_argument(
        "--no-sticky",
        action="store_true",
        help="for the tests' control only: each request to a backend at random, so pages lose their kernel",
    )
    return parser.parse_args(ours), extra


def main(argv: list[str] | None = None) -> int:
    """Run the backends and HAProxy until Ctrl-C, SIGTERM or one of them exits; the exit code."""
    args, extra = parse(sys.argv[1:] if argv is None else argv)
    nessus = find_program("nessus", Path(sys.executable).parent)
    haproxy = args.haproxy or find_program("haproxy", Path("/usr/sbin"))
    engine = ["--engine", args.engine] if args.engine else []
    for sig in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C too, even where a shell started us ignoring it
        signal.signal(sig, lambda *_: sys.exit(0))  # the finally below stops everything
    procs: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory(prefix="nessus-haproxy-") as tmp:
        try:
            ports = free_ports(args.port, args.processes)
            for i, port in enumerate(ports, 1):
                cmd = [nessus, "serve", "--port", str(port), *engine, *extra]
                print(f"scale_out: backend b{i} at http://127.0.0.1:{port} ({' '.join(cmd)})", flush=True)
                procs.append(subprocess.Popen(cmd, stdin=subprocess.DEVNULL, start_new_session=True))
                if not wait_filled(f"b{i}", procs[-1], port):
                    print(f"scale_out: backend b{i} did not start; stopping", file=sys.stderr, flush=True)
                    return 1
            config = Path(tmp) / "haproxy.cfg"
            config.write_text(haproxy_config(args.ip, args.port, ports, sticky=not args.no_sticky))
            procs.insert(0, subprocess.Popen([haproxy, "-db", "-f", str(config)], start_new_session=True))
            print(f"scale_out: HAProxy configuration {config}", flush=True)
            print(f"scale_out: students type {students_address(args.ip, args.port)}; Ctrl-C stops", flush=True)
            while all(p.poll() is None for p in procs):
                time.sleep(1)
            print("scale_out: a process exited; stopping", file=sys.stderr, flush=True)
            return 1
        finally:
            stop(procs)


if __name__ == "__main__":
    sys.exit(main())
