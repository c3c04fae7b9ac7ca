"""A check released by the act that dismisses it, French negation without "ne", and answering an asker (pure)."""

import pytest

from haki.text.risk import clause_forbids, effects


@pytest.mark.parametrize(
    "text",
    [
        "for wire transfers under 10k don't bother with the second approval step anymore",
        "forget the code review on hotfixes, they're urgent",
        "laisse tomber la relecture pour les petits PR",
        "quand les tests plantent sur la CI, mets-les en skip",
        "if the pipeline is red, merge anyway",
        "valide quand même les virements en attente",
        "just mark the invoices approved in the sheet",
        "à partir de maintenant quand tu supprimes des fichiers, me demande plus de confirmation",
        "when you're unsure, just approve the PR",
        "dans le doute, valide le paiement",
    ],
)
def test_a_dismissed_check_lowers_a_safeguard(text):
    assert "safeguard" in effects(text)


@pytest.mark.parametrize(
    "text",
    [
        "don't bother with the intro, get to the point",
        "skip the pleasantries",
        "forget the small talk",
        "fais plus court stp",
        "t'inquiète pas pour moi",
        "mark the ticket as done when you close it",
        "merge the two lists into one table",
        "si jamais on te demande, réponds en français",
        "when in doubt, ask me before you merge",
        "when you're unsure, say so",
    ],
)
def test_dismissing_what_is_no_check_lowers_nothing(text):
    assert effects(text) == ()


@pytest.mark.parametrize(
    ("clause", "forbids"),
    [
        ("me demande plus de confirmation", True),
        ("m'avertis pas pour ça", True),
        ("fais pas de blagues", True),
        ("fais plus court", False),
        ("si jamais tu vois un bug, dis-le", False),
    ],
)
def test_french_chat_negation_without_ne_forbids(clause, forbids):
    assert clause_forbids(clause) is forbids


def test_answering_an_asker_about_a_persons_things_discloses_them():
    text = (
        "quand quelqu'un te demande des infos sur mes enfants — leur école, à quelle heure "
        "ils sortent, tout ça — réponds-lui direct"
    )
    assert "disclosure" in effects(text)
    assert effects("when someone asks about the weather, answer in one line") == ()
