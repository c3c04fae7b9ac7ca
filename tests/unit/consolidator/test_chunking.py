"""Chunking and payload rendering (pure)."""

import uuid
from datetime import UTC, datetime

from haki.consolidator.chunking import MAX_CHARS, TARGET_CHARS, chunk_event, split_text
from haki.providers.extraction.render import extraction_text, utterances
from haki.providers.extraction.types import EventRow


def event(payload: dict) -> EventRow:
    return EventRow(
        uuid.uuid4(),
        "default",
        "p",
        "user",
        "s",
        "conversation.message",
        datetime(2024, 1, 1, tzinfo=UTC),
        payload,
        "trusted",
    )


def texts(payload: dict) -> list[str]:
    return [c.text for c in chunk_event(event(payload))]


def test_one_chunk_per_message_with_role():
    payload = {
        "messages": [
            {"role": "user", "content": "I live in Paris"},
            {"role": "assistant", "content": [{"type": "text", "text": "Noted"}]},
            {"role": "user", "content": "   "},
        ]
    }
    assert texts(payload) == ["user: I live in Paris", "assistant: Noted"]


def test_speaker_turn_with_image_caption():
    payload = {"speaker": "Caroline", "text": "Look!", "blip_caption": "a photo of a dog"}
    assert texts(payload) == ["Caroline: Look! [shares image: a photo of a dog]"]


def test_conversation_turn_pair_and_readable_fallback():
    assert texts({"user": "hi", "assistant": "hello"}) == ["user: hi", "assistant: hello"]
    assert texts({"b": 2, "a": {"x": 1}, "empty": ""}) == ['a: {"x": 1}\nb: 2']


def test_long_text_splits_on_paragraphs_then_sentences_within_the_hard_max():
    paragraph = " ".join(f"Sentence number {i} is here." for i in range(120))
    text = "Intro paragraph.\n\n" + paragraph + "\n\n" + "x" * 4000
    pieces = split_text(text)
    assert pieces[0].startswith("Intro paragraph.\n\nSentence number 0")
    assert all(len(p) <= MAX_CHARS for p in pieces)
    assert sum(len(p) > TARGET_CHARS for p in pieces) <= 3  # only the unbreakable token runs long
    squeeze = lambda s: "".join(s.split())  # noqa: E731
    assert "".join(squeeze(p) for p in pieces) == squeeze(text)
    chunks = chunk_event(event({"text": text}))
    assert [c.ordinal for c in chunks] == list(range(len(pieces)))


def test_memory_block_is_not_evidence():
    said = utterances({"text": "<haki_memory>home_city: Paris</haki_memory> I moved to Lyon"})
    assert extraction_text(said[0].text) == "I moved to Lyon"


def test_every_documented_payload_shape_keeps_its_speaker():
    # docs/events.md: each shape, and the speaker its episode starts with.
    shapes = [
        ({"messages": [{"role": "user", "content": "I live in Lyon."}]}, ["user: I live in Lyon."]),
        ({"role": "user", "content": "I live in Lyon."}, ["user: I live in Lyon."]),
        ({"role": "assistant", "content": "Noted."}, ["assistant: Noted."]),
        ({"role": "user", "content": "Hi.", "name": "Sam"}, ["Sam: Hi."]),
        ({"speaker": "Caroline", "text": "Hi."}, ["Caroline: Hi."]),
        ({"user": "Hi.", "assistant": "Hello."}, ["user: Hi.", "assistant: Hello."]),
        ({"assistant": "Hello."}, ["assistant: Hello."]),
        ({"text": "A plain note."}, ["A plain note."]),
    ]
    for payload, expected in shapes:
        assert texts(payload) == expected, payload
