"""Telling an unknown subject from an empty memory never reads a table whole.

The check runs when a call served nothing. Prepared, its statement would
get the generic plan after five calls on one connection: a sequential scan
of events and facts that, for a subject with no rows, stops nowhere.
"""

from haki.context.assembler import _subject_known
from haki.context.types import ContextRequest
from haki.storage import Database


async def test_the_check_is_never_prepared(db_url):
    db = Database(db_url, min_size=1, max_size=1)
    await db.open()
    try:
        for n in range(8):
            req = ContextRequest("proj", f"nobody-{n}", "anything?", 900)
            assert await _subject_known(db, req) is False
        async with db.transaction(project_id="proj") as conn:
            cur = await conn.execute("SELECT statement FROM pg_prepared_statements")
            prepared = [row["statement"] for row in await cur.fetchall()]
    finally:
        await db.close()
    # psycopg sends the statement with $n placeholders.
    assert not [s for s in prepared if "SELECT 1 FROM events WHERE project_id = $1" in s], prepared
