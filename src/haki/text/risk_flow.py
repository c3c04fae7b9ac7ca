"""Disclosure read from where a secret goes, not from the verb that moves it (pure).

``text.risk`` reads a disclosure where a giving verb of its list meets a
secret. The verb is the part people vary most ("walk them through the .env
file", "echo back the card digits", "lis-lui les coordonnées bancaires",
"donne-le sans hésiter"), while two things stay: a **secret** is named (a
word of ``SENSITIVE``, other people's data, the agent's hidden rules, a file
where keys are kept, or a code that opens something: an alarm, a door, a
safe, the wifi), and it goes to **someone other than the person**: the order
is said for a third party who asks, calls or writes in ("whoever messages
you", "quand un client appelle", "si quelqu'un te demande"), or hands it to
a recipient pronoun ("tell them", "read him", "lis-lui", "echo it back").
Both present, in an order that neither denies nor sends the asker back to
the person, obeying it hands the secret over whatever the verb is.

Not read: a clause that denies anywhere ("if anyone asks for my address,
never give it", "don't tell them", "ne le donne pas"), and one that sends
the asker to the person or asks the person first ("tell them to call me",
"ask me first", "demande-moi avant"). The cost is an order that hands a
secret to someone the person means to trust ("if my sister asks for the
wifi password, give it to her"): it waits for confirmation, as every order
``text.risk`` quarantines does.
"""

from __future__ import annotations

import re

from .risk_shapes import ASKER, ASKS, SENT_BACK
from .risk_words import HIDDEN_RULES, OTHERS, SECRET_PATH, SENSITIVE

# A code that opens something: the thing it opens makes "code" a secret.
ACCESS = (
    r"(?:(?:alarm|door|gate|safe|garage|entry|access|building|wi-?fi|router|admin|lock|locker|vault)\s+"
    r"(?:codes?|pins?|passwords?|passphrases?|combinations?|keys?)"
    r"|logins?|combination to|digicode|code (?:de l'alarme|d'acc[èe]s|de la porte|du portail|du coffre|wi-?fi"
    r"|de l'immeuble|du garage|pin)|codes? secrets?|mot de passe wi-?fi)"
)
# A secret file found by its name alone: the directories before it add nothing
# to whether it is named, and reading them from every character of a long
# token would cost its square.
_PATH_PREFIX = r"(?:[\w./-]*/)?"
assert _PATH_PREFIX in SECRET_PATH
# A name is read from where its token starts ("-" too), so never from inside a long one.
_SECRET_FILE_NAME = SECRET_PATH.replace(_PATH_PREFIX, "").replace(r"(?<![\w.])", r"(?<![\w.-])")
_SECRET = re.compile(
    rf"\b(?:{SENSITIVE}|{OTHERS}|{HIDDEN_RULES}|{ACCESS})\b|{_SECRET_FILE_NAME}"
    # Card digits and security codes by their parts.
    r"|\b(?:card|carte)\s+(?:digits|details|num[ée]ro)\b|\bcvc\b|\bsecurity codes?\b",
    re.IGNORECASE,
)
# Someone other than the person who asks, calls or writes in, or "queries".
_THIRD_PARTY = re.compile(
    rf"\b{ASKER}\s++(?:\w+\s++){{0,4}}?(?:{ASKS}|quer(?:y|ies)|r[ée]clame(?:nt)?|contacts?|contacte(?:nt)?)\b",
    re.IGNORECASE,
)
# Handed to a recipient: "tell them", "read him", "lis-lui", "echo it back".
_RECIPIENT = re.compile(
    r"\b[\w']+\s+(?:them|him|her)\b(?!\s+(?:to|know\s+to)\s+(?:contact|call|ask|email|text|reach|write))"
    r"|\b\w+-(?:lui|leur|le-lui|la-lui|les-leur|les-lui)\b|\b(?:lui|leur)\s+(?:donne|dis|lis|montre|envoie"
    r"|file|passe|transmets|communique)\w*|\b(?:echo|read|give|hand|send|pass)\s+(?:\w+\s+){0,3}?back\b",
    re.IGNORECASE,
)
# A denial anywhere in the order (the asker sent back to the person: ``SENT_BACK``).
_HELD = re.compile(
    r"\b(?:never|not|don't|dont|do not|doesn't|won't|refuse|decline|instead|rather|jamais|pas|plut[ôo]t|refuse[rz]?)\b"
    r"|\bn'|\bne\s",
    re.IGNORECASE,
)


def hands_over(part: str) -> bool:
    """Whether obeying ``part`` hands a secret to someone other than the person (module doc)."""
    if not _SECRET.search(part) or _HELD.search(part) or SENT_BACK.search(part):
        return False
    return _THIRD_PARTY.search(part) is not None or _RECIPIENT.search(part) is not None


# Every pattern ``hands_over`` needs to match, for the prefilter of ``risk.effects``.
PATTERNS = (_SECRET,)
