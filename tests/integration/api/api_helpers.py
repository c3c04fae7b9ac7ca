"""Shared request material of the API tests (a plain module: conftest is not importable)."""

EVENT = {
    "project_id": "p",
    "subject_id": "s",
    "kind": "message",
    "occurred_at": "2026-01-31T09:00:00Z",
    "payload": {"content": "I live in Lyon."},
}
SCOPE = {"project_id": "p", "subject_id": "s"}
