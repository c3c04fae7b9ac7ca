"""What the fact reader by meaning (``meaning_facts``) costs, and what it reads on chat.

    PYTHONPATH=src .venv/bin/python bench/fact_reader_cost.py [--limit N] [--show]

Texts: the LoCoMo dev turns, taken as the user's own words (no speaker
named: the reader's worst case, since named speakers are never read), and
the extraction dev fixtures (``extraction_speed.texts``, never the blind
ones). Prints, per turn: the sentences the embedder is asked for with the
wish reader alone and with both readers, the CPU time of the patterns, of
embedding the extra sentences, and of the fact reader itself, and how many
facts it reads on the LoCoMo turns (``--show`` prints them: chat is where
a wrong fact comes from).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from extraction_speed import texts
from haki.providers.embed import LocalEmbedder
from haki.providers.extraction import meaning_facts, rules
from haki.providers.extraction.meaning import Unread
from haki.providers.extraction.types import Utterance
from locomo import DATA, load


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="only the first N turns")
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    locomo = {t.text for t in load(DATA, None, 0)[0]}
    corpus = texts()[: args.limit or None]
    embedder = LocalEmbedder()
    reader = meaning_facts.reader_for(embedder)
    assert reader is not None
    began = time.process_time()
    unread: list[list[Unread]] = []
    for text in corpus:
        found: list[Unread] = []
        rules.extract_utterance(Utterance("user", None, text), found)
        unread.append(found)
    patterns = time.process_time() - began
    flat = [u for us in unread for u in us]
    extra = sorted({u.sentence for u in flat if u.fact and not u.wish})
    wish_only = {u.sentence for u in flat if u.wish}
    embedder.embed_documents(["warm up"])
    began = time.process_time()
    vectors = embedder.embed_documents(extra) if extra else None
    embed = time.process_time() - began
    fact_rows = [u for u in flat if u.fact]
    all_vectors = embedder.embed_documents([u.sentence for u in fact_rows])
    began = time.process_time()
    read = meaning_facts.read(reader, fact_rows, all_vectors)
    reading = time.process_time() - began
    on_chat = [(u, c) for u, c in zip(fact_rows, read, strict=True) if c is not None]
    chat = [(u, c) for u, c in on_chat if any(u.sentence in t for t in locomo)]
    if args.show:
        for u, c in on_chat:
            print(f"{c.predicate:20} {c.value!s:24} | {u.sentence}", file=sys.stderr)
    n = len(corpus)
    print(
        json.dumps(
            {
                "turns": n,
                "sentences_embedded_wish_reader_only": len(wish_only),
                "sentences_embedded_both_readers": len(wish_only) + len(extra),
                "extra_sentences": len(extra),
                "cpu_ms_per_turn": {
                    "patterns": round(1000 * patterns / n, 3),
                    "embedding_extra_sentences": round(1000 * embed / n, 3),
                    "fact_reader": round(1000 * reading / n, 3),
                },
                "facts_read": len(on_chat),
                "facts_read_on_locomo_turns_as_unnamed": len(chat),
                "vectors_shape": None if vectors is None else list(vectors.shape),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
