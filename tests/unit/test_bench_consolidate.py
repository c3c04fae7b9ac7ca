"""bench/consolidate.py: the LoCoMo workload's payloads and extractor, as the server sees them."""

import pytest

from bench_modules import load_bench
from haki.config import load_settings
from haki.providers.embed import LocalEmbedder
from haki.providers.extraction import build_extractor
from haki.providers.extraction.meaning import Unread
from haki.providers.extraction.render import utterances
from haki.providers.extraction.rules import extract_utterance


@pytest.fixture(scope="module")
def bench():
    return load_bench("consolidate.py", "bench_consolidate")


def test_named_turns_keep_their_speaker_and_caption(bench):
    payload = bench.turn_payload("Caroline", "I moved to Lyon.", "a photo of a cat", "named")
    assert payload == {
        "speaker": "Caroline",
        "text": "I moved to Lyon.",
        "blip_caption": "a photo of a cat",
    }
    (said,) = utterances(payload)
    assert (said.role, said.speaker) == ("user", "Caroline")


def test_user_turns_are_messages_the_readers_by_meaning_read(bench):
    # A sentence no pattern reads: as a named speaker's it is never left for
    # the readers by meaning; as the user's own it is.
    text = "Honestly I could eat dumplings every single day of the week."
    left: dict[str, list[Unread]] = {}
    for speakers in ("named", "user"):
        payload = bench.turn_payload("Caroline", text, None, speakers)
        left[speakers] = []
        for said in utterances(payload):
            extract_utterance(said, left[speakers])
    assert left["named"] == []
    assert [u.sentence.strip() for u in left["user"]] == [text]
    assert "blip_caption" not in bench.turn_payload("Caroline", text, None, "user")


def test_the_extractor_reads_by_meaning_with_the_local_embedder():
    # What the bench builds (no model is loaded until a text is embedded).
    extractor = build_extractor(load_settings(database_url=None, auth="off"), LocalEmbedder())
    assert extractor.reader is not None and extractor.facts is not None
