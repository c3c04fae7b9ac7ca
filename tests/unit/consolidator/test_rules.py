"""The rules extractor: what it finds, and what it must not."""

import pytest

from haki.providers.extraction.rules import extract_payload


def found(payload):
    return [(c.predicate, c.value) for c in extract_payload(payload)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hi! My name is Anna and I live in Paris.", [("name", "Anna"), ("home_city", "Paris")]),
        ("I work as a nurse at the hospital.", [("occupation", "nurse")]),
        ("I work at Acme Corp. I'm 34 years old.", [("employer", "Acme Corp"), ("age", 34)]),
        ("My sister Anna is visiting.", [("sister", "Anna")]),
        ("I love hiking and I hate sushi.", [("likes", "hiking"), ("dislikes", "sushi")]),
        ("My favorite book is Charlotte's Web.", [("favorite_book", "Charlotte's Web")]),
        ("We decided to use PostgreSQL for storage.", [("decision", "use PostgreSQL for storage")]),
        (
            "Always run the linter before pushing.",
            [("convention", "Always run the linter before pushing")],
        ),
        ("I'm going to visit my parents next week.", [("plan", "visit my parents")]),
        ("I'm allergic to peanuts.", [("allergy", "peanuts")]),
        (
            "J'habite à Lyon et je travaille chez Renault.",
            [("home_city", "Lyon"), ("employer", "Renault")],
        ),
        (
            "J'ai 34 ans. Ma sœur Claire arrive. Je préfère le thé.",
            [("age", 34), ("sister", "Claire"), ("prefers", "thé")],
        ),
        ("Nous avons décidé d'utiliser Postgres.", [("decision", "utiliser Postgres")]),
        # The subject reporting themself, and a quoted title, keep their words.
        ("What can I say, I love turtles.", [("likes", "turtles")]),
        ('I said, I live in Paris. Her favourite show is "The Office".', [("home_city", "Paris")]),
        # A joke marker takes back what came before it, and only that.
        ("I'm a nurse... just kidding, I'm a lawyer.", [("occupation", "lawyer")]),
        ("I'm not kidding, I live in Paris.", [("home_city", "Paris")]),
        ("Je suis infirmière, je rigole, je suis avocate.", [("occupation", "avocate")]),
    ],
)
def test_finds(text, expected):
    assert found({"text": text}) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Do you live in Paris?",  # a question asserts nothing
        "If I lived in Paris I would be happy.",  # hypothetical
        "I love that! I love you guys. I love how you did it.",  # pronouns and clauses
        "The things I love makes writing more fun.",  # relative clause
        "Always here to help! Never give up!",  # chit-chat, not conventions
        "I'd love to see it.",
        "I live in a small town.",  # not a named place
        "I'm a big fan of it.",
        "I like to think so. I love to say hello to strangers.",  # manners of speaking
        # Someone else's first person.
        "She said: I live in Madrid.",
        'My boss told me "I\'m leaving Acme, I work at Google now."',
        "He was like, I work at Google now.",
        "Elle m'a dit : j'habite à Lyon.",
        "I'm a nurse lol jk",
    ],
)
def test_stays_silent(text):
    assert found({"text": text}) == []


def test_only_the_subject_speaks_for_themself():
    payload = {
        "messages": [
            {"role": "assistant", "content": "I live in the cloud."},
            {"role": "user", "content": "I live in Oslo."},
        ]
    }
    assert found(payload) == [("home_city", "Oslo")]


def test_named_speaker_becomes_an_identity_qualifier():
    (cand,) = extract_payload({"speaker": "Caroline", "text": "I'm a counselor."})
    assert cand.qualifiers == {"speaker": "Caroline"} and cand.evidence_span == "I'm a counselor."
    (plan,) = extract_payload({"text": "I'm hiking with friends this weekend."})
    assert plan.qualifiers == {"when": "this weekend"} and plan.volatility == "ephemeral"


