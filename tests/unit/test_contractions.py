"""French chat contractions written out before every reader, and given back as typed (``text.contractions``)."""

import pytest

from haki.providers.extraction.rules import extract_payload
from haki.text.contractions import as_said, expanded
from haki.text.injection import normalise


@pytest.mark.parametrize(
    ("typed", "full"),
    [
        ("jsuis crevée", "je suis crevée"),
        ("Jfais du vélo", "Je fais du vélo"),
        ("jpeux pas ce soir", "je peux pas ce soir"),
        ("jprends le métro", "je prends le métro"),
        ("jdéteste le lundi", "je déteste le lundi"),
        ("jvoudrais un thé", "je voudrais un thé"),
        ("j'suis en retard", "je suis en retard"),
        ("j’dors mal", "je dors mal"),
        ("chuis à la maison", "je suis à la maison"),
        ("jme lève à 6h", "je me lève à 6h"),
        ("jlui ai dit non", "je lui ai dit non"),
        ("jen ai marre", "j'en ai marre"),
        ("jm'en fiche", "je m'en fiche"),
        ("jai un vélo", "j'ai un vélo"),
        ("jaime le thé", "j'aime le thé"),
    ],
)
def test_a_verb_squeezed_into_je_is_written_out(typed, full):
    assert expanded(typed) == full


@pytest.mark.parametrize(
    "text",
    [
        "j'habite à Lyon, j'ai un chat",  # written out already
        "jamais le dimanche, juste le jeudi",  # French words beginning "ja", "ju"
        "Jen and I moved in June",  # a name, and "Jen" before no verb
        "I met Jhene today",  # a capital J inside a sentence
        "send it to jl@studio.example",  # an address
        "dates au format JJ/MM/AAAA",
        "load jquery.js and parse the json",  # file names, identifiers
        "cmp eax, 1 then jne loop",  # an identifier before no verb
        "the jr dev uses jsx",  # no vowel, no verb ending
    ],
)
def test_what_is_no_contraction_is_left_alone(text):
    assert expanded(text) == text


def test_a_fragment_read_from_the_written_out_text_is_given_back_as_typed():
    typed = "jsuis dev et jfais du yoga, jsuis crevée"
    assert as_said("je fais du yoga", typed) == "jfais du yoga"
    assert as_said("je suis dev et je fais du yoga, je suis crevée", typed) == typed
    # A form typed out in full elsewhere cannot be told apart: left as read.
    assert as_said("je suis là", "jsuis dev mais je suis là") == "je suis là"


def test_the_readers_see_the_written_out_verb_and_store_the_words_as_typed():
    [diet] = [
        c
        for c in extract_payload({"text": "jsuis végétarienne depuis 2 ans"})
        if c.predicate == "diet"
    ]
    assert diet.said_when is not None
    assert diet.evidence_span == "jsuis végétarienne depuis 2 ans"
    assert ("diet", "vegetarian") in {
        (c.predicate, c.value)
        for c in extract_payload({"text": "je suis végétarienne depuis 2 ans"})
    }


def test_the_guard_reads_the_written_out_verb():
    assert normalise("jsuis allergique aux noix") == "je suis allergique aux noix"
