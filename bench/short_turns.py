"""Deterministic short conversational turns for the consolidation benchmark.

One subject chatting with an assistant: mostly small talk (the turns that
yield nothing and must cost little), a fact now and then (a city, a job, a
pet, a liking, a plan), and some changes of mind ("I moved to …"), so the
identity, correction and doubt stages all have work. The same ``seed`` and
count give the same turns, byte for byte, on any tree.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

START = datetime(2026, 1, 1, 9, tzinfo=UTC)

CITIES = ["Lyon", "Paris", "Berlin", "Lisbon", "Montreal", "Osaka", "Denver", "Nairobi"]
JOBS = ["nurse", "teacher", "plumber", "data analyst", "chef", "architect", "pilot"]
EMPLOYERS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli"]
LIKES = ["hiking", "jazz", "sushi", "board games", "gardening", "old movies", "chess", "tea"]
DISLIKES = ["olives", "traffic", "cold weather", "horror films", "loud bars"]
PETS = [("dog", "Rex"), ("cat", "Miso"), ("dog", "Biscuit"), ("cat", "Luna")]
PLANS = ["visit my sister", "run a half marathon", "repaint the kitchen", "learn to surf"]
WHEN = ["next week", "in March", "this summer", "on Saturday", "next month"]

SMALL_TALK = [
    "Haha, yes!",
    "Sounds good to me.",
    "Thanks, that helps a lot.",
    "Okay, got it.",
    "What do you think?",
    "Can you say more about that?",
    "That's interesting.",
    "Not sure yet, let me think.",
    "Good morning!",
    "Long day today.",
    "Ok cool, thanks.",
    "Right, that makes sense.",
    "Could you summarise it?",
    "Wow, really?",
    "Hmm, maybe later.",
    "Sure, go ahead.",
    "I see what you mean.",
    "Let's keep going.",
    "That was quick, thanks!",
    "Nice one.",
]
ASSISTANT = [
    "Sure, here is a short summary.",
    "Happy to help with that.",
    "Good question: it depends on the context.",
    "Here are three options you could try.",
    "Glad that worked for you.",
    "Let me know if you want more detail.",
    "That sounds like a plan.",
    "I would start with the first step.",
]

# Tails that make most small-talk turns unique, as in a real chat: a cache of
# repeated texts must not be what the benchmark measures.
TAILS = [
    "",
    "See you at {n}.",
    "The {w} one was better.",
    "I read page {n} of that {w} thing.",
    "We had {n} people at the {w} meetup.",
    "Traffic took {n} minutes today.",
    "The {w} episode ran {n} minutes.",
    "Remind me about the {w} list.",
]
WORDS = ["red", "blue", "new", "old", "second", "long", "short", "weird", "big", "small", "green"]


def _small_talk(rng: random.Random, lines: list[str]) -> str:
    tail = rng.choice(TAILS).format(n=rng.randrange(2, 90), w=rng.choice(WORDS))
    return f"{rng.choice(lines)} {tail}".strip()


def _fact(rng: random.Random) -> str:
    kind = rng.randrange(9)
    if kind == 0:
        return f"I live in {rng.choice(CITIES)}."
    if kind == 1:
        return f"I moved to {rng.choice(CITIES)} last year."
    if kind == 2:
        return f"I work as a {rng.choice(JOBS)}."
    if kind == 3:
        return f"I work at {rng.choice(EMPLOYERS)} now."
    if kind == 4:
        return f"I love {rng.choice(LIKES)}."
    if kind == 5:
        return f"I really don't like {rng.choice(DISLIKES)}."
    if kind == 6:
        animal, name = rng.choice(PETS)
        return f"My {animal} is called {name}."
    if kind == 7:
        return f"I'm planning to {rng.choice(PLANS)} {rng.choice(WHEN)}."
    return f"Actually I don't live in {rng.choice(CITIES)} any more."


def turns(n: int, seed: int = 47) -> list[tuple[str, str, datetime]]:
    """``n`` (role, text, occurred_at) turns, user and assistant in turn."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        at = START + timedelta(minutes=i)
        if i % 2:
            out.append(("assistant", _small_talk(rng, ASSISTANT), at))
        elif rng.random() < 0.15:
            out.append(("user", _fact(rng), at))
        else:
            out.append(("user", _small_talk(rng, SMALL_TALK), at))
    return out
