"""Changes of state read by structure are stored with the time they were said to begin."""

from consolidator_helpers import add_events, at
from dateutil.relativedelta import relativedelta

from haki.consolidator import run_pending

FACTS = """
SELECT predicate, value, status, valid_from, qualifiers FROM facts
WHERE project_id = %(p)s ORDER BY predicate, valid_from, value"""


async def _facts(db):
    async with db.transaction(project_id="p1") as conn:
        cur = await conn.execute(FACTS, {"p": "p1"})
        return await cur.fetchall()


async def test_a_new_diet_supersedes_the_old_from_when_it_began(db, rules_worker):
    await add_events(db, [{"text": "I'm vegetarian."}, {"text": "I went keto two months ago."}])
    await run_pending(rules_worker)
    diets = {f["value"]: f for f in await _facts(db) if f["predicate"] == "diet"}
    assert diets["vegetarian"]["status"] == "superseded"
    assert diets["keto"]["status"] == "active"
    # The words name a day: it holds from that day (noon on the speaker's clock).
    assert diets["keto"]["valid_from"].date() == (at(1) - relativedelta(months=2)).date()


async def test_a_pet_named_after_its_breed_and_a_pastime_taken_up(db, rules_worker):
    await add_events(
        db,
        [
            {"text": "got a border collie puppy last month!! his name is Scout"},
            {"text": "Je me suis mise au violon il y a trois semaines."},
        ],
    )
    await run_pending(rules_worker)
    stored = {(f["predicate"], f["value"]): f for f in await _facts(db)}
    scout = stored[("pet", "Scout")]
    assert scout["status"] == "active" and scout["qualifiers"]["kind"] == "border collie"
    assert scout["valid_from"] == at(0) - relativedelta(months=1)
    violin = stored[("plays", "violon")]
    # Three weeks counted back: that day, said as its week.
    assert violin["valid_from"].date() == (at(1) - relativedelta(weeks=3)).date()
    assert violin["qualifiers"]["valid_from_grain"] == "week"
    assert ("pet", "border collie") not in stored and ("hobby", "violon") not in stored
