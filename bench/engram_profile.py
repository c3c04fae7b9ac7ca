"""Where one whole-process ``engram load`` (or Claude prompt hook) spends its CPU time.

Run as the process under test, in place of the ``engram`` console script:

    python bench/engram_profile.py [--repeat N] [--hook] [--seen] [--warm] [--src CHECKOUT/src]

Each repetition runs a fresh interpreter on a fresh copy of the shared corpus with an
empty index cache (``--seen``: a memo filled beforehand; ``--warm``: the index built
beforehand), and reports per phase the median CPU time (``time.process_time``, so a busy
machine inflates it far less than the wall clock): interpreter start (until this
script's first line), imports, index build split into its steps, routing and output.
Steps are timed by wrapping their functions; a wrapper costs well under a microsecond a
call, so the figures are the code's own to about 1 ms.
"""

from __future__ import annotations

import time

_START = time.process_time()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "data" / "engram-rules" / "corpus"
TASK = "write a migration for the orders table"

# (label, module, attribute path): leaf steps of a cold build, timed exclusive of each other.
STEPS = (
    ("find roots, read config", "haki.engram.workspace", "locate"),
    ("scan and stat files", "haki.engram.index", "scan_files"),
    ("hash files (sha256)", "haki.engram.hashes", "sha256_bytes"),
    ("memo key (code digest)", "haki.engram.memo", "derivation_key"),
    ("memo read", "haki.engram.memo", "Memo.get_many"),
    ("memo write (sqlite)", "haki.engram.memo", "Memo.put_many"),
    # A step of the cold build, in ``build`` and, before it was split off, in ``index``.
    ("parse frontmatter + schema", "haki.engram.build", "parse_bytes"),
    ("parse frontmatter + schema", "haki.engram.index", "parse_bytes"),
    ("cut fields into words", "haki.engram.build", "words"),
    ("cut fields into words", "haki.engram.index", "words"),
    ("terms (stemming, folds)", "haki.engram.build", "terms_of"),
    ("terms (stemming, folds)", "haki.engram.index", "terms_of"),
    ("safety scan", "haki.engram.safety", "scan"),
    ("static table open", "haki.engram.semantic", "open_table"),
    ("memory vectors", "haki.engram.semantic", "Table.embed_words"),
    ("memory vectors", "haki.engram.semantic", "Table.embed_encoded"),
    ("multi-word phrases", "haki.engram.build", "_phrases"),
    ("multi-word phrases", "haki.engram.index", "_phrases"),
    ("index JSON encode", "json", "dumps"),
    ("index JSON write", "haki.engram.index", "write_atomic"),
    ("index JSON write", "haki.engram.vectors", "write_atomic"),
    ("index columns from JSON", "haki.engram.index", "_from_json"),
    ("routing", "haki.engram.loader", "route"),
)


def child(hook: bool) -> None:
    """The measured process: import, wrap the steps, run the command."""
    import importlib

    t0 = time.process_time()
    from haki.engram import cli

    if hook:
        from haki.engram.hooks import runtime  # noqa: F401
    import haki.engram.disclosure
    import haki.engram.loader

    # What a cold build imports on its way (the parser, the table, the scan); the memo and
    # sqlite3 only where a tree's build imports them (the memo steps then include them).
    for name in ("frontmatter", "memory", "safety", "semantic", "hashes"):
        importlib.import_module(f"haki.engram.{name}")

    t1 = time.process_time()
    times = {"interpreter start": _START * 1000, "imports (cli, loader, routing)": (t1 - t0) * 1000}
    depth = [0]

    def wrap(label: str, fn):  # type: ignore[no-untyped-def]
        def timed(*a, **k):  # type: ignore[no-untyped-def]
            outer = depth[0] == 0
            depth[0] += 1
            s = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                depth[0] -= 1
                if outer:
                    times[label] = times.get(label, 0.0) + (time.process_time() - s) * 1000

        return timed

    for label, module, attr in STEPS:
        try:
            mod = importlib.import_module(module)
        except ImportError:  # a step of another tree's layout
            continue
        owner, _, name = attr.rpartition(".")
        target = getattr(mod, owner) if owner else mod
        if hasattr(target, name):
            setattr(target, name, wrap(label, getattr(target, name)))
    # ``render`` is imported inside ``run_load``: wrap it where it is defined.
    haki.engram.disclosure.render = wrap("render", haki.engram.disclosure.render)  # type: ignore[method-assign]
    t2 = time.process_time()
    argv = ["hook", "--host", "claude"] if hook else ["load", "--", TASK]
    saved = sys.stdout
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    try:
        cli.main(argv)
    finally:
        sys.stdout = saved
    t3 = time.process_time()
    times["command, total"] = (t3 - t2) * 1000
    times["process total (without the wrapping)"] = _START * 1000 + (t1 - t0 + t3 - t2) * 1000
    times["process CPU when the command returned"] = time.process_time() * 1000
    print(json.dumps(times))
    sys.stdout.flush()
    # Ended as the tree's program ends (``cli._exit_now`` where it has one): the parent
    # times the whole process, so the interpreter's exit shows as its own line.
    ender = getattr(cli, "_exit_now", None)
    if ender is not None:
        ender(0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--hook", action="store_true")
    parser.add_argument("--seen", action="store_true")
    parser.add_argument("--warm", action="store_true")
    parser.add_argument("--workspace", type=Path, default=SHARED)
    parser.add_argument(
        "--src", type=Path, default=HERE.parent / "src", help="the src/ of the checkout to profile"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.hook)
        return 0
    sys.path.insert(0, str(HERE.parent / "src"))
    from haki.engram.timing import fresh_copy

    runs: list[dict[str, float]] = []
    memo = tempfile.TemporaryDirectory(prefix="engram-profile-memo-")
    for n in range(args.repeat + (1 if args.seen or args.warm else 0)):
        with tempfile.TemporaryDirectory(prefix="engram-profile-") as tmp:
            repo = fresh_copy(args.workspace, Path(tmp))
            cache = Path(memo.name) / "cache" if args.warm else Path(tmp) / "cache"
            env = dict(os.environ, ENGRAM_CACHE_DIR=str(cache), PYTHONPATH=str(args.src.resolve()))
            env["ENGRAM_GLOBAL_DIR"] = str(args.workspace / "global")
            if args.seen or args.warm:
                env["ENGRAM_MEMO_DIR"] = str(Path(memo.name) / "memo")
            if args.warm:
                repo = Path(memo.name) / "repo"
                if n == 0:
                    fresh_copy(args.workspace, Path(memo.name))
            stdin = json.dumps(
                {
                    "session_id": "p",
                    "cwd": str(repo),
                    "hook_event_name": "UserPromptSubmit",
                    "prompt": TASK,
                }
            )
            cmd = [sys.executable, __file__, "--child", *(["--hook"] if args.hook else [])]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run(
                cmd, cwd=repo, env=env, input=stdin, capture_output=True, text=True, check=True
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if n or not (args.seen or args.warm):
                times = json.loads(done.stdout.splitlines()[-1])
                whole = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
                times["exit (interpreter teardown)"] = (
                    whole - times["process CPU when the command returned"]
                )
                times["whole process (rusage, wrapping included)"] = whole
                runs.append(times)
    memo.cleanup()
    labels = [k for k in runs[0]]
    for run in runs[1:]:
        labels += [k for k in run if k not in labels]
    print(f"load average: {os.getloadavg()[0]:.1f}  runs: {len(runs)}")
    print("| phase | CPU ms (median) |\n|---|---|")
    for label in labels:
        print(f"| {label} | {statistics.median(r.get(label, 0.0) for r in runs):.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
