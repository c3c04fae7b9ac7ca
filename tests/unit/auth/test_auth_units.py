"""Key material, the rate limiter's switch and the principal's scope checks: no database."""

import re
from datetime import UTC

import pytest

import haki.auth
from haki.api.auth import DEV_PRINCIPAL, Principal
from haki.auth import IssuedKey, RateLimiter, generate_key, hash_key, key_prefix, looks_like_key
from haki.errors import ForbiddenScope, InvalidPayload


def test_all_lists_the_public_names():
    public = {n for n in dir(haki.auth) if not n.startswith("_")} - {
        "device",
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


async def test_zero_disables_the_limit_without_a_database():
    # The counting itself is shared through PostgreSQL: tests/integration/auth
    # and tests/integration/scale check it across processes.
    off = RateLimiter(0)
    assert not off.enabled and RateLimiter(3).enabled
    assert await off.acquire(None, "p", "k") is None  # type: ignore[arg-type]


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
