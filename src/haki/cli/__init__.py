"""The ``haki`` command line: server commands plus a client for the HTTP API."""

from .main import cli, main

__all__ = ["cli", "main"]
