import asyncio

from psycopg_pool import AsyncConnectionPool

from haki.storage import db as dbmod


class FakeConnection:
    """Stands in for a pooled connection: only identity matters to the callbacks."""


def test_only_connections_idle_for_a_while_are_tested(monkeypatch):
    tested: list[FakeConnection] = []

    async def check_connection(conn):
        tested.append(conn)

    monkeypatch.setattr(AsyncConnectionPool, "check_connection", staticmethod(check_connection))
    clock = [100.0]
    monkeypatch.setattr(dbmod.time, "monotonic", lambda: clock[0])
    idle = dbmod._IdleCheck()
    fresh, returned = FakeConnection(), FakeConnection()

    async def run():
        await idle.check(fresh)  # never seen: tested
        await idle.reset(returned)
        clock[0] += dbmod.CHECK_AFTER_IDLE_S / 2
        await idle.check(returned)  # just handed back: lent as it is
        clock[0] += dbmod.CHECK_AFTER_IDLE_S
        await idle.check(returned)  # idle too long: tested

    asyncio.run(run())
    assert tested == [fresh, returned]
