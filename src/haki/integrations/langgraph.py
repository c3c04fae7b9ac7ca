"""LangGraph on Haki: a ``BaseStore`` and the recall/remember nodes.

``HakiStore`` implements ``langgraph.store.base.BaseStore`` over the HTTP
API (through ``haki.client`` only):

- a namespace names a subject: its label at ``subject_label`` (the first
  one by default) is the Haki ``subject_id``; the whole namespace travels in
  each item's event, so ``("maya", "memories")`` and ``("maya", "prefs")``
  are two collections of one subject;
- ``put`` captures an event (``kind="langgraph.item"``) holding namespace,
  key and value; the ledger is append-only, so a later put of the same key
  is a newer version and a delete (``value=None``) a tombstone. The value
  stays in the subject's memory (consolidation reads it) until the subject
  or its facts are forgotten with ``HakiClient.forget``;
- ``get`` and a ``search`` without ``query`` read the subject's timeline:
  the latest version of each key wins. That walks every event of the
  subject once per batch, so it suits subjects of thousands of events, not
  millions;
- ``search`` with a ``query`` is a ``context`` call: the packet's facts and
  episodes come back as ``SearchItem``s in packet order (an episode that is
  one of this store's items comes back as that item), scored by rank;
- ``list_namespaces`` reads the namespaces of the project's items.

``recall_node`` and ``remember_node`` are graph nodes for a
``MessagesState`` graph: the first puts the ``<haki_memory>`` block for the
last human message in ``state["haki_memory"]``, the second captures the
conversation's messages under the graph's ``thread_id``, each keyed by its
message id so a re-sent history is never stored twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import MessagesState
from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from haki.client import HakiClient, render
from haki.client.types import Event, Packet

ITEM_KIND = "langgraph.item"

# LangChain message types as the roles Haki's payload shapes read.
ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


class HakiStore(BaseStore):
    """A LangGraph store whose items are Haki events and whose search is ``context``."""

    def __init__(
        self,
        client: HakiClient,
        *,
        subject_label: int = 0,
        actor_type: str = "agent",
        purpose: str | None = None,
    ) -> None:
        # Items a graph writes are the agent's notes, so by default they are
        # stored with an agent's (lower) trust, never as the user's words.
        self.client = client
        self.subject_label = subject_label
        self.actor_type = actor_type
        self.purpose = purpose

    # -- BaseStore --

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        items = _Items(self.client, self.subject_label)
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(items.latest(op.namespace).get(op.key))
            elif isinstance(op, SearchOp):
                results.append(self._search(op, items))
            elif isinstance(op, PutOp):
                self._put(op)
                items.forget(op.namespace)
                results.append(None)
            elif isinstance(op, ListNamespacesOp):
                results.append(_list_namespaces(op, items.namespaces()))
            else:
                raise TypeError(f"unknown store operation: {op!r}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # One implementation: the sync client in a worker thread.
        return await asyncio.to_thread(self.batch, list(ops))

    # -- the operations --

    def subject(self, namespace: tuple[str, ...]) -> str:
        if len(namespace) <= self.subject_label:
            raise ValueError(
                f"namespace {namespace!r} has no label {self.subject_label} to name the subject"
            )
        return namespace[self.subject_label]

    def _put(self, op: PutOp) -> None:
        payload: dict[str, Any] = {"namespace": list(op.namespace), "key": op.key}
        if op.value is None:
            payload["deleted"] = True
        else:
            payload["value"] = dict(op.value)
        event = {
            "subject_id": self.subject(op.namespace),
            "kind": ITEM_KIND,
            "actor_type": self.actor_type,
            "payload": payload,
        }
        self.client.capture([event])

    def _search(self, op: SearchOp, items: _Items) -> list[SearchItem]:
        prefix = op.namespace_prefix
        if op.query is None:
            found = [
                item
                for namespace in items.namespaces()
                if namespace[: len(prefix)] == prefix
                for item in items.latest(namespace).values()
            ]
            found.sort(key=lambda i: (i.updated_at, i.namespace, i.key), reverse=True)
            hits = [_search_item(i, None) for i in found if _matches(i.value, op.filter)]
            return hits[op.offset : op.offset + op.limit]
        result = self.client.context(self.subject(prefix), op.query, purpose=self.purpose)
        hits = _packet_items(result.packet, prefix, items)
        hits = [h for h in hits if _matches(h.value, op.filter)]
        return hits[op.offset : op.offset + op.limit]


class _Items:
    """The store's items read from timelines, once per subject per batch."""

    def __init__(self, client: HakiClient, subject_label: int) -> None:
        self.client = client
        self.subject_label = subject_label
        self._by_subject: dict[str, dict[tuple[str, ...], dict[str, Item]]] = {}
        self._events: dict[str, Item] = {}

    def _load(self, subject: str) -> dict[tuple[str, ...], dict[str, Item]]:
        if subject in self._by_subject:
            return self._by_subject[subject]
        latest: dict[tuple[str, ...], dict[str, Item]] = {}
        created: dict[tuple[tuple[str, ...], str], datetime] = {}
        for event in self.client.iter_timeline(subject):
            parsed = _item_of(event)
            if parsed is None:
                continue
            namespace, key, value = parsed
            when = event.occurred_at
            first = created.setdefault((namespace, key), when)
            keyed = latest.setdefault(namespace, {})
            if value is None:
                keyed.pop(key, None)
                created.pop((namespace, key), None)
                continue
            item = Item(
                value=value, key=key, namespace=namespace, created_at=first, updated_at=when
            )
            keyed[key] = item
            self._events[event.id] = item
        self._by_subject[subject] = latest
        return latest

    def latest(self, namespace: tuple[str, ...]) -> dict[str, Item]:
        subject = namespace[self.subject_label]
        return self._load(subject).get(namespace, {})

    def by_event(self, event_id: str, subject: str) -> Item | None:
        self._load(subject)
        return self._events.get(event_id)

    def forget(self, namespace: tuple[str, ...]) -> None:
        """A put changed this subject: read its timeline again when next asked."""
        self._by_subject.pop(namespace[self.subject_label], None)

    def namespaces(self) -> list[tuple[str, ...]]:
        found: set[tuple[str, ...]] = set()
        cursor: str | None = None
        while True:
            page = self.client.subjects(cursor=cursor, limit=500)
            for subject in page.subjects:
                found.update(ns for ns, keyed in self._load(subject.subject_id).items() if keyed)
            if page.next_cursor is None:
                return sorted(found)
            cursor = page.next_cursor


