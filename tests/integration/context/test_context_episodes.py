"""Episodes: the nearest chunks of the scope, packed after facts in the same budget."""

from datetime import UTC, datetime

from haki.context.config import EPISODE_TOP_K

NOW = datetime.now(UTC)


async def test_episodes_come_after_facts_in_packet_and_trace(api, seed):
    fact = await seed.fact("lives in Lyon", predicate="home_city")
    ep = await seed.episode("She said she moved to Lyon for a new job at the hospital.")
    out, trace = await api.ask_and_inspect("Where does she live?")
    packet = out["packet"]
    assert api.fact_ids(out) == [str(fact)]
    [episode] = packet["episodes"]
    assert episode["event_id"] == str(ep) and episode["kind"] == "conversation.message"
    assert episode["excerpt"] == "She said she moved to Lyon for a new job at the hospital."
    kinds = [d["kind"] for d in trace["decisions"]]
    assert kinds == sorted(kinds, key=lambda k: k == "episode")
    assert out["token_count"] == sum(
        len(i["text"]) // 4 for i in packet["facts"] + packet["episodes"]
    )


async def test_episodes_only_get_what_facts_leave(api, seed):
    await seed.fact("lives in Lyon since she took the job at the hospital", predicate="home_city")
    await seed.episode(
        "She said she moved to Lyon for a new job at the hospital, which she loves a lot."
    )
    fact_tokens = len("home_city: lives in Lyon since she took the job at the hospital") // 4
    out, trace = await api.ask_and_inspect("Where does she live?", budget_tokens=fact_tokens + 3)
    assert len(out["packet"]["facts"]) == 1 and out["packet"]["episodes"] == []
    [d] = [d for d in trace["decisions"] if d["kind"] == "episode"]
    assert (d["action"], d["reason_code"]) == ("excluded", "over_budget")


async def test_at_most_episode_top_k_episodes_are_considered(api, seed):
    for i in range(EPISODE_TOP_K + 3):
        await seed.episode(f"Conversation number {i} about moving house and cities.")
    out, trace = await api.ask_and_inspect("Where does she live?", budget_tokens=5000)
    assert len([d for d in trace["decisions"] if d["kind"] == "episode"]) == EPISODE_TOP_K
    assert len(out["packet"]["episodes"]) == EPISODE_TOP_K


async def test_episodes_of_other_scopes_are_never_served(api, seed):
    await seed.episode("She moved to Lyon.", subject_id="bob")
    await seed.episode("She moved to Lyon.", project_id="other")
    out = await api.ask("Where does she live?")
    assert out["packet"]["episodes"] == []
