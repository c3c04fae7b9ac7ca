"""Names, contact details, homes, jobs, availability and code style read by structure.

(``providers.extraction.patterns_named``, ``patterns_standing``.) Each
reading has its positives in several shapes and both languages, and the
look-alikes it must leave alone.
"""

from datetime import UTC, date, datetime

import pytest
from dated_reading import facts_since

from haki.providers.extraction.rules import extract_payload
from haki.text.topics import relation_words


def facts(text: str) -> set[tuple[str, str]]:
    return {(c.predicate, str(c.value)) for c in extract_payload({"text": text}) if not c.retract}


@pytest.mark.parametrize(
    ("text", "predicate", "name"),
    [
        ("The dog's called Ziggy, he's a rescue", "pet", "Ziggy"),
        ("my husband's called Dev", "spouse", "Dev"),
        ("my partner is Sam, we've been together 6 years", "partner", "Sam"),
        ("My best friend is Marco, known him since school", "friend", "Marco"),
        ("my bestie is Jo", "friend", "Jo"),
        ("our bunny goes by Clover", "pet", "Clover"),
        ("notre chienne, c'est Lola", "pet", "Lola"),
        ("Ma fille, elle s'appelle Jade", "daughter", "Jade"),
        ("Mon meilleur pote s'appelle Bastien", "friend", "Bastien"),
        ("Ma sœur, c'est Léa.", "sister", "Léa"),
        # A word of time or correction before the naming verb.
        ("Max was my old dog. My dog now is Biscuit.", "pet", "Biscuit"),
        ("my sister actually is called Hanna", "sister", "Hanna"),
        ("mon chien maintenant s'appelle Max", "pet", "Max"),
        # The possessive pronoun set against someone else's.
        ("rufus is my parents' dog, not mine. mine's a cat named Olive", "pet", "Olive"),
        ("Mine is a dog called Rex.", "pet", "Rex"),
    ],
)
def test_a_relation_is_named_in_any_naming_shape(text, predicate, name):
    assert (predicate, name) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "My husband is Italian",  # a nationality, not a name
        "My friend is Canadian",
        "My partner is Nigerian",
        "my dog is Happy",  # a state, capitalised
        "My boss is Mike",  # no relation of the speaker's life the rules keep
        "My car is called Betsy",
        "My neighbour's dog is called Max",  # someone else's pet
        "my brother's girlfriend is called Emma",  # someone else's partner
        "my kid is called Max",  # son or daughter: the word does not say
        "The dog is Max",  # a bare "is" only after a possessive
        "Wait no, the dog is called Max.",  # which dog: only "the dog's called/name is"
        "Ma sœur, c'est Léa qui m'a aidé",  # a cleft, not a naming
        "If my dog were called Rex",
        "My husband now is French",
        "his is a cat named Olive",  # someone else's
    ],
)
def test_no_name_is_read_from_a_look_alike(text):
    named = {p for p, v in facts(text) if v[:1].isupper()}
    assert not named & {"pet", "spouse", "partner", "friend", "sister", "son", "daughter"}


def test_relation_words_come_from_the_topics_and_skip_shared_or_status_words():
    words = relation_words()
    assert words["pote"] == "friend" and words["bunny"] == "pet" and words["épouse"] == "spouse"
    # "child" is a cue of both son and daughter, "copain" of partner and
    # friend, "single" a relationship status: none names one relation.
    assert not {"child", "copain", "single", "couple", "compagnie"} & words.keys()


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("you can reach me at kim.lee@mailbox.example", "email", "kim.lee@mailbox.example"),
        ("email me at ana@x.example", "email", "ana@x.example"),
        ("text me on 0612 884 301", "phone", "0612 884 301"),
        ("call me at 555-201-3344", "phone", "555-201-3344"),
        ("appelle-moi au 06 12 34 56 78", "phone", "06 12 34 56 78"),
        ("tu peux me joindre à paul.m@exemple.fr", "email", "paul.m@exemple.fr"),
    ],
)
def test_a_way_to_reach_the_speaker_is_their_contact_detail(text, predicate, value):
    assert (predicate, value) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "Call me at 5pm",
        "email my boss at bob@corp.example",
        "text my sister on 0612 884 301",
        "you can reach her at kim@x.example",
    ],
)
def test_no_contact_detail_of_someone_else_or_of_a_time(text):
    assert not {p for p, _ in facts(text)} & {"email", "phone"}


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("We live in Leeds now", "Leeds"),
        ("my wife and I have been living in Denver since March", "Denver"),
        ("On habite à Rennes depuis deux ans", "Rennes"),
        ("nous vivons à Lyon", "Lyon"),
    ],
)
def test_a_shared_home_is_the_speakers(text, city):
    assert ("home_city", city) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "My parents live in Leeds",
        "We lived in Paris for years",
        "We used to live in Rome",
        "If we lived in Paris, I'd cycle everywhere",
        "On habitait à Lyon",
    ],
)
def test_no_home_from_others_the_past_or_a_wish(text):
    assert not {p for p, _ in facts(text)} & {"home_city"}


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("I work at Deloitte as an auditor", "auditor"),
        ("je bosse chez Orange comme comptable", "comptable"),
    ],
)
def test_a_job_given_after_the_employer(text, job):
    assert ("occupation", job) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I work at Google as a result of luck",
        "I work at Acme as a team",
        "je travaille chez Orange comme d'habitude",
        "I worked at Google as an intern",
    ],
)
def test_no_job_from_a_manner_or_a_past_job(text):
    assert not {p for p, _ in facts(text)} & {"occupation"}


