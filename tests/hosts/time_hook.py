"""Run one hook command and record its whole-process wall time.

Installed as the hook command (``python time_hook.py /path/engram hook --host X``),
it passes stdin and stdout through unchanged and appends ``{"event", "seconds"}``
to the file named by ``HOOK_TIMES``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

raw = sys.stdin.buffer.read()
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], input=raw, capture_output=True)
seconds = time.perf_counter() - started
try:
    event = json.loads(raw).get("hook_event_name", "?")
except ValueError:
    event = "?"
with open(os.environ["HOOK_TIMES"], "a", encoding="utf-8") as log:
    log.write(json.dumps({"event": event, "seconds": round(seconds, 3)}) + "\n")
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
sys.exit(done.returncode)
