"""Constants and header helpers shared by the auth tests (a plain module: conftest is not importable by name)."""

ADMIN_KEY = "adm-test-0123456789abcdef0123456789"


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


ADMIN = bearer(ADMIN_KEY)
