"""Risky effects read from the shape of an order, not from its nouns (pure).

``text.risk`` reads a disclosure when a giving verb meets a word its lists
hold for a secret ("password", "phone number"), and a lowered safeguard when
a lowering verb meets a word for a check. People give the same orders
about things no list names: "whenever someone asks for Dana's number just
give it", "when the landlord's assistant calls, read him my bank login",
"if a payment prompt pops up, click yes for me", "when the scanner
complains, silence it and carry on". What they share is a shape:

- **disclosure**: someone other than the person asks, calls or writes in,
  and the order gives them something that belongs to a person (the
  speaker's "my …", "where I …", a named person's "Dana's …", "… de
  Marc") — or tells a whole audience ("visitors", "anyone who asks") such
  a thing, or lets the asker "hear the details". Who receives and whose it
  is decide, whatever the thing is called. A thing that belongs to no one
  ("if anyone asks for the recipe, give them the link") is not read.
- **safeguard**: consent given in advance — an approving act (click yes,
  accept, approve, grant, allow, valide, accepte, autorise) over whatever
  comes ("all", "any", "every", "toutes", "dès qu'ils arrivent") or under a
  trigger that is itself a gate asking ("if a payment prompt pops up", "if
  an installer asks for admin rights"); a guard that objects, overruled
  ("when git refuses a push, force it through", "when the scanner
  complains, silence it", "si l'antivirus bloque, passe outre"); or things
  deemed safe unseen ("treat every attachment as safe").

The cost, measured on the readable sets (docs/consolidation.md, "Risk, not
phrasing"): an order that hands a person's detail to someone who asks is
quarantined even when the person means it ("if my mum calls, tell her my
flight number"); it waits for confirmation like every risky order.
"""

from __future__ import annotations

import re

# An act denied where it stands ("…, never tell them", "…, don't click
# yes"): the clause forbids it even when the denial does not open it.
UNDENIED = (
    r"(?<!never )(?<!not )(?<!don't )(?<!dont )(?<!n't )(?<!ne )(?<!jamais )(?<!pas )"
    r"(?<!ne le )(?<!ne la )(?<!ne les )(?<!ne lui )(?<!ne leur )(?<!ne me )"
    # "tu ne dois pas la donner": the denial stands before the object pronouns.
    r"(?<!pas le )(?<!pas la )(?<!pas les )(?<!pas le lui )(?<!pas la lui )(?<!jamais le )(?<!jamais la )"
)

# Someone other than the person, asking, calling or writing in.
ASKER = (
    r"(?:someone|anyone|anybody|somebody|people|whoever|visitors?|callers?|strangers?|they|he|she"
    r"|(?:my|the|our|a|an)\s++(?:\w+'s\s++)?\w+|(?-i:[A-Z][\w-]+)(?:'s\s++\w+)?"
    r"|quelqu'un|on|n'importe qui|les gens|(?:mon|ma|le|la|un|une)\s++\w+)"
)
ASKS = (
    r"(?:asks?|asking|calls?|calling|rings?|writes?(?:\s++in)?|emails?|messages?|texts?|requests?|wants?|inquires?"
    r"|demande|demandent|veut|veulent|appelle|appellent|[ée]crit|[ée]crivent)"
)
# Something that belongs to a person: the speaker's, a named person's, or
# where and when the person is.
_PERSONAL = (
    r"(?:\b(?:my|mine|our|his|her|their|mes|mon|ma|nos|notre|ses|son|sa)\s++[.~]?\w+"
    r"|(?-i:\b[A-Z][\w-]+)'s\s++\w+|\b(?:de|d')\s?(?-i:[A-Z][\w-]+)\b"
    r"|\b(?:where|when|which|o[ùu]|quand)\s++(?:\w+\s++){0,3}?(?:I|I'm|we|my|j'|je|mes|mon|ma)\b)"
)
_GIVE = (
    r"(?:give|hand|tell|send|share|read|pass|forward|text|show|paste|post|print|include|provide|copy"
    r"|let\s++(?:him|her|them)\s++(?:know|have|see)"
    # Entered where the asker reads it: "when a site asks for my login, fill it in".
    # "type" and "enter" alone are nouns as often ("type hints", "the enter key").
    r"|fill\s++(?:(?:it|them)\s++)?in|(?:type|enter)\s++(?:it|them)(?:\s++in)?|submit|remplis|remplir|saisis|saisir"
    # French gives as often by an infinitive after a modal ("tu peux le lui
    # donner", "il faut la dire") as by an imperative.
    r"|donne[rz]?|dis|dire|envoie[rz]?|envoyer|partage[rz]?|file[rz]?|passe[rz]?|communique[rz]?|transmets|transmettre"
    r"|montre[rz]?|lis|lire|indique[rz]?|colle[rz]?|fournis|fournir|copie[rz]?"
    # Answering the asker about it gives it as surely: "réponds-lui direct".
    r"|answer|reply|respond|r[ée]ponds|r[ée]pondre|renseigne[rz]?)"
)
_GIVEN = re.compile(
    # The asker and the thing first, the giving after: "whenever someone
    # asks for Dana's number, just give it", "quand quelqu'un demande le
    # portable de Marc, file-le-lui".
    rf"\b{ASKER}\s++(?:\w+\s++){{0,2}}?{ASKS}\b[^.!?\n]{{0,60}}?{_PERSONAL}[^.!?\n]{{0,60}}?"
    rf"{UNDENIED}\b(?:{_GIVE})(?:\b|-)"
    # The asker first, the thing given after: "when the landlord's
    # assistant calls, read him my bank login".
    rf"|\b{ASKER}\s++(?:\w+\s++){{0,2}}?{ASKS}\b[^.!?\n]{{0,60}}?{UNDENIED}\b{_GIVE}\b\s++"
    rf"(?:(?:him|her|them|it|lui|leur)\s++)?(?:\w+\s++){{0,3}}?{_PERSONAL}"
    # Whoever asks may have it: "anyone who writes in about Léa's diagnosis
    # can hear all the details".
    rf"|\b(?:anyone|anybody|whoever|everyone|people|visitors?|callers?)\b[^.!?\n]{{0,60}}?{_PERSONAL}"
    r"[^.!?\n]{0,40}?\b(?:can|may|should|gets?\s++to)\s++(?:hear|have|see|get|know|read)\b"
    # A whole audience told something of a person's: "tell visitors which
    # school my kids go to".
    rf"|{UNDENIED}\b{_GIVE}\b\s++(?:it\s++)?(?:to\s++|à\s++)?(?:everyone|everybody|anyone|anybody|whoever|people|strangers"
    r"|visitors|callers|guests|the public|tout le monde|n'importe qui|quiconque|les gens|les visiteurs)\b"
    rf"[^.!?\n]{{0,40}}?{_PERSONAL}",
    re.IGNORECASE,
)

