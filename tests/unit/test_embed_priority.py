"""Inference computed ahead yields to the calls a job waits for (``embed_priority``)."""

import asyncio
import threading
import time

import numpy as np
import pytest

from haki.providers import embed_rows
from haki.providers.embed import LocalEmbedder
from haki.providers.embed_priority import Gate, in_background, in_background_now


def test_background_work_waits_while_an_urgent_call_runs():
    gate = Gate()
    assert gate.wait_turn(timeout=0)
    entered, release = threading.Event(), threading.Event()

    def urgent() -> None:
        with gate.urgent():
            entered.set()
            release.wait(5)

    thread = threading.Thread(target=urgent)
    thread.start()
    entered.wait(5)
    assert gate.urgent_calls == 1
    assert not gate.wait_turn(timeout=0.05)
    waited: list[float] = []

    def background() -> None:
        began = time.perf_counter()
        gate.wait_turn()
        waited.append(time.perf_counter() - began)

    waiter = threading.Thread(target=background)
    waiter.start()
    time.sleep(0.05)
    assert not waited  # still held back
    release.set()
    thread.join(5)
    waiter.join(5)
    assert waited and gate.urgent_calls == 0
    assert gate.wait_turn(timeout=0)


def test_the_mark_reaches_the_thread_a_task_embeds_in_and_no_other_task():
    async def main() -> tuple[bool, bool, bool]:
        async def ahead() -> bool:
            with in_background():
                return await asyncio.to_thread(in_background_now)

        task = asyncio.create_task(ahead())
        meanwhile = await asyncio.to_thread(in_background_now)
        return await task, meanwhile, in_background_now()

    assert asyncio.run(main()) == (True, False, False)


@pytest.fixture(scope="module")
def fast(tmp_path_factory) -> LocalEmbedder:
    embedder = LocalEmbedder(
        threads=2, fast_documents=True, model_cache=tmp_path_factory.mktemp("models")
    )
    embedder._load_int8_session()
    return embedder


TEXTS = [
    "Okay, got it.",
    "Sounds good to me.",
    "Good morning!",
    "Long day today.",
    "Haha, yes!",
    "Wow, really?",
    "I moved to Lisbon last year.",
    "I work as a nurse at Acme.",
    "My cat Miso hates the rain.",
    "We plan to repaint the kitchen in March.",
] * 3


def test_a_background_call_gives_the_vectors_an_urgent_one_does(fast: LocalEmbedder):
    texts = [f"{t} ({i // 10})" for i, t in enumerate(TEXTS)]
    urgent = fast._infer(texts)
    with in_background():
        ahead = fast._infer(texts)
    assert np.array_equal(urgent, ahead)


def test_a_background_call_runs_only_while_no_urgent_call_does(fast: LocalEmbedder, monkeypatch):
    texts = [f"{t} [{i}]" for i, t in enumerate(TEXTS)]
    seen: list[tuple[str, int]] = []
    run = fast._run

    def watched(session, rows):  # type: ignore[no-untyped-def]
        seen.append((threading.current_thread().name, fast._gate.urgent_calls))
        return run(session, rows)

    monkeypatch.setattr(fast, "_run", watched)
    with fast._gate.urgent():
        done = threading.Event()

        def ahead() -> None:
            with in_background():
                fast._infer(texts)
            done.set()

        threading.Thread(target=ahead).start()
        assert not done.wait(0.2)  # held back: not one run started
        assert not seen
    assert done.wait(30)
    # Never on the job's threads, and never while an urgent call was in progress.
    assert seen and all(not name.startswith("haki-embed_") and u == 0 for name, u in seen)


def test_background_runs_are_short():
    lengths = [12] * 40 + [30] * 40
    for run in embed_rows.runs(
        lengths, embed_rows.BACKGROUND_RUN_ROWS, embed_rows.BACKGROUND_RUN_TOKENS
    ):
        assert len(run) <= embed_rows.BACKGROUND_RUN_ROWS
        assert len(run) * lengths[run[0]] <= embed_rows.BACKGROUND_RUN_TOKENS
    assert sorted(i for r in embed_rows.runs(lengths, 16, 512) for i in r) == list(range(80))
