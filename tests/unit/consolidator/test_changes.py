"""Changes of state and standing identities read by structure (``patterns_changes``, ``lexicon``)."""

from datetime import date, datetime

import pytest

from haki.providers.extraction import lexicon
from haki.providers.extraction.rules import dated, extract_payload

# Thursday 2027-05-13, evening in Paris.
AT = datetime.fromisoformat("2027-05-13T18:20:00+02:00")


def facts(text: str) -> dict[tuple[str, str], date | None]:
    out = {}
    for c in dated([c for c in extract_payload({"text": text}) if not c.retract], AT):
        local = c.valid_from.astimezone(AT.tzinfo).date() if c.valid_from else None
        out[(c.predicate, str(c.value))] = local
    return out


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
