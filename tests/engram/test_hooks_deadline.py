"""A hook that runs out of time still answers the host's no-op, with exit 0."""

from __future__ import annotations

import argparse
import io
import time

import pytest

from haki.engram.hooks import commands, runtime


def test_deadline_answers_no_op(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    def stuck(*_args: object, **_kwargs: object) -> str:
        time.sleep(5)
        return "never"

    monkeypatch.setattr(runtime, "handle", stuck)
    monkeypatch.setattr(runtime, "DEADLINE", 0.2)
    monkeypatch.setattr("sys.stdin", io.StringIO('{"hook_event_name": "UserPromptSubmit"}'))
    args = argparse.Namespace(host="claude", global_dir=None, no_global=False, workspace=None)
    started = time.perf_counter()
    assert commands.hook(args) == 0
    assert time.perf_counter() - started < 2
    out = capsys.readouterr()
    assert out.out == "{}\n"
    assert "TimeoutError" in out.err
