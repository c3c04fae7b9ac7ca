import pytest

from haki.config import is_loopback, load_settings
from haki.errors import ConfigError


def test_defaults_are_the_embedded_dev_setup(monkeypatch):
    for var in ("HAKI_DATABASE_URL", "HAKI_AUTH", "HAKI_HOST"):
        monkeypatch.delenv(var, raising=False)
    s = load_settings()
    assert s.embedded and s.port == 8100 and s.host == "127.0.0.1"
    assert s.recall_max_distance == 2.0 and s.default_budget_tokens == 900
    assert not s.auth_enabled  # embedded on loopback starts in dev mode


def test_unknown_choice_names_the_variable(monkeypatch):
    monkeypatch.setenv("HAKI_EMBED_PROVIDER", "locl")
    with pytest.raises(ConfigError) as err:
        load_settings()
    assert str(err.value).startswith("HAKI_EMBED_PROVIDER:")
    assert "\n" not in str(err.value)


def test_bad_number_names_the_variable(monkeypatch):
    monkeypatch.setenv("HAKI_PORT", "eighty")
    with pytest.raises(ConfigError, match="HAKI_PORT"):
        load_settings()


def test_auth_off_refused_on_public_bind(monkeypatch):
    monkeypatch.setenv("HAKI_AUTH", "off")
    monkeypatch.setenv("HAKI_HOST", "0.0.0.0")
    with pytest.raises(ConfigError, match="non-loopback"):
        load_settings()
    monkeypatch.setenv("HAKI_AUTH_FORCE_OFF", "true")
    assert not load_settings().auth_enabled


def test_external_database_turns_auth_on_by_default(monkeypatch):
    monkeypatch.delenv("HAKI_AUTH", raising=False)
    monkeypatch.setenv("HAKI_DATABASE_URL", "postgresql://u@db/haki")
    assert load_settings().auth_enabled


def test_database_url_must_be_postgres(monkeypatch):
    monkeypatch.setenv("HAKI_DATABASE_URL", "sqlite:///x.db")
    with pytest.raises(ConfigError, match="HAKI_DATABASE_URL"):
        load_settings()


def test_hash_embedder_needs_explicit_permission(monkeypatch):
    monkeypatch.setenv("HAKI_EMBED_PROVIDER", "hash")
    with pytest.raises(ConfigError, match="test-only"):
        load_settings()
    monkeypatch.setenv("HAKI_ALLOW_HASH_EMBEDDER", "1")
    assert load_settings().embed_provider == "hash"


@pytest.mark.parametrize(
    "host,expected",
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("10.0.0.2", False),
    ],
)
def test_is_loopback(host, expected):
    assert is_loopback(host) is expected