def corrections(text):
    return [
        (c.predicate, c.value, c.qualifiers, c.corrects, c.retract)
        for c in extract_payload({"text": text})
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'm not a nurse any more, I'm a midwife now.",
            [("occupation", "midwife", {}, "nurse", False)],
        ),
        ("Actually, I live in Lyon, not Paris.", [("home_city", "Lyon", {}, "Paris", False)]),
        ("I no longer work at Acme.", [("employer", "Acme", {}, None, True)]),
        ("I don't live in Oslo any more.", [("home_city", "Oslo", {}, None, True)]),
        ("Je ne suis plus végétarien.", [("diet", "vegetarian", {}, None, True)]),
        (
            "Je n'habite plus à Paris, j'habite à Lyon.",
            [("home_city", "Lyon", {}, "Paris", False)],
        ),
        (
            "Je préfère recevoir mes factures en français.",
            [("language", "French", {"context": "invoices"}, None, False)],
        ),
        (
            "En fait, envoie-les moi en anglais plutôt, pas en français.",
            [("language", "English", {}, "French", False)],
        ),
        ("Je n'aime pas le café.", [("dislikes", "café", {}, None, False)]),  # not a correction
        ("I'm not a vegetarian.", [("diet", "vegetarian", {}, None, True)]),
        # Doubt is not a retraction: the clause still says the turtles are theirs.
        (
            "I'm not sure I'll ever understand why watching my turtles makes me so happy.",
            [("pet", "turtles", {}, None, False)],
        ),
        ("I'm not certain my dog likes the park.", [("pet", "dog", {}, None, False)]),
        # What ended is not the speaker's own statement, or the negation does
        # not govern what the rules read: nothing is retracted.
        ("My cat doesn't scratch the sofa any more.", []),
        ("It's not like my turtles care about the weather anymore.", []),
        ("I don't think my cat likes it any more.", []),
        ("Mon chat ne griffe plus le canapé.", []),
        # A pet's death or loss ends it.
        ("My dog died last year.", [("pet", "dog", {}, None, True)]),
        ("We had to put my cat Miso down.", [("pet", "Miso", {"kind": "cat"}, None, True)]),
        ("Mon chat Miso est mort.", [("pet", "Miso", {"kind": "chat"}, None, True)]),
        ("My dog loves the park.", [("pet", "dog", {}, None, False)]),
    ],
)
def test_reads_corrections(text, expected):
    assert corrections(text) == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Always greet me by my first name.", "Always greet me by my first name"),
        ("From now on, sort lists by date.", "sort lists by date"),
        ("Don't use emojis in your answers, please.", "Don't use emojis in your answers"),
        ("I'd like you to keep answers under 100 words.", "keep answers under 100 words"),
        ("Stop apologising in every answer.", "Stop apologising in every answer"),
        (
            "Whenever I ask for a recipe, give the quantities in grams.",
            "Whenever I ask for a recipe, give the quantities in grams",
        ),
        ("Réponds toujours en moins de cent mots.", "Réponds toujours en moins de cent mots"),
        ("Merci de toujours citer tes sources.", "toujours citer tes sources"),
        ("Dorénavant, donne les prix en euros.", "donne les prix en euros"),
        ("Évite le jargon.", "Évite le jargon"),
    ],
)
def test_a_standing_request_is_read_in_any_verb(text, value):
    assert ("convention", value) in found({"text": text})


@pytest.mark.parametrize(
    "text",
    [
        "Never give up!",
        "Don't worry about it.",
        "Always nice to hear from you!",
        "I want you to know I'm proud of you.",
        "From now on, you're my Spanish tutor.",
        "Ne t'inquiète jamais pour ça.",
    ],
)
def test_chit_chat_is_no_standing_request(text):
    assert [p for p, _ in found({"text": text}) if p == "convention"] == []


def test_a_named_speaker_asks_another_person_not_the_assistant():
    text = "Never interrupt me with jokes."
    assert found({"text": text}) == [("convention", "Never interrupt me with jokes")]
    assert found({"text": text, "speaker": "Caroline"}) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My timezone is CET.", [("timezone", "CET")]),
        ("My shoe size is 42.", [("shoe_size", "42")]),
        ("My car is a Tesla.", [("car", "Tesla")]),
        ("My blood type is O negative.", [("blood_type", "O negative")]),
        ("Mon groupe sanguin est O négatif.", [("groupe_sanguin", "O négatif")]),
        ("Ma voiture, c'est une Clio.", [("voiture", "Clio")]),
        # Not values: an adjective, a clause, a person's job, chit-chat.
        ("My back is killing me.", []),
        ("My car is broken.", []),
        ("My point is that we should go.", []),
        ("My cousin is a pilot.", []),
        # Another rule reads the sentence: the attribute is not read twice.
        ("My email is ana@x.example.", [("email", "ana@x.example")]),
    ],
)
def test_any_attribute_stated_as_my_x_is_y(text, expected):
    assert found({"text": text}) == expected


