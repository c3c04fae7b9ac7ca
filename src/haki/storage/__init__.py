"""Storage: embedded or external PostgreSQL + pgvector, pool, migrations."""

from .bootstrap import PreparedDatabase, prepare_database
from .db import Connection, Database

__all__ = ["Connection", "Database", "PreparedDatabase", "prepare_database"]
