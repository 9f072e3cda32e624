"""What a classroom server needs to know about its machine and its students.

The address the students type (the machine's LAN address, found without sending anything on
the network), a QR code of it, how many viewer kernels the machine's memory holds, and the
kernel pools a lesson keeps ready. No Voila here: `nessus.serving` uses these.

>>> pools(students=30, lesson=("le-palais",), dashboards=("le-palais", "la-boue"), pool_size=1)
{'le-palais.ipynb': 30, 'la-boue.ipynb': 0}
>>> pools(students=0, lesson=(), dashboards=("le-palais", "la-boue"), pool_size=1)
{'le-palais.ipynb': 1, 'la-boue.ipynb': 1}
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from collections.abc import Iterable, Sequence
from pathlib import Path

KERNEL_MIB = 250
"""Memory set aside per kernel when sizing the cap (measured: 130-212 MiB RSS after first paint)."""
RESERVE_MIB = 2048
"""Memory left for Voila itself, the operating system and the rest."""
MIN_VIEWERS, MAX_VIEWERS = 4, 400
SIOCGIFADDR = 0x8915


def available_mib(meminfo: Path = Path("/proc/meminfo")) -> int:
    """The machine's available memory in MiB (MemAvailable; 4096 where it cannot be read)."""
    try:
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 4096


def default_max_viewers(pool_kernels: int, available: int | None = None) -> int:
    """How many viewer kernels fit beside `pool_kernels` preheated ones in the available memory
    (MiB), each counted at KERNEL_MIB, keeping RESERVE_MIB free; between MIN_VIEWERS and MAX_VIEWERS.

    >>> default_max_viewers(0, available=24_000)
    87
    >>> default_max_viewers(60, available=24_000)
    27
    >>> default_max_viewers(0, available=1_000)
    4
    """
    available = available_mib() if available is None else available
    fit = (available - RESERVE_MIB) // KERNEL_MIB - pool_kernels
    return max(MIN_VIEWERS, min(MAX_VIEWERS, fit))


def notebook(name: str) -> str:
    """A dashboard's notebook file from its name, with or without `.ipynb`."""
    return name if name.endswith(".ipynb") else f"{name}.ipynb"


def pools(students: int, lesson: Sequence[str], dashboards: Iterable[str], pool_size: int) -> dict[str, int]:
    """Preheated kernels to keep per dashboard notebook: `students` for each of today's lesson's
    dashboards and none for the others (started on demand), or `pool_size` for every dashboard
    outside a lesson."""
    chosen = {notebook(d) for d in lesson}
    if students > 0 and chosen:
        return {notebook(d): (students if notebook(d) in chosen else 0) for d in dashboards}
    return {notebook(d): pool_size for d in dashboards}


def check_lesson(lesson: Sequence[str], dashboards: Iterable[str]) -> None:
    """A ValueError naming any lesson dashboard that does not exist."""
    known = sorted(Path(notebook(d)).stem for d in dashboards)
    unknown = [d for d in lesson if Path(notebook(d)).stem not in known]
    if unknown:
        raise ValueError(f"dashboards must be among {', '.join(known)}; got {', '.join(unknown)}")


def _interface_address(name: str) -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
        except OSError:
            return None
    return socket.inet_ntoa(packed[20:24])


def lan_addresses() -> list[str]:
    """The machine's IPv4 addresses on its network interfaces, loopback left out (read from the
    interfaces themselves: nothing is sent)."""
    found = []
    for _, name in socket.if_nameindex():
        address = _interface_address(name)
        if address and not ipaddress.ip_address(address).is_loopback and address not in found:
            found.append(address)
    return found


def student_url(ip: str, port: int) -> str:
    """The address students type: the bound address, or the machine's LAN address when
    serving every interface (0.0.0.0); localhost when serving this machine only."""
    if ip in ("", "0.0.0.0", "::"):
        addresses = lan_addresses()
        host = addresses[0] if addresses else socket.gethostname()
    elif ip == "localhost" or (_is_ip(ip) and ipaddress.ip_address(ip).is_loopback):
        host = "localhost"
    else:
        host = ip
    return f"http://{host}:{port}/"


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def class_full_page(max_viewers: int, retry_seconds: int = 60) -> str:
    """The page a student gets when every place on the server is taken."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta http-equiv='refresh' content='{retry_seconds}'>"
        "<meta name='viewport' content='width=device-width,initial-scale=1'><title>The class is full</title>"
        "<style>body{font-family:system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;line-height:1.5}"
        "@media (prefers-color-scheme:dark){body{background:#111;color:#eee}}</style></head><body>"
        "<h1>The class is full</h1>"
        f"<p>All {max_viewers} places on this server are taken. This page tries again by itself in "
        f"{retry_seconds // 60 or 1} minute; a place frees up when someone closes their page.</p>"
        f"<p class='nessus-full' data-max-viewers='{max_viewers}'>Teacher: <code>nessus serve --max-viewers N</code> "
        "sets the number of places.</p></body></html>"
    )
