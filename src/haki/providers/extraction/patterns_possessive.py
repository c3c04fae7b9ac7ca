"""Any attribute the speaker states as "my X is Y" / "mon X est Y", named by its own words.

The predicate rules know a few dozen attributes; people state many more
("my timezone is CET", "my shoe size is 42", "my car is a Tesla", "mon
groupe sanguin est O négatif"). Here the attribute's name is read from the
sentence (``attribute``) and the consolidator maps it to a known predicate
or keeps it as its own (``consolidator/aliases.py``): an unknown predicate
holds one value, so a later "my timezone is PST now" supersedes it.

Precision comes from shapes, not from a list of attributes:

- the value looks like a value: a capitalised word, a number, an address or
  a handle, or an article before a noun ("a Tesla"), never a bare adjective
  ("my back is killing me", "my car is broken");
- the value ends the clause (or comes before ", not …" or "now");
- attributes that are people, chit-chat or covered by their own rule
  ("my point is", "my sister is", "my name is") are not read here;
- the rules are a ``fallback``: a sentence that any other rule reads gives
  only that rule's facts.
"""

from __future__ import annotations

from .fragments import RELATIONS_EN, RELATIONS_FR, Rule, cased

# What follows the attribute: a value shape, then the end of the clause.
# A word that may hold dots inside, never at its end ("ana@x.example.").
_TOKEN = r"(?:[\w@+'-]|\.(?=\w))*"
# A host name is a value whatever its case ("lina-draws.example").
_HOST = r"[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?:/[\w./-]*)?"
_VALUE_EN = (
    rf"(?:(?:an?|the) [\w'-]+(?: [\w'-]+){{0,3}}|[A-Z0-9@+]{_TOKEN}(?: [\w'-]+){{0,3}}"
    rf"|[\w+-]*[\d@_]{_TOKEN}|{_HOST})"
)
_VALUE_FR = (
    r"(?:(?:une?|le|la|les) [\wàâçéèêëîïôûùüÿœ'-]+(?: [\wàâçéèêëîïôûùüÿœ'-]+){0,3}|l'[\wàâçéèêëîïôûùüÿœ'-]+"
    rf"|[A-ZÀ-Ý0-9@+]{_TOKEN}(?: [\wàâçéèêëîïôûùüÿœ'-]+){{0,3}}|[\w+-]*[\d@_]{_TOKEN}|{_HOST})"
)
_CLAUSE_END = r"(?=\s*(?:,? (?:not|rather than|pas|et non|plus)\b|,? (?:now|these days|maintenant|désormais)\b|[,.;!?]|$))"

# Attributes that are not the speaker's own values: people (their own
# rules), chit-chat heads ("my point is", "my bad"), and what other rules read.
_NOT_ATTRIBUTES = frozenset(
    [
        "point",
        "question",
        "problem",
        "issue",
        "guess",
        "bad",
        "day",
        "week",
        "weekend",
        "night",
        "morning",
        "evening",
        "life",
        "mind",
        "heart",
        "mistake",
        "fault",
        "pleasure",
        "turn",
        "concern",
        "worry",
        "hope",
        "dream",
        "goal",
        "idea",
        "thought",
        "thoughts",
        "opinion",
        "feeling",
        "answer",
        "reply",
        "advice",
        "fear",
        "reason",
        "excuse",
        "head",
        "back",
        "body",
        "family",
        "kids",
        "children",
        "parents",
        "friends",
        "house",
        "home",
        "place",
        "room",
        "plan",
        "plans",
        "time",
        "job",
        "work",
        "name",
        "email",
        "e-mail",
        "mail",
        "address",
        "phone",
        "number",
        "mobile",
        "age",
        "favorite",
        "favourite",
        "main",
        "biggest",
        "only",
        "first",
        "last",
        "new",
        "old",
        "current",
        "favorite",
        "passion",
        "focus",
        "priority",
        "suggestion",
        "take",
        "approach",
        "son",
        "daughter",
        "baby",
        "kid",
        "child",
        "parent",
        "mom",
        "mother",
        "dad",
        "father",
        "sister",
        "brother",
        "wife",
        "husband",
        "partner",
        "boyfriend",
        "girlfriend",
        "friend",
        "best",
        "buddy",
        "boss",
        "dog",
        "cat",
        "puppy",
        "kitten",
        "pet",
        "team",
        "class",
        "school",
        "teacher",
        "doctor",
        "therapist",
        "point",
        "sens",
        "avis",
        "problème",
        "question",
        "idée",
        "rêve",
        "but",
        "vie",
        "tête",
        "cœur",
        "coeur",
        "faute",
        "plaisir",
        "tour",
        "souci",
        "espoir",
        "peur",
        "raison",
        "excuse",
        "famille",
        "enfants",
        "parents",
        "amis",
        "maison",
        "chambre",
        "travail",
        "boulot",
        "nom",
        "mail",
        "adresse",
        "numéro",
        "téléphone",
        "portable",
        "âge",
        "préféré",
        "préférée",
        "dernier",
        "dernière",
        "premier",
        "première",
        "nouveau",
        "nouvelle",
        "ancien",
    ]
) | {w for w in f"{RELATIONS_EN}|{RELATIONS_FR}".replace(" ", "|").split("|")}


# People the speaker knows: "my cousin is a pilot" states the cousin's job.
_PEOPLE = frozenset(
    [
        "cousin",
        "neighbour",
        "neighbor",
        "aunt",
        "uncle",
        "grandma",
        "grandmother",
        "grandpa",
        "grandfather",
        "grandparents",
        "roommate",
        "flatmate",
        "colleague",
        "coworker",
        "co-worker",
        "nephew",
        "niece",
        "fiancé",
        "fiancée",
        "fiance",
        "ex",
        "landlord",
        "landlady",
        "bestie",
        "mate",
        "student",
        "patient",
        "client",
        "coach",
        "manager",
        "cousine",
        "voisin",
        "voisine",
        "oncle",
        "tante",
        "collègue",
        "neveu",
        "nièce",
        "grand-mère",
        "grand-père",
        "patron",
        "chef",
        "cheffe",
        "coloc",
        "colocataire",
        "prof",
        "professeur",
        "médecin",
    ]
)


def attribute(words: str) -> str | None:
    """The predicate an attribute's words name ("shoe size" -> ``shoe_size``), or None."""
    found = words.lower().replace("-", " ").split()
    if not found or any(w in _NOT_ATTRIBUTES or w in _PEOPLE for w in found):
        return None
    return "_".join(found)


def _possessive(pattern: str) -> Rule:
    return Rule("", cased(pattern), "phrase", "attribute", "slow", 0.6, fallback=True)


POSSESSIVE: tuple[Rule, ...] = (
    _possessive(
        rf"\b[Mm]y (?P<attr>[a-z][a-z-]*(?: [a-z][a-z-]*)?) (?:is|'s) (?:now |actually |still |currently )?(?:at |on )?"
        rf"(?P<v>{_VALUE_EN}){_CLAUSE_END}"
    ),
    _possessive(
        r"\b(?:[Mm]on|[Mm]a) (?P<attr>[a-zàâçéèêëîïôûùüÿœ]+(?: (?:de |d')?[a-zàâçéèêëîïôûùüÿœ]+)?)"
        rf",? (?:est|c'est) (?:maintenant |désormais |en fait |toujours )?(?P<v>{_VALUE_FR}){_CLAUSE_END}"
    ),
)