def test_a_birthday_without_its_subject_is_dated():
    at = datetime(2026, 12, 6, 9, tzinfo=UTC)
    assert facts_since("Turned 35 last Tuesday, feeling old", at)[("age", "35")] == date(
        2026, 12, 1
    )
    assert not facts("turned 3 days ago the app crashed")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm off on Fridays, so don't book anything then", "off on Fridays"),
        ("I'm never available before 10am", "never available before 10am"),
        ("I'm busy mornings", "busy mornings"),
        ("je suis en télétravail le lundi", "en télétravail le lundi"),
        ("Je suis pas dispo le mercredi", "pas dispo le mercredi"),
    ],
)
def test_a_recurring_availability_is_a_schedule(text, value):
    assert ("schedule", value) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm free on Friday",
        "je suis pas là mercredi",
        "We're off to Spain on Monday",
        "I'm off sick",
        "I'm free after 5pm today",
        "je suis libre le samedi 12",
    ],
)
def test_a_one_off_time_is_no_schedule(text):
    assert not {p for p, _ in facts(text)} & {"schedule"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("In our repo we use snake_case for all function names", "snake_case"),
        ("We always use double quotes in our JS", "double quotes"),
        ("Chez nous, on écrit les messages de commit en anglais", "commit en anglais"),
        ("j'indente avec des tabulations", "tabulations"),
    ],
)
def test_a_practice_about_code_style_is_a_code_convention(text, words):
    found = [(p, v) for p, v in facts(text) if p in ("code_convention", "convention")]
    assert [p for p, _ in found] == ["code_convention"] and words in found[0][1]


@pytest.mark.parametrize(
    "text", ["we always squash commits before merging", "We deploy on Tuesdays, never Fridays"]
)
def test_a_practice_about_anything_else_is_no_code_convention(text):
    assert "code_convention" not in {p for p, _ in facts(text)}


@pytest.mark.parametrize(
    ("text", "predicate", "name", "since"),
    [
        (
            "We brought home a rescue greyhound two weeks ago, Pickle",
            "pet",
            "Pickle",
            date(2027, 1, 6),
        ),
        ("Il y a deux semaines on a adopté un chaton, Filou", "pet", "Filou", date(2027, 1, 6)),
        ("We had a baby girl three weeks ago, Ava", "daughter", "Ava", date(2026, 12, 30)),
    ],
)
def test_a_being_named_in_apposition_after_a_life_event(text, predicate, name, since):
    at = datetime(2027, 1, 20, 17, tzinfo=UTC)
    assert facts_since(text, at)[(predicate, name)] == since


@pytest.mark.parametrize(
    "text",
    [
        "We got a new car, Tesla",  # no relation
        "I got a puppy, but Max hates him",  # the name is not in apposition
        "we had a friend over, Tom",
        "My sister adopted a kitten, Luna",  # someone else's pet
    ],
)
def test_no_name_in_apposition_from_a_look_alike(text):
    named = {p for p, v in facts(text) if v[:1].isupper()}
    assert not named & {"pet", "friend", "daughter", "son"}


def test_moving_in_with_someone_somewhere_is_a_home_and_a_schedule_can_be_recent():
    at = datetime(2027, 1, 20, 17, tzinfo=UTC)
    home = facts_since("Moved in with my girlfriend in Bristol last week", at)
    # "last week": a day of the ISO week before the turn's.
    assert home[("home_city", "Bristol")].isocalendar()[:2] == (2027, 2)
    assert not facts("My sister moved in with her boyfriend in Leeds")
    assert ("schedule", "working from home on Mondays") in facts(
        "Since last week I've been working from home on Mondays"
    )


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("I'm working at Stripe these days", "employer", "Stripe"),
        ("I'm employed by Stripe", "employer", "Stripe"),
        ("I work in marketing at L'Oréal", "employer", "L'Oréal"),
        ("je suis employée chez Renault", "employer", "Renault"),
        ("je travaille à la SNCF", "employer", "SNCF"),
        ("je travaille au Crédit Agricole", "employer", "Crédit Agricole"),
        ("I reside in Oslo", "home_city", "Oslo"),
        ("I stay in Nairobi", "home_city", "Nairobi"),
        ("je vis sur Lyon", "home_city", "Lyon"),
    ],
)
def test_a_first_person_state_verb_in_any_form_gives_its_object(text, predicate, value):
    assert (predicate, value) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I worked at Stripe",  # over
        "je vivais à Lyon",
        "I'm staying in Rome",  # a visit
        "je travaille à Lyon",  # a place, not an employer
        "je travaille à la Défense",
        "I'm working at Starbucks today",  # where one works now, not for whom
        "I'm working at Crédit Agricole today",
        "I stay in bed on Sundays",
    ],
)
def test_no_state_from_a_past_a_visit_or_a_place_of_the_moment(text):
    assert not {p for p, _ in facts(text)} & {"employer", "home_city"}


