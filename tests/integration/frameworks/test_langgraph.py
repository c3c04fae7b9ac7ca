"""``HakiStore`` and the memory nodes, driven by the real ``langgraph`` against a live server."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore, GetOp, Item, PutOp, SearchItem

from haki.client import HakiClient
from haki.integrations.langgraph import HakiMemoryState, HakiStore, recall_node, remember_node


def subject(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def client(haki_url: str):
    with HakiClient(haki_url, project_id="lg") as c:
        yield c


def test_put_get_delete_and_list_through_the_base_store_api(client: HakiClient) -> None:
    store = HakiStore(client)
    assert isinstance(store, BaseStore)
    maya = subject("maya")
    store.put((maya, "prefs"), "drink", {"text": "Maya drinks green tea, no sugar."})
    store.put((maya, "prefs"), "city", {"text": "Maya lives in Lyon."})
    store.put((maya, "notes"), "n1", {"text": "Call back on Monday.", "topic": "todo"})

    item = store.get((maya, "prefs"), "drink")
    assert isinstance(item, Item)
    assert item.value == {"text": "Maya drinks green tea, no sugar."}
    assert item.namespace == (maya, "prefs") and item.key == "drink"
    assert store.get((maya, "prefs"), "missing") is None

    store.put((maya, "prefs"), "drink", {"text": "Maya switched to coffee."})
    updated = store.get((maya, "prefs"), "drink")
    assert updated is not None and updated.value == {"text": "Maya switched to coffee."}
    assert updated.created_at == item.created_at and updated.updated_at > item.updated_at

    store.delete((maya, "prefs"), "city")
    assert store.get((maya, "prefs"), "city") is None

    listed = store.search((maya,))
    assert {(i.namespace, i.key) for i in listed} == {
        ((maya, "prefs"), "drink"),
        ((maya, "notes"), "n1"),
    }
    assert [i.key for i in store.search((maya,), filter={"topic": "todo"})] == ["n1"]
    assert len(store.search((maya,), limit=1)) == 1

    spaces = store.list_namespaces(prefix=(maya,))
    assert spaces == [(maya, "notes"), (maya, "prefs")]
    assert store.list_namespaces(prefix=(maya,), suffix=("prefs",)) == [(maya, "prefs")]
    assert store.list_namespaces(prefix=(maya, "*"), max_depth=1) == [(maya,)]

    # One batch, mixed operations, results in order (what BaseStore promises).
    results = store.batch(
        [
            GetOp((maya, "notes"), "n1"),
            PutOp((maya, "notes"), "n2", {"text": "x"}),
            GetOp((maya, "notes"), "n2"),
        ]
    )
    assert isinstance(results[0], Item) and results[1] is None
    assert isinstance(results[2], Item) and results[2].value == {"text": "x"}

    # The items are events of the subject in Haki, with the agent's trust.
    events = [e for e in client.iter_timeline(maya) if e.kind == "langgraph.item"]
    assert len(events) == 6
    assert {e.actor_type for e in events} == {"agent"}


async def test_search_with_a_query_is_a_context_call(client: HakiClient) -> None:
    store = HakiStore(client, actor_type="user")
    sam = subject("sam")
    await store.aput((sam, "memories"), "home", {"text": "I moved to Nantes in March."})
    await store.aput((sam, "memories"), "pet", {"text": "My dog is called Biscuit."})
    client.add(
        [{"role": "user", "content": "I work as a nurse at the Nantes hospital."}],
        subject_id=sam,
    )
    client.consolidate_subject(subject_id=sam)

    hits = await store.asearch((sam,), query="what is the dog called?", limit=20)
    assert hits and all(isinstance(h, SearchItem) for h in hits)
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True) and all(0 < s <= 1 for s in scores)
    # The store's own item comes back as itself, not as a bare episode.
    pets = [h for h in hits if h.key == "pet"]
    assert pets and pets[0].namespace == (sam, "memories")
    assert pets[0].value == {"text": "My dog is called Biscuit."}
    # Memory that did not come through the store comes back too.
    hits = await store.asearch((sam,), query="what is the user's job?", limit=20)
    assert any("nurse" in str(h.value) for h in hits)


def test_a_graph_recalls_and_remembers_with_the_nodes(client: HakiClient) -> None:
    lea = subject("lea")
    client.add(
        [{"role": "user", "content": "I am allergic to peanuts."}],
        subject_id=lea,
        thread_id="older-thread",
    )
    client.consolidate_subject(subject_id=lea)
    seen: list[str] = []

    def model(state: HakiMemoryState) -> dict[str, Any]:
        seen.append(state["haki_memory"])
        return {"messages": [AIMessage("Noted, no peanuts in the recipe.")]}

    graph = StateGraph(HakiMemoryState)
    graph.add_node("recall", recall_node(client))
    graph.add_node("model", model)
    graph.add_node("remember", remember_node(client))
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "model")
    graph.add_edge("model", "remember")
    graph.add_edge("remember", END)
    app = graph.compile(checkpointer=InMemorySaver(), store=HakiStore(client))

    config = {"configurable": {"user_id": lea, "thread_id": "t-1"}}
    app.invoke({"messages": [HumanMessage("Suggest a dessert. Any allergies to mind?")]}, config)
    assert "<haki_memory>" in seen[0] and "allergic to peanuts" in seen[0]

    app.invoke({"messages": [HumanMessage("And a starter?")]}, config)
    turns = [e for e in client.iter_timeline(lea) if e.thread_id == "t-1"]
    # Two turns of two messages each, every one stored once despite the re-sent history.
    assert [(e.payload["role"], e.actor_type) for e in turns] == [
        ("user", "user"),
        ("assistant", "agent"),
        ("user", "user"),
        ("assistant", "agent"),
    ]
    assert turns[0].payload["content"] == "Suggest a dessert. Any allergies to mind?"


def test_a_namespace_without_the_subject_label_is_refused(client: HakiClient) -> None:
    store = HakiStore(client, subject_label=1)
    with pytest.raises(ValueError, match="no label 1"):
        store.put(("memories",), "k", {"text": "x"})
    assert store.search(("memories", subject("nobody"))) == []
