"""What routing works on and answers: its constants, the visible pool of memories,
and the scored and omitted candidates.
"""

from __future__ import annotations

from collections.abc import Mapping

from .index import FIELD_BITS, Doc, Index
from .record import Record, field
from .semantic import decode


class RoutingConfig(Record):
    """The routing constants (scoring, admission, ranking)."""

    k1: float = 1.2
    b: float = 0.75
    review_due: float = 0.7
    stale: float = 0.6
    confidence: Mapping[str, float] = field(
        default_factory=lambda: {"high": 1.0, "medium": 0.9, "low": 0.8}
    )
    workspace: float = 1.1
    usage_step: float = 0.02  # per doubling of fetches
    usage_cap: float = 0.08  # the usage bonus never outweighs a lifecycle penalty
    workflow_skill: float = 1.25
    path_bonus: float = 2.0
    vector_weight: float = 0.2
    many_anchors: int = 4
    # The compact batch keeps candidates scoring at least this share of the best one.
    min_relative: float = 0.5
    # A memory left out of the batch is shown as a card only at this share of the best.
    card_relative: float = 0.2
    # Admission: the share of the task's weight (idf of its anchors) a memory must explain.
    # Meaning (``semantic``): a weak lexical match (explaining less than ``weak_coverage``
    # of the task) stays out unless its cosine with the task reaches ``weak_meaning``;
    # every admitted memory's score is multiplied by exp(weight x (cosine - pivot)).
    weak_coverage: float = 0.3
    # A task's weight (coverage) counts idf as if the pool held at least ``idf_pool``
    # memories: in a repository of three, a word shared by one memory would otherwise
    # weigh little beside a word no memory uses, and one shared word would never explain
    # enough of the task. Scores keep the pool's own idf (they only order). The
    # coverage floor scales with the pool the same way (``weak_coverage`` at ``idf_pool``
    # memories or more), since a tiny repository's memories say little about any task.
    idf_pool: int = 30
    weak_meaning: float = 0.5
    # Under the full floor but above a small pool's scaled one, a match still needs some
    # meaning in common with the task: a word met by accident in a body stays out.
    far_meaning: float = 0.4
    # Two meaningful anchors, one in a strong field (``admission.two_anchor_match``), are
    # the seed's own evidence: the weak-meaning veto above does not apply to them.
    two_anchor_exempt: bool = True
    # A single shared word stays out whatever its coverage under ``lone_far_meaning`` (in
    # the memory's id or tags) or ``weak_meaning`` (its directive or weaker fields), in
    # tasks of ``lone_min_anchors`` words or more (``admission.lone_far_word``); 0 switches
    # it off. ``lone_topic_fields`` False gives a directive word the id's and tags' floor.
    lone_far_meaning: float = 0.3
    lone_min_anchors: int = 3
    lone_topic_fields: bool = True
    meaning_weight: float = 1.5
    meaning_pivot: float = 0.5
    # Rejections the seed leaves room for (``_extra_rejection``).
    reject_generic_only: bool = True
    # Task words that are not anchors (``admission.FUNCTION_WORDS``), and a memory matched
    # only by words the task quotes is left out (``admission.extra_rejection``).
    function_words_generic: bool = True
    quoted_literals: bool = True
    generic_weight: float = 0.3  # GENERIC_TASK_WORDS, in score and in the task's weight
    unknown_weight: float = 0.6  # a word no memory uses still counts in the task's weight
    synonym_weight: float = 0.8  # a match through shorthand folding ranks a little lower
    summary_factor: float = 0.6  # evidence from a summary, relative to a curated field
    content_factor: float = 0.35  # evidence from the body alone
    phrase_weight: float = 1.0  # a whole multi-word trigger or tag counts its words again
    coverage_power: float = 1.0  # rank by score x coverage^power
    # Selection: a memory that explains a part of the task no better one explains needs
    # ``min_marginal`` of the task and ``new_relative`` of the best score; one that adds
    # nothing new needs ``min_relative``.
    min_marginal: float = 0.2
    new_relative: float = 0.2
    path_cover: float = 0.25
    variant_factor: float = 0.9  # a retired memory's match, handed to its current variant


DEFAULT_ROUTING = RoutingConfig()
SUMMARY_BIT = FIELD_BITS["summary"]
CURATED_BITS = (
    FIELD_BITS["id"]
    | FIELD_BITS["tags"]
    | FIELD_BITS["directive"]
    | FIELD_BITS["triggers"]
    | FIELD_BITS["title"]
)
OMITTED_LIFECYCLES = ("superseded", "archived")


class Pool(Record):
    """Visible memories after merge and filters; position ``p`` is ``refs[p]``.

    Memories are decoded only when routing scores them.
    """

    indexes: tuple[Index, ...]
    refs: tuple[tuple[int, int], ...]  # (index number, doc number)
    positions: tuple[dict[int, int], ...]  # per index: doc number -> pool position
    by_id: dict[str, int]
    hit_cache: dict[str, list[tuple[int, float, int]]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.refs)

    def doc(self, pos: int) -> Doc:
        i, no = self.refs[pos]
        return self.indexes[i].doc(no)

    def lookup(self, mid: str) -> Doc | None:
        pos = self.by_id.get(mid)
        return None if pos is None else self.doc(pos)

    def vector(self, pos: int) -> list[float] | None:
        """The memory's unit vector from the index (derived and decoded on demand), if it
        has one."""
        i, no = self.refs[pos]
        return decode(self.indexes[i].vector(no))

    def total_length(self) -> float:
        return sum(self.indexes[i].lengths[no] for i, no in self.refs)


class Scored(Record):
    """An admitted memory with its score and the evidence behind it."""

    doc: Doc
    score: float
    matched: tuple[str, ...]
    reasons: tuple[str, ...]
    # (anchor term, share of the task's weight this memory explains through it)
    covers: tuple[tuple[str, float], ...] = ()
    coverage: float = 0.0
    meaning: float | None = None  # cosine of the task's and the memory's static vectors


class Omitted(Record):
    """A candidate routing refused, with the reason."""

    id: str
    scope: str
    reason: str
    detail: str = ""


class Routed(Record):
    """Routing's answer: the task's anchors, the ranked memories, the refusals."""

    anchors: tuple[str, ...]
    ranked: tuple[Scored, ...]
    omitted: tuple[Omitted, ...]
    restrictions: tuple[str, ...]


def rank_key(s: Scored) -> tuple[float, str, str]:
    return (-s.score, s.doc.id, s.doc.scope)


def pool_hits(pool: Pool, term: str) -> list[tuple[int, float, int]]:
    """Decoded postings of ``term`` over the visible pool, decoded once per pool."""
    cached = pool.hit_cache.get(term)
    if cached is None:
        cached = pool.hit_cache[term] = [
            (positions[no], tf, fbits)
            for ix, positions in zip(pool.indexes, pool.positions, strict=False)
            for no, tf, fbits in ix.hits(term)
            if no in positions
        ]
    return cached
