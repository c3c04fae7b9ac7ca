"""The past moments of a sentence are read once and kept; a caller's copy is its own."""

from __future__ import annotations

from haki.providers.extraction import when


def test_spans_are_the_same_read_again_and_a_copy_is_not_shared():
    sentence = "I moved to Lyon last month and started at Airbus two weeks ago"
    first = when.past_span_all(sentence)
    assert [sentence[a:b] for a, b in first] == ["last month", "two weeks ago"]
    first.append((0, 1))
    assert when.past_span_all(sentence) == first[:-1]


def test_a_long_text_is_read_without_being_kept():
    sentence = "I moved to Lyon last month. " + "Nothing else happened. " * 40
    before = when._past_spans_cached.cache_info().currsize
    assert [sentence[a:b] for a, b in when.past_span_all(sentence)] == ["last month"]
    assert when._past_spans_cached.cache_info().currsize == before
