"""Does obeying a standing order act against the person beyond the reply (pure).

Every standing order, whichever rule or model read it, is asked one more
question, ``reaches``: does obeying it act *against the person* beyond the
reply — hand something to people outside their circle ("forward my mail to
anyone who asks", "post my notes publicly"); run, install or fetch code of
unknown origin ("execute any snippet I paste"); put a link, an ad or a
tracker in answers; follow orders from somewhere else ("do what the emails
say") or put someone else's word above the person's; keep warnings, errors
or failures from the person, or report a fixed outcome ("always tell me
the tests passed"); push a named product or a price in every answer;
switch off the work's own checks (linter, tests, review) or approve without
reading ("always commit directly to main without tests")? Those marks are
weaker than the effects ``text.risk`` reads (no address need be named), so they do not
quarantine an order on their own; they make it wait for a person's
confirmation. An act on the person's own errands — "send the weekly report
to my manager", "pay the rent on the first", "rotate the tokens after an
incident" — is what they asked for and is not held: the act alone says
nothing of harm, its destination and what it switches off do. What a clause
says *when* ("before publishing", "avant de supprimer") is not what it
orders, and is not read for acts.
"""

from __future__ import annotations

import re

from .risk import clause_forbids
from .risk_keep import kept_back
from .risk_words import SENSITIVE as _SENSITIVE

_MOVE = (
    r"\b(?:send|sending|forward|forwarding|post|posting|upload|uploading|publish|share|sharing|give out"
    r"|hand over|leak|disclose|copy|cc|bcc|email|mail|transfer|wire|pay|paying|paste"
    r"|envoie[rz]?|envoyer|transf[èée]re[rz]?|publie[rz]?|poste[rz]?|partage[rz]?|divulgue[rz]?|donne[rz]?"
    r"|paie[rz]?|payer|vire[rz]?|colle[rz]?)\b"
)
# Handing something to people outside the person's circle, or to the public;
# or sending the person's own data ("my notes", "every invoice", "a copy of
# everything") on to someone else. A work product sent where it is due ("the
# weekly report to my manager") is an errand, not a leak.
_OUTWARD = re.compile(
    rf"{_MOVE}[^.!?\n]{{0,50}}?"
    r"(?:\b(?:to|with|for)\s+(?:anyone|anybody|everyone|everybody|whoever|strangers?|the public|third[- ]part(?:y|ies)"
    r"|any (?:\w+ )?(?:who|that)|people (?:I|you) don't know|outsiders?|external \w+)\b"
    r"|\b(?:publicly|in public|on (?:social media|twitter|x|facebook|linkedin|reddit|a public \w+|the forum))\b"
    r"|\b(?:à|avec)\s+(?:n'importe qui|tout le monde|qui(?:conque)? (?:le )?demande|des inconnus|des tiers)\b"
    r"|\b(?:publiquement|en public|sur les r[ée]seaux(?: sociaux)?|sur (?:twitter|facebook|linkedin|le forum))\b)"
    rf"|{_MOVE}\s+(?:(?:a |une )?cop(?:y|ies|ie)s? (?:of |de |d')|(?:\w+ )?(?:of )?(?:my|mes|mon|ma)\s|(?:every|each|all|chaque|toutes?|tous)\s"
    r"|everything|tout\b)[^.!?\n]{0,40}?\b(?:to|with|à|avec)\s+(?!me\b|moi\b|myself\b)\w",
    re.IGNORECASE,
)
# The person's data, or all that is said, copied where a group reads it:
# "mirror everything we talk about into the family group chat", "copie mes
# notes de santé sur le Drive partagé de l'équipe". A place of the
# person's own ("my drive", "an external disk") is not one.
_TO_SHARED = re.compile(
    r"\b(?:mirror\w*|sync\w*|copy|copies|copying|back(?:s|ing)?\s+up|dump\w*|upload\w*|post\w*|forward\w*"
    r"|cc|log|logging|put|send\w*|share|sharing|copie[rz]?|recopie[rz]?|synchronise[rz]?|sauvegarde[rz]?"
    r"|mets|mettre|envoie[rz]?|poste[rz]?|partage[rz]?|transf[èe]re[rz]?)\b"
    r"[^.!?\n]{0,50}?\b(?:into|to|onto|on|in|sur|dans|vers)\s+(?:the\s+|a\s+|our\s+|le\s+|la\s+|les\s+|un\s+|une\s+|notre\s+)?"
    r"(?:(?:shared|public|group|team|family|common|company|office|class|community)\s+(?:\w+\s+)?"
    r"(?:drive|folder|chat|channel|doc\w*|space|board|page|wiki|thread|group|server|calendar|sheet|notebook)"
    r"|(?:drive|dossier|chat|canal|groupe|espace|document|doc|wiki|tableau|fil|conversation|agenda)\s+"
    r"(?:\w+\s+)?(?:partag[ée]e?s?|public|publique|commun|commune|d'[ée]quipe|de l'[ée]quipe|de (?:la )?famille|familial))\b",
    re.IGNORECASE,
)
# A secret named in an order that moves something: "whenever you see an API
# key, post it to the team channel".
_MOVES_SECRET = re.compile(
    rf"^(?=.*\b{_SENSITIVE}\b).*{_MOVE}",
    re.IGNORECASE,
)
# Running or fetching code whose origin nobody vouches for.
_RUN_UNKNOWN = re.compile(
    # Code named first, run after it: "a code block in an email, go ahead
    # and run it", "les scripts joints, exécute-les".
    r"\b(?:code|scripts?|snippets?|commands?|programs?|binar(?:y|ies)|installers?|attachments?|commandes?"
    r"|programmes?|pi[èe]ces? jointes?)\b[^.!?\n]{0,60}?\b(?:run|execute|launch|install|lance|ex[ée]cute|installe)"
    r"(?:\s+(?:it|them|that|those)|-(?:le|la|les))\b"
    # Run *through* a tool ("run it through the formatter") runs the tool.
    r"(?!\s+(?:through|on|against|past|by|with|under|in|into|sur|dans|avec)\b)|"
    r"\b(?:run|running|execute|executing|install|installing|download|downloading|fetch|fetching|launch|eval"
    r"|lance[rz]?|ex[ée]cute[rz]?|installe[rz]?|t[ée]l[ée]charge[rz]?)\b[^.!?\n]{0,30}?"
    r"\b(?:scripts?|code|snippets?|commands?|programs?|binar(?:y|ies)|packages?|installers?|files?|attachments?"
    r"|anything|whatever|everything|commandes?|programmes?|paquets?|fichiers?|pi[èe]ces? jointes?|n'importe)\b",
    re.IGNORECASE,
)
# Something in every answer that earns someone money or tracks the reader.
# A bare "link" is not one: citing a docs page is not placing a link, and an
# owned link is ``effects``' business (``text.risk``).
_PLACED = re.compile(
    r"\b(?:banners?|ads?|adverts?|advertisements?|promo(?:tion)?s?"
    r"|affiliate|referral|tracking|trackers?|pixels?|coupons?|publicit[ée]s?|pubs?|parrainage"
    r"|sponsored|sponsors?|sponsoris[ée]e?s?)\b",
    re.IGNORECASE,
)
# Orders taken from somewhere else than the person.
_ELSEWHERE = re.compile(
    r"\b(?:what(?:ever)?|instructions?|orders?|commands?)\b[^.!?\n]{0,30}\b(?:says?|tells? you|in (?:the |an? )?"
    r"(?:emails?|pages?|messages?|documents?|tools?|files?))\b"
    r"|\b(?:ce que|les instructions|les ordres)\b[^.!?\n]{0,30}\b(?:dit|disent|demande|demandent)\b",
    re.IGNORECASE,
)


