"""The statement a question follows in the same sentence.

"my sister Rachel is visiting next week, any restaurant recs?" tells a
fact and then asks; the question mark closes the sentence, not the
statement. The clause before the last comma is read on its own when it is
the speaker speaking of themselves (it opens on a first-person word) and
not itself asked (no question word or inverted verb first). Cost: a
third-person statement before a question ("Rachel is visiting, any
recs?") stays unread, and a tag question ("I live in Paris, right?")
reads as the statement, which it asserts.
"""

import re

# The first-person openings a stated clause starts with, English and French.
_FIRST_PERSON = re.compile(
    r"(?:i|i'm|im|i've|ive|i'd|my|we|we're|we've|our|je|j'\w+|mon|ma|mes|on|nous|notre|nos)\b",
    re.IGNORECASE,
)
# A clause that asks however it opens: a hedge or a question word in it.
_ASKING = re.compile(
    r"\b(?:if|whether|should|shall|would|could|can|do|does|did|what|how|why|which|who"
    r"|when|where|est-ce|quel|quelle|quels|quelles|comment|pourquoi|combien|si)\b",
    re.IGNORECASE,
)


def stated_before_question(sentence: str) -> str | None:
    """The clause stated before the closing question, or None when there is none."""
    if not sentence.endswith("?"):
        return None
    cut = sentence.rfind(", ")
    if cut <= 0:
        return None
    head = sentence[:cut].strip()
    if not _FIRST_PERSON.match(head) or _ASKING.search(head):
        return None
    return head
