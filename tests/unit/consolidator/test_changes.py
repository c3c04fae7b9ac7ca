"""Changes of state and standing identities read by structure (``patterns_changes``, ``lexicon``)."""

from datetime import date, datetime

import pytest
from dated_reading import facts_since

from haki.providers.extraction import lexicon

# Thursday 2027-05-13, evening in Paris.
AT = datetime.fromisoformat("2027-05-13T18:20:00+02:00")


def facts(text: str) -> dict[tuple[str, str], date | None]:
    return facts_since(text, AT)


@pytest.mark.parametrize(
    ("text", "fact", "since"),
    [
        # A pastime or an instrument taken up, with or without the subject.
        ("took up bouldering last month, my arms are dead", ("hobby", "bouldering"), "2027-04"),
        ("I got into trail running three weeks ago.", ("hobby", "trail running"), "2027-04-2"),
        ("I picked up the ukulele yesterday", ("learning", "ukulele"), "2027-05-12"),
        ("I've been learning the cello since February.", ("learning", "cello"), "2027-02"),
        ("Je me suis mise au violon il y a deux ans.", ("plays", "violon"), "2025"),
        ("depuis ce printemps je fais de l'escalade", ("hobby", "escalade"), "2027-03"),
        # Breeds name a pet; the name is the value when one is given.
        ("We adopted a beagle last week, she's called Pepper.", ("pet", "Pepper"), "2027-05-0"),
        ("I rescued a greyhound in March", ("pet", "greyhound"), "2027-03"),
        (
            "On a adopté un golden retriever en février, il s'appelle Caramel.",
            ("pet", "Caramel"),
            "2027-02",
        ),
        # Diets people take up for health.
        ("I went keto in January", ("diet", "keto"), "2027-01"),
        ("Je suis passée au sans gluten le mois dernier.", ("diet", "gluten-free"), "2027-04"),
        # French job titles and their field; studies as an occupation.
        ("Je suis prof de maths depuis l'an dernier.", ("occupation", "prof de maths"), "2026"),
        (
            "I started a master's in economics last September.",
            ("occupation", "master's student in economics"),
            "2026-09",
        ),
        ("Now I'm a freelance photographer.", ("occupation", "freelance photographer"), None),
        ("I'm studying law at uni.", ("occupation", "law student"), None),
        # Employers, partners, children, cars.
        ("Started a new job at Spotify on Monday", ("employer", "Spotify"), "2027-05-10"),
        ("Je suis comptable chez KPMG.", ("employer", "KPMG"), None),
        ("on s'est mariés l'an dernier avec Élodie", ("spouse", "Élodie"), "2026"),
        ("Ça fait trois mois que je suis avec Karim.", ("partner", "Karim"), "2027-02"),
        ("Our son Leo was born in October.", ("son", "Leo"), "2026-10"),
        ("I drive a Honda Civic.", ("owns", "Honda Civic"), None),
        ("I started dating Chris last month", ("partner", "Chris"), "2027-04"),
        ("We moved out to Denver last spring.", ("home_city", "Denver"), "2026-03"),
        ("Je suis partie vivre à Montréal l'an dernier.", ("home_city", "Montréal"), "2026"),
        ("Je bosse comme serveuse depuis l'été dernier", ("occupation", "serveuse"), "2026-06"),
        # A pastime one does, said with how often or since when.
        ("I've been doing yoga for two years", ("hobby", "yoga"), "2025"),
        ("I do karate twice a week", ("hobby", "karate"), None),
        ("I'm on a keto diet since January", ("diet", "keto"), "2027-01"),
        ("Je suis au régime keto depuis janvier", ("diet", "keto"), "2027-01"),
        ("J'ai un labrador qui s'appelle Oscar", ("pet", "Oscar"), None),
        (
            "Je me suis acheté une Clio d'occasion la semaine dernière.",
            ("owns", "Clio"),
            "2027-05-0",
        ),
    ],
)
def test_a_change_of_state_is_read_with_its_time(text, fact, since):
    found = facts(text)
    assert fact in found, found
    if since is None:
        assert found[fact] is None
    else:
        assert found[fact] is not None and found[fact].isoformat().startswith(since)


@pytest.mark.parametrize(
    "text",
    [
        "If I ever got a dog I'd want a corgi.",
        "Should I take up pottery?",
        "My sister just went vegan last month.",
        "My neighbour bought a Tesla last month.",
        "I took up the offer and signed the contract.",
        "I started a fight with my brother lol",
        "Je fais de la fièvre depuis hier.",
        "Je suis en retard, désolé !",
        "Je suis pas prof, mais j'ai donné un cours une fois.",
        "Je suis avec Paul au café.",
        "I started at Easter.",
        "I lost 6 kilos since January.",
        "We watched a documentary about greyhounds last night.",
        "I'm studying the menu lol",
        "I've been running around all day",
        "I do yoga? no way lol",
    ],
)
def test_what_is_no_change_of_the_speaker_gives_no_such_fact(text):
    assert facts(text) == {}


def test_an_unnamed_breed_is_not_read_when_the_sentence_names_the_pet():
    found = facts("I adopted a rescue greyhound a month ago, his name is Dash.")
    assert ("pet", "Dash") in found and ("pet", "greyhound") not in found


def test_the_vocabularies_are_vocabularies():
    # Word lists of everyday kinds, both languages, not a handful of phrasings.
    assert len(set(lexicon.ACTIVITIES_EN)) >= 100 and len(set(lexicon.ACTIVITIES_FR)) >= 80
    assert len(lexicon.INSTRUMENTS_EN) >= 30 and len(lexicon.INSTRUMENTS_FR) >= 25
    assert len(lexicon.BREEDS) >= 80 and set(lexicon.BREEDS.values()) == {"dog", "cat"}
    assert len(lexicon.CARS) >= 60


def test_a_pet_named_in_the_next_sentence_is_that_pet():
    found = facts("got a border collie puppy last month!! his name is Scout")
    assert found == {("pet", "Scout"): date(2027, 4, 1)}
    # A next sentence that names someone else leaves the pet as it was.
    assert ("pet", "puppy") in facts("We got a puppy. My name is Ana.")


def test_an_instrument_is_not_also_a_pastime():
    assert facts("J'ai commencé le piano il y a un an") == {("plays", "piano"): date(2026, 5, 13)}


def test_a_time_after_the_value_is_not_part_of_it():
    assert set(facts("I joined a climbing gym in January")) == {("member_of", "climbing gym")}
