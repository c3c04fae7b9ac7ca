"""Facts framed by chat structure: emoji, questions that presuppose, apposition, clauses.

Each case states a fact in a frame that once hid it (``rules``,
``readings``, ``questions``, ``reported``), and each frame has a lookalike
that must still read nothing, or nothing more.
"""

from __future__ import annotations

import pytest

from haki.providers.extraction import by_meaning, meaning_facts
from haki.providers.extraction.meaning import Unread
from haki.providers.extraction.rules import extract_payload
from haki.providers.extraction.schedules import typed_schedule


def facts(text: str) -> set[tuple[str, str]]:
    return {(c.predicate, str(c.value)) for c in extract_payload({"text": text}) if not c.retract}


def whens(text: str) -> dict[tuple[str, str], str | None]:
    return {(c.predicate, str(c.value)): c.said_when for c in extract_payload({"text": text})}


def test_an_emoji_ends_a_sentence_so_the_next_one_is_read_apart() -> None:
    text = (
        "my sister finally passed her driving test and she's insufferable about it 😂 "
        "anyway i started at Klarna yesterday, first day was mostly laptop setup"
    )
    assert whens(text).get(("employer", "Klarna")) == "yesterday"


def test_a_question_asking_whether_the_listener_knew_reads_as_its_statement() -> None:
    assert ("employer", "Deloitte") in facts("did i tell you i've been at Deloitte since march?")
    assert ("pet", "Miso") in facts("je t'ai dit que j'ai adopté un chat qui s'appelle Miso ?")
    # Someone else's fact stays someone else's; a real question states nothing.
    assert not any(p == "home_city" for p, _ in facts("did i tell you my sister lives in Lyon?"))
    assert facts("do I live in Lyon?") == set()


def test_a_request_put_as_a_question_keeps_its_readings() -> None:
    assert ("language", "Spanish") in facts("could you answer in spanish from now on?")


def test_the_speaker_reporting_themself_keeps_their_words() -> None:
    assert ("home_city", "Rotterdam") in facts(
        "fyi in case i never said, i moved to Rotterdam last year"
    )
    assert facts("She said, I live in Madrid") == set()


def test_a_reporting_word_before_no_first_person_takes_nothing_out() -> None:
    # "replies" is a noun here; what follows holds no "I" to mistake.
    assert ("daughter", "Maya") in facts(
        "sorry for slow replies, we had our baby girl two years ago, Maya, and life is a blur"
    )


def test_a_chat_interjection_opens_no_standing_order() -> None:
    got = facts(
        "fyi in case i never said, i moved to Rotterdam last year, still getting used to it"
    )
    assert not any(p == "convention" for p, _ in got)


def test_a_clause_with_its_own_span_to_now_keeps_its_perfect_a_present_state() -> None:
    assert ("relationship_status", "single") in facts(
        "lena and i ended things, so i've been single since august."
    )
    assert ("likes", "watercolor") in facts("i've been really into watercolor lately, so relaxing")
    assert facts("I've been really busy lately") == set()


def test_a_colon_lead_in_comes_off_each_clause() -> None:
    got = whens(
        "alors en vrai grosse année : on a déménagé à Lyon en mars et j'ai commencé chez "
        "Sanofi la semaine dernière."
    )
    assert got.get(("home_city", "Lyon")) == "en mars"
    assert got.get(("employer", "Sanofi")) == "la semaine dernière"


def test_a_name_in_apposition_stands_for_its_definite_phrase() -> None:
    assert ("member_of", "Teamsters Local 2785") in facts(
        "random but i joined the union at work last month, Teamsters Local 2785."
    )
    assert any(
        p == "employer" and v.startswith("Hartley")
        for p, v in facts("earlier this week i started at the bakery on church st, Hartley's.")
    )
    # A phrase holding someone of the speaker's ("my dog") is no definite group.
    assert {v for p, v in facts("I went to the park with my dog, Rex.") if p != "pet"} == set()


