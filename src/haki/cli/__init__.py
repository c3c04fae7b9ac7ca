"""The ``haki`` command line: server commands plus a client for the HTTP API."""

try:
    from .main import cli, main
except ModuleNotFoundError as missing:  # the client-only install has no server stack
    _missing = missing.name

    def main() -> None:
        raise SystemExit(
            f"haki: this command needs the server install ({_missing} is missing): "
            "pip install 'haki-memory[server]'"
        )

    cli = None  # type: ignore[assignment]

__all__ = ["cli", "main"]
