"""bench/_cpu.py: the CPU a process tree used, read from /proc."""

import subprocess
import sys
import time

import pytest

from bench_modules import load_bench


@pytest.fixture(scope="module")
def cpu():
    return load_bench("_cpu.py", "bench_cpu")


BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"


def test_a_tree_counts_its_children_running_and_exited(cpu, tmp_path):
    # A parent that burns 0.3 s in a child that exits, then waits with a
    # running child that burns 0.3 s more: the tree used at least 0.6 s.
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys\n"
            f"subprocess.run([sys.executable, '-c', {BURN.format(s=0.3)!r}])\n"
            f"p = subprocess.Popen([sys.executable, '-c', {BURN.format(s=0.3) + 'input()'!r}],"
            " stdin=subprocess.PIPE)\n"
            "print('ready', flush=True)\n"
            "input()\n"
            "p.communicate(b'\\n')\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout.readline().strip() == "ready"
        used, tries = cpu.tree_cpu_ms(parent.pid), 0
        while used < 600 and tries < 100:  # the running child may still be burning
            time.sleep(0.05)
            used, tries = cpu.tree_cpu_ms(parent.pid), tries + 1
        assert used >= 600
    finally:
        parent.communicate("\n")


def test_no_root_and_no_server_count_nothing(cpu, tmp_path):
    assert cpu.tree_cpu_ms(None) == 0.0
    assert cpu.postmaster_pid(tmp_path) is None
    (tmp_path / "postmaster.pid").write_text("4242\n/data\n")
    assert cpu.postmaster_pid(tmp_path) == 4242
