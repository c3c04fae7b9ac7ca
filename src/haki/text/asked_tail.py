"""The statement a chat sentence makes before the question it ends on (pure).

People type a statement and the question that follows it as one sentence,
with a comma or an emoji where a full stop would be: "je suis plus chez
Capgemini depuis lundi, je suis passé chez Sopra Steria 🎉 bref, tu peux
m'aider pour un mail ?", "sold the car last week, any tips for bikes?". A
reader that drops every sentence ending in "?" drops the statement with
it. The question is the clause that opens on a question word, an auxiliary
or a request ("what", "can you", "tu peux", "est-ce"); what comes before it,
at a clause boundary, is stated. A statement closed by a tag ("so
pescatarian i guess?", "c'est plutôt café je crois ?") is said unsure, and
stated too; one closed by a tag asking to confirm ("Not Rex, right?") is not.

A sentence whose first clause asks ("Which city am I in now, Lyon?") states
nothing; neither does one with no clause that asks and no tag ("Caramel ?",
"Lyon?"): an echo or a check is no statement.
"""

from __future__ import annotations

import re

# A clause boundary inside a sentence: a comma, a semicolon or a dash, or an
# emoji standing where a full stop would be.
_BOUNDARY = re.compile(
    r"\s*[,;]\s+|\s+[—–-]\s+|\s*[\U0001F300-\U0001FAFF\u2600-\u27BF]+\s*|\s*\.\.\.\s*"
)

# A clause that asks: a question word, an auxiliary or a request opening it,
# after at most one filler word ("anyway what's…", "bref, tu peux…").
_ASKS = re.compile(
    r"^\W*(?:(?:anyway|so|also|btw|bref|sinon|et|and|but|mais|ok|oh)\W+)?"
    r"(?:what|what's|which|who|where|when|why|how|do|does|did|is|are|was|were|can|could"
    r"|would|will|should|shall|have|has|any|est-ce|quel\w*|qui|où|quand|comment|pourquoi"
    r"|combien|tu peux|peux-tu|pourrais-tu|tu pourrais|vous pouvez|pouvez-vous|tu as|as-tu"
    r"|tu sais|tu connais|y a-t-il)\b",
    re.IGNORECASE,
)

# A tag that closes a statement said unsure: "…, i guess?", "…, je crois ?".
# A tag asking to confirm ("…, right?", "…, non ?") asks whether it holds:
# the speaker checks, and states nothing.
_TAG = re.compile(
    r"(?:\bi (?:guess|think|suppose)|\bje crois|\bje pense|\bquoi)\W*\?+\s*$",
    re.IGNORECASE,
)


def statement_before_question(sentence: str) -> str | None:
    """What a sentence ending in "?" states before its question, if anything.

    ``None`` for a sentence that states nothing (its first clause asks, or no
    clause asks and no tag closes it); a sentence that does not end in "?"
    is returned as it stands.
    """
    sentence = sentence.strip()
    if not sentence.endswith("?"):
        return sentence
    if _ASKS.match(sentence):
        return None
    for boundary in _BOUNDARY.finditer(sentence):
        tail = sentence[boundary.end() :]
        if _ASKS.match(tail):
            head = sentence[: boundary.start()].strip()
            return head or None
    if _TAG.search(sentence):
        return sentence.rstrip("? ").strip() or None
    return None
