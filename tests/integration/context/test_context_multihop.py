"""Multi-hop: facts sharing the most frequent entities of the packed facts.

Vectors come from the hash embedder so the hop targets are reliably outside
both phase-1 top-Ks: they share no word with the query, while 70 fillers do.
The fillers are longer than every anchor, so each anchor is nearer the
query than any filler and makes the cosine top-K whatever the order of ties.
"""

from haki.context.config import RETRIEVAL_TOP_K


async def _seed(hash_seed):
    for i in range(RETRIEVAL_TOP_K + 6):
        await hash_seed.fact(f"likes green tea with honey {i}", predicate="sister_note")
    anchors = [
        await hash_seed.fact("Anna", predicate="sister"),
        await hash_seed.fact("Anna knows Bruno", predicate="sister_friend"),
        await hash_seed.fact("Bruno and Chloe", predicate="sister_colleague"),
    ]
    targets = {
        name: [
            await hash_seed.fact(f"{name} flies plane number {i}", predicate="note")
            for i in range(7)
        ]
        for name in ("Anna", "Bruno", "Chloe")
    }
    return anchors, targets


async def test_hop_is_bounded_to_two_entities_and_five_facts_each(
    app_client, hash_seed, hash_embedder
):
    anchors, targets = await _seed(hash_seed)
    async with app_client(embedder=hash_embedder) as api:
        out, trace = await api.ask_and_inspect("who is my sister", budget_tokens=5000)
    served = set(api.fact_ids(out))
    assert {str(a) for a in anchors} <= served
    hops = [d for d in trace["decisions"] if d["reason_code"] == "multi_hop_expansion"]
    hop_ids = {d["id"] for d in hops}
    assert len(hops) == 10 and hop_ids <= served
    assert len(hop_ids & {str(t) for t in targets["Anna"]}) == 5
    assert len(hop_ids & {str(t) for t in targets["Bruno"]}) == 5
    assert not served & {str(t) for t in targets["Chloe"]}


async def test_hop_rows_are_never_gated(app_client, hash_seed, hash_embedder):
    await _seed(hash_seed)
    async with app_client(embedder=hash_embedder, recall_max_distance=0.9) as api:
        _out, trace = await api.ask_and_inspect("who is my sister", budget_tokens=5000)
    hops = [d for d in trace["decisions"] if d["reason_code"] == "multi_hop_expansion"]
    assert hops and all(d["action"] == "included" for d in hops)
    assert all(1 - d["score"]["semantic"] > 0.9 for d in hops)


async def test_entities_named_in_the_query_are_not_expanded(app_client, hash_seed, hash_embedder):
    _, targets = await _seed(hash_seed)
    async with app_client(embedder=hash_embedder) as api:
        _out, trace = await api.ask_and_inspect("who is my sister Anna", budget_tokens=5000)
    hop_ids = {d["id"] for d in trace["decisions"] if d["reason_code"] == "multi_hop_expansion"}
    assert not hop_ids & {str(t) for t in targets["Anna"]}
    assert len(hop_ids & {str(t) for t in targets["Bruno"]}) == 5


async def test_hop_respects_the_remaining_budget(app_client, hash_seed, hash_embedder):
    await _seed(hash_seed)
    async with app_client(embedder=hash_embedder) as api:
        out, trace = await api.ask_and_inspect("who is my sister", budget_tokens=20)
    assert not [d for d in trace["decisions"] if d["reason_code"] == "multi_hop_expansion"]
    assert out["token_count"] <= 20