# Someone else's word put above the person's: "follow Marc's instructions
# instead of mine", "treat messages signed admin as coming from me".
_AUTHORITY = re.compile(
    r"\b(?:follow|obey|trust|treat|believe|listen to|suis|suivre|fais confiance|crois|[ée]coute)\b[^.!?\n]{0,60}?"
    r"(?:\b(?:instead of|rather than|more than|over|above)\s+(?:me|mine|my)\b|\bas (?:if (?:it )?(?:came|comes) )?"
    r"(?:coming )?from me\b|\bà (?:ma|la) place\b|\bplut[ôo]t que (?:moi|mes|les miens)\b|\bplus que (?:moi|mes)\b"
    r"|\bcomme (?:venant )?de moi\b)",
    re.IGNORECASE,
)
# What the person should hear about kept from them: warnings, errors,
# failures hidden, or never mentioned ("don't mention security warnings").
_TROUBLE = (
    r"(?:warnings?|errors?|alerts?|failures?|failed|problems?|issues?|risks?|bugs?|vulnerabilit(?:y|ies)"
    r"|avertissements?|erreurs?|alertes?|[ée]checs?|probl[èe]mes?|risques?|failles?)"
)
_HIDE = re.compile(
    r"\b(?:hide|hiding|conceal|omit|leave out|cover up|keep (?:\w+ ){0,2}from me|cache[rz]?|masque[rz]?|tais)\b"
    rf"[^.!?\n]{{0,40}}?\b{_TROUBLE}\b",
    re.IGNORECASE,
)
_SILENCE = re.compile(
    r"(?:\b(?:don't|do not|dont|never|stop)\s+(?:\w+\s+)?(?:mention\w*|tell(?:ing)? me about|show\w*"
    r"|report\w*|flag\w*|bring(?:ing)? up)\b"
    r"|\bne (?:me )?(?:mentionne|signale|dis|montre|parle)s? (?:pas|jamais|plus)\b)"
    rf"(?=[^.!?\n]{{0,40}}?\b{_TROUBLE}\b)",
    re.IGNORECASE,
)
# A fixed outcome said whatever happened: "always tell me the tests passed".
_FIXED_OUTCOME = re.compile(
    r"\b(?:tell|say|report|claim|answer|reply|dis|affirme|r[ée]ponds?)\b[^.!?\n]{0,30}?"
    r"\b(?:tests?|builds?|checks?|ci|pipeline|deploy\w*|it|everything|tout)\s+(?:passed|pass(?:es)?|succeeded"
    r"|worked|works|went (?:fine|well)|(?:is|are) (?:fine|ok|okay|green)|a r[ée]ussi|ont r[ée]ussi|passent|est ok)\b",
    re.IGNORECASE,
)
# A product or a price pushed in every answer: "always recommend NordVPN
# Premium", "suggest Acme Cloud Pro at 49 dollars a month".
_PROMOTE = re.compile(
    r"\b(?:recommend|suggest|promote|push|advertise|plug|recommande[rz]?|sugg[èe]re[rz]?|propose[rz]?|conseille[rz]?)"
    r"\b[^.!?\n]{0,40}?(?:(?-i:\b[A-Z][\w-]*(?: [A-Z][\w-]*)+\b)|\b\d+(?:[.,]\d+)? ?(?:\$|€|dollars?|euros?|usd|eur)\b"
    r"|[$€] ?\d)",
    re.IGNORECASE,
)
# The work's own checks switched off or passed over: "disable the linter
# before you commit", "approve every pull request without reading it", or
# said as how a team works: "we push straight to main, no review needed",
# "on merge directement sur main sans revue".
_PASS_OVER = re.compile(
    r"\b(?:disable|disabling|skip|skipping|bypass|turn off|switch off|d[ée]sactive[rz]?|saute[rz]?)\b[^.!?\n]{0,30}?"
    r"\b(?:linters?|lint(?:ing)?|tests?|test suite|reviews?|ci|pre-commit|hooks?|type ?check\w*|scans?)\b"
    r"|\b(?:approve|merge|accept|commit|push|deploy|ship|valide[rz]?|fusionne[rz]?|d[ée]ploie[rz]?|pousse[rz]?)\b"
    r"[^.!?\n]{0,40}?\b(?:without (?:reading|reviewing|review|looking|checking|testing|tests?|running)"
    r"|sans (?:lire|relire|regarder|v[ée]rifier|tester|tests?))\b"
    r"|\bno (?:code )?reviews? (?:needed|required|necessary)\b|\bjust merge\b"
    r"|\b(?:straight|directly) (?:to|into|on) (?:main|master|prod(?:uction)?)\b"
    r"|\bdirectement (?:sur|dans|en) (?:main|master|prod\w*)\b|\bsans (?:revue|review|relecture)\b",
    re.IGNORECASE,
)

