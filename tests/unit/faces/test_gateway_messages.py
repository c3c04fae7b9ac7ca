"""The gateway's pure rules: the query, where the block goes, the streamed answer."""

from __future__ import annotations

import json

from haki.gateway.messages import StreamText, inject, last_user_text, message_text

BLOCK = "<haki_memory>\nThe user lives in Lyon.\n</haki_memory>"


def test_the_query_is_the_last_user_message_text_parts_included() -> None:
    messages = [
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "reply"},
        {"role": "user", "content": [{"type": "text", "text": "where"}, {"type": "image_url"}]},
    ]
    assert last_user_text(messages) == "where"
    assert last_user_text([{"role": "system", "content": "x"}]) == ""


def test_block_prepends_to_the_system_message_or_becomes_the_first() -> None:
    sys_msg = {"role": "system", "content": "Be brief."}
    out = inject([sys_msg, {"role": "user", "content": "q"}], BLOCK)
    assert out[0] == {"role": "system", "content": f"{BLOCK}\n\nBe brief."}
    assert sys_msg == {"role": "system", "content": "Be brief."}  # the input is not mutated
    out = inject([{"role": "user", "content": "q"}], BLOCK)
    assert out[0] == {"role": "system", "content": BLOCK} and len(out) == 2
    parts = inject([{"role": "developer", "content": [{"type": "text", "text": "d"}]}], BLOCK)
    assert parts[0]["content"][0] == {"type": "text", "text": BLOCK}
    assert inject([{"role": "user", "content": "q"}], "") == [{"role": "user", "content": "q"}]


def test_stream_text_survives_chunks_split_anywhere() -> None:
    events = [
        {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hel"}}]},
        {"choices": [{"index": 0, "delta": {"content": "lo é"}}]},
        {"choices": [{"index": 1, "delta": {"content": "other choice"}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    wire = "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode() + b"data: [DONE]\n\n"
    for size in (1, 3, 7, len(wire)):
        seen = StreamText()
        for i in range(0, len(wire), size):
            seen.feed(wire[i : i + size])
        assert seen.text == "Hello é" and seen.done


def test_message_text_of_a_completion() -> None:
    done = {"choices": [{"message": {"role": "assistant", "content": "ok"}}]}
    assert message_text(done) == "ok"
    assert message_text({"choices": []}) == ""
    assert message_text({"choices": [{"message": {"content": None, "tool_calls": []}}]}) == ""
