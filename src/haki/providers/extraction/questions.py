"""The statement a question follows in the same sentence.

"my sister Rachel is visiting next week, any restaurant recs?" tells a
fact and then asks; the question mark closes the sentence, not the
statement. The clause before the last comma is read on its own when it is
the speaker speaking of themselves (it opens on a first-person word) and
not itself asked (no question word or inverted verb first). Cost: a
third-person statement before a question ("Rachel is visiting, any
recs?") stays unread, and a tag question ("I live in Paris, right?")
reads as the statement, which it asserts.

A question that only asks whether the listener knew ("did I tell you I've
been at Deloitte since March?", "je t'ai dit que j'ai adopté un chat ?")
asserts what it asks about: the verb presupposes its complement, which is
read as the statement.
"""

import re

# The first-person openings a stated clause starts with, English and French,
# after the fillers a chat opens with ("bon ben j'ai signé…, tu m'aides ?").
_FIRST_PERSON = re.compile(
    r"(?:(?:bon|ben|bref|alors|du coup|en fait|donc|et|mais|so|ok|okay|well|anyway|oh|btw|also"
    r"|and|but|honestly|lol),?\s+)*"
    r"(?:i|i'm|im|i've|ive|i'd|my|we|we're|we've|our|je|j'\w+|mon|ma|mes|on|nous|notre|nos)\b",
    re.IGNORECASE,
)
# A clause that asks however it opens: a hedge or a question word in it.
_ASKING = re.compile(
    r"\b(?:if|whether|should|shall|would|could|can|do|does|did|what|how|why|which|who"
    r"|when|where|est-ce|quel|quelle|quels|quelles|comment|pourquoi|combien|si)\b",
    re.IGNORECASE,
)


# "did I tell you", "have I mentioned", "did you know", "je t'ai dit que",
# "tu savais que": asking whether the listener knew, of a statement that follows.
_KNEW = re.compile(
    r"^(?:(?:oh|btw|so|and|also|but|anyway|au fait|et|mais|bref),?\s+)?"
    r"(?:did i (?:ever |already )?(?:tell you|mention(?: to you)?)|have i (?:ever |already )?"
    r"(?:told you|mentioned)|did you know|je (?:t'ai|vous ai|t'avais|vous avais) (?:pas |déjà )?dit"
    r"|tu savais|vous saviez|t'ai-je dit)\s*,?\s+(?:that\s+|que\s+|qu')?(?=\w)",
    re.IGNORECASE,
)


def stated_before_question(sentence: str) -> str | None:
    """The clause stated before the closing question, or None when there is none."""
    if not sentence.endswith("?"):
        return None
    knew = _KNEW.match(sentence)
    if knew is not None:
        said = sentence[knew.end() :].rstrip(" ?")
        return said if _FIRST_PERSON.match(said) else None
    cut = sentence.rfind(", ")
    if cut <= 0:
        return None
    head = sentence[:cut].strip()
    if not _FIRST_PERSON.match(head) or _ASKING.search(head):
        return None
    return head
