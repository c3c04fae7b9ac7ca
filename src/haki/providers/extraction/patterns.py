"""The rules extractor's patterns, English and French, as data.

Each ``Rule`` finds one statement shape in a sentence; ``value`` says how the
captured words are checked. Precision comes first: values must look like
what the predicate expects (a capitalised place, a known occupation, a short
noun phrase that is not a pronoun), and hedged or questioning sentences are
skipped by the engine. The rules live by language (``patterns_en``,
``patterns_fr``) over shared fragments (``fragments``) and are tried in this
order: English first, then facts stated as the event that began them
(``patterns_events``) or read from
the structure of a life event (``patterns_life``) or of a change of state
(``patterns_changes``), the standing requests of both (``patterns_requests``), then any "my X is Y" as a last resort
(``patterns_possessive``).
"""

from __future__ import annotations

from .fragments import Rule
from .lexicon import BREEDS
from .patterns_changes import CHANGES
from .patterns_en import RULES_EN
from .patterns_events import EVENTS
from .patterns_fr import RULES_FR
from .patterns_groups import GROUPS
from .patterns_life import LIFE
from .patterns_listed import LISTED
from .patterns_named import NAMED, NAMED_RELATIONS
from .patterns_possessive import POSSESSIVE
from .patterns_practice import PRACTICE
from .patterns_requests import REQUESTS
from .patterns_standing import STANDING
from .patterns_state import STATES
from .patterns_status import STATUS
from .patterns_ties import TIES

__all__ = ["CATEGORY_EN", "RELATION_PREDICATES", "RULES", "Rule"]

RULES: tuple[Rule, ...] = (
    *RULES_EN,
    *RULES_FR,
    *EVENTS,
    *TIES,
    *LIFE,
    *STATUS,
    *NAMED,
    *STANDING,
    *STATES,
    *CHANGES,
    *REQUESTS,
    *PRACTICE,
    *LISTED,
    *GROUPS,
    *POSSESSIVE,
)

# Relation words, both languages, to the predicate they state.
RELATION_PREDICATES: dict[str, str] = {
    # Words the relations' topics list ("bestie", "pote"); the rules' own below win.
    **NAMED_RELATIONS,
    "sister": "sister",
    "sœur": "sister",
    "soeur": "sister",
    "brother": "brother",
    "frère": "brother",
    "frere": "brother",
    "wife": "spouse",
    "husband": "spouse",
    "femme": "spouse",
    "mari": "spouse",
    "conjoint": "spouse",
    "conjointe": "spouse",
    "partner": "partner",
    "boyfriend": "partner",
    "girlfriend": "partner",
    # As typed in a chat.
    "bf": "partner",
    "gf": "partner",
    "copine": "partner",
    "copain": "partner",
    "son": "son",
    "fils": "son",
    "daughter": "daughter",
    "fille": "daughter",
    "mom": "mother",
    "mother": "mother",
    "mère": "mother",
    "mere": "mother",
    "dad": "father",
    "father": "father",
    "père": "father",
    "pere": "father",
    "friend": "friend",
    "best friend": "friend",
    "ami": "friend",
    "amie": "friend",
    "meilleur ami": "friend",
    "meilleure amie": "friend",
    "dog": "pet",
    "cat": "pet",
    "puppy": "pet",
    "pup": "pet",
    "kitten": "pet",
    "chien": "pet",
    "chienne": "pet",
    "chat": "pet",
    "chatte": "pet",
    # Every kind of pet ``patterns_life`` reads a name for.
    **dict.fromkeys(
        [
            "rabbit",
            "bunny",
            "hamster",
            "parrot",
            "horse",
            "turtle",
            "tortoise",
            "ferret",
            "budgie",
            "goldfish",
            "lizard",
            "snake",
            "chiot",
            "chaton",
            "lapin",
            "lapine",
            "perroquet",
            "cheval",
            "jument",
            "tortue",
            "furet",
            "perruche",
        ],
        "pet",
    ),
    "guinea pig": "pet",
    # "we welcomed a baby boy named Leo".
    "boy": "son",
    "girl": "daughter",
    "cochon d'inde": "pet",
    # A pet named by its breed ("a beagle called Pepper").
    **dict.fromkeys(BREEDS, "pet"),
}

# French favourite categories, so "mon livre préféré" and "my favorite book" meet.
CATEGORY_EN: dict[str, str] = {
    "livre": "book",
    "film": "movie",
    "couleur": "color",
    "plat": "dish",
    "chanson": "song",
    "groupe": "band",
    "série": "show",
    "sport": "sport",
    "auteur": "author",
    "colour": "color",
}
