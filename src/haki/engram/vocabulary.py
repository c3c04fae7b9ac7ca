"""How a task's words meet a memory's words: generic task words, shorthand, light folding.

Routing is lexical by contract (a memory needs a shared meaningful term), so
recall across wording comes from the words themselves: developer shorthand is
folded to the form memories use (``a11y`` -> ``accessibility``), derived forms
meet their base (``capitalize`` / ``capitalization``), and the memory's own
``triggers`` and ``tags`` count as the vocabulary a task may use. Words that
appear in almost every task (``code``, ``file``, ``service``) still rank but
weigh little in the evidence a memory needs to be admitted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .french import FRENCH_GENERIC, FRENCH_TERMS
from .record import Record
from .text import anchors, stem, words

# Words a developer types about almost any task: they rank, they never carry admission.
GENERIC_TASK_WORDS = frozenset(
    [
        "code",
        "codes",
        "codebase",
        "function",
        "functions",
        "method",
        "methods",
        "file",
        "files",
        "folder",
        "project",
        "app",
        "application",
        "service",
        "services",
        "feature",
        "features",
        "ticket",
        "issue",
        "stuff",
        "better",
        "nicer",
        "cleaner",
        "improve",
        "improving",
        "fix",
        "fixes",
        "fixing",
        "fixed",
        "broken",
        "work",
        "works",
        "working",
        "set",
        "setup",
        "use",
        "using",
        "used",
        "call",
        "calls",
        "called",
        "good",
        "right",
        "properly",
        "correct",
        "correctly",
        "nice",
        "quick",
        "quickly",
        "sure",
        "check",
        "checks",
        "does",
        "see",
        "something",
        "everything",
        "anything",
        "part",
        "page",
        "module",
        "class",
        "value",
        "values",
        "data",
        "first",
        "up",
        "run",
        "running",
        "thing",
        "system",
        "way",
        "logic",
        "support",
        "simple",
        "new",
        "keep",
        "keeps",
        "get",
        "gets",
        "getting",
        "want",
        "need",
        "needs",
        "still",
        "try",
        "trying",
    ]
)
# A French task's everyday words are generic as their English forms are (``french.py``).
GENERIC_TASK_WORDS |= FRENCH_GENERIC

# Developer shorthand and near-synonyms -> the words memories tend to use. Applied to the
# task only: a memory keeps its own words, a task's word gains the common form.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "a11y": ("accessibility",),
    "accessible": ("accessibility",),
    "i18n": ("localization",),
    "l10n": ("localization",),
    "translate": ("localization", "i18n"),
    "creds": ("credentials",),
    "credential": ("credentials",),
    "passwd": ("password",),
    "db": ("database",),
    "postgresql": ("postgres",),
    "psql": ("postgres",),
    "pr": ("pull request",),
    "prs": ("pull request",),
    "e2e": ("end-to-end",),
    "js": ("javascript",),
    "ts": ("typescript",),
    "py": ("python",),
    "golang": ("go",),
    "auth": ("authentication", "authorization"),
    "authn": ("authentication",),
    "authz": ("authorization",),
    "login": ("authentication",),
    "perf": ("performance",),
    "deps": ("dependency",),
    "dep": ("dependency",),
    "library": ("dependency",),
    "libraries": ("dependency",),
    "repo": ("repository",),
    "config": ("configuration",),
    "env": ("environment",),
    "docs": ("documentation",),
    "linter": ("lint",),
    "linting": ("lint",),
    "formatter": ("format",),
    "crash": ("panic",),
    "crashes": ("panic",),
    "crashing": ("panic",),
    "exception": ("error",),
    "vuln": ("vulnerability",),
    "cve": ("vulnerability",),
    "sanitise": ("sanitize",),
    "subprocess": ("command",),
    "gha": ("github actions",),
    "container": ("docker",),
    "containers": ("docker",),
    "migrate": ("migration",),
    "asynchronous": ("async",),
    "paginate": ("pagination",),
    "paging": ("pagination",),
    "slow": ("performance",),
    "slowly": ("performance",),
    "slower": ("performance",),
    "faster": ("performance",),
    "latency": ("performance",),
    "credentials": ("secrets",),
    "intermittent": ("flaky",),
    "intermittently": ("flaky",),
    "stub": ("mock",),
    "stubs": ("mock",),
    "escape": ("sanitize",),
    "escaping": ("sanitize",),
    "annotations": ("type hints",),
    "annotate": ("type hints",),
    "prettier": ("format",),
    "mr": ("pull request",),
    "signin": ("authentication",),
    "billing": ("payment",),
    "billed": ("charge",),
    "bill": ("charge",),
    "ship": ("deploy", "release"),
    "option": ("flag",),
    "options": ("flag",),
    "oom": ("memory", "limits"),
    "oomkilled": ("memory", "limits"),
    "password": ("credentials",),
    "passwords": ("credentials",),
    "prod": ("production",),
    "k8s": ("kubernetes",),
    "kube": ("kubernetes",),
    "tf": ("terraform",),
    "hang": ("timeout",),
    "hangs": ("timeout",),
    "hanging": ("timeout",),
    "var": ("variable",),
    "vars": ("variable",),
    "msg": ("message",),
    "err": ("error",),
    "cfg": ("configuration",),
    "conf": ("configuration",),
    "param": ("parameter",),
    "params": ("parameter",),
    "arg": ("argument",),
    "args": ("argument",),
    "req": ("request",),
    "resp": ("response",),
    "pkg": ("package",),
    "dir": ("directory",),
    "perms": ("permission",),
    "txn": ("transaction",),
    "impl": ("implementation",),
    "revert": ("rollback",),
    "requirements": ("dependency",),
    "package": ("dependency",),
    "packages": ("dependency",),
    "markup": ("html",),
    "english": ("localization", "i18n"),
    "rounding": ("decimal",),
    "price": ("money",),
    "prices": ("money",),
    "btree": ("index",),
    "speed": ("performance",),
    "throwaway": ("temporary",),
    "scratch": ("temporary",),
    "rollback": ("revert",),
    **FRENCH_TERMS,
}

_FOLDS: tuple[tuple[str, str], ...] = (
    ("izat", "iz"),
    ("isat", "iz"),
    ("is", "iz"),
    ("ction", "ct"),  # injection -> inject, protection -> protect
)


def term(word: str) -> str:
    """The index term of one word: light stemming, then ``-ization`` meets ``-ize``.

    Cached indexes hold these terms: any change here bumps ``index.INDEX_VERSION``.
    A cold index build asks for the same few thousand words many times over, so each
    word's term is kept for the process.
    """
    found = _TERMS.get(word)
    if found is None:
        if len(_TERMS) >= _MAX_TERMS:  # a long-lived MCP server meets ever new words
            _TERMS.clear()
        found = _TERMS[word] = _term(word)
    return found


_TERMS: dict[str, str] = {}
_MAX_TERMS = 50_000


def _term(word: str) -> str:
    if word.endswith("ied") and len(word) > 5 and word.isalpha():
        word = word[:-3] + "y"  # retried -> retry, copied -> copy
    t = stem(word)
    if len(t) > 6:
        for suffix, repl in _FOLDS:
            if t.endswith(suffix) and not t.endswith("sis"):
                return t[: -len(suffix)] + repl
    return t


def index_terms(text: str, stop: frozenset[str]) -> list[str]:
    return terms_of(words(text), stop)


def terms_of(tokens: Sequence[str], stop: frozenset[str]) -> list[str]:
    """``index_terms`` of text already cut into words."""
    # The process's known terms read inline: a cold index build cuts some 14,000 words
    # of which most were seen before, and a call per word costs more than the lookup.
    known = _TERMS.get
    return [known(w) or term(w) for w in tokens if w not in stop and len(w) > 1]


class Anchor(Record):
    """One meaningful word of the task, with the terms it may match."""

    word: str
    term: str
    alternates: tuple[str, ...]  # folded synonyms, each term of a phrase separately
    generic: bool


def task_anchors(query: str) -> list[Anchor]:
    found: dict[str, Anchor] = {}
    for w in anchors(query):
        t = term(w)
        if t in found:
            continue
        alternates = tuple(
            dict.fromkeys(
                term(x) for phrase in SYNONYMS.get(w, ()) for x in words(phrase) if term(x) != t
            )
        )
        found[t] = Anchor(w, t, alternates, w in GENERIC_TASK_WORDS)
    return list(found.values())


# A task often holds several asks ("add a test and format the file"): clauses split on
# punctuation and on the joining words of both languages the contract speaks.
_CLAUSE_BREAK = re.compile(
    r"[,;:!?]\s+|\.\s+|\s+(?:and|then|also|plus|et|puis|ensuite|aussi)\s+", re.IGNORECASE
)


def task_clauses(query: str) -> list[frozenset[str]]:
    """The specific anchor terms of each clause of a task of two clauses or more.

    A clause with no specific term ("and fix it") is left out. A one-term clause
    ("add context with anyhow") counts: its term is the whole ask.
    """
    parts: list[str] = []
    for part in _CLAUSE_BREAK.split(query):
        # "TCP and UDP" joins two nouns, not two asks: a part of fewer than three words
        # stays with the part before it.
        if parts and len(words(part)) < 3:
            parts[-1] += " " + part
        elif part.strip():
            parts.append(part)
    if len(parts) < 2:
        return []
    found = []
    for part in parts:
        terms = frozenset(a.term for a in task_anchors(part) if not a.generic)
        if terms:
            found.append(terms)
    return found


def phrase_terms(phrase: str) -> tuple[str, ...]:
    return tuple(term(w) for w in words(phrase))


def query_terms(query: str) -> list[str]:
    """Every word of the task as a term, stop words included, for phrase matching."""
    return [term(w) for w in words(query)]


# Language families a task or a memory may name; a memory tagged only for other
# languages than the ones the task names belongs to another stack.
_STACK_NAMES: dict[str, str] = {
    "python": "python",
    "py": "python",
    "go": "go",
    "golang": "go",
    "rust": "rust",
    "rs": "rust",
    "typescript": "js",
    "javascript": "js",
    "ts": "js",
    "tsx": "js",
    "js": "js",
    "jsx": "js",
    "java": "jvm",
    "kotlin": "jvm",
    "kt": "jvm",
    "ruby": "ruby",
    "rb": "ruby",
    "php": "php",
    "swift": "swift",
    "csharp": "dotnet",
    "cs": "dotnet",
}
# Tools that only exist in one ecosystem name it as well as the language does; unlike a
# language's name they also say what the task is about (``pytest``: a test).
_ECOSYSTEM_TOOLS: dict[str, str] = {
    "pytest": "python",
    "jest": "js",
    "vitest": "js",
    "npm": "js",
    "pnpm": "js",
    "cargo": "rust",
    "clippy": "rust",
    "gofmt": "go",
}
_LANGUAGE_WORDS: dict[str, str] = {**_STACK_NAMES, **_ECOSYSTEM_TOOLS}


def task_languages(query: str, paths: list[str]) -> frozenset[str]:
    """Languages the task names, as words (``in Go``) or as file extensions (``x.py``)."""
    found = {_LANGUAGE_WORDS[w] for w in words(query) if w in _LANGUAGE_WORDS and w != "go"}
    # "go" is also a verb: it names the language only with another Go marker or next to a noun.
    tokens = words(query)
    for n, w in enumerate(tokens):
        if w in ("go", "golang") and (
            w == "golang" or (n > 0 and tokens[n - 1] in ("in", "the", "a", "our", "for"))
        ):
            found.add("go")
    for p in paths:
        ext = p.rsplit(".", 1)[-1].lower() if "." in p.rsplit("/", 1)[-1] else ""
        if ext in _LANGUAGE_WORDS and ext != "cs":
            found.add(_LANGUAGE_WORDS[ext])
    return frozenset(found)


def memory_languages(tags: tuple[str, ...]) -> frozenset[str]:
    return frozenset(_LANGUAGE_WORDS[t] for t in tags if t in _LANGUAGE_WORDS)


_LANGUAGE_NAMES = frozenset(
    ["python", "go", "golang", "rust", "typescript", "javascript", "java", "kotlin", "ruby", "php"]
)


def is_language(word: str) -> bool:
    """A language's own name (not a tool of its ecosystem such as ``pytest``)."""
    return word in _LANGUAGE_NAMES


def names_stack(word: str) -> bool:
    """A language's name or short form (``python``, ``py``, ``ts``): it says which stack a
    task is in, not what it asks for."""
    return word in _STACK_NAMES