def _item_of(event: Event) -> tuple[tuple[str, ...], str, dict[str, Any] | None] | None:
    if event.kind != ITEM_KIND:
        return None
    payload = event.payload
    namespace, key = payload.get("namespace"), payload.get("key")
    if not isinstance(namespace, list) or not isinstance(key, str):
        return None
    value = None if payload.get("deleted") else payload.get("value")
    return tuple(str(label) for label in namespace), key, value


def _search_item(item: Item, score: float | None) -> SearchItem:
    return SearchItem(
        namespace=item.namespace,
        key=item.key,
        value=item.value,
        created_at=item.created_at,
        updated_at=item.updated_at,
        score=score,
    )


def _packet_items(packet: Packet, prefix: tuple[str, ...], items: _Items) -> list[SearchItem]:
    """Facts, then episodes, in the packet's order; scores fall with the rank."""
    subject = prefix[items.subject_label]
    hits: list[SearchItem] = []
    seen: set[tuple[tuple[str, ...], str]] = set()
    total = len(packet.facts) + len(packet.episodes)
    for fact in packet.facts:
        moment = _moment(fact.valid_from)
        value = {
            "kind": "fact",
            "predicate": fact.predicate,
            "value": fact.value,
            "valid_from": moment.isoformat(),
            "source_event_ids": list(fact.source_event_ids),
            **fact.extra,
        }
        score = (total - len(hits)) / total
        hits.append(SearchItem(prefix, f"fact:{fact.id}", value, moment, moment, score=score))
    for episode in packet.episodes:
        score = (total - len(hits)) / total
        own = items.by_event(episode.event_id, subject)
        if own is not None:
            if own.namespace[: len(prefix)] == prefix and (own.namespace, own.key) not in seen:
                seen.add((own.namespace, own.key))
                hits.append(_search_item(own, score))
            continue
        moment = _moment(episode.occurred_at)
        value = {
            "kind": "episode",
            "excerpt": episode.excerpt,
            "occurred_at": moment.isoformat(),
            "speaker": episode.speaker,
            "event_id": episode.event_id,
        }
        hits.append(
            SearchItem(prefix, f"event:{episode.event_id}", value, moment, moment, score=score)
        )
    return hits