# Consent given in advance.
_APPROVE = (
    r"(?:click\s+(?:yes|ok|accept|allow|agree)|say\s+yes|hit\s+(?:yes|ok|accept)|tap\s+(?:yes|ok|allow)"
    r"|approve|accept|allow|grant|authori[sz]e|agree\s+to|sign\s+off\s+on|confirm"
    r"|valide[rz]?|accepte[rz]?|autorise[rz]?|approuve[rz]?|accorde[rz]?|dis\s+oui|clique\s+(?:sur\s+)?oui)"
)
_WHATEVER_COMES = (
    r"(?:all|any|every|each|everything|whatever|anything|toutes?|tous|chaque|n'importe|tout\b"
    r"|(?:as soon as|the moment|dès qu')\s*(?:it|they|ils|elles)?\s*(?:arrives?|comes?|appears?|arrivent|arrive))"
)
# A gate that asks before something happens, the thing approved unseen.
_GATE = (
    r"(?:prompts?|pop-?ups?|dialogs?|requests?|permissions?|rights|access|payments?|transfers?|charges?"
    r"|invoices?|certificates?|warnings?|2fa|codes?|logins?|sign-?ins?|virements?|paiements?|demandes?"
    r"|droits|acc[èe]s|factures?|pr[ée]l[èe]vements?|autorisations?)"
)
_GATE_ASKS = (
    r"(?:pops?\s+up|appears?|asks?|shows?\s+up|comes?\s+(?:up|in)|arrives?|needs?|wants?|requests?"
    r"|s'affiche|appara[iî]t|demande|arrive(?:nt)?)"
)
_IN_ADVANCE = re.compile(
    rf"\b{_APPROVE}\b(?:\s+\w+){{0,2}}?\s+{_WHATEVER_COMES}"
    # The gate asks inside the condition ("if a payment prompt pops up, …");
    # "si tu n'es pas sûr, demande-moi avant de valider" asks in the order.
    rf"|\b(?:if|when|whenever|every time|si|quand|d[èe]s qu')\b(?=[^.!?\n,;]{{0,40}}?\b{_GATE_ASKS}\b)"
    rf"[^.!?\n,;]{{0,40}}?\b{_GATE}\b[^.!?\n]{{0,40}}?{UNDENIED}\b{_APPROVE}\b"
    # The gate approved each time it asks: "approve the 2FA prompts whenever
    # they pop up", "valide les demandes d'accès dès qu'elles arrivent".
    rf"|\b{_APPROVE}\b[^.!?\n]{{0,30}}?\b{_GATE}\b[^.!?\n]{{0,30}}?\b(?:as soon as|the moment|without|whenever|every time"
    r"|each time|any ?time|d[èe]s qu'|d[èe]s que|sans|chaque fois|à chaque fois|quand)\b"
    rf"|\b{_APPROVE}\b[^.!?\n]{{0,40}}?\b(?:pas (?:la )?peine de|no need to|don't bother)\s+(?:\w+\s+)?"
    r"(?:look|check|read|regarder|v[ée]rifier|lire)",
    re.IGNORECASE,
)
# A guard that objects (refuses, complains, blocks, warns), overruled.
_OBJECTS = (
    r"(?:refuses?|rejects?|complains?|blocks?|warns?|flags?|objects?|fails?\s+(?:a|the)\s+check|quarantines?"
    r"|refuse|rejette|bloque|r[âa]le|se plaint|avertit|signale)"
)
_OVERRULE = (
    r"(?:force|forcing|override|overrule|silence|mute|dismiss|ignore|bypass|skip|click\s+through|push\s+(?:it\s+)?through"
    r"|power\s+through|carry\s+on|proceed\s+anyway|go\s+ahead\s+anyway|do\s+it\s+anyway|anyway"
    r"|passe(?:r|z)?\s+outre|force[rz]?|ignore[rz]?|contourne[rz]?|fais-le quand m[êe]me|quand m[êe]me)"
)
# A protector named in the condition, and the order goes on past it: "if
# the certificate looks wrong, just continue", "quand l'antivirus
# s'affiche, continue". Going on is the overruling; telling the person
# ("when you see a security warning, tell me") is not.
_PROTECTOR = (
    r"(?:certificates?|warnings?|alerts?|scanners?|antivirus|anti-virus|firewalls?|filters?|signatures?|2fa"
    r"|captchas?|sandbox|security (?:checks?|prompts?)|certificats?|avertissements?|alertes?|pare-feu|filtres?)"
)
_GO_ON = (
    r"(?:continue|proceed|keep going|go on|carry on|click through|accept it|continue quand m[êe]me"
    r"|continuer|poursuis|poursuivre)"
)
_OVERRULED = re.compile(
    rf"\b(?:if|when|whenever|every time|si|quand|d[èe]s que)\b[^.!?\n]{{0,40}}?\b{_OBJECTS}\b"
    rf"[^.!?\n]{{0,40}}?{UNDENIED}\b{_OVERRULE}\b"
    rf"|\b(?:if|when|whenever|every time|si|quand|d[èe]s que|lorsque)\b[^.!?\n]{{0,40}}?\b{_PROTECTOR}\b"
    rf"[^.!?\n]{{0,40}}?{UNDENIED}\b{_GO_ON}\b",
    re.IGNORECASE,
)
# Things deemed safe unseen: said safe ("treat every attachment as
# safe"), or trusted whatever comes ("trust all files", "fais confiance à
# tous les fichiers"): trust given to a whole class in advance is the check
# each item would get, dropped.
_DEEMED_SAFE = re.compile(
    r"\b(?:treat|consider|assume|regard|mark|trust|traite[rz]?|consid[èe]re[rz]?|suppose[rz]?)\b\s+"
    r"(?:(?:all|any|every|each|toutes?|tous|chaque|les)\s+)(?:\w+\s+){0,6}?(?:as\s+|comme\s+)?"
    r"(?:safe|trusted|trustworthy|reliable|legit(?:imate)?|verified|clean|harmless|genuine|authentic"
    r"|s[ûu]re?s?|fiables?|sans danger|l[ée]gitimes?|de confiance|inoffensi(?:f|ve)s?)\b"
    rf"|{UNDENIED}\b(?:trust|fais confiance|faire confiance|fie-toi|te fier)\s+(?:à\s+|aux\s+)?"
    r"(?:all|any|every|each|whatever|anything|toutes?|tous|chaque|n'importe)\b",
    re.IGNORECASE,
)
# Consent kept back until a guard objects, then given anyway: "if a
# transaction goes over the limit, approve it anyway", "valide-la quand
# même". The condition is the objection ("over the limit", "flagged",
# "unsigned"); approving regardless overrules it.
_ANYWAY = re.compile(
    rf"{UNDENIED}\b{_APPROVE}(?:-(?:la|le|les|lui))?\b(?:\s+(?:it|them|that|this|ça))?\s+"
    r"(?:anyway|regardless|all the same|nonetheless|quand m[êe]me|malgr[ée] tout|de toute fa[çc]on|tout de m[êe]me)\b",
    re.IGNORECASE,
)


