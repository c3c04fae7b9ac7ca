"""Synthetic but varied memory for the context benchmark: facts, turns, queries.

Texts are drawn from templates over a few hundred names, places, foods,
jobs and hobbies, so a scope of 10,000 facts has realistic vocabulary overlap
(common words shared by many rows, names shared by a few).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

NAMES = [
    "Anna",
    "Bruno",
    "Chloe",
    "David",
    "Emma",
    "Felix",
    "Grace",
    "Hugo",
    "Iris",
    "Jonas",
    "Karim",
    "Lena",
    "Marc",
    "Nora",
    "Oscar",
    "Paula",
    "Quentin",
    "Rosa",
    "Samir",
    "Tara",
    "Ugo",
    "Vera",
    "Walid",
    "Xenia",
    "Yann",
    "Zoe",
    "Alice",
    "Basile",
    "Camille",
    "Dario",
    "Elise",
    "Fanny",
    "Gilles",
    "Hana",
    "Ines",
    "Jules",
    "Kenza",
    "Louis",
    "Maya",
    "Nils",
    "Olga",
    "Pierre",
    "Rania",
    "Simon",
    "Theo",
    "Ulla",
    "Victor",
    "Wanda",
    "Yasmine",
    "Zack",
    "Amir",
    "Bella",
    "Cyril",
    "Dina",
    "Enzo",
    "Flora",
    "Gael",
    "Helga",
    "Ilan",
    "Jade",
    "Kofi",
    "Lucie",
    "Mehdi",
    "Nadia",
    "Omar",
    "Pia",
    "Raoul",
    "Selma",
    "Timo",
    "Uma",
    "Vince",
    "Wilma",
    "Yuki",
    "Zara",
]
CITIES = [
    "Lyon",
    "Paris",
    "Nice",
    "Lille",
    "Nantes",
    "Rennes",
    "Bordeaux",
    "Toulouse",
    "Marseille",
    "Grenoble",
    "Dijon",
    "Brest",
    "Oslo",
    "Rome",
    "Madrid",
    "Berlin",
    "Vienna",
    "Prague",
    "Lisbon",
    "Porto",
    "Seville",
    "Dublin",
    "Geneva",
    "Zurich",
    "Milan",
    "Naples",
    "Athens",
    "Krakow",
    "Tallinn",
    "Riga",
    "Kyoto",
    "Osaka",
    "Tokyo",
    "Seoul",
    "Boston",
    "Denver",
    "Austin",
    "Seattle",
    "Montreal",
    "Quebec",
    "Lima",
    "Quito",
    "Bogota",
    "Dakar",
    "Tunis",
    "Cairo",
    "Nairobi",
    "Accra",
    "Sydney",
    "Perth",
]
FOODS = [
    "sushi",
    "ramen",
    "pasta",
    "risotto",
    "tacos",
    "curry",
    "falafel",
    "hummus",
    "croissants",
    "paella",
    "pho",
    "dumplings",
    "pizza",
    "lasagna",
    "couscous",
    "tagine",
    "ceviche",
    "burritos",
    "pancakes",
    "waffles",
    "cheesecake",
    "tiramisu",
    "gelato",
    "oysters",
    "mussels",
    "salmon",
    "tofu",
    "tempeh",
    "lentils",
    "quinoa",
    "olives",
    "figs",
    "mangoes",
    "cherries",
    "chocolate",
    "espresso",
    "matcha",
    "kombucha",
    "cider",
]
JOBS = [
    "nurse",
    "teacher",
    "architect",
    "plumber",
    "pilot",
    "chef",
    "lawyer",
    "engineer",
    "designer",
    "journalist",
    "pharmacist",
    "baker",
    "carpenter",
    "dentist",
    "electrician",
    "farmer",
    "firefighter",
    "librarian",
    "mechanic",
    "musician",
    "painter",
    "photographer",
    "physicist",
    "surgeon",
    "translator",
    "veterinarian",
    "accountant",
    "analyst",
    "astronomer",
    "biologist",
]
COMPANIES = [
    "Airbus",
    "Renault",
    "Danone",
    "Michelin",
    "Decathlon",
    "Ubisoft",
    "Thales",
    "Orange",
    "Carrefour",
    "Hermes",
    "Valeo",
    "Safran",
    "Capgemini",
    "Dassault",
    "Sanofi",
    "Veolia",
    "Alstom",
    "Legrand",
    "Schneider",
    "Bouygues",
]
HOBBIES = [
    "hiking",
    "climbing",
    "knitting",
    "chess",
    "sailing",
    "running",
    "swimming",
    "cycling",
    "pottery",
    "gardening",
    "birdwatching",
    "baking",
    "painting",
    "photography",
    "fishing",
    "surfing",
    "skiing",
    "yoga",
    "boxing",
    "fencing",
    "rowing",
    "archery",
    "juggling",
    "origami",
    "calligraphy",
]
ANIMALS = [
    "cat",
    "dog",
    "parrot",
    "rabbit",
    "hamster",
    "turtle",
    "goldfish",
    "horse",
    "ferret",
    "lizard",
]
RELATIONS = [
    "sister",
    "brother",
    "mother",
    "father",
    "cousin",
    "aunt",
    "uncle",
    "daughter",
    "son",
    "grandmother",
    "friend",
    "colleague",
    "neighbour",
]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
TOPICS = [
    "taxes",
    "insurance",
    "mortgage",
    "vacation",
    "wedding",
    "birthday",
    "surgery",
    "exam",
    "promotion",
    "renovation",
    "marathon",
    "concert",
    "festival",
    "conference",
    "interview",
    "moving",
    "adoption",
    "graduation",
    "retirement",
    "budget",
    "diet",
]

FACT_TEMPLATES = [
    ("home_city", "lives in {city} near the {city2} road"),
    ("employer", "works at {company} as a {job}"),
    ("occupation", "is a {job} who trained in {city}"),
    ("hobby", "enjoys {hobby} on {day}s with {name}"),
    ("pet", "has a {animal} named {name}"),
    ("food_preference", "loves {food} but dislikes {food2}"),
    ("relation", "{relation} {name} lives in {city}"),
    ("plan", "plans a trip to {city} in {month} for the {topic}"),
    ("instruction", "always mention {topic} deadlines on {day}"),
    ("preference", "prefers {food} for breakfast and {food2} for dinner"),
    ("goal", "wants to learn {hobby} before the {topic}"),
    ("allergy", "is allergic to {food}"),
]
TURN_TEMPLATES = [
    "I went to {city} with {name} last {day} and we had {food}.",
    "My {relation} {name} called about the {topic}, it is getting stressful.",
    "We finally booked the {topic} trip to {city} for {month}.",
    "{name} said the {job} job at {company} is going well.",
    "I tried {hobby} for the first time on {day}, it was hard but fun.",
    "Our {animal} got sick, we took it to the vet in {city}.",
    "Can you remind me to talk to {name} about the {topic} next {day}?",
    "I cooked {food} for {name}'s birthday and everyone loved it.",
    "The {topic} meeting moved to {month}, {name} is organising it.",
    "I am thinking of quitting {company} to become a {job}.",
]
QUERY_TEMPLATES = [
    "Where does my {relation} live?",
    "What food does {name} like?",
    "Tell me about {name}.",
    "When is the trip to {city}?",
    "What does {name} do for work?",
    "Does {name} have any pets?",
    "What happened with the {topic}?",
    "Which hobbies does {name} enjoy on {day}s?",
    "Is {name} allergic to {food}?",
    "Who works at {company}?",
    "What did we eat in {city}?",
    "Any plans for {month}?",
    "what about {food} and {food2}?",
    "remind me what {name} said about {topic}",
]


def _fill(template: str, rng: random.Random) -> str:
    return template.format(
        city=rng.choice(CITIES),
        city2=rng.choice(CITIES),
        company=rng.choice(COMPANIES),
        job=rng.choice(JOBS),
        hobby=rng.choice(HOBBIES),
        day=rng.choice(DAYS),
        name=rng.choice(NAMES),
        animal=rng.choice(ANIMALS),
        food=rng.choice(FOODS),
        food2=rng.choice(FOODS),
        relation=rng.choice(RELATIONS),
        month=rng.choice(MONTHS),
        topic=rng.choice(TOPICS),
    )


@dataclass(frozen=True, slots=True)
class FactText:
    template: int  # index of the template: the topic a synthetic vector clusters around
    predicate: str
    value: str

    @property
    def search_text(self) -> str:
        return f"{self.predicate.replace('_', ' ')} {self.value}"


def facts(n: int, seed: int = 1) -> list[FactText]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        t = rng.randrange(len(FACT_TEMPLATES))
        predicate, template = FACT_TEMPLATES[t]
        out.append(FactText(t, predicate, _fill(template, rng)))
    return out


def turns(n: int, seed: int = 2) -> list[tuple[int, str]]:
    rng = random.Random(seed)
    return [
        (t, _fill(TURN_TEMPLATES[t], rng))
        for t in (rng.randrange(len(TURN_TEMPLATES)) for _ in range(n))
    ]


def queries(n: int, seed: int = 3, avoid: frozenset[str] = frozenset()) -> list[str]:
    """``n`` distinct queries (none in ``avoid``), cycling through the templates.

    Distinct, because the server caches query embeddings: a repeated query
    would be measured without its embedding cost.
    """
    rng = random.Random(seed)
    out: list[str] = []
    seen = set(avoid)
    i = 0
    while len(out) < n:
        template = QUERY_TEMPLATES[i % len(QUERY_TEMPLATES)]
        i += 1
        for _ in range(50):  # a template with few fillings gives up its turn
            text = _fill(template, rng)
            if text not in seen:
                seen.add(text)
                out.append(text)
                break
    return out


def long_queries(n: int, seed: int = 4, avoid: frozenset[str] = frozenset()) -> list[str]:
    """``n`` distinct long messages: two to five sentences of the turns' own
    templates (20 to 60 words), as an agent passes a pasted message or a
    whole user turn as its query. Nearly every word is one the scope uses in
    thousands of turns, which is what a full-text leg must not pay for."""
    rng = random.Random(seed)
    out: list[str] = []
    seen = set(avoid)
    while len(out) < n:
        text = " ".join(_fill(rng.choice(TURN_TEMPLATES), rng) for _ in range(rng.randint(2, 5)))
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out