def _moment(value: datetime | str | None) -> datetime:
    return value if isinstance(value, datetime) else datetime.now(UTC)


def _matches(value: Mapping[str, Any], wanted: Mapping[str, Any] | None) -> bool:
    """LangGraph's exact-match filter on top-level keys of the value."""
    return not wanted or all(value.get(k) == v for k, v in wanted.items())


def _path_matches(namespace: tuple[str, ...], condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    return all(want == "*" or want == got for want, got in zip(path, part, strict=True))


def _list_namespaces(op: ListNamespacesOp, namespaces: Sequence[tuple[str, ...]]) -> list[Any]:
    conditions = op.match_conditions or ()
    kept = [ns for ns in namespaces if all(_path_matches(ns, c) for c in conditions)]
    if op.max_depth is not None:
        kept = sorted({ns[: op.max_depth] for ns in kept})
    return list(kept[op.offset : op.offset + op.limit])


# -- graph nodes --


class HakiMemoryState(MessagesState):
    """``MessagesState`` plus the memory block ``recall_node`` writes."""

    haki_memory: str


def _scope(config: RunnableConfig, subject_key: str) -> tuple[str, str | None]:
    configurable = config.get("configurable") or {}
    subject = configurable.get(subject_key)
    if not subject:
        raise ValueError(f"the graph's config needs configurable[{subject_key!r}]: the subject")
    thread = configurable.get("thread_id")
    return str(subject), (str(thread) if thread else None)


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content]
    return " ".join(p for p in parts if p)


def recall_node(
    client: HakiClient, *, subject_key: str = "user_id", purpose: str | None = None
) -> Callable[[HakiMemoryState, RunnableConfig], dict[str, str]]:
    """A node putting the ``<haki_memory>`` block for the last human message in the state."""

    def recall(state: HakiMemoryState, config: RunnableConfig) -> dict[str, str]:
        subject, _ = _scope(config, subject_key)
        asked = [m for m in state["messages"] if m.type == "human"]
        if not asked:
            return {"haki_memory": ""}
        result = client.context(subject, _text(asked[-1]), purpose=purpose)
        return {"haki_memory": render(result, subject_id=subject)}

    return recall


def remember_node(
    client: HakiClient, *, subject_key: str = "user_id"
) -> Callable[[HakiMemoryState, RunnableConfig], dict[str, Any]]:
    """A node capturing the conversation under the graph's thread, each message once."""

    def remember(state: HakiMemoryState, config: RunnableConfig) -> dict[str, Any]:
        subject, thread = _scope(config, subject_key)
        events = []
        base = datetime.now(UTC)
        for i, message in enumerate(state["messages"]):
            role = ROLES.get(message.type)
            if role is None or not message.id:
                continue
            payload = {"role": role, "content": _text(message)}
            events.append(
                {
                    "subject_id": subject,
                    "thread_id": thread,
                    "kind": "conversation.message",
                    "actor_type": "user" if role == "user" else "agent",
                    # A microsecond apart, so the timeline keeps the order.
                    "occurred_at": base + timedelta(microseconds=i),
                    # The message id makes a re-sent history land on the same events.
                    "idempotency_key": f"langgraph:{thread or '-'}:{message.id}",
                    "payload": payload,
                }
            )
        if events:
            client.capture(events)
        return {}

    return remember
