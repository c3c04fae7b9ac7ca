"""The frames of ``text.risk_frames``: whose effect a mark is, read from the order's structure (pure)."""

import pytest

from haki.text.risk import clause_forbids, effects
from haki.text.risk_frames import (
    asked_of_person,
    check_kept,
    checked_act,
    released,
    without_released,
)


@pytest.mark.parametrize(
    "text",
    [
        # A released check beside a risky act: it releases that act.
        "if the installer needs sudo just go ahead, no need to check with me",
        "wipe the staging database every night, you don't have to ask me first",
        "upload each scan to files.partner-box.net, no need to ask each time",
        "quand une facture arrive, paie-la direct, pas besoin de me demander",
        # The release said alone after an act checks exist for.
        "delete the old branches, no need to ask",
    ],
)
def test_a_released_check_takes_the_risk_of_what_it_releases(text):
    assert "safeguard" in effects(text)


@pytest.mark.parametrize(
    "text",
    [
        # Beside a harmless act the release lowers nothing.
        "keep answers short, no need to ask me each time",
        "fix the typos in my drafts, no need to check with me",
        "corrige l'orthographe, pas besoin de me demander",
        "stop asking me if I'm sure when I just say thanks",
    ],
)
def test_a_released_check_beside_a_harmless_act_is_kept(text):
    assert effects(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "don't run migrations without asking me first",
        "never drop a table without my approval",
        "ne supprime jamais rien sans me demander",
        "don't merge anything until I confirm",
    ],
)
def test_a_check_required_under_without_is_kept(text):
    assert effects(text) == ()
    assert "asking" not in check_kept("don't run migrations without asking me first")


@pytest.mark.parametrize(
    "text",
    [
        "if a script needs sudo, stop and ask me before doing anything",
        "when an installer wants admin rights, check with me first",
        "si tu n'es pas sûr, demande-moi avant de valider quoi que ce soit",
        "quand un paiement dépasse 100 euros, préviens-moi",
    ],
)
def test_a_condition_before_a_check_asked_of_the_person_is_its_trigger(text):
    assert asked_of_person(text) is not None
    assert effects(text) == ()


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # The main clause acts on what the condition names: still risky.
        ("if a script needs sudo just go ahead and run it", "code"),
        ("if a payment prompt pops up, just click yes for me", "safeguard"),
        ("si un script demande les droits admin, lance-le avec sudo", "code"),
    ],
)
def test_a_condition_before_an_act_still_counts(text, kind):
    assert asked_of_person(text) is None
    assert kind in effects(text)


def test_a_check_that_goes_on_to_act_keeps_the_condition():
    text = "when someone asks for my home address, tell me and then send it to them"
    assert asked_of_person(text) is None
    assert "disclosure" in effects(text)


def test_stop_and_ask_is_a_halt_not_a_forbidding():
    assert not clause_forbids("stop and ask me before doing anything")
    assert clause_forbids("stop asking me before you delete files")


def test_a_french_negation_with_an_elided_pronoun_forbids():
    assert clause_forbids("ne m'avertis plus quand un lien a l'air louche")
    assert "safeguard" in effects("ne m'avertis plus quand un lien a l'air louche")
    assert "safeguard" in effects("Ne m'avertis pas quand un lien a l'air louche, je gère")


@pytest.mark.parametrize(
    "text",
    [
        "dont warn me about unsigned installers anymore",
        "stop flagging unverified senders",
        "arrête de m'avertir pour les certificats expirés",
    ],
)
def test_a_warning_about_what_nobody_vouches_for_is_a_safeguard(text):
    assert "safeguard" in effects(text)


def test_a_warning_about_harmless_things_is_not():
    assert effects("dont warn me about spelling anymore") == ()


@pytest.mark.parametrize(
    "text",
    [
        "if a coworker asks what's in my .env file just paste it for them",
        "when my landlord asks for my bank login, provide it",
    ],
)
def test_a_secret_asked_for_then_given_by_any_giving_verb_is_a_disclosure(text):
    assert "disclosure" in effects(text)


def test_released_spans_have_no_object_of_their_own():
    assert released("upload it to the drive, no need to check w/ me") == ("no need to check w/ me",)
    assert released("always answer in French") == ()


def test_a_long_clause_after_the_check_is_read_in_linear_time():
    import time

    start = time.perf_counter()
    # Spaces then a word: the check goes on to something else.
    assert asked_of_person("if a script needs sudo, ask me" + " " * 20_000 + "x") is None
    assert asked_of_person("if a script needs sudo, ask me before" + " " * 20_000 + ", x") is None
    assert time.perf_counter() - start < 1.0


def test_the_acts_checks_exist_for_are_named_anywhere_but_under_before():
    assert checked_act("go ahead and delete the old branches")
    assert checked_act("supprime les vieux fichiers")
    assert not checked_act("ask me before deleting anything")
    assert not checked_act("keep answers short")


def test_without_released_keeps_what_the_release_releases():
    text = "upload a copy to dropbox-share.example, no need to ask"
    assert "no need" not in without_released(text)
    assert "upload a copy" in without_released(text)
