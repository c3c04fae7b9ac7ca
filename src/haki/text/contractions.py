"""French chat contractions read as the full words (pure, stdlib only).

People type "jsuis végétarienne", "jfais du yoga", "jme suis mis au
running", "j'suis dev", "chuis crevé", "jai un chat": "je" squeezed into
its verb. Every reader (the extractor's rules, the wish reader, the
injection guard, the correction cues) is written for "je suis…", so the
text is expanded once where it enters them (``expanded``); what is stored
stays as said (``as_said`` maps a read fragment back to the user's words).

A word is expanded only when what follows the "j" is a verb conjugated
for "je", judged by its form rather than listed sentence by sentence:

- a consonant, then a first-person ending: ``-e`` after a consonant
  (jdéteste, jbosse, jmange), a vowel, ``d``, ``t``, ``r``, ``n`` then
  ``-s`` (jsuis, jfais, jprends, jmets, jdors, jviens), ``-x`` (jpeux,
  jveux), ``-ai`` or ``-ais`` (jserai, jvoudrais);
- a clitic (jme, jte, jle, jla, jles, jlui, jleur, jne, jen, jy) followed
  by such a verb ("jme suis", "jen ai", "jlui ai dit");
- a vowel or an ``h``: only the stems of the few verbs people contract
  that way (jai, jaime, jadore, javais, jétais, jhabite…), since French
  and English words beginning "ja", "je", "jo", "ju" are many.

French has no word beginning "j" and a consonant; the cost is an English
or technical word of that shape with a verb's ending ("jsons"). Addresses,
file names and identifiers (a neighbouring "@", "/", ".", "_", "(") are
never touched, and a capital "J" is expanded only where a sentence starts.
"""

from __future__ import annotations

import re

from .memo import memo

_L = r"[^\W\d_]"  # one letter, accents included
_APOS = "'’"
# What cannot stand right before the "j": a word, an address, a path, an identifier.
_BEFORE = rf"(?<![\w@./#\\{_APOS}-])"
# What cannot follow the word: the same, a call, a file extension, a hyphenated word.
_AFTER = rf"(?![\w@/(\\{_APOS}-]|\.\w)"

_CONSONANT_FORM = re.compile(
    r"[b-df-gj-np-tv-zç]"  # no h: "jhabite" elides like a vowel
    rf"{_L}*(?:[^aeiouyéèê\W\d_]e|[aeiouéèêy][sx]|[dtrn]s|ai|ais)",
    re.IGNORECASE,
)
_CLITIC = re.compile(r"me|te|le|la|les|lui|leur|ne", re.IGNORECASE)
_VOWEL_CLITIC = re.compile(r"en|y", re.IGNORECASE)
_VOWEL_FORM = re.compile(
    r"ai|aurai|(?:aim|ador|arriv|habit|écout|achèt|appell|utilis|hésit|oubli|imagin|insist|invit)e"
    r"|(?:attend|apprend|entend|écri|envoi|ouvr)s|essaie|(?:av|aur|ét|all|aim|ador|habit)ais",
    re.IGNORECASE,
)
# A plain word in a verb's place after a clitic ("suis", "ai", "lève", "sais").
_VERB_AFTER = re.compile(
    rf"(?:[{_APOS}\w]*[{_APOS}])?(?:ai|a|as|{_L}*(?:[^aeiouyéèê\W\d_]e|[aeiouéèêy][sx]|[dtrn]s|ais|ait))\b",
    re.IGNORECASE,
)

_WORD = re.compile(
    rf"{_BEFORE}(?P<j>[jJ])(?P<apo>[{_APOS}])?(?P<rest>{_L}+){_AFTER}"
    # An elided clitic after the "j": "jm'en fous", "j't'ai dit".
    rf"|{_BEFORE}(?P<ej>[jJ])[{_APOS}]?(?P<clitic>[mtlnsMTLNS])(?P<eapo>[{_APOS}])(?={_L})"
    # "chuis", "chui": "je suis" said fast.
    rf"|{_BEFORE}(?P<c>[cC])huis?{_AFTER}"
)
_SENTENCE_START = re.compile(r"(?:^|[.!?…:;\n]|[\"«(])\s*$")


def _verb_follows(text: str, end: int) -> bool:
    after = text[end:].lstrip(" ")
    return after[:1] != "" and _VERB_AFTER.match(after) is not None


def _expansion(match: re.Match[str], text: str) -> str | None:
    """The full words for ``match``, or ``None`` when it is no contraction."""
    if match.group("c"):
        return f"{'J' if match.group('c') == 'C' else 'j'}e suis"
    j = match.group("j") or match.group("ej")
    if j == "J" and not _SENTENCE_START.search(text[: match.start()]):
        return None  # a name ("Jhene", "Jen") inside a sentence
    je = "Je" if j == "J" else "je"
    if match.group("clitic"):
        return f"{je} {match.group('clitic').lower()}{match.group('eapo')}"
    rest = match.group("rest")
    if rest != rest.lower() and rest != rest.upper():
        return None  # "JSuis" is typed by nobody; "JavaScript" is a name
    if match.group("apo") and rest[0].lower() in "aeiouyéèêh":
        return None  # "j'habite", "j'ai": already written out
    if _CLITIC.fullmatch(rest) or _CONSONANT_FORM.fullmatch(rest):
        if _CLITIC.fullmatch(rest) and not _verb_follows(text, match.end()):
            return None
        return f"{je} {rest}"
    if match.group("apo"):
        return None
    if (_VOWEL_CLITIC.fullmatch(rest) and _verb_follows(text, match.end())) or (
        _VOWEL_FORM.fullmatch(rest)
    ):
        return f"{j}'{rest}"
    return None


@memo
def _found(text: str) -> tuple[tuple[int, int, str], ...]:
    """Each contraction of ``text``: its start, its end and its full words."""
    out = []
    for match in _WORD.finditer(text):
        full = _expansion(match, text)
        if full is not None:
            out.append((match.start(), match.end(), full))
    return tuple(out)


@memo
def expanded(text: str) -> str:
    """``text`` with its French chat contractions written out ("jsuis" → "je suis")."""
    if "j" not in text.lower() and "chui" not in text.lower():
        return text
    parts, last = [], 0
    for start, end, full in _found(text):
        parts += [text[last:start], full]
        last = end
    return "".join(parts) + text[last:] if parts else text


def _unified(text: str) -> str:
    return text.replace("’", "'")


def as_said(fragment: str, original: str) -> str:
    """``fragment``, read from ``expanded(original)``, in the words ``original`` used.

    A written-out form the user also typed in full elsewhere in ``original``
    is left as it is: which of the two a fragment holds cannot be told.
    """
    found = _found(original)
    if not found or not fragment:
        return fragment
    said_in_full = _unified(original).lower()
    out = _unified(fragment)
    for full in sorted({f for _, _, f in found}, key=lambda f: (-len(f), f)):
        key = _unified(full)
        if key.lower() in said_in_full:
            continue
        out = _typed_back(out, key, [original[s:e] for s, e, f in found if f == full])
    return out if out != _unified(fragment) else fragment


def _typed_back(text: str, full: str, typed: list[str]) -> str:
    """``text`` with each ``full`` form given back as typed, in the order typed."""
    order = iter(typed)

    def back(_: re.Match[str]) -> str:
        return next(order, typed[-1])

    return re.sub(rf"(?<!\w){re.escape(full)}", back, text)
