"""Closed vocabularies the rules read into stored values (both languages to one form)."""

from __future__ import annotations

# Language names to the English name a fact stores, so "en français" and
# "in French" are one value.
LANGUAGES: dict[str, str] = {
    "english": "English",
    "anglais": "English",
    "french": "French",
    "français": "French",
    "francais": "French",
    "german": "German",
    "allemand": "German",
    "spanish": "Spanish",
    "espagnol": "Spanish",
    "italian": "Italian",
    "italien": "Italian",
    "portuguese": "Portuguese",
    "portugais": "Portuguese",
    "dutch": "Dutch",
    "néerlandais": "Dutch",
    "japanese": "Japanese",
    "japonais": "Japanese",
    "chinese": "Chinese",
    "chinois": "Chinese",
    "arabic": "Arabic",
    "arabe": "Arabic",
    "russian": "Russian",
    "russe": "Russian",
    "polish": "Polish",
    "polonais": "Polish",
}
LANGS = "|".join(sorted(LANGUAGES, key=len, reverse=True))
# What a language preference is about, both languages, to one English word.
LANGUAGE_CONTEXTS: dict[str, str] = {
    "invoices": "invoices",
    "factures": "invoices",
    "bills": "invoices",
    "emails": "emails",
    "e-mails": "emails",
    "mails": "emails",
    "courriels": "emails",
    "answers": "answers",
    "replies": "answers",
    "responses": "answers",
    "réponses": "answers",
    "reports": "reports",
    "rapports": "reports",
    "messages": "messages",
    "newsletters": "newsletters",
    "documents": "documents",
    "summaries": "summaries",
    "résumés": "summaries",
    "notifications": "notifications",
}
CONTEXTS = "|".join(sorted(LANGUAGE_CONTEXTS, key=len, reverse=True))
DIETS: dict[str, str] = {
    "vegetarian": "vegetarian",
    "végétarien": "vegetarian",
    "végétarienne": "vegetarian",
    "vegan": "vegan",
    "végane": "vegan",
    "végétalien": "vegan",
    "végétalienne": "vegan",
    "pescatarian": "pescatarian",
    "pescetarian": "pescatarian",
    "pescétarien": "pescatarian",
    "pescétarienne": "pescatarian",
    "végétarisme": "vegetarian",
    "véganisme": "vegan",
    "végétalisme": "vegan",
    # Diets people take up for health rather than ethics, both languages.
    "keto": "keto",
    "ketogenic": "keto",
    "cétogène": "keto",
    "paleo": "paleo",
    "paléo": "paleo",
    "plant-based": "plant-based",
    "plant based": "plant-based",
    "gluten-free": "gluten-free",
    "gluten free": "gluten-free",
    "sans gluten": "gluten-free",
    "dairy-free": "dairy-free",
    "dairy free": "dairy-free",
    "lactose-free": "lactose-free",
    "sans lactose": "lactose-free",
    "low-carb": "low-carb",
    "low carb": "low-carb",
    "flexitarian": "flexitarian",
    "flexitarien": "flexitarian",
    "flexitarienne": "flexitarian",
}
DIET_WORDS = "|".join(sorted(DIETS, key=len, reverse=True))


# Relationship statuses, both languages, to one English word.
RELATIONSHIP: dict[str, str] = {
    "single": "single",
    "married": "married",
    "engaged": "engaged",
    "divorced": "divorced",
    "widowed": "widowed",
    "separated": "separated",
    "in a relationship": "in a relationship",
    "célibataire": "single",
    "marié": "married",
    "mariée": "married",
    "fiancé": "engaged",
    "fiancée": "engaged",
    "divorcé": "divorced",
    "divorcée": "divorced",
    "veuf": "widowed",
    "veuve": "widowed",
    "en couple": "in a relationship",
    "pacsé": "in a civil union",
    "pacsée": "in a civil union",
    "séparé": "separated",
    "séparée": "separated",
    # "on s'est mariés": the couple's plural.
    "mariés": "married",
    "mariées": "married",
    "fiancés": "engaged",
    "fiancées": "engaged",
    "pacsés": "in a civil union",
    "pacsées": "in a civil union",
    "séparés": "separated",
    "séparées": "separated",
    # "we've been together for years", "on est ensemble".
    "together": "in a relationship",
    "ensemble": "in a relationship",
    # A break-up the speaker tells ("my boyfriend and I broke up").
    "broke up": "single",
    "split up": "single",
    "got divorced": "divorced",
}

# Systems of units, both languages.
UNITS: dict[str, str] = {
    "metric": "metric",
    "métrique": "metric",
    "imperial": "imperial",
    "impérial": "imperial",
    "us customary": "imperial",
    # A measure names its system: "distances in kilometres".
    **dict.fromkeys(
        [
            "kilometres",
            "kilometers",
            "kilomètres",
            "kilograms",
            "kilogram",
            "kilogrammes",
            "kilos",
            "centimetres",
            "centimeters",
            "celsius",
        ],
        "metric",
    ),
    **dict.fromkeys(["miles", "pounds", "feet", "inches", "fahrenheit"], "imperial"),
}
# Closed-vocabulary values (``word`` rules): one stored form per word.
WORDS: dict[str, str] = {**RELATIONSHIP, **UNITS}
