"""Which memories a task may load: the seed's anchor rule, and the only rejections it
leaves room for.

The seed ("Ancrer, classer et affiner"): a query of four anchors or more needs two
anchor matches, or one match on a strong field (id, tag, directive, an ``applies_to``
path); a shorter query needs one match. Vector results without term overlap never
admit a memory. Precision past that comes from ranking and tiered disclosure, not
from a veto of what this rule admits.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .index import FIELD_BITS, STRONG_BITS, Doc
from .pool import RoutingConfig
from .text import words
from .vocabulary import memory_languages, names_stack

MANY_ANCHORS = 4
# What a memory is about: its id and tags. A directive is strong evidence for the seed's
# admission, but it is a sentence, and a sentence holds words beside its topic ("button"
# in "Use title case for button labels").
TOPIC_BITS = FIELD_BITS["id"] | FIELD_BITS["tags"]

# Closed-class words (prepositions, conjunctions, indefinite pronouns, adverbs of degree,
# time and frequency) that the shared stop list keeps: they join or qualify the task's
# terms and name no topic, so they are not the "termes significatifs" the seed anchors
# on. They are task words only: the index is unchanged, so a memory's length and its
# other terms keep their weights.
_FUNCTION_WORDS = (
    "per another since without within across onto upon toward towards among throughout"
    " beside besides despite unlike versus vs instead whose whether unless though although"
    " nothing someone anyone everyone somewhere anywhere already really quite rather always"
    " never sometimes often soon later others several many much less least little"
)
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS.split())
# A short span in quotation marks or guillemets (not backticks, which hold code names):
# the text of a button, a label, a string. Apostrophes inside words (``don't``,
# ``user's``) do not open or close one.
_QUOTED = (
    r"(?<!\w)['\"\u2018\u201c\u00ab]([^'\"\u2018\u2019\u201c\u201d\u00ab\u00bb]{1,40})"
    r"['\"\u2019\u201d\u00bb](?!\w)"
)
# The characters a quoted span opens with: a task holding none quotes nothing, and the
# pattern (0.7 ms to compile) is compiled only for a task that holds one.
_OPENING_QUOTES = ("'", '"', "\u2018", "\u201c", "\u00ab")
QUOTED_MAX_WORDS = 4


def quoted_words(query: str) -> frozenset[str]:
    """The words of the task's short quoted spans: literals it names, not work it asks."""
    found: set[str] = set()
    if not any(quote in query for quote in _OPENING_QUOTES):
        return frozenset()
    for m in re.finditer(_QUOTED, query):
        inner = words(m.group(1))
        if len(inner) <= QUOTED_MAX_WORDS:
            found.update(inner)
    return frozenset(found)


def admits(n_anchors: int, matched: int, strong: bool, many: int = MANY_ANCHORS) -> bool:
    """The seed's rule, nothing more.

    ``n_anchors``: the task's meaningful terms; ``matched``: how many of them the memory
    shares (a shorthand or word form of an anchor counts as that anchor); ``strong``:
    one of them is in the memory's id, tags or directive, or a path of the task matches
    its ``applies_to``. A semantic score is not a match: it cannot make this true.
    """
    if strong:
        return True
    return matched >= (2 if n_anchors >= many else 1)


def refusal(n_anchors: int, matched: int, many: int = MANY_ANCHORS) -> str:
    """Why ``admits`` said no, for ``--dry-run``."""
    if n_anchors >= many:
        return f"{matched}/{n_anchors} anchors, no strong field"
    return "no anchor matched"


def extra_rejection(
    words_hit: tuple[str, ...],
    generic_words: set[str],
    cfg: RoutingConfig,
    quoted: frozenset[str] = frozenset(),
) -> str | None:
    """The rejections the seed leaves room for by anchoring on meaningful terms.

    A generic task word (``code``, ``file``, ``fix``) is not one: on the development set's
    held-out third, dropping this rule takes nothing-fits clean from 78% to 56%. Nor is a
    word the task only quotes: in "rename the 'Commit' button to 'Submit'" the quoted words
    are the label's text, and the work asked is about a button, not about commits.
    """
    if cfg.reject_generic_only and words_hit and all(w in generic_words for w in words_hit):
        return "generic words only"
    specific = [w for w in words_hit if w not in generic_words]
    if cfg.quoted_literals and specific and all(w in quoted for w in specific):
        return "quoted words only"
    return None


