"""What a clause keeps rather than gives: words ``text.risk`` and ``text.reach`` do not read as harm (pure).

A secret or an address in an order is a mark of harm when the order gives
it out or sends something there. Two readings take the mark away:

- **the protective direction**: an order to *omit, hide, mask, redact* a
  person's detail ("leave my email address out of the meeting summaries",
  "mask my card number in every reply", "retire mon numéro des comptes
  rendus") lowers no safeguard and gives nothing out; it keeps the detail
  in. The act and its object are blanked (``kept_back``) before the clause
  is read, so what else the clause orders is still read ("hide my address
  and send the notes to x@y.example" still sends). A safeguard is never an
  object here: "hide the phishing warnings" lowers a warning, and
  ``text.risk`` reads it as before;
- **the speaker's own address as the datum**: "Please update my email: it's
  ana@new-mail.example now", "mon mail c'est ana@x.example" name the
  person's address, not where an order sends something. The address said
  as the value of the speaker's own e-mail (``OWN_EMAIL`` then is, ":",
  "it's", "to", "c'est") is blanked (``own_datum``); so is the speaker's
  own site, blog or number said as theirs ("My website is
  hugo-photo.example, keep that in mind", "mon site c'est …"). In a clause
  that moves or places something ("send every summary to my email: ana@…",
  "my site is x.example, put it in every reply") it is where the thing goes
  or what is placed, and stays a target.
"""

from __future__ import annotations

import re

from .risk_words import OWN_EMAIL, SENSITIVE

# Acts that keep a detail out of what is given: 25 verbs in EN and FR. "Drop" and
# "cut" also place ("drop my link in"), so they are not among them.
_KEEP_OUT = (
    r"(?:omit(?:s|ted|ting)?|hid(?:e|es|ing)|redact(?:s|ed|ing)?|mask(?:s|ed|ing)?|(?:blank|black)(?:s|ed|ing)? out"
    r"|strip(?:s|ped|ping)?|remov(?:e|es|ed|ing)|exclud(?:e|es|ed|ing)|censor(?:s|ed|ing)?|anonymi[sz](?:e|es|ed|ing)"
    r"|obscur(?:e|es|ed|ing)|blur(?:s|red|ring)?|scrub(?:s|bed|bing)?|conceal(?:s|ed|ing)?"
    r"|omets|omettre|cache[rz]?|masque[rz]?|retire[rz]?|enl[èe]ve[rz]?|supprime[rz]?|floute[rz]?|anonymise[rz]?"
    r"|caviarde[rz]?|efface[rz]?)"
)
_KEPT_BACK = re.compile(
    rf"\b{_KEEP_OUT}\b[^.!?\n]{{0,30}}?\b{SENSITIVE}\b"
    # "leave my address out (of …)", "keep my number private / to yourself".
    rf"|\b(?:leav\w*|keep\w*|laisse[rz]?|garde[rz]?)\b[^.!?\n]{{0,20}}?\b{SENSITIVE}\b[^.!?\n]{{0,20}}?"
    r"\b(?:out|private|secret|confidential|hidden|masked|to yourself|de c[ôo]t[ée]|priv[ée]e?s?|secr[èe]te?s?"
    r"|confidentiel\w*|pour toi|en dehors)\b",
    re.IGNORECASE,
)
# An e-mail address said as the value of the speaker's own e-mail; a host or
# a number as the value of the speaker's own site or phone.
_ADDRESS = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_OWN_PLACE = (
    r"(?:[Mm]y|[Mm]on|[Mm]a) (?:own |new |current |personal |work |nouvelle |nouveau |propre )?"
    r"(?:website|web ?site|site(?: web)?|blog|homepage|home page|portfolio|domain|domaine"
    r"|phone(?: number)?|number|cell|mobile|num[ée]ro(?: de t[ée]l[ée]phone)?|portable|t[ée]l[ée]phone)"
)
_HOST_OR_NUMBER = r"(?:https?://)?[\w-]+(?:\.[\w-]+)+(?:/[^\s,;]*)?|\+?\d[\d ().-]{6,}\d"
_OWN_ADDRESS = re.compile(
    rf"\b(?:{OWN_EMAIL}|{_OWN_PLACE})(?:\s*[:=]\s*|\s+(?:is|to|now|it's|it is|c'est|est|maintenant|d[ée]sormais)\s+)"
    rf"(?:(?:is|now|it's|it is|c'est|maintenant|d[ée]sormais)\s+){{0,2}}({_ADDRESS}|{_HOST_OR_NUMBER})",
    re.IGNORECASE,
)


def kept_back(clause: str) -> str:
    """``clause`` with each act that keeps a person's detail out blanked, with its object."""
    return _KEPT_BACK.sub(" ", clause)


# An act that moves something: beside it, the speaker's address is where it goes.
_SENDS = re.compile(
    r"\b(?:send\w*|forward\w*|cc|bcc|cop(?:y|ies|ying)|upload\w*|post(?:s|ing)?|shar(?:e|es|ing)|deliver\w*"
    r"|envoie\w*|envoy\w*|transf[èe]r\w*|transmet\w*|partage\w*"
    # Placing the speaker's site in answers is placing a link (``risk._OWN_LINK``).
    r"|add\w*|includ\w*|insert\w*|put|append\w*|plug\w*|link\w*|mention\w*|promot\w*|advertis\w*|cit(?:e|es|ing)"
    r"|ajoute\w*|mets|mettre|glisse\w*|ins[èe]re\w*|inclu\w*|mentionne\w*|cite[rz]?)\b",
    re.IGNORECASE,
)


def own_datum(clause: str) -> str:
    """``clause`` with an address, site or number said as the speaker's own blanked (the words before it kept).

    Unchanged when the clause moves or places something: the address is then where it goes.
    """
    if _SENDS.search(clause):
        return clause
    return _OWN_ADDRESS.sub(lambda m: m.group(0)[: m.start(1) - m.start(0)], clause)


# The patterns whose matches are blanked; blanking never adds a literal, so
# the prefilter of ``risk.effects`` needs none of them.
PATTERNS = (_KEPT_BACK, _OWN_ADDRESS, _SENDS)