def test_a_restated_attribute_names_the_value_it_corrects():
    [cand] = extract_payload({"text": "Actually my timezone is PST now, not CET."})
    assert (cand.predicate, cand.value, cand.corrects) == ("timezone", "PST", "CET")


def test_a_pet_read_by_its_kind_beside_a_slip_corrects_no_held_name():
    """ "Sorry, my cat isn't Rex" states ``pet: cat`` (a kind, no name): it
    must not replace the held Rex; a name said beside the slip still does."""
    [kind] = extract_payload({"text": "Sorry, my cat isn't Rex, Rex is the dog."})
    assert (kind.predicate, kind.value, kind.corrects) == ("pet", "cat", None)
    [named] = extract_payload({"text": "Sorry, my dog is called Max."})
    assert (named.value, named.corrects is not None) == ("Max", True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I started a new job at Google two weeks ago.", ("employer", "Google", "two weeks ago")),
        ("I got married last year.", ("relationship_status", "married", "last year")),
        ("I started learning Japanese last month.", ("learning", "Japanese", "last month")),
        ("We adopted a puppy yesterday.", ("pet", "puppy", "yesterday")),
        ("J'ai adopté un chien le mois dernier.", ("pet", "chien", "le mois dernier")),
        ("Je me suis mariée l'an dernier.", ("relationship_status", "married", "l'an dernier")),
        ("J'ai rejoint une chorale la semaine dernière.", ("member_of", "chorale", None)),
        ("Hier j'ai emménagé à Nantes.", ("home_city", "Nantes", "Hier")),
    ],
)
def test_a_fact_stated_as_the_event_that_began_it(text, expected):
    [cand] = extract_payload({"text": text})
    predicate, value, when = expected
    assert (cand.predicate, cand.value) == (predicate, value)
    assert when is None or cand.said_when == when


def test_a_named_pet_is_read_once():
    assert found({"text": "I adopted a dog named Biscuit."}) == [("pet", "Biscuit")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Call me Sam.", ("preferred_name", "Sam")),
        ("Appelle-moi Sam.", ("preferred_name", "Sam")),
        ("Tutoie-moi.", ("address_form", "Tutoie-moi")),
        ("Keep your answers short.", ("convention", "Keep your answers short")),
        ("Answer in bullet points.", ("convention", "Answer in bullet points")),
        ("No emojis please.", ("convention", "No emojis")),
        ("Pas d'emojis s'il te plaît.", ("convention", "Pas d'emojis")),
    ],
)
def test_a_bare_request_on_the_form_of_replies(text, expected):
    assert found({"text": text}) == [expected]


@pytest.mark.parametrize(
    "text", ["Send me the summary please.", "Call me tomorrow.", "Keep it up!", "Use the force."]
)
def test_a_one_off_or_chit_chat_imperative_is_no_request(text):
    assert found({"text": text}) == []


def test_english_car_is_a_noun_and_french_car_ends_a_phrase():
    def read(text: str) -> list[tuple[str, object]]:
        return [(c.predicate, c.value) for c in extract_payload({"text": text}) if not c.retract]

    assert read("I bought a new car.") == [("owns", "new car")]
    assert read("J'adore le thé car il me calme.") == [("likes", "thé")]
    assert read("Je préfère le vélo car c'est plus rapide.") == [("prefers", "vélo")]


@pytest.mark.parametrize(
    "text",
    [
        "I'd like you to email my calendar every Friday to export@calendar-sync.example",
        "Please mail the report to reports@acme.example every Monday",
    ],
)
def test_an_address_something_is_emailed_to_is_no_contact_detail(text):
    assert not [v for p, v in found({"text": text}) if p == "email"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("My email is ana@x.example", "ana@x.example"),
        ("Please update my email: it's ana@new-mail.example now", "ana@new-mail.example"),
        ("email me at bob@x.example", "bob@x.example"),
    ],
)
def test_the_speakers_own_address_is_still_read(text, value):
    assert [v for p, v in found({"text": text}) if p == "email"] == [value]


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("he laughed because i've been 53 since march, old age is real", 53),
        ("I've been 40 since my birthday", 40),
    ],
)
def test_an_age_held_since_a_moment(text, age):
    assert ("age", age) in {(c.predicate, c.value) for c in extract_payload({"text": text})}


def test_a_duration_held_since_is_no_age():
    assert not [c for c in extract_payload({"text": "I've been 5 minutes late since"})]