def two_anchor_match(hit_pairs: Sequence[tuple[str, int]], generic_words: set[str]) -> bool:
    """The seed's two-match evidence on meaningful words: two task anchors that are
    neither generic words nor a stack's name, one of them in a strong field (id, tags,
    directive).

    ``hit_pairs``: (task word, field bits) of each anchor the memory matched. Such a match
    is exempt from ``weak_meaning``: a paraphrase shares two of its words with the memory
    it needs and little else, so the share of the task it explains is small, and the
    static vectors are too coarse to tell it from an accidental match (docs/engram.md).
    A stack name (``python``, ``py``) or two words met only in weak fields (summary,
    body, triggers) stay under the veto: those are the accidental matches of tasks no
    memory covers.
    """
    meaningful = [
        bits for (word, bits) in hit_pairs if word not in generic_words and not names_stack(word)
    ]
    return len(meaningful) >= 2 and any(bits & STRONG_BITS for bits in meaningful)


def weak_meaning(
    coverage: float, meaning: float | None, floor: float, cfg: RoutingConfig
) -> str | None:
    """A lexical match on a small part of the task stays out when its meaning is far from
    the task's: the words met by accident ("migrate the Android app" / db migrations).
    Without a table (``meaning`` None) the words decide alone."""
    if meaning is None or coverage >= cfg.weak_coverage:
        return None
    if meaning >= (cfg.weak_meaning if coverage < floor else cfg.far_meaning):
        return None
    return f"explains {coverage:.0%} of the task, meaning {meaning:.2f}"


def lone_far_word(
    hit_pairs: Sequence[tuple[str, int]],
    n_anchors: int,
    pool_size: int,
    meaning: float | None,
    cfg: RoutingConfig,
) -> str | None:
    """One shared word, whatever share of the task it is, far in meaning: out.

    ``weak_meaning`` only judges matches that explain little of the task, so a short task
    whose one known word a memory names ("update the session timetable on the conference
    page" / a JWT rule triggered by ``session``) passes on coverage alone. A lone word in
    the memory's id or tags (its topic) stays unless its cosine is far under that of a
    related pair (``lone_far_meaning``); one met only in its directive or a weaker field
    (triggers, title, summary, body) needs the cosine of a related pair
    (``weak_meaning``): "add a loading indicator to the checkout button" meets a label
    capitalisation rule on ``button``, a word of its directive, at 0.44. Tasks of fewer
    than ``lone_min_anchors`` words are left to the seed (their vector is little more
    than the shared word), and so are pools under ``idf_pool`` memories, whose few
    vectors say little.
    """
    if meaning is None or not cfg.lone_far_meaning or len({w for w, _ in hit_pairs}) != 1:
        return None
    if n_anchors < cfg.lone_min_anchors or pool_size < cfg.idf_pool:
        return None
    strong = any(bits & STRONG_BITS for _, bits in hit_pairs)
    topic = any(
        bits & (TOPIC_BITS if cfg.lone_topic_fields else STRONG_BITS) for _, bits in hit_pairs
    )
    if meaning >= (cfg.lone_far_meaning if topic else cfg.weak_meaning):
        return None
    field = "strong field" if topic else "directive" if strong else "weak field"
    return f"one word ({hit_pairs[0][0]}, {field}), meaning {meaning:.2f}"


def other_language(doc: Doc, languages: frozenset[str]) -> str:
    """A memory tagged only for languages the task does not name belongs to another stack."""
    if not languages:
        return ""
    own = memory_languages(doc.tags)
    if own and not own & languages:
        return f"for {', '.join(sorted(own))}, task is {', '.join(sorted(languages))}"
    return ""
