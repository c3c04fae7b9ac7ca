"""bench/static_embeddings.py: Engram's static table behind an OpenAI-compatible
endpoint, read by the real ``openai`` client and by Haki's own ``openai`` provider."""

import math

import openai
import pytest

from bench_modules import load_bench
from haki.engram.distil import distil
from haki.engram.semantic import open_table, table_path
from haki.providers.embed_openai import OpenAIEmbedder


@pytest.fixture(scope="module")
def served():
    if not table_path().is_file():  # `make install` distils it; a bare checkout may not have
        distil(table_path())
    static = load_bench("static_embeddings.py", "bench_static_embeddings")
    with static.static_server() as (url, dim):
        yield static, url, dim


def test_the_openai_client_gets_the_tables_vectors(served):
    static, url, dim = served
    client = openai.OpenAI(base_url=url, api_key="unused")
    texts = [
        "I moved to Lyon last month",
        "I moved to Lyon last month",
        "my cat is called Miso",
        "🙂",
    ]
    out = client.embeddings.create(model=static.MODEL, input=texts)
    vectors = [d.embedding for d in sorted(out.data, key=lambda d: d.index)]
    assert [len(v) for v in vectors] == [dim] * 4
    assert all(math.isclose(math.fsum(x * x for x in v), 1.0, rel_tol=1e-6) for v in vectors)
    assert vectors[0] == vectors[1] != vectors[2]
    assert vectors[0] == pytest.approx(open_table().embed([(texts[0], 1)]))
    # No known word piece: the fixed axis, never a zero vector the database cannot compare.
    assert vectors[3] == [1.0] + [0.0] * (dim - 1)


def test_hakis_provider_embeds_through_it(served):
    static, url, dim = served
    embedder = OpenAIEmbedder(url, model=static.MODEL, dimensions=dim)
    documents = embedder.embed_documents(["I prefer tea to coffee", "The deploy runs on Fridays"])
    query = embedder.embed_query("what do I drink")
    assert documents.shape == (2, dim) and len(query) == dim
    assert float(documents[0] @ query) > float(documents[1] @ query)