def test_a_since_left_by_a_cut_moment_goes() -> None:
    got = whens("je bosse de 8h à 16h depuis le mois dernier, ça change la vie")
    assert got.get(("schedule", "de 8h à 16h")) == "le mois dernier"


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("anyway started taking guitar lessons on saturday", ("learning", "guitar")),
        ("oh and ive been playing padel since april!!", ("hobby", "padel")),
        ("je joue au basket dans l'équipe du quartier", ("hobby", "basket")),
        ("picked up my new Tesla Model 3 four days ago", ("owns", "Tesla Model 3")),
        ("mon lapin Caramel adore les carottes", ("pet", "Caramel")),
        (
            "i play bass in a band called Static Hum, we gig most fridays",
            ("member_of", "Static Hum"),
        ),
        ("je suis syndiqué à la CGT depuis longtemps", ("member_of", "CGT")),
        ("mon adresse mail a changé hier : c.morel@laposte.net", ("email", "c.morel@laposte.net")),
        (
            "chez nous on met les accolades sur une nouvelle ligne",
            ("code_convention", "accolades sur une nouvelle ligne"),
        ),
        ("i'm used to imperial units, so feet and pounds please", ("units", "imperial")),
        (
            "i work 9 to 5, monday to friday, so evenings are free",
            ("schedule", "9am-5pm Monday-Friday"),
        ),
    ],
)
def test_everyday_wordings_of_a_fact(text: str, fact: tuple[str, str]) -> None:
    assert fact in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "my brother is in a band called Static Hum",
        "I saw a band called Static Hum",
        "email a copy to bob@example.com",
        "I broke my braces",
        "I've been playing games all day",
    ],
)
def test_their_lookalikes_read_no_such_fact(text: str) -> None:
    got = facts(text)
    assert not any(p in ("member_of", "email", "code_convention", "hobby") for p, _ in got), got


def test_the_pet_kind_comes_with_a_french_pet_name() -> None:
    (cand,) = [c for c in extract_payload({"text": "ma tortue Speedy"}) if c.predicate == "pet"]
    assert cand.value == "Speedy" and cand.qualifiers.get("kind") == "tortue"


def test_a_pastime_said_with_its_days_is_a_schedule_too() -> None:
    got = facts("Je joue au foot le jeudi")
    assert ("hobby", "foot") in got and any(p == "schedule" for p, _ in got)


@pytest.mark.parametrize(
    ("said", "typed"),
    [
        ("i work 9 to 5, monday to friday", "9am-5pm Monday-Friday"),
        ("it's four tens now — mon to thu, 7am to 5:30pm", "7am-5:30pm Monday-Thursday"),
        ("je bosse de 8h à 16h du lundi au vendredi", "8h-16h lundi-vendredi"),
        ("I sleep from 11pm to 7am", "11pm-7am"),
        ("I play tennis every sunday", None),
        ("I run 5 to 10 km on weekends", None),
        ("I did it 2 to 3 times", None),
    ],
)
def test_a_schedule_is_typed_from_its_ranges(said: str, typed: str | None) -> None:
    assert typed_schedule(said) == typed


def test_fact_possible_reads_each_family_value_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = meaning_facts.value_of

    def counted(family: str, sentence: str):  # type: ignore[no-untyped-def]
        calls.append(family)
        return real(family, sentence)

    monkeypatch.setattr(by_meaning, "value_of", counted)
    monkeypatch.setattr(meaning_facts, "value_of", counted)
    unread = Unread("on est à grenoble depuis septembre", "user", wish=False, fact=True)
    assert by_meaning.fact_possible(unread)
    # The home city is found, then handed to the guard: never looked for twice.
    assert len(calls) == len(set(calls))


def test_an_emoji_ends_a_sentence_only_before_the_speaker_going_on() -> None:
    from haki.providers.extraction.rules import _pieces

    assert _pieces("it was fun 😂 anyway i started at Klarna") == [
        "it was fun 😂",
        "anyway i started at Klarna",
    ]
    # A fragment after an emoji stays with its sentence: read apart, the wish
    # reader took "my roommate is obsessed, she buys him treats every day" for an order.
    whole = "his name is Waffles 🐶 my roommate is obsessed, she buys him treats every day"
    assert _pieces(whole) == [whole]


def test_the_fact_reader_reads_each_part_an_emoji_closes() -> None:
    unread: list[Unread] = []
    extract_payload({"text": "we finally named the puppy Bizcuit 🐶 the kids voted"}, unread)
    by_reader = {(u.sentence, u.wish, u.fact) for u in unread}
    assert ("we finally named the puppy Bizcuit 🐶", False, True) in by_reader
    # The whole sentence still goes to the wish reader, and to it alone.
    assert ("we finally named the puppy Bizcuit 🐶 the kids voted", True, False) in by_reader
    # Alone, the part with the name passes the guard the kids of the whole would trip.
    part = Unread("we finally named the puppy Bizcuit 🐶", "user", wish=False, fact=True)
    assert meaning_facts.candidate(part, "pet") is not None
    whole = Unread("we finally named the puppy Bizcuit 🐶 the kids voted", "user", fact=True)
    assert meaning_facts.candidate(whole, "pet") is None
