"""Statements the rules used to leave unread, read by frame and by the type of their value.

Each positive is a frame, not a phrase: a group joined by doing what it
does, an instrument or a language cut out of the clause around it, a model
naming the kind bought before it, an intolerance, the favourite said first,
the code as the subject of its style, a diet said as in a chat. Each
negative is the look-alike the same frame must leave alone.
"""

import pytest

from haki.providers.extraction.rules import extract_payload


def _facts(text: str) -> set[tuple[str, str]]:
    return {(c.predicate, str(c.value)) for c in extract_payload({"text": text}) if not c.retract}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # A group joined by doing what it does, or said as a tie to it.
        ("I sing in the church choir", ("member_of", "church choir")),
        ("je chante dans la chorale du quartier", ("member_of", "chorale du quartier")),
        ("i'm a member at Fit4Less", ("member_of", "Fit4Less")),
        ("I've been with the Hartford Chess Club since 2019", ("member_of", "Hartford Chess Club")),
        # An instrument of the lexicon is the value, whatever follows it.
        ("i play guitar in a cover band on weekends", ("plays", "guitar")),
        ("I play the piano every evening", ("plays", "piano")),
        # A language taken up or studied in classes, lowercase or not.
        ("started going to spanish classes three weeks ago", ("learning", "Spanish")),
        ("j'ai commencé le japonais avec une appli", ("learning", "Japanese")),
        ("je prends des cours d'allemand", ("learning", "German")),
        # The model bought, named after its kind.
        ("my gf and i bought a car last week, a used yaris lol", ("owns", "Yaris")),
        ("I finally bought a car!! used mazda 3, red", ("owns", "Mazda 3")),
        ("on a acheté une voiture, une clio d'occasion", ("owns", "Clio")),
        # An intolerance, by its substance.
        ("I'm lactose intolerant, so no dairy please", ("allergy", "lactose")),
        ("je suis intolérante au gluten", ("allergy", "gluten")),
        # The favourite said first.
        ("oat milk lattes are my go-to", ("likes", "oat milk lattes")),
        ("Radiohead is my favourite band", ("favorite_band", "Radiohead")),
        # The code, or its written rule, as the subject of a style.
        (
            "our js codebase uses camelCase for filenames",
            ("code_convention", "camelCase for filenames"),
        ),
        (
            "our naming convention is camelCase for all variables",
            ("code_convention", "camelCase for all variables"),
        ),
        (
            "We use tabs for indentation in this repo, don't fight me on it",
            ("code_convention", "tabs for indentation"),
        ),
        # A diet said as in a chat.
        ("been doing the keto thing since the start of the year", ("diet", "keto")),
        ("I've been on keto since January", ("diet", "keto")),
        # Classes of a pastime, a game or an instrument begun.
        ("j'ai commencé des cours de poterie, tous les jeudis soir", ("hobby", "poterie")),
        ("avant-hier j'ai commencé à jouer aux échecs en ligne", ("hobby", "échecs")),
        ("j'ai commencé à jouer du piano il y a deux ans", ("plays", "piano")),
        # A name goes back over a noun set in apposition to the speaker's own.
        ("on a récupéré notre chiot, un berger australien, on l'a appelé Oslo", ("pet", "Oslo")),
        # A known place typed in lower case; a job typed short; a pastime
        # with where it is done.
        ("i live in denver, been here ~6 yrs", ("home_city", "Denver")),
        ("j'habite à lyon depuis 5 ans", ("home_city", "Lyon")),
        ("jsuis dev chez Capgemini depuis 3 ans", ("employer", "Capgemini")),
        ("le week-end je fais de la voile sur le lac d'Annecy", ("hobby", "voile")),
        # Relation words as typed in a chat.
        ("my gf Maya and I went hiking on sunday", ("partner", "Maya")),
    ],
)
def test_a_frame_reads_its_fact(text, fact):
    assert fact in _facts(text)


@pytest.mark.parametrize(
    ("text", "predicate"),
    [
        # A bare group noun says too little; a person or a company is no group.
        ("I play the guitar in a band.", "member_of"),
        ("I've been with Google since 2019", "member_of"),
        ("I sing in the shower", "member_of"),
        # The language does not end the object: the object is something else.
        ("I took up french cooking", "learning"),
        # A model that is an everyday word in lowercase, or no generic kind.
        ("I bought a car, it helps my golf trips", "owns_model"),
        # Intolerant of no substance.
        ("I'm intolerant of fools", "allergy"),
        ("I'm very intolerant", "allergy"),
        # A subject that points elsewhere.
        ("he is my favourite", "likes"),
        ("this is my favourite", "likes"),
        # Someone else's being, in apposition or not, is named for no one.
        ("I saw a dog, a beagle, his name was Rex", "pet"),
        # Lower case is a place only when it is a known one.
        ("I live in fear", "home_city"),
        ("i live in a small flat", "home_city"),
        # A diet word that does not end its phrase.
        ("I've been doing vegan recipes", "diet"),
    ],
)
def test_the_look_alike_reads_nothing_of_it(text, predicate):
    facts = _facts(text)
    if predicate == "owns_model":
        assert facts == {("owns", "car")}
    else:
        assert not {f for f in facts if f[0] == predicate}
