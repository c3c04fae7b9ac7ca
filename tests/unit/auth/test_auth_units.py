"""Key material, the token bucket and the principal's scope checks: no database."""

import re
from datetime import UTC

import pytest

import haki.auth
from haki.api.auth import DEV_PRINCIPAL, Principal
from haki.auth import IssuedKey, RateLimiter, generate_key, hash_key, key_prefix, looks_like_key
from haki.errors import ForbiddenScope, InvalidPayload


def test_all_lists_the_public_names():
    public = {n for n in dir(haki.auth) if not n.startswith("_")} - {
        "material",
        "ratelimit",
        "service",
        "store",
        "types",
        "annotations",
    }
    assert set(haki.auth.__all__) == public


def test_keys_are_hk_plus_256_random_bits_and_differ():
    keys = {generate_key() for _ in range(50)}
    assert len(keys) == 50
    for key in keys:
        assert re.fullmatch(r"hk_[A-Za-z0-9_-]{43}", key)
        assert looks_like_key(key)


def test_hash_is_hex_sha256_and_prefix_is_eight_chars():
    assert hash_key("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    key = "hk_" + "a" * 43
    assert key_prefix(key) == "hk_aaaaa"


def test_non_keys_are_refused_before_hashing():
    assert not looks_like_key("Bearer")
    assert not looks_like_key("sk-live-123")
    assert not looks_like_key("hk_" + "a" * 300)


def test_issued_key_repr_never_shows_the_secret():
    from datetime import datetime
    from uuid import uuid4

    from haki.auth import ApiKey

    secret = generate_key()
    record = ApiKey(uuid4(), "o", "p", "", key_prefix(secret), datetime.now(UTC), None, None)
    issued = IssuedKey(record=record, secret=secret)
    assert secret not in repr(issued) and secret not in str(issued)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_bucket_allows_a_minute_of_burst_then_asks_to_wait():
    clock = Clock()
    limiter = RateLimiter(3, clock=clock)
    assert [limiter.acquire("k") for _ in range(3)] == [None, None, None]
    assert limiter.acquire("k") == 20  # one token every 20 s at 3/min
    clock.now += 19.5
    assert limiter.acquire("k") == 1  # never 0: Retry-After is whole seconds
    clock.now += 0.5
    assert limiter.acquire("k") is None


def test_buckets_are_per_key_and_zero_disables():
    limiter = RateLimiter(1, clock=Clock())
    assert limiter.acquire("a") is None and limiter.acquire("b") is None
    assert limiter.acquire("a") == 60
    off = RateLimiter(0, clock=Clock())
    assert not off.enabled and all(off.acquire("a") is None for _ in range(1000))


def test_principal_require_and_project():
    p = Principal(project_id="A", key_id="k")
    p.require("A", None, "A")
    with pytest.raises(ForbiddenScope) as err:
        p.require("A", "B")
    assert "B" not in err.value.message  # generic: never echoes the other project
    assert p.project(None) == "A" and p.project("A") == "A"
    with pytest.raises(ForbiddenScope):
        p.project("B")
    assert DEV_PRINCIPAL.project("anything") == "anything"
    with pytest.raises(InvalidPayload):
        DEV_PRINCIPAL.project(None)


def test_admin_key_must_be_long_and_is_never_echoed(monkeypatch):
    from haki.config import load_settings
    from haki.errors import ConfigError

    monkeypatch.setenv("HAKI_ADMIN_KEY", "hunter2-short")
    with pytest.raises(ConfigError, match="HAKI_ADMIN_KEY") as err:
        load_settings()
    assert "hunter2" not in str(err.value)
    monkeypatch.setenv("HAKI_ADMIN_KEY", "")
    assert load_settings().admin_key is None


def test_auth_is_on_unless_embedded_on_loopback(monkeypatch):
    from haki.config import load_settings

    for var in ("HAKI_AUTH", "HAKI_DATABASE_URL", "HAKI_HOST"):
        monkeypatch.delenv(var, raising=False)
    assert not load_settings().auth_enabled
    assert load_settings(host="0.0.0.0").auth_enabled
    assert load_settings(database_url="postgresql://db/haki").auth_enabled
    assert load_settings(auth="on").auth_enabled