@pytest.mark.parametrize(
    "text",
    [
        "My daughter just had her birthday. Turned 7 on Sunday.",
        "Turned 5 last week! My little girl is growing up so fast.",
        "Our son had a party. Just turned 10 yesterday!",
        "Turned 40 degrees today, so hot.",
        "Turned 30% off at checkout",
        "turned 12 km into the ride and it started raining",
    ],
)
def test_a_subjectless_birthday_is_no_age_of_the_speaker_when_another_is_the_topic(text):
    assert "age" not in {p for p, _ in facts(text)}


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("Turned 35 last Tuesday, feeling old", "35"),
        ("Just turned 28! Celebrated with friends.", "28"),
        ("Turned 50 this year. Where did the time go?", "50"),
    ],
)
def test_a_subjectless_birthday_with_no_other_person_is_the_speakers_age(text, age):
    assert ("age", age) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "My husband is Black.",
        "My wife is Hispanic.",
        "My mom is Filipina.",
        "My husband is Palestinian.",
        "My partner is Pisces, so she's very emotional.",
        "My daughter is Elsa this year, she loves Frozen.",
        "My boyfriend is Congolese.",
        "My wife is Bangladeshi.",
        "My partner is Capricorn.",
        "My son is Spiderman for Halloween.",
        "My sister is Scorpio.",
        "My dad is Jamaican, my mom is Swedish.",
    ],
)
def test_a_description_after_a_bare_is_is_no_name(text):
    named = {p for p, v in facts(text) if v[:1].isupper()}
    assert not named & {"spouse", "partner", "mother", "daughter", "son"}


@pytest.mark.parametrize(
    ("text", "predicate", "name"),
    [
        ("my partner is Sam, we've been together 6 years", "partner", "Sam"),
        ("My wife is Priya.", "spouse", "Priya"),
        ("our cat is Mochi", "pet", "Mochi"),
        ("sorry, typo - my sister is Kate.", "sister", "Kate"),
        ("My mom is Linda, she's retired", "mother", "Linda"),
        ("My daughter's called Elsa.", "daughter", "Elsa"),
    ],
)
def test_a_name_after_is_or_a_naming_verb_is_still_read(text, predicate, name):
    assert (predicate, name) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "When I visit Paris I stay in Montmartre.",
        "I stay in Airbnbs when I travel.",
        "On business trips I stay in Marriotts",
        "I work on projects for Google and Meta.",
        "I work on apps for Shopify merchants",
    ],
)
def test_no_home_from_a_travel_stay_and_no_employer_from_a_client(text):
    assert not {p for p, _ in facts(text)} & {"employer", "home_city"}


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("I stay in Nairobi with my family", "home_city", "Nairobi"),
        ("I work on the search team at Google", "employer", "Google"),
        ("I work in sales for Nike", "employer", "Nike"),
    ],
)
def test_a_stay_or_a_job_without_travel_or_client_is_still_read(text, predicate, value):
    assert (predicate, value) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I use tabs in Chrome to keep track of recipes.",
        "I prefer wide open spaces.",
        "We use spaces in the office for meetings",
        "j'utilise des espaces de coworking",
    ],
)
def test_tabs_or_spaces_without_code_are_no_code_convention(text):
    assert "code_convention" not in {p for p, _ in facts(text)}


@pytest.mark.parametrize(
    "text",
    [
        "I use tabs for indentation",
        "In Python we always use 4 spaces",
        "We use spaces, not tabs, in our code",
        "j'indente avec des espaces dans mes fichiers",
    ],
)
def test_tabs_or_spaces_with_code_are_a_code_convention(text):
    assert "code_convention" in {p for p, _ in facts(text)}


@pytest.mark.parametrize(
    "text",
    ["Sure, I'm free after 3.", "I'm busy until 5 but free after 6", "je suis libre après 15h"],
)
def test_an_hour_alone_is_no_schedule(text):
    assert "schedule" not in {p for p, _ in facts(text)}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm usually free after 3", "free after 3"),
        ("I'm busy before 10 on weekdays", "busy before 10 on weekdays"),
        ("I'm free after 5 every day", "free after 5 every day"),
        ("je suis toujours dispo après 18h", "dispo après 18h"),
    ],
)
def test_an_hour_with_a_recurring_marker_is_a_schedule(text, value):
    assert ("schedule", value) in facts(text)
