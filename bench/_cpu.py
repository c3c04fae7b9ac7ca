"""CPU time a process tree spent, from ``/proc`` (Linux): what a benchmark's
servers cost per call, beside the wall time the client measures.

On a machine of two cores the server process and the database share both:
a call's latency follows the CPU the pair spends on it as much as the SQL
plans do, so the context benchmark prints both.
"""

from __future__ import annotations

import os
from pathlib import Path

_TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def _stat(pid: str) -> tuple[int, int] | None:
    """(parent pid, CPU ticks of the process and of its children that exited)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # gone since the listing, or not a process
        return None
    fields = text.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    # fields[1] is ppid; [11], [12] utime, stime; [13], [14] cutime, cstime.
    return int(fields[1]), sum(int(f) for f in fields[11:15])


def tree_cpu_ms(root: int | None) -> float:
    """CPU milliseconds ``root`` and every process under it have used, threads
    and exited children included; 0.0 without a root or on a system without ``/proc``."""
    if root is None or not Path("/proc").is_dir():
        return 0.0
    stats = {int(p): s for p in os.listdir("/proc") if p.isdigit() and (s := _stat(p))}
    total, todo, seen = 0, [root], set()
    while todo:
        pid = todo.pop()
        if pid in seen or pid not in stats:
            continue
        seen.add(pid)
        total += stats[pid][1]
        todo.extend(child for child, (ppid, _) in stats.items() if ppid == pid)
    return total * 1000 / _TICKS_PER_S


def postmaster_pid(pgdata: Path) -> int | None:
    """The pid in a data directory's ``postmaster.pid``; None while no server runs there."""
    try:
        return int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None
