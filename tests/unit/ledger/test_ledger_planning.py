"""Batch planning, hashing, keys and cursors: pure, no database."""

import inspect
from datetime import UTC, datetime, timedelta, timezone

import pytest

import haki.ledger as ledger
from haki.errors import InvalidPayload, MissingScope, PayloadTooLarge
from haki.ledger import cursor
from haki.ledger.canonical import canonical_json, content_hash, effective_key
from haki.ledger.planning import MAX_CONTENT_BYTES, MAX_EVENTS, default_trust, plan_batch
from haki.ledger.types import CaptureBatch, NewEvent

AT = datetime(2026, 1, 1, 10, tzinfo=UTC)


def event(**over) -> NewEvent:
    fields = {
        "project_id": "p",
        "subject_id": "s",
        "kind": "k",
        "occurred_at": AT,
        "payload": {"b": 1, "a": [1, "é"]},
    }
    fields.update(over)
    return NewEvent(**fields)


def plan(*events: NewEvent, key: str | None = None, trusted: bool = True):
    return plan_batch(
        CaptureBatch(events=events, idempotency_key=key), origin_trust_allowed=trusted
    )


def test_all_is_exact():
    public = {
        name
        for name, value in vars(ledger).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert set(ledger.__all__) == public


def test_canonical_json_is_sorted_compact_and_refuses_nan():
    assert canonical_json({"b": 1, "a": {"d": 2, "c": "é"}}) == '{"a":{"c":"é","d":2},"b":1}'
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


def test_hash_covers_business_content_only():
    base = dict(
        org_id="o",
        project_id="p",
        subject_type="user",
        subject_id="s",
        kind="k",
        occurred_at=AT,
        payload={"x": 1},
    )
    h = content_hash(**base)
    assert h.startswith("sha256:") and len(h) == 71
    assert content_hash(**{**base, "payload": {"x": 2}}) != h
    assert content_hash(**{**base, "subject_id": "t"}) != h
    paris = AT.astimezone(timezone(timedelta(hours=1)))
    assert content_hash(**{**base, "occurred_at": paris}) == h


def test_effective_key_order():
    assert effective_key("b", "e", "sha256:x", "s") == "b:sha256:x"
    assert effective_key(None, "e", "sha256:x", "s") == "e"
    assert effective_key(None, None, "sha256:x", "s") == "sha256:x:s"


def test_duplicates_in_a_batch_fold_into_the_first_position():
    p = plan(event(), event(payload={"other": True}), event(), key="bk")
    assert len(p.rows) == 2 and [r.position for r in p.rows] == [0, 1]
    assert p.keys[0] == p.keys[2] != p.keys[1]


def test_missing_subject_names_the_index():
    with pytest.raises(MissingScope) as err:
        plan(event(), event(), event(subject_id=None))
    assert err.value.field == "events[2].subject_id" and "events[2]" in err.value.message


@pytest.mark.parametrize(
    ("over", "field", "error"),
    [
        ({"occurred_at": datetime(2026, 1, 1)}, "events[0].occurred_at", InvalidPayload),
        ({"thread_id": "t" * 129}, "events[0].thread_id", InvalidPayload),
        ({"idempotency_key": "k" * 257}, "events[0].idempotency_key", InvalidPayload),
        ({"payload": {"x": "a" * MAX_CONTENT_BYTES}}, "events[0].payload", PayloadTooLarge),
        ({"payload": {"x": "\x00"}}, "events[0].payload", InvalidPayload),
        ({"source": {"x": float("inf")}}, "events[0].source", InvalidPayload),
        ({"project_id": ""}, "events[0].project_id", MissingScope),
        ({"classification": ("ok", "c" * 300)}, "events[0].classification[1]", InvalidPayload),
    ],
)
def test_limits_are_typed_and_located(over, field, error):
    with pytest.raises(error) as err:
        plan(event(**over))
    assert err.value.field == field


def test_a_literal_backslash_u0000_is_not_a_nul():
    assert plan(event(payload={"x": "\\u0000"})).rows


def test_batch_size_limit():
    with pytest.raises(PayloadTooLarge):
        plan(*[event(subject_id=f"s{i}") for i in range(MAX_EVENTS + 1)])
    assert len(plan(*[event(subject_id=f"s{i}") for i in range(MAX_EVENTS)]).rows) == MAX_EVENTS


def test_trust_defaults_and_who_may_set_it():
    assert default_trust(None) == default_trust("user") == "trusted"
    assert (
        default_trust("agent") == default_trust("tool") == default_trust("system") == "semi_trusted"
    )
    assert plan(event(actor_type="agent", origin_trust="trusted")).rows[0].origin_trust == "trusted"
    assert plan(event(origin_trust="untrusted"), trusted=False).rows[0].origin_trust == "untrusted"
    with pytest.raises(InvalidPayload) as err:
        plan(event(actor_type="tool", origin_trust="trusted"), trusted=False)
    assert err.value.field == "events[0].origin_trust"


def test_cursor_round_trip_and_tag_check():
    token = cursor.encode("timeline", "a", "b")
    assert cursor.decode("timeline", token, 2) == ["a", "b"]
    for bad in (
        "%%%",
        token + "x",
        cursor.encode("facts", "a", "b"),
        cursor.encode("timeline", "a"),
    ):
        with pytest.raises(InvalidPayload):
            cursor.decode("timeline", bad, 2)


def test_machine_roles_in_the_payload_lower_the_default_trust():
    assistant = {"role": "assistant", "content": "Your invoices will be in English."}
    assert default_trust(None, assistant) == "semi_trusted"
    assert default_trust(None, {"messages": [assistant]}) == "semi_trusted"
    assert default_trust(None, {"assistant": "Noted."}) == "semi_trusted"
    mixed = {"messages": [{"role": "user", "content": "Hi"}, assistant]}
    assert default_trust(None, mixed) == "trusted"  # the roles inside still count per turn
    assert default_trust(None, {"role": "user", "content": "Hi"}) == "trusted"
    assert default_trust(None, {"text": "a note"}) == "trusted"
    assert default_trust("user", assistant) == "trusted"  # an explicit actor wins
