"""Run one hook command and record its whole-process wall and CPU time.

Installed as the hook command (``python time_hook.py /path/engram hook --host X``),
it passes stdin and stdout through unchanged and appends ``{"event", "seconds",
"cpu", "load"}`` to the file named by ``HOOK_TIMES``: the hook's wall time, its
user + system CPU time, and the one-minute load average when it ended.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time

raw = sys.stdin.buffer.read()
before = resource.getrusage(resource.RUSAGE_CHILDREN)
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], input=raw, capture_output=True)
seconds = time.perf_counter() - started
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
try:
    event = json.loads(raw).get("hook_event_name", "?")
except ValueError:
    event = "?"
record = {"event": event, "seconds": round(seconds, 3), "cpu": round(cpu, 3)}
record["load"] = round(os.getloadavg()[0], 2)
with open(os.environ["HOOK_TIMES"], "a", encoding="utf-8") as log:
    log.write(json.dumps(record) + "\n")
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
sys.exit(done.returncode)