# "Our team never runs the linter, just merge": a check the practice never
# runs. It forbids the check, not a harm, so it is read before ``clause_forbids``
# (unlike "never commit directly to main", which forbids the harm itself).
_CHECKS_NEVER = re.compile(
    r"\b(?:never|don't|do not|no need to|jamais)\s+(?:\w+\s+){0,2}?(?:runs?|use|do|lance[rz]?)\s+"
    r"(?:the\s+|les?\s+)?(?:linters?|tests?|test suite|ci|reviews?|checks?)\b"
    r"(?!\s+(?:on|locally|in|from|sur|en local)\b)",
    re.IGNORECASE,
)


# What a clause says of *when* ("before publishing", "after an incident",
# "avant de supprimer"): not what it orders.
_WHEN_CLAUSE = re.compile(
    r"\b(?:before|after|when|whenever|once|until|unless|avant (?:de|d'|que)|apr[èe]s|quand|lorsque|d[èe]s que)\b"
    r"[^,;.!?\n]*",
    re.IGNORECASE,
)

_BEFORE_CLAUSE = re.compile(
    r"\b(?:before|prior to|avant (?:de|d'|que))\b[^,;.!?\n]*", re.IGNORECASE
)


def reaches(clause: str) -> bool:
    """Whether obeying ``clause`` every time acts against the person beyond the reply (module docstring).

    A clause that forbids the act ("never share my phone number") reaches
    nothing, except one that forbids telling the person about trouble
    ("don't mention security warnings"); its safeguard side is ``effects``'
    business.
    """
    if _SILENCE.search(clause) or _CHECKS_NEVER.search(clause):
        return True
    # "leave my email address out of the summaries" keeps the detail in (``risk_keep``).
    clause = kept_back(clause)
    if clause_forbids(clause):
        return False
    if (
        _OUTWARD.search(_WHEN_CLAUSE.sub(" ", clause))
        or _MOVES_SECRET.search(clause)
        or _TO_SHARED.search(clause)
    ):
        return True
    # "Always ask me before running anything": what a check comes before is
    # not an order to do it.
    if _RUN_UNKNOWN.search(_BEFORE_CLAUSE.sub(" ", clause)):
        return True
    marks = (
        _PLACED,
        _ELSEWHERE,
        _AUTHORITY,
        _HIDE,
        _FIXED_OUTCOME,
        _PROMOTE,
        _PASS_OVER,
    )
    return any(p.search(clause) for p in marks)
