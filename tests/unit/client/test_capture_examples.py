"""The OpenAPI examples of ``POST /v1/capture`` keep who said what."""

from __future__ import annotations

from haki.api.schemas.capture import CAPTURE_EXAMPLES, CaptureIn
from haki.consolidator.chunking import chunk_event
from haki.providers.extraction.types import EventRow


def test_every_capture_example_is_valid_and_names_its_speaker():
    for name, example in CAPTURE_EXAMPLES.items():
        body = CaptureIn.model_validate(example["value"])
        event = body.events[0]
        row = EventRow(
            None,  # type: ignore[arg-type]
            "default",
            event.project_id,
            event.subject_type,
            "alice",
            event.kind,
            event.occurred_at,
            event.payload,
            "trusted",
        )
        chunks = [c.text for c in chunk_event(row)]
        if name == "text":
            assert chunks == ["Order #1234 shipped to Lyon."]  # free text has no speaker
        else:
            assert all(":" in c.split(" ")[0] for c in chunks), (name, chunks)
