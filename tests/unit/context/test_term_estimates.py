"""The server's side of the episode full-text leg's term estimates (migration 0174)."""

import numpy as np

from haki.context.term_estimates import NOTHING_KNOWN, TermEstimates

WORDS = ["madrid", "malaga", "paris", "été"]
FREQS = [0.1, 0.2, 0.30000001192092896, 0.05]
ROWS = 1000.0


def _cache() -> TermEstimates:
    cache = TermEstimates()
    cache.learn("p", "s", 7, WORDS, FREQS, ROWS)
    return cache


def test_nothing_known_before_the_leg_returned_its_statistics() -> None:
    assert TermEstimates().known("p", "s", ["a"]) == NOTHING_KNOWN
    assert _cache().known("p", "other", ["ma"]) == NOTHING_KNOWN


def test_an_estimate_is_the_float4_sum_of_the_words_the_term_starts() -> None:
    known = _cache().known("p", "s", ["Ma", "madrid", "x", "p"])
    assert known["token"] == 7 and known["known_terms"] == ["Ma", "madrid", "x", "p"]
    single = np.float32(np.float32(0.1) + np.float32(0.2))  # float4, not 0.1 + 0.2
    assert known["known_estimates"] == [round(float(single) * ROWS), 100, 0, 300]


def test_ties_round_half_to_even_as_rint_does() -> None:
    cache = TermEstimates()
    cache.learn("p", "s", 1, ["a", "b"], [0.5, 0.75], 5.0)  # 2.5 and 3.75
    assert cache.known("p", "s", ["a", "b"])["known_estimates"] == [2, 4]


def test_terms_beyond_ascii_are_left_to_the_leg() -> None:
    assert _cache().known("p", "s", ["été"]) == NOTHING_KNOWN
    assert _cache().known("p", "s", ["été", "paris"])["known_terms"] == ["paris"]


def test_new_statistics_replace_the_old() -> None:
    cache = _cache()
    cache.learn("p", "s", 8, ["madrid"], [0.5], ROWS)
    assert cache.known("p", "s", ["madrid", "paris"]) == {
        "token": 8,
        "known_terms": ["madrid", "paris"],
        "known_estimates": [500, 0],
    }


def test_nothing_is_learnt_from_a_leg_that_read_no_statistics() -> None:
    cache = TermEstimates()
    cache.learn("p", "s", None, None, None, None)
    cache.learn("p", "s", 7, ["a"], [0.1, 0.2], ROWS)
    assert cache.known("p", "s", ["a"]) == NOTHING_KNOWN


def test_bounded_in_scopes() -> None:
    cache = TermEstimates(max_scopes=2)
    cache.learn("p", "s1", 1, ["a"], [0.1], ROWS)
    cache.learn("p", "s2", 1, ["a"], [0.1], ROWS)
    cache.known("p", "s1", ["a"])  # s1 used last: s2 goes first
    cache.learn("p", "s3", 1, ["a"], [0.1], ROWS)
    assert cache.known("p", "s2", ["a"]) == NOTHING_KNOWN
    assert cache.known("p", "s1", ["a"])["token"] == 1
