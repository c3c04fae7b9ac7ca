"""The per-scope cache of the episode full-text leg's term estimates."""

from haki.context.term_estimates import TermEstimates

NOTHING = {"token": None, "known_terms": None, "known_estimates": None}


def test_nothing_known_before_the_leg_returned_estimates() -> None:
    assert TermEstimates().known("p", "s", ["a"]) == NOTHING


def test_known_estimates_come_back_with_their_token_for_the_terms_asked() -> None:
    cache = TermEstimates()
    cache.learn("p", "s", 7, ["a", "b"], [10, 20])
    assert cache.known("p", "s", ["b", "c"]) == {
        "token": 7,
        "known_terms": ["b"],
        "known_estimates": [20],
    }
    assert cache.known("p", "other", ["a"]) == NOTHING
    assert cache.known("p", "s", ["c"]) == NOTHING


def test_a_new_token_drops_the_estimates_of_the_old_one() -> None:
    cache = TermEstimates()
    cache.learn("p", "s", 7, ["a", "b"], [10, 20])
    cache.learn("p", "s", 8, ["a"], [11])
    assert cache.known("p", "s", ["a", "b"]) == {
        "token": 8,
        "known_terms": ["a"],
        "known_estimates": [11],
    }


def test_nothing_is_learnt_from_a_leg_that_computed_nothing() -> None:
    cache = TermEstimates()
    cache.learn("p", "s", None, None, None)
    cache.learn("p", "s", 7, ["a"], [1, 2])
    assert cache.known("p", "s", ["a"]) == NOTHING


def test_bounded_in_scopes_and_terms() -> None:
    cache = TermEstimates(max_scopes=2, max_terms=3)
    cache.learn("p", "s1", 1, ["a"], [1])
    cache.learn("p", "s2", 1, ["a"], [1])
    cache.known("p", "s1", ["a"])  # s1 used last: s2 goes first
    cache.learn("p", "s3", 1, ["a"], [1])
    assert cache.known("p", "s2", ["a"]) == NOTHING
    assert cache.known("p", "s1", ["a"])["token"] == 1
    cache.learn("p", "s1", 1, ["b", "c", "d"], [2, 3, 4])  # past 3 terms: the old ones go
    assert cache.known("p", "s1", ["a", "b"])["known_terms"] == ["b"]
