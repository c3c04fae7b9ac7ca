"""Cutting queued events into jobs of bounded size, and texts into embedding slices."""

from haki.consolidator.embedding import slices
from haki.jobs.sizing import split_by_size


def test_pieces_are_consecutive_and_within_both_bounds():
    sizes = [10_000] * 1_000
    pieces = split_by_size(sizes, max_events=500, max_bytes=256 * 1024)
    assert [i for p in pieces for i in p] == list(range(1_000))
    assert all(sum(sizes[i] for i in p) <= 256 * 1024 and len(p) <= 500 for p in pieces)
    assert {len(p) for p in pieces[:-1]} == {26}  # 26 events of 10 kB fit in 256 KiB
    assert len(pieces) == 39


def test_event_count_bounds_small_events():
    assert [len(p) for p in split_by_size([10] * 1_001, max_events=500, max_bytes=10**9)] == [
        500,
        500,
        1,
    ]


def test_an_event_over_the_bound_goes_alone():
    assert split_by_size([5, 100, 5, 5], max_events=10, max_bytes=20) == [
        range(0, 1),
        range(1, 2),
        range(2, 4),
    ]


def test_nothing_to_split():
    assert split_by_size([], max_events=5, max_bytes=5) == []
    assert split_by_size([3, 3], max_events=5, max_bytes=100) == [range(0, 2)]


def test_embedding_slices_bound_characters():
    texts = ["a" * 1_000] * 100
    cut = slices(texts, max_chars=32 * 1_000)
    assert [len(s) for s in cut] == [32, 32, 32, 4]