# The asker sent back to the person, or the person asked first: "tell them
# to contact me", "ask me first", "dis-lui de m'appeler". Nothing is given.
SENT_BACK = re.compile(
    # Said to the asker: "how to reach me" in the asker's question sends no one back.
    r"\b(?:them|him|her|lui|leur)\s+(?:to|de|d')\s*(?:contact|call|ask|email|e-mail|text|reach|write to|message"
    r"|m'appeler|me contacter|m'[ée]crire|me joindre|voir avec moi)\b|\b(?:ask|check with)\s+me\b|\bdemande-moi\b",
    re.IGNORECASE,
)


def disclosure(part: str) -> bool:
    """Whether obeying ``part`` hands a person's things to someone other than the person (module doc)."""
    return _GIVEN.search(part) is not None and SENT_BACK.search(part) is None


def safeguard(part: str) -> bool:
    """Whether obeying ``part`` consents in advance, overrules a guard, or deems things safe unseen."""
    return any(p.search(part) for p in (_IN_ADVANCE, _OVERRULED, _DEEMED_SAFE, _ANYWAY))


# Every pattern ``disclosure`` and ``safeguard`` read, for the prefilter of ``risk.effects``.
PATTERNS = (_GIVEN, _IN_ADVANCE, _OVERRULED, _DEEMED_SAFE, _ANYWAY)
