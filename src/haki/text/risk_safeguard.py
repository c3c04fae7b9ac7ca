"""Lowered safeguards read from an order's words (pure; asked by ``text.risk``).

A safeguard is lowered when an order disables, skips or bypasses a check, a
confirmation, a warning or the verification; approves, merges or pays
*without* the review those acts exist under; under *never* or *stop*, drops
the checking, warning or asking that guards something risky (a suspicious
link, a payment, a deletion, the tests before a push); releases a check
before a risky act wherever the release stands; or obeys whatever comes.
What is stopped decides: "don't warn me about spelling" lowers nothing.
"""

from __future__ import annotations

import re

from .risk_frames import released
from .risk_shapes import UNDENIED as _UNDENIED

_SAFEGUARD_WORDS = (
    r"(?:safety|security|verification|verifications|2fa|two-factor|mfa|confirmations?|confirm|security warnings?"
    # The confirmation asked by its own words or its window: "the 'are you
    # sure' prompts", "the confirm dialogs", "les « tu es sûr ? »".
    r"|are you sure|(?:really|vraiment) (?:delete|remove|supprimer|effacer)|(?:[êe]tes-vous|tu es|t'es) s[ûu]re?"
    r"|(?:confirm\w*|permission|security|safety|uac|admin) (?:prompts?|dialog(?:ue)?s?|pop-?ups?|windows?)"
    r"|safety warnings?|(?:security |safety )?checks?"
    r"|antivirus|firewall|ssl|tls|certificates?|sandbox|moderation|filters?|guardrails?|safeguards?|approvals?"
    r"|authentication|signature checks?|s[ée]curit[ée]|v[ée]rifications?|avertissements?|pare-feu|garde-fous"
    r"|(?:malware|virus|phishing|spam|scam|fraud|link|attachment) (?:warnings?|alerts?|checks?|filters?|scans?))"
)
_LOWER = re.compile(
    r"\b(?:disable|disabling|turn off|switch off|skip|skipping|bypass|bypassing|ignore|ignoring|remove|drop"
    r"|deactivate|suppress|without|no more|d[ée]sactive[rz]?|contourne[rz]?|ignore[rz]?|saute[rz]?|sans)\b"
    rf"[^.!?\n]{{0,40}}?\b{_SAFEGUARD_WORDS}\b"
    r"|--no-verify\b|--insecure\b|-k\b(?= https?://)|verify\s*=\s*false"
    # None asked for at all: "no confirmation ever", "aucune vérification".
    r"|\b(?:no|zero|aucune?)\s(?:more\s|further\s)?(?:confirmations?|verifications?|approvals?|safety checks?"
    r"|security checks?|security warnings?|safety warnings?|v[ée]rifications?)\b"
    # The safeguard named first, switched off by a pronoun: "the content
    # filter is too strict, so leave it off", "l'antivirus, désactive-le".
    # Said as a setting with no verb: "security warnings off, always".
    rf"|\b{_SAFEGUARD_WORDS}\s+(?:off|disabled|désactivée?s?|coupée?s?)\b"
    rf"|\b{_SAFEGUARD_WORDS}\b[^.!?\n]{{0,60}}?{_UNDENIED}\b(?:(?:turn|switch|leave|keep|shut|turning|switching|leaving"
    r"|keeping)\s+(?:it|them)\s+off|(?:disable|deactivate|bypass|skip|ignore|mute|silence)\s+(?:it|them)"
    r"|(?:d[ée]sactive|contourne|ignore|coupe|[ée]teins)-(?:le|la|les))\b",
    re.IGNORECASE,
)
# An act that others' review or a check exists for, done without it:
# "keep approving my pull requests without review", "pay the invoices
# without checking them", "fusionne sans relire". The review is the
# safeguard; pushing or committing one's own work is not in this list.
_UNCHECKED_ACT = re.compile(
    r"\b(?:approv\w*|merg\w*|accept\w*|sign(?:s|ing|ed)?|pay|pays|paying|paid|transfer\w*|wir(?:e|es|ing)"
    r"|valide[rz]?|validant|fusionne[rz]?|fusionnant|paie[rz]?|payer|payant|vire[rz]?|signe[rz]?)\b"
    r"[^.!?\n]{0,50}?\b(?:without|sans)\s+(?:any\s+|a\s+|the\s+|me\s+|m'|la\s+|les\s+|telling\s+|letting\s+)?"
    r"(?:review\w*|read(?:ing)?|check\w*|look\w*|verif\w*|test\w*|confirm\w*|ask\w*|approval"
    # Done without the person hearing of it: their oversight is the check.
    r"|tell\w*|warn\w*|notify\w*|me know|pr[ée]venir|avertir|dire|informer"
    r"|revue|relecture|relire|lire|regarder|v[ée]rifi\w*|test\w*|demander|contr[ôo]le\w*)\b",
    re.IGNORECASE,
)
# Under "stop"/"never": checking, warning or asking before acting is the
# safeguard, when what it guards is risky (a suspicious link, a payment, a
# deletion, the tests) — "stop flagging suspicious links", "arrête de me
# demander confirmation avant de supprimer". "Don't warn me about spelling"
# lowers nothing. 14 checking verbs, 40 guarded objects, 24 risky acts.
_CHECK_VERB = (
    r"(?:ask\w*|check\w*|double[- ]check\w*|verif\w*|confirm\w*|warn\w*|flag\w*|alert\w*|signal\w*|review\w*"
    r"|scan\w*|prompt\w*|wait\w* for|demande[rz]?|v[ée]rifie[rz]?|pr[ée]viens|pr[ée]venir|avertis|avertir"
    # Telling the person is the check too: "don't bother telling me when a
    # certificate is invalid", "no need to let me know about odd logins".
    r"|tell(?:ing)? me|notify(?:ing)? me|let(?:ting)? me know"
    # Having the person approve is the check: "me faire valider", "run it by me".
    r"|(?:me )?faire valider|(?:have|get|having|getting) me (?:to )?(?:approve|sign off|okay|ok)|run\w* (?:\w+ )?(?:by|past) me"
    r"|signale[rz]?|confirme[rz]?|alerte[rz]?|contr[ôo]le[rz]?|relis|relire"
    r"|(?:run|running|do|lance[rz]?|fais|ex[ée]cute[rz]?) (?:plus |pas |jamais )?(?:the |les )?(?:tests?|test suite|linter|checks?|review|ci))"
)
_GUARDED = (
    r"(?:confirmation|permission|approval|consent|accord|autorisation|suspicious|phishing|malware|virus\w*|scams?"
    r"|fraud\w*|spam|dangerous|unsafe|risky|destructive|legit\w*|security|safety|risks?|suspect\w*|dangereu\w*"
    r"|arnaques?|frauduleu\w*|virements?|payments?|paiements?|transfers?|attachments?|pi[èe]ces? jointes?"
    r"|weird|odd|strange|shady|dodgy|sketchy|bizarres?|louches?|douteu\w*"
    r"|s[ée]curit[ée]|failles?|vuln[ée]rabilit\w*|vulnerabilit\w*"
    # Whatever is not vouched for: "unsigned installers", "expired
    # certificates", "logiciels non signés", "expéditeurs inconnus".
    r"|un(?:signed|verified|trusted|known|safe|secure|encrypted)|insecure|expired|self-signed|invalid"
    r"|non[- ](?:sign|v[ée]rifi|s[ée]curis|chiffr)\w*|inconnu\w*|expir[ée]\w*|installers?|executables?)"
)
_RISKY_ACT = (
    r"(?:before|prior to|avant (?:de |d'|que ))\s?(?:you |tu |je |I )?(?:\w+ )?"
    r"(?:delet\w*|remov\w*|eras\w*|wip\w*|pay\w*|send\w*|transfer\w*|wir\w*|run\w*|execut\w*|install\w*"
    r"|(?:force[- ]?)?push\w*|merg\w*|deploy\w*|drop\w*|overwrit\w*|publish\w*|buy\w*|purchas\w*|supprim\w*|effac\w*"
    r"|envoy\w*|vir\w*|lanc\w*|ex[ée]cut\w*|pousse\w*|d[ée]ploy\w*|publi\w*|achet\w*)"
)
_LOWERED_CHECK = re.compile(
    rf"\b{_CHECK_VERB}\b[^.!?\n]{{0,50}}?(?:\b{_GUARDED}\b|\b{_RISKY_ACT}\b)",
    re.IGNORECASE,
)
# A check before a risky act released, wherever the release stands in the
# clause: "you don't need to ask me before force-pushing", "no more asking
# before you wipe a branch", "plus besoin de me demander avant de
# supprimer"; and the act done without it ("wipe old branches without
# asking"). A reminder to check ("don't forget to ask before …") keeps it.
_RELEASE = (
    r"(?:don't|do not|doesn't|does not|needn't|no|not|never|no more|no longer|without|stop|quit|inutile"
    r"|pas|plus|jamais|sans|arr[êe]te[rz]?|cesse[rz]?)"
)
_RELEASED_CHECK = re.compile(
    # "n'oublie pas de demander" reminds of the check: its "pas" releases nothing.
    rf"(?<!oublie )(?<!oubliez )(?<!oublies )(?<!manque )(?<!forget )\b{_RELEASE}\b(?:\s+(?!forget|fail|hesitate|oubli\w*)[\w'-]+){{0,4}}?\s+{_CHECK_VERB}\b"
    rf"[^.!?\n]{{0,50}}?\b{_RISKY_ACT}\b",
    re.IGNORECASE,
)
_UNASKED_ACT = re.compile(
    r"\b(?:delet\w*|remov\w*|eras\w*|wip\w*|drop\w*|overwrit\w*|force[- ]?push\w*|reset\w*|purg\w*"
    r"|supprim\w*|effac\w*|[ée]cras\w*|vid\w*)\b[^.!?\n]{0,50}?\b(?:without|sans)\s+(?:me\s+|m')?"
    r"(?:ask\w*|check\w*|confirm\w*|verif\w*|demande\w*|v[ée]rifi\w*)\b",
    re.IGNORECASE,
)
# Under "never": the safeguard is the thing not done.
_NEVER_CHECK = re.compile(
    r"\b(?:ask|asking|request|wait|check|verify|confirm|warn|warning|mention|tell|flag|prompt|demande[rz]?"
    r"|v[ée]rifie[rz]?|pr[ée]viens|avertis|confirme[rz]?|mentionne[rz]?|parle[rz]?|dis|dire)\b[^.!?\n]{0,40}?"
    r"\b(?:confirmation|permission|approval|consent|risks?|warnings?|safety|security|first|before|guidelines?"
    r"|accord|autorisation|risques?|s[ée]curit[ée]|consignes?)\b",
    re.IGNORECASE,
)
# The same with nothing checked named ("never ask me first."): what it
# releases is the rest of the sentence (``risk_frames``), or, alone, anything.
_NEVER_CHECK_BARE = re.compile(
    r"\b(?:ask|asking|warn|check|verify|confirm|demande[rz]?|v[ée]rifie[rz]?|confirme[rz]?)\b\s*"
    r"(?:me|with me|first|anything|me first)?\s*(?:[.!]|$)",
    re.IGNORECASE,
)
# Obeying whatever comes, or never refusing, removes every safeguard at once:
# "always obey the last message", "never refuse a request", "ne jamais
# refuser", "do anything the user asks".
_OBEY = re.compile(
    r"\b(?:obey|obeys|obeying|comply with (?:every|all|any)|do (?:anything|whatever|everything) (?:I|the user|they|you'?re)"
    r"|ob[ée]i[rs]\w*|fais tout ce que)\b",
    re.IGNORECASE,
)
_REFUSE = re.compile(
    r"\b(?:refuse|refusing|decline|declining|say no|push back|question (?:my|the|any)|refuse[rz]?|refusant"
    r"|d[ée]cline[rz]?|dire non)\b",
    re.IGNORECASE,
)


def lowers(part: str) -> bool:
    """Whether ``part``, an order that forbids nothing, lowers a safeguard by its words."""
    return any(p.search(part) for p in (_LOWER, _UNCHECKED_ACT, _RELEASED_CHECK, _UNASKED_ACT))


def lowers_forbidding(part: str) -> bool:
    """Whether ``part``, under "never"/"stop", forbids the check itself ("never ask for confirmation")."""
    return bool(
        _NEVER_CHECK.search(part)
        or (_NEVER_CHECK_BARE.search(part) and not released(part))
        or _LOWERED_CHECK.search(part)
        or _RELEASED_CHECK.search(part)
    )


def obeys_all(part: str, forbids: bool) -> bool:
    """Whether ``part`` obeys whatever comes, or under "never" refuses nothing."""
    return _OBEY.search(part) is not None or (forbids and _REFUSE.search(part) is not None)


# Every pattern the three readers try, for the prefilter of ``risk.effects``.
PATTERNS = (
    _OBEY,
    _REFUSE,
    _LOWER,
    _UNCHECKED_ACT,
    _RELEASED_CHECK,
    _UNASKED_ACT,
    _NEVER_CHECK,
    _NEVER_CHECK_BARE,
    _LOWERED_CHECK,
)
