"""Which facts a question asks about (pure): predicate topics, in English and French.

The recall gate needs to tell "Where does Maya live?" (asks for her home
city) from "What is Maya's blood type?" (asks for something she never
said). A sentence embedder cannot: both are short personal questions about
Maya and sit at the same distance from every fact of hers. What separates
them is the topic word, so each predicate lists the words people use when
they ask about it, and a question *asks about* a fact when it holds one of
them, or names the fact's value ("Does she speak Spanish?" and the fact
``learning = Spanish``).

Cues are written from what each predicate means, never from a test set's
questions. Syntax of a cue: a word matches that word exactly; ``word*``
matches every word it begins (verb forms, plurals, French inflections);
several words separated by spaces must all be in the question; ``en:`` or
``fr:`` in front reads the cue only in a question of that language. Cues are
separated by commas. Words are compared lower-cased without accents
(``text.lexicon.words``), stop words kept, so "where ... from" can be a cue.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .lexicon import STOP_WORDS, STOP_WORDS_EN, STOP_WORDS_FR, normalise, stem, terms, words
from .memo import memo

# Words of a meal: what someone eats, cannot eat or will not eat is part of
# the answer to any question about feeding them.
_FOOD = (
    "eat, eats, eating, food*, meal*, dinner*, lunch*, breakfast*, brunch, barbecue*, "
    "restaurant*, steak*, menu*, snack*, recipe*, cook*, dish, dishes, mange*, "
    "nourriture, aliment*, repas, diner, dejeuner, recette*, cuisin*, plat, plats"
)

TOPICS: dict[str, str] = {
    "name": (
        "name, names, named, called, surname, last name, family name, first name, nom, "
        "prenom*, appel*, who am i, qui suis je"
    ),
    "home_city": (
        "live, lives, lived, living, resid*, based, home, address*, city, town, move, "
        "moved, moving, relocat*, house, apartment, flat, neighbo*, habit*, vit, vis, "
        "vivent, vivre, demeur*, domicil*, adresse*, ville, demenag*, emmenag*, "
        "install*, logement, appartement, maison, quartier"
    ),
    "hometown": (
        "where from, hometown, grew up, grow up, growing up, raised, born, native, "
        "origin*, childhood, vient, viens, venait, originaire*, origine*, nee, "
        "naissance, grandi, enfance"
    ),
    "occupation": (
        "job, jobs, work, works, working, career, profession*, fait vie, fais vie, "
        "faites vie, occupation*, for a living, employ*, position, role, metier*, "
        "travail*, boulot, emploi*, poste"
    ),
    "employer": (
        "employer*, employ*, company, companies, firm, work for, works for, work at, "
        "works at, boss, office, employeur*, entreprise*, societe*, boite, patron*, "
        "travail*"
    ),
    "age": "old, age, aged, birth year, year born, ages, turning, turns, ans, vieux, vieille",
    "code_convention": (
        "code, coding, indent*, tabs, spaces, style, format*, convention*, lint*, naming, "
        "repo*, indentation, tabulation*, espaces"
    ),
    "units": (
        "unit*, metric, imperial, miles, km, kilometres, kilometers, pounds, kilos, celsius, "
        "fahrenheit, measure*, unite*, metrique, distance*, weight*"
    ),
    "schedule": (
        "meeting*, schedul*, calendar, book*, appointment*, call*, available, availability, "
        "morning, evening, slot*, reunion*, rendez-vous, agenda, disponible*, creneau*, shift*, "
        "horaire*"
    ),
    "email": "email*, e-mail*, mail, address, reach, contact*, courriel*, adresse, joindre",
    "phone": (
        "phone*, number, call, text, mobile, cell*, telephone*, reach, contact*, numero, "
        "portable, appeler, joindre"
    ),
    "relationship_status": (
        "single, married, engaged, divorced, relationship*, dating, partner*, fiance*, "
        "broke up, split up, breakup, rompu, "
        "celibataire, couple, marie, mariee, fiance, fiancee, divorce*"
    ),
    "spouse": (
        "married, marry, marri*, wife, husband, spouse*, wedding, single, mari, "
        "femme, epou*, marie, mariee, mariage, celibataire, hubby, wifey, épouse, époux"
    ),
    "partner": (
        "partner*, boyfriend*, girlfriend*, dating, relationship*, single, copain, "
        "broke up, split up, breakup, rompu, "
        "copine, compagn*, conjoint*, petit ami, petite amie, couple, celibataire, "
        "compagne, compagnon"
    ),
    "mother": "mother*, mom, mum, mommy, mama, mere, maman, parent*, parents",
    "father": "father*, dad, daddy, papa, pere, parent*, parents",
    "sister": "sister*, en:sis, soeur*, sour, sours, sibling*, fratrie, frangine*",
    "brother": "brother*, en:bro, frere*, sibling*, fratrie, frangin, frangins",
    "son": "en:son, sons, boy, fils, garcon*, child*, kid, kids, enfant*",
    "daughter": "daughter*, girl, fille*, child*, kid, kids, enfant*",
    "friend": (
        "friend*, buddy, buddies, pal, bestie, ami, amie, amis, amies, copain*, copine*, pote*, "
        "bff, poto"
    ),
    "pet": (
        "pet, pets, dog*, cat, cats, kitten*, kitty, puppy, puppies, animal*, "
        "animaux, chien*, chat, chats, chaton*, chiot*, compagnie, rabbit*, bunny, bunnies, "
        "hamster*, parrot*, budgie*, ferret*, tortoise*, lapin*, perroquet*, perruche*, tortue*, "
        "furet*"
    ),
    "likes": (
        "like, likes, liked, love, loves, loved, enjoy*, fan, aime*, adore*, plait, "
        "apprecie*, passion*, " + _FOOD
    ),
    "dislikes": (
        "dislike*, hate*, avoid*, stand, deteste*, horreur, eviter, like, likes, love, "
        "aime*, " + _FOOD
    ),
    "prefers": "prefer*, rather, instead, plutot",
    "plays": "play, plays, playing, played, instrument*, music*, joue*, jouer, musique*",
    "hobby": (
        "hobb*, pastime*, free time, spare time, weekend*, leisure, for fun, craft*, "
        "loisir*, passetemps, temps libre"
    ),
    "learning": (
        "learn*, study*, studi*, course*, class, classes, lesson*, apprend*, appris, "
        "etudi*, cours, lecon*"
    ),
    "allergy": ("allerg*, intoleran*, restriction*, epipen, safe to eat, " + _FOOD),
    "member_of": (
        "member*, club*, join*, belong*, association*, membre*, adhere*, inscrit*, fait partie"
    ),
    "volunteers_at": (
        "volunteer*, charit*, nonprofit*, non profit, benevol*, volontaire*, association*"
    ),
    "decision": "decid*, decision*, chose, choose, chosen, choice, settled, choisi*, choix",
    "convention": (
        "rule, rules, convention*, guideline*, policy, policies, format*, style, "
        "always, never, regle*, toujours, jamais, consigne*"
    ),
    "diet": (
        "diet*, vegetarian*, vegan*, veggie*, meat, restriction*, regime*, "
        "vegetarien*, vege*, viande*, " + _FOOD
    ),
    "language": "language*, speak*, reply, replies, respond*, langue*, parle*, repond*, reponse*",
    "plan": (
        "plan, plans, planned, planning, going to, intend*, future, upcoming, next, "
        "trip*, travel*, vacation*, holiday*, prevoi*, prevu*, projet*, voyage*, "
        "vacances, prochain*"
    ),
}

# ``favorite_<thing>`` is open-ended: the thing itself is the cue, with its
# French word when it has a common one.
FAVORITE_THINGS: dict[str, str] = {
    "book": "book*, novel*, read*, livre*, roman*, lire, lit, lecture*",
    "movie": "movie*, film*, cinema*",
    "film": "movie*, film*, cinema*",
    "color": "color*, colour*, couleur*",
    "colour": "color*, colour*, couleur*",
    "dish": "dish*, meal*, food*, plat, plats, cuisine*, repas",
    "food": "dish*, meal*, food*, plat, plats, cuisine*, nourriture",
    "sport": "sport*",
    "song": "song*, chanson*, music*, musique*",
    "band": "band*, groupe*, music*, musique*",
    "singer": "singer*, chanteu*, music*, musique*",
    "music": "music*, musique*, song*, chanson*",
    "game": "game*, jeu, jeux",
    "show": "show*, series, serie*, emission*",
    "author": "author*, writer*, auteur*, ecrivain*",
    "animal": "animal*, animaux",
    "place": "place*, lieu*, endroit*",
    "drink": "drink*, boisson*, boire",
    "restaurant": "restaurant*",
    "season": "season*, saison*",
    "flower": "flower*, fleur*",
    "city": "city, cities, ville*",
    "country": "countr*, pays",
}


# The relations whose words say a question is about another person.
_RELATIONS = (
    "spouse",
    "partner",
    "mother",
    "father",
    "sister",
    "brother",
    "son",
    "daughter",
    "friend",
    "pet",
)
OTHERS_NAMED = (
    "grand*, uncle*, aunt*, cousin*, niece*, nephew*, godmother*, godfather*, godparent*, "
    "inlaw*, colleague*, coworker*, neighbo*, doctor*, teacher*, boss*, wifi, network*, "
    "oncle*, tante*, neveu*, parrain*, marraine*, collegue*, voisin*, medecin*, prof*, "
    "patron*, reseau*, beaupere*, bellemere*, beaufrere*, bellesoeur*, bellesour*"
)
# Topic words of a relation that name no one: the tie itself ("wedding",
# "mariage"), a status, or what a pet is for ("animal de compagnie").
_NOT_BEINGS = frozenset(
    {"wedding", "mariage", "marry", "compagnie", "animaux", "pets", "amis", "amies"}
)


@lru_cache(maxsize=1)
def relation_words() -> dict[str, str]:
    """Single words that name one relation's person or animal: "pote" -> ``friend``.

    Read from the relations' topic cues, so a word people ask about a
    relation with is also a word they name it with ("my bestie is Jo", "the
    bunny's name is Clover"). A word that is a cue of several relations
    ("child", "parents") or of a relationship status ("single", "couple")
    names no one in particular and is left out; a ``word*`` cue gives its
    stem ("sister*" -> "sister"). Each word is given as written and folded
    without accents.
    """
    status = {c.strip().rstrip("*") for c in TOPICS["relationship_status"].split(",")}
    seen: dict[str, set[str]] = {}
    for predicate in _RELATIONS:
        for cue in TOPICS[predicate].split(","):
            word = cue.strip().rstrip("*").lower()
            if ":" in word or " " in word or len(word) < 3 or word in _NOT_BEINGS or word in status:
                continue
            for form in {word, normalise(word)}:
                seen.setdefault(form, set()).add(predicate)
    return {w: next(iter(p)) for w, p in sorted(seen.items()) if len(p) == 1}


# Words that say a topic word means something else: an e-mail address is no home.
VETOES: dict[str, str] = {"home_city": "email*, mail, mails, courriel*"}


# Function words only one language uses: a question with more French ones
# than English ones is French, and English-only cues ("en:son") are not
# read in it (French "son" is "his/her").
_FRENCH_ONLY = STOP_WORDS_FR - STOP_WORDS_EN
_ENGLISH_ONLY = STOP_WORDS_EN - STOP_WORDS_FR


# A hyphen joins one word ("grand-mère", "e-mail", "week-end") except before
# a French subject pronoun ("habite-t-elle", "est-ce"), where it separates two.
_INVERSION = re.compile(r"-(?:t-)?(je|tu|il|elle|on|nous|vous|ils|elles|ce|en|y)\b", re.IGNORECASE)
_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")
# French "préféré" is "favourite"; folded, it would read as "préfère" (prefers).
_FAVOURITE_FR = re.compile(r"\bpréféré(?:e|s|es)?\b", re.IGNORECASE)


def _compounds(question: str) -> str:
    text = _INVERSION.sub(r" \1", question)
    return _FAVOURITE_FR.sub("favori", _HYPHEN.sub("", text))


@dataclass(frozen=True, slots=True)
class Cue:
    words: tuple[str, ...]  # normalised; a trailing ``*`` matches by prefix
    lang: str | None = None  # "en" / "fr": read only in a question of that language


@dataclass(frozen=True, slots=True)
class AskedQuestion:
    """A question cut once for every fact it is checked against."""

    words: frozenset[str]
    prefixes: frozenset[str]  # every prefix of those words, for ``word*`` cues
    stems: frozenset[str]  # content terms, to compare with fact values
    heads: frozenset[str]  # every prefix of four letters or more of those terms
    lang: str
    # Facts checked against one question share few predicates: each topic once.
    asked: dict[str, bool] = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def of(cls, question: str) -> AskedQuestion:
        found = words(_compounds(question))
        french = sum(w in _FRENCH_ONLY for w in found)
        english = sum(w in _ENGLISH_ONLY for w in found)
        stems = frozenset(stem(w) for w in found if w not in STOP_WORDS and len(w) > 1)
        return cls(
            words=frozenset(found),
            prefixes=frozenset(w[:k] for w in found for k in range(1, len(w) + 1)),
            stems=stems,
            heads=frozenset(w[:k] for w in stems for k in range(4, len(w) + 1)),
            lang="fr" if french > english else "en",
        )


def _raw_cues(predicate: str) -> tuple[str, ...]:
    if predicate in TOPICS:
        return tuple(TOPICS[predicate].split(","))
    if predicate.startswith(("favorite_", "favourite_")):
        thing = predicate.split("_", 1)[1]
        if thing in FAVORITE_THINGS:
            return tuple(FAVORITE_THINGS[thing].split(","))
        return (f"{thing}*",)
    # An open predicate (LLM extractor, POST /v1/facts): its own words are the cues.
    return tuple(f"{w}*" for w in predicate.lower().split("_") if len(w) > 2)


def _vetoes(predicate: str) -> tuple[str, ...]:
    if predicate == "name":
        # "the name of her grandmother / her dog / her Wi-Fi" is someone else's name.
        related = (c for p in _RELATIONS for c in TOPICS[p].split(","))
        return (*OTHERS_NAMED.split(","), *related)
    return tuple(VETOES[predicate].split(",")) if predicate in VETOES else ()


def _parse(raw: Iterable[str]) -> tuple[Cue, ...]:
    out = []
    for cue in raw:
        lang, _, text = cue.strip().rpartition(":")
        if text.strip():
            out.append(Cue(tuple(normalise(text).split()), lang or None))
    return tuple(out)


def cues(predicate: str) -> tuple[Cue, ...]:
    """The topic cues of a predicate (see the module docstring for their syntax)."""
    return _parse(_raw_cues(predicate))


@dataclass(frozen=True, slots=True)
class _CueSet:
    """Cues ready to check: one-word cues as sets, the others one by one."""

    exact: frozenset[str]
    heads: frozenset[str]  # ``word*`` cues without their star
    others: tuple[Cue, ...]  # several words, or one language only

    @classmethod
    def of(cls, found: tuple[Cue, ...]) -> _CueSet:
        single = [c.words[0] for c in found if len(c.words) == 1 and c.lang is None]
        return cls(
            exact=frozenset(w for w in single if not w.endswith("*")),
            heads=frozenset(w[:-1] for w in single if w.endswith("*")),
            others=tuple(c for c in found if len(c.words) > 1 or c.lang is not None),
        )

    def held_by(self, q: AskedQuestion) -> bool:
        return (
            not self.exact.isdisjoint(q.words)
            or not self.heads.isdisjoint(q.prefixes)
            or any(
                (cue.lang is None or cue.lang == q.lang) and all(_hit(w, q) for w in cue.words)
                for cue in self.others
            )
        )


@lru_cache(maxsize=1024)
def _compiled(predicate: str) -> tuple[_CueSet, _CueSet]:
    return _CueSet.of(cues(predicate)), _CueSet.of(_parse(_vetoes(predicate)))


def _hit(word: str, q: AskedQuestion) -> bool:
    return word[:-1] in q.prefixes if word.endswith("*") else word in q.words


def asks_about(q: AskedQuestion, predicate: str) -> bool:
    """Does the question hold one of the predicate's topic cues, and none of its vetoes?"""
    found = q.asked.get(predicate)
    if found is None:
        topic, veto = _compiled(predicate)
        found = q.asked[predicate] = topic.held_by(q) and not veto.held_by(q)
    return found


def value_terms(value: Any) -> frozenset[str]:
    """Content terms of a fact's value (stemmed, no stop words, at least three letters)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return _text_terms(text)


@memo
def _text_terms(text: str) -> frozenset[str]:
    return frozenset(t for t in terms(text) if len(t) >= 3)


def names_value(q: AskedQuestion, value: Any) -> bool:
    """Does the question name the fact's value ("Does she speak Spanish?", "a pianist?")?

    A value word of five letters or more also matches its derivations: they
    share all but its last letter ("guitar" / "guitarist", "piano" / "pianist").
    """
    found = value_terms(value)
    return not found.isdisjoint(q.stems) or any(v[:-1] in q.heads for v in found if len(v) >= 5)


def on_topic(q: AskedQuestion, predicate: str, value: Any) -> bool:
    """The question asks about this fact: by its topic, or by naming its value.

    A ``name`` fact is never matched by value: questions name the subject
    all the time ("What is Maya's blood type?") without asking their name.
    """
    return asks_about(q, predicate) or (predicate != "name" and names_value(q, value))
