"""Facts typed as in a chat, and days read on the speaker's clock (``readings``, ``when``, ``values``)."""

from datetime import UTC, date, datetime

import pytest
from dated_reading import facts_since

from haki.providers.extraction.readings import plainly
from haki.providers.extraction.when import on_their_clock, resolve

# Monday 2026-09-14, morning in Rotterdam.
AT = datetime.fromisoformat("2026-09-14T08:15:00+02:00")


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("so yeah, we finally moved to Rotterdam", "we moved to Rotterdam"),
        ("Went keto a couple of weeks ago", "I went keto a couple of weeks ago"),
        ("ça y est, je suis officiellement prof", "je suis prof"),
        # Hedges and correction cues change what is said: they stay.
        ("I don't really like jazz", "I don't really like jazz"),
        ("I actually live in Lyon", "I actually live in Lyon"),
        # A bare verb that is no past life event gets no speaker.
        ("Remind me tomorrow", "Remind me tomorrow"),
    ],
)
def test_plainly_takes_off_what_colours_a_statement(text, plain):
    assert plainly(text) == plain


@pytest.mark.parametrize(
    ("text", "fact", "since"),
    [
        (
            "so yeah, we finally moved to Rotterdam last week",
            ("home_city", "Rotterdam"),
            "2026-09-07",
        ),
        ("Moved to Oslo 2 yrs ago.", ("home_city", "Oslo"), "2024-09-14"),
        ("I started learning the cello 3 wks ago", ("learning", "cello"), "2026-08-24"),
        ("j'ai commencé la course à pied cet été", ("hobby", "course à pied"), "2026-06-01"),
        (
            "Lundi dernier j'ai rejoint un club d'échecs près de chez moi",
            ("member_of", "club d'échecs"),
            "2026-09-07",
        ),
    ],
)
def test_chat_wording_gives_the_fact_and_its_day(text, fact, since):
    assert facts_since(text, AT) == {fact: date.fromisoformat(since)}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # A comma splice: the part after it has a subject of its own.
        ("je suis en couple avec Karim, ça se passe super bien", ("partner", "Karim")),
        ("We moved into our new flat in Bristol, boxes everywhere", ("home_city", "Bristol")),
        ("j'ai emménagé dans un studio à Lille", ("home_city", "Lille")),
        ("I'm now a team lead.", ("occupation", "team lead")),
        ("I adopted a ferret. His name is Noodle.", ("pet", "Noodle")),
        ("we've had our beagle Waffles since Easter", ("pet", "Waffles")),
        ("on m'a diagnostiqué une allergie au latex", ("allergy", "latex")),
        ("je suis inscrit chez Basic-Fit, je m'accroche", ("member_of", "Basic-Fit")),
    ],
)
def test_everyday_facts_in_chat_shapes(text, fact):
    assert fact in facts_since(text, AT)


@pytest.mark.parametrize(
    ("text", "not_fact"),
    [
        # A pronoun that points back continues the first part: the pet has its name.
        ("We adopted a beagle three weeks ago, she's called Pepper.", ("pet", "beagle")),
        # After a subordinate clause, the main clause states no fact of its own.
        ("When I moved here, I was 20", ("age", "20")),
    ],
)
def test_a_comma_splits_only_statements_of_their_own(text, not_fact):
    assert not_fact not in facts_since(text, AT)


def test_a_state_that_follows_from_an_event_holds_from_its_moment():
    found = facts_since("I broke up with him at the end of last month, so I'm single again", AT)
    assert found == {("relationship_status", "single"): date(2026, 8, 1)}
    # Only a consequence borrows the moment: a mere second clause does not.
    assert facts_since("I saw a film yesterday, and I'm vegan", AT)[("diet", "vegan")] is None


def test_a_pet_got_is_not_a_thing_owned():
    assert facts_since("got a border collie last month", AT) == {
        ("pet", "border collie"): date(2026, 8, 1)
    }


@pytest.mark.parametrize(
    ("said_at", "span", "day"),
    [
        # 23:50 in California on a Tuesday: UTC is already Wednesday.
        ("2027-03-02T23:50:00-08:00", "on Saturday", "2027-02-27"),
        ("2027-03-02T23:50:00-08:00", "yesterday", "2027-03-01"),
        # 07:00 in Sydney on a Monday: UTC is still Sunday.
        ("2026-06-01T07:00:00+10:00", "yesterday", "2026-05-31"),
        ("2026-06-01T07:00:00+10:00", "last Christmas", "2025-12-25"),
    ],
)
def test_a_day_is_read_on_the_speakers_clock_and_keeps_its_date_in_utc(said_at, span, day):
    at = datetime.fromisoformat(said_at)
    moment = resolve(span, at)
    assert moment is not None
    assert moment.astimezone(at.tzinfo).date().isoformat() == day
    assert moment.astimezone(UTC).date().isoformat() == day


def test_a_day_is_never_later_than_the_turn():
    at = datetime.fromisoformat("2026-06-01T07:00:00+10:00")
    assert on_their_clock(date(2026, 6, 1), at) == at.astimezone(UTC)
    assert on_their_clock(date(2026, 6, 2), at) is None
