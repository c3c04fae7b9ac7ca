"""The rules extractor's French patterns, tried after the English ones."""

from __future__ import annotations

from .fragments import (
    CAP,
    CAP_SEQ,
    END,
    IMPERATIVES_FR,
    KIN_ADJ_FR,
    OCCUPATIONS_FR,
    PHRASE,
    RELATIONS_FR,
    RELATIONSHIP_FR,
    WHEN_FR,
    Rule,
    cased,
    icase,
)
from .lexicon import BREED, PET_KINDS_FR
from .vocabulary import CONTEXTS, DIET_WORDS, LANGS

RULES_FR: tuple[Rule, ...] = (
    # Identity and attributes (French).
    Rule("name", cased(rf"\b[Jj]e m'appelle (?P<v>{CAP}(?: {CAP})?)"), "name", confidence=0.9),
    Rule(
        "name", cased(rf"\b[Mm]on (?:pré)?nom est (?P<v>{CAP}(?: {CAP})?)"), "name", confidence=0.9
    ),
    Rule(
        "home_city",
        cased(rf"\b[Jj]'habite (?:à|a|en|au) (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "home_city",
        cased(rf"\b[Jj]e vis (?:à|a|en|au) (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "home_city",
        cased(rf"\b[Jj]'ai (?:récemment )?déménagé (?:à|a|en|au) (?P<v>{CAP_SEQ})"),
        "place",
        volatility="slow",
    ),
    Rule("hometown", cased(rf"\b[Jj]e suis originaire (?:de|d') ?(?P<v>{CAP_SEQ})"), "place"),
    Rule(
        "occupation",
        icase(
            rf"\bje (?:travaille|bosse|taffe|bosse maintenant|travaille maintenant) comme (?P<v>{PHRASE}){END}"
        ),
        "phrase",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "occupation",
        # "prof de maths", "étudiante en psycho": a lower-case field after
        # "de"/"en" belongs to the title; a capitalised one is a place.
        icase(
            rf"\bje suis (?:maintenant |désormais )?(?:un |une )?(?P<v>(?:{OCCUPATIONS_FR})"
            r"(?: (?:de |d'|en )(?-i:[a-zéèêàç][\w'-]+))?)\b(?!-)"
        ),
        "occupation",
        volatility="slow",
    ),
    Rule(
        "employer",
        cased(rf"\b[Jj]e travaille (?:chez|pour) (?P<v>{CAP_SEQ})"),
        "org",
        volatility="slow",
    ),
    Rule(
        "age",
        icase(r"\b(?:j'ai|je viens d'avoir|j'ai eu) (?P<v>\d{1,2}) ans\b"),
        "number",
        volatility="slow",
        confidence=0.85,
    ),
    # A bare "36 ans" that opens the sentence and ends its clause ("oups, 36
    # ans, pas 35"): "20 ans plus tard" goes on and says no age.
    Rule(
        "age",
        icase(r"^(?P<v>\d{1,2}) ans(?=\s*(?:[,.;!]|$|\bpas\b))"),
        "number",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "",
        cased(
            rf"\b(?:[Mm]on|[Mm]a|[Ll]e|[Ll]a) (?P<rel>{RELATIONS_FR}) (?:s'appelle|se nomme) (?P<v>{CAP})\b"
        ),
        "name",
        confidence=0.75,
    ),
    Rule(
        "relationship_status",
        icase(
            rf"\bje suis (?:maintenant |désormais |à nouveau |de nouveau )?(?P<v>{RELATIONSHIP_FR})\b"
        ),
        "word",
        volatility="slow",
        confidence=0.75,
    ),
    Rule(
        "",
        cased(
            rf"\b[Jj]'ai (?:adopté )?(?:un|une) (?:petit |petite |jeune )?(?P<rel>{RELATIONS_FR}|{BREED})"
            rf" (?:qui s'appelle|nommée?|appelée?|du nom de) (?P<v>{CAP})\b"
        ),
        "name",
        confidence=0.75,
    ),
    Rule(
        "diet",
        icase(rf"\bje suis (?:devenue? |maintenant )?(?P<v>{DIET_WORDS})\b"),
        "diet",
        volatility="slow",
        confidence=0.8,
    ),
    Rule(
        "language",
        icase(
            r"\b(?:envoie|envoyez|écris|écrivez|réponds|répondez|parle|parlez|rédige|rédigez|adresse|adressez)"
            r"(?:-(?:les|le|la|lui|leur|moi|nous))*(?: (?:les|le|la|moi|nous))*"
            rf"(?: (?:plutôt|toujours|désormais|dorénavant|uniquement|seulement))? en (?P<v>{LANGS})\b"
        ),
        "language",
        "preference",
        "slow",
        0.75,
    ),
    Rule(
        "language",
        icase(
            r"\bje (?:préfère|voudrais|veux|souhaite|aimerais)"
            r"(?: (?:recevoir|avoir|lire|qu'on me réponde|que tu me répondes|qu'on m'écrive|que tu m'écrives))?"
            rf"(?: (?:mes|les|des|vos|tes|toutes? (?:mes|les)) (?P<ctx>{CONTEXTS}))? en (?P<v>{LANGS})\b"
        ),
        "language",
        "preference",
        "slow",
        0.75,
    ),
    Rule(
        "",
        cased(
            # Every kind of pet, as the English rules read "my rabbit Caramel".
            rf"\b(?:[Mm]a|[Mm]on|[Nn]otre) (?i:{KIN_ADJ_FR})(?P<rel>{RELATIONS_FR}|{PET_KINDS_FR})"
            rf" (?P<v>{CAP})\b"
        ),
        "name",
        confidence=0.75,
    ),
    # Preferences (French).
    Rule(
        "likes",
        # "J'aime bien quand tu …" likes a way of acting, said as a clause:
        # an order in the mood of a taste, read as one elsewhere, not a "bien" liked.
        icase(
            rf"\bj'(?:adore|aime (?>(?:beaucoup |bien |vraiment )?))(?!(?:quand|lorsque|que|qu'|si|s')\b)"
            rf"(?P<v>{PHRASE}){END}"
        ),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    # What one mostly listens to, watches or reads is a taste: "j'écoute
    # surtout du rap" (a habit word makes it one; "j'écoute du rap ce soir"
    # is a moment).
    Rule(
        "likes",
        icase(
            r"\bj'(?:écoute|regarde|lis) (?:surtout|beaucoup|principalement|souvent|pas mal|que|plutôt)"
            rf" (?:du |de la |de l'|des |d')?(?P<v>{PHRASE}){END}"
        ),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "dislikes",
        icase(rf"\bje (?:déteste|ne supporte pas|n'aime pas) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.7,
    ),
    Rule(
        "prefers", icase(rf"\bje préfère (?P<v>{PHRASE}){END}"), "phrase", "preference", "slow", 0.7
    ),
    Rule(
        "",
        icase(rf"\b(?:mon|ma) (?P<cat>[a-zéèê]+) préférée? (?:est|c'est) (?P<v>{PHRASE}){END}"),
        "phrase",
        "preference",
        "slow",
        0.75,
    ),
    # Decisions, conventions, plans (French).
    Rule(
        "decision",
        icase(rf"\b(?:on a|nous avons|j'ai) (?:finalement )?décidé d(?:e |')(?P<v>{PHRASE}){END}"),
        "clause",
        volatility="slow",
        confidence=0.65,
    ),
    Rule(
        "convention",
        icase(
            rf"^(?:il faut )?(?P<v>(?:toujours|ne jamais|jamais) (?:{IMPERATIVES_FR}) .{{3,120}}?)[.!]?$"
        ),
        "clause",
        "instruction",
        "stable",
        0.7,
    ),
    Rule(
        "convention",
        icase(rf"\bla (?:règle|convention) est (?:de |d')(?P<v>{PHRASE}){END}"),
        "clause",
        "instruction",
        "stable",
        0.7,
    ),
    Rule(
        "plan",
        icase(
            rf"\bje (?:vais|compte|prévois de|pars) (?P<v>[a-zé][^,.;!?]{{2,60}}?) (?P<when>{WHEN_FR})\b"
        ),
        "clause",
        volatility="ephemeral",
        confidence=0.6,
    ),
)
