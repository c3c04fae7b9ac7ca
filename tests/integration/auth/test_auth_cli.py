"""``haki keys``: the bootstrap path, straight to the database."""

from urllib.parse import quote

import psycopg
from click.testing import CliRunner

from haki.auth import hash_key
from haki.cli.main import cli


def _as_url(conninfo: str) -> str:
    info = psycopg.conninfo.conninfo_to_dict(conninfo)
    dbname, user = info.pop("dbname"), info.pop("user", "")
    query = "&".join(f"{k}={quote(str(v), safe='')}" for k, v in sorted(info.items()))
    return f"postgresql://{quote(str(user))}@/{dbname}?{query}"


def test_create_list_revoke(db_url, monkeypatch):
    monkeypatch.setenv("HAKI_DATABASE_URL", _as_url(db_url))
    runner = CliRunner()

    created = runner.invoke(cli, ["keys", "create", "--project", "P", "--label", "laptop"])
    assert created.exit_code == 0, created.output
    secret = created.stdout.strip()
    assert secret.startswith("hk_") and "\n" not in secret
    assert secret not in created.stderr and "shown again" in created.stderr
    with psycopg.connect(db_url) as conn:
        key_id, project = conn.execute(
            "SELECT id, project_id FROM api_keys WHERE key_hash = %s", (hash_key(secret),)
        ).fetchone()
    assert project == "P"

    listed = runner.invoke(cli, ["keys", "list", "--project", "P"])
    assert listed.exit_code == 0 and str(key_id) in listed.stdout and "active" in listed.stdout
    assert secret[:8] in listed.stdout and secret not in listed.stdout

    revoked = runner.invoke(cli, ["keys", "revoke", str(key_id)])
    assert revoked.exit_code == 0 and "revoked" in revoked.stdout
    listed = runner.invoke(cli, ["keys", "list", "--project", "P"])
    assert "revoked" in listed.stdout

    missing = runner.invoke(cli, ["keys", "revoke", "00000000-0000-0000-0000-000000000000"])
    assert missing.exit_code == 2 and "not_found" in missing.stderr
