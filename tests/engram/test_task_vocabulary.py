"""How a task's words reach a memory's: a task typed in French (request verbs are not
anchors, developer words meet the English ones memories use, ``haki.engram.french``) and
developer shorthand (``vocabulary.SYNONYMS``), end to end on a new user's repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from haki.engram.french import FRENCH_GENERIC, FRENCH_NON_ANCHORS, FRENCH_TERMS
from haki.engram.text import ENGRAM_STOP_WORDS, anchors, words
from haki.engram.vocabulary import task_anchors, term


def test_french_request_verbs_and_fillers_are_not_anchors() -> None:
    found = anchors("ajoute un test de régression et ouvre une PR en brouillon à chaque fois")
    assert found == ["test", "regression", "pr", "brouillon"]


def test_asking_to_explain_or_compute_names_no_topic() -> None:
    assert anchors("explain what the regex in parse_phone does") == ["regex", "parse", "phone"]
    assert anchors("compute the median of the latency column") == ["median", "latency", "column"]


def test_french_developer_words_gain_the_english_term_and_generic_words_stay_generic() -> None:
    by_word = {a.word: a for a in task_anchors("je corrige le plantage quand le panier est vide")}
    assert by_word["panier"].alternates == (term("cart"),)
    assert by_word["plantage"].alternates == (term("crash"),)
    assert by_word["corrige"].generic and not by_word["panier"].generic
    assert "je" not in by_word and "quand" not in by_word


def test_glossary_keys_are_words_as_tasks_are_cut_and_say_something_new() -> None:
    for key, english in FRENCH_TERMS.items():
        assert words(key) == [key], key  # lower case, accents folded, one word
        assert key not in ENGRAM_STOP_WORDS and key not in FRENCH_NON_ANCHORS, key
        assert key not in FRENCH_GENERIC, key
        # A key whose own term is already the English one would add nothing.
        assert any(term(w) != term(key) for phrase in english for w in words(phrase)), key
    assert not FRENCH_NON_ANCHORS & FRENCH_GENERIC


def test_shorthand_and_near_synonyms_gain_the_words_memories_use() -> None:
    by_word = {a.word: a for a in task_anchors("ship the k8s worker once the pod is oomkilled")}
    assert by_word["ship"].alternates == (term("deploy"), term("release"))
    assert by_word["k8s"].alternates == (term("kubernetes"),)
    assert by_word["oomkilled"].alternates == (term("memory"), term("limits"))
    markup = {a.word: a for a in task_anchors("the box renders raw markup")}["markup"]
    assert markup.alternates == (term("html"),)


def _engram(repo: Path, tmp: Path, *args: str) -> str:
    env = dict(
        os.environ,
        ENGRAM_GLOBAL_DIR=str(tmp / "global"),
        ENGRAM_CACHE_DIR=str(tmp / "cache"),
        HOME=str(tmp / "home"),
    )
    done = subprocess.run(
        [sys.executable, "-m", "haki.engram.cli", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, (done.stdout, done.stderr)
    return done.stdout


def _new_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    _engram(repo, tmp_path, "init")
    return repo


def test_a_french_task_loads_the_english_memory_it_is_about(tmp_path: Path) -> None:
    repo = _new_repo(tmp_path)
    _engram(
        repo,
        tmp_path,
        "add",
        "rule",
        "--id",
        "cart-state",
        "--tags",
        "cart",
        "--triggers",
        "checkout",
        "--directive",
        "Keep the cart in the server session, never only in local storage.",
    )
    # "panier" shares no word with the memory: only the glossary makes it "cart".
    out = _engram(repo, tmp_path, "load", "le panier se vide quand on recharge la page")
    assert "### cart-state [rule, instruction]" in out
    out = _engram(repo, tmp_path, "load", "quelle est la meilleure recette de crêpes")
    assert "cart-state" not in out


def test_a_task_in_shorthand_loads_the_memory_in_full_words(tmp_path: Path) -> None:
    repo = _new_repo(tmp_path)
    _engram(
        repo,
        tmp_path,
        "add",
        "rule",
        "--id",
        "k8s-limits",
        "--tags",
        "kubernetes,resources",
        "--triggers",
        "limits",
        "--directive",
        "Every Kubernetes deployment sets CPU and memory requests and limits.",
    )
    # "OOMKilled" is the only word the task has for it: the memory says "memory limits".
    out = _engram(repo, tmp_path, "load", "the worker pod gets OOMKilled")
    assert "### k8s-limits [rule, instruction]" in out
    out = _engram(repo, tmp_path, "load", "the worker pod logs too much")
    assert "k8s-limits" not in out
