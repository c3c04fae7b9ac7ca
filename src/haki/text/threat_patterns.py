"""The patterns of known attacks on an agent's rules, and a reading of a turn by them (pure).

``text.injection.threats`` normalises a turn and asks ``kinds`` which attack
it holds: ``exfiltration`` (a sending verb, something secret, somewhere
else), ``safety_override`` (discard, hide or reveal the rules), ``jailbreak``
(a new identity without the old rules), also when the trigger is spelled
out letter by letter. ``INSTRUCTION_LIKE`` is the shape of an imperative
aimed at the agent, a mark only.
"""

from __future__ import annotations

import re


def _r(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# --- exfiltration: a sending verb, something secret, and somewhere else -----
_SEND = (
    r"(?:send|sends|sending|forward|post|posting|upload|e-?mail|mail|leak|share|transmit|exfiltrate"
    r"|copy|paste|dump|submit|report|relay|sync|push|pipe|beam|cc|bcc"
    r"|envoie[rsz]?|envoyer|transmet[sz]?|transmettre|transf[èe]re[rsz]?|partage[rsz]?|poste[rsz]?"
    r"|publie[rsz]?|copie[rsz]?|colle[rsz]?|recopie[rsz]?|fais suivre|faire suivre)"
)
_SECRET = (
    r"(?:api[ _-]?keys?|keys?|secrets?|tokens?|passwords?|passphrases?|credentials?|creds|cookies?"
    r"|session ids?|private|ssh|\.env|env(?:ironment)? var(?:iable)?s?|system prompt|instructions"
    r"|(?:conversation|chat) (?:history|logs?)|history|transcripts?|all (?:the )?(?:messages|data)"
    r"|everything (?:the user|I|you|they)\b|system messages?"
    r"|personal data|user data|card numbers?|credit cards?|bank details|iban"
    r"|cl[ée]s?|mots? de passe|identifiants|jetons?|historique|donn[ée]es personnelles"
    r"|num[ée]ros? de carte|coordonn[ée]es bancaires)"
)
_DESTINATION = (
    r"(?:https?://|www\.|ftp://|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[\w-]+\.(?:example|com|net|org|io|ru|xyz|top|site|co|fr)\b"
    r"|\bwebhook\b|\bpastebin\b|\bngrok\b|\bdiscord(?:app)?\.com\b)"
)
# Cheap first look: without an address there is nowhere to exfiltrate to.
_DESTINATION_HINT = re.compile(r"://|www\.|@|webhook|pastebin|ngrok|\.[a-z]{2,7}\b", re.IGNORECASE)
_EXFILTRATION = _r(
    rf"\b{_SEND}\b[^!?\n]{{0,120}}?(?:\b|(?=\.)){_SECRET}\b[^!?\n]{{0,160}}?{_DESTINATION}"
    rf"|\b{_SEND}\b[^.!?\n]{{0,40}}?(?:to|à|vers|sur|at|into)\s+{_DESTINATION}[^!?\n]{{0,120}}?(?:\b|(?=\.)){_SECRET}\b"
)

# --- safety override: discard the rules, hide them, or reveal the prompt ----
_RULES = (
    r"(?:instructions?|prompts?|rules?|directives?|guidelines?|polic(?:y|ies)|guardrails?|safeguards?"
    r"|restrictions?|constraints?|programming|training|filters?|consignes?|r[èe]gles?|directives?"
    r"|garde-fous|restrictions?|limites?|politiques?)"
)
_SAFETY_OVERRIDE = _r(
    r"(?<!not )(?<!n't )(?<!never )\b(?:ignore|ignores|ignoring|disregard|forget|override|bypass|skip|drop|discard|abandon)\b"
    rf"[^.!?\n]{{0,40}}?\b(?:previous|prior|above|earlier|preceding|all|any|every|your|the|system|safety|original|initial)\b[^.!?\n]{{0,30}}?\b{_RULES}\b"
    r"|\b(?:without|with no|free of|free from|no more|remove|removing|disable|disabling|turn off|lift|bypass)\s+"
    r"(?:any |all |the |your |of )*(?:restrictions?|limits|limitations|filters?|filtering|guardrails?|safeguards?"
    r"|safety(?: \w+)?|censorship|content polic(?:y|ies)|moderation|ethical (?:guidelines|constraints))\b"
    r"|\b(?:never|don't|do not|stop)\s+(?:ever\s+)?(?:mention|mentioning|tell|reveal|disclose|talk about|bring up|refer to|cite|follow|apply|enforce|warn about)\s+"
    r"(?:(?:the user|users|anyone|anybody|me|them|people)(?: about)?\s+)?(?:the |your |any |our )*(?:safety|content|security|usage|ethics?|moderation)\s*(?:policy|policies|guidelines?|rules?|filters?|warnings?)"
    r"|\b(?:reveal|print|show|repeat|output|leak|display|dump|recite|tell me|give me|write out)\s+(?:me\s+)?(?:the |your |all )*"
    r"(?:full |entire |exact |hidden |secret |initial |original )*(?:system prompt|system message|hidden instructions|initial instructions|original instructions|instructions above)\b"
    r"|\b(?:reveal|print|show|repeat|output|leak|display|dump|recite)\s+(?:me\s+)?your (?:full |entire |exact )?prompt\b"
    r"|\bnew (?:system )?(?:instructions?|rules?)\s*:|\bsystem\s*(?:override|prompt)\s*:"
    r"|<\|im_(?:start|end)\|>|<\s*/?\s*system\s*>|\[\s*/?\s*(?:system|inst)\s*\]"
    # French
    r"|\b(?:ignore[rsz]?|oublie[rsz]?|n[ée]glige[rsz]?|contourne[rsz]?|outrepasse[rsz]?|fais abstraction de)\b"
    rf"[^.!?\n]{{0,40}}?\b(?:toutes?|tous|les|tes|vos|ces|pr[ée]c[ée]dentes?|ant[ée]rieures?)\b[^.!?\n]{{0,30}}?\b{_RULES}\b"
    r"|\bsans (?:aucune |aucun |la moindre |plus de |de )?(?:restrictions?|limites?|filtres?|filtrage|censure|garde-fous|r[èe]gles|mod[ée]ration)\b"
    r"|\b(?:ne (?:mentionne|parle|cite|dis|r[ée]v[èe]le)[sz]? (?:jamais|plus|pas|rien)|ne jamais (?:mentionner|parler|citer|r[ée]v[ée]ler))"
    r"[^.!?\n]{0,20}?\b(?:politique|r[èe]gles?|consignes?) de (?:s[ée]curit[ée]|mod[ée]ration|contenu)"
    r"|\b(?:r[ée]v[èe]le[rsz]?|affiche[rsz]?|montre[rsz]?|r[ée]p[èe]te[rsz]?|donne[sz]?-moi|recopie[rsz]?)\s+"
    r"(?:le |ton |votre |tes |vos |les )*(?:prompt syst[èe]me|message syst[èe]me|instructions (?:cach[ée]es|initiales|syst[èe]me))"
    r"|\bnouvelles? (?:instructions|consignes|r[èe]gles)\s*:"
    r"|\bd[ée]sactive[rsz]? (?:tes |vos |les |la )*(?:filtres?|garde-fous|s[ée]curit[ée]|restrictions?|mod[ée]ration)"
)

# --- jailbreak: a new identity without the old rules ------------------------
# A persona switch alone ("from now on you're my Spanish tutor") is an
# ordinary request; with a cue that the new persona drops the rules, or with
# a known jailbreak name, it is an attack. Strong cues suffice on their own.
_PERSONA_SWITCH = _r(
    r"\byou(?: are|'re) now\b(?! (?:able|done|ready|all set|connected|logged|signed|subscribed|registered|set up)\b)"
    r"|\bfrom now on,? (?:you(?: are|'re| will be| shall be)|act as|pretend|roleplay|role-play|behave as)\b"
    r"|\b(?:act|acting|behave|respond|answer) as (?:if|an?|the|my)\b"
    r"|\b(?:pretend|imagine|role-?play|play the role|stay in character)\b"
    r"|\b(?:tu es|t'es|vous [êe]tes) (?:d[ée]sormais|maintenant|dor[ée]navant)\b"
    r"|\b(?:[àa] partir de maintenant|d[ée]sormais|dor[ée]navant),? (?:tu es|vous [êe]tes|tu joues|joue|agis|fais comme)\b"
    r"|\b(?:joue|jouez|fais|faites) (?:le r[ôo]le|comme si)\b"
)
_WEAK_CUE = _r(
    r"\b(?:no|without|zero|free of|free from|not bound by|no longer bound by|ignores?)\s+(?:any\s+|all\s+|the\s+)?"
    r"(?:rules|restrictions|limits|limitations|filters|guidelines|ethics|morals|boundaries|policies|censorship)\b"
    r"|\b(?:never|don't|do not) refuses?\b|\bwho never refuses\b|\bno refusals?\b|\balways (?:comply|obey)\b|\banything goes\b"
    r"|\bsans (?:aucune |aucun |la moindre )?(?:r[èe]gles?|restrictions?|limites?|filtres?|censure|morale|tabous?)\b"
    r"|\bne (?:jamais refuser|refuse jamais)\b|\btoujours ob[ée]ir\b"
    r"|\bwhatever (?:it is|they ask|I ask|the user asks)\b|\bno matter what\b"
    r"|\bquoi qu'(?:il arrive|on te demande)\b|\bquel(?:le)?s? que soi(?:en)?t\b"
)
_JAILBREAK = _r(
    r"(?-i:\b(?:DAN|STAN|DUDE|AntiGPT|BetterDAN|Mongo Tom)\b)|\bdo anything now\b|\bdeveloper mode\b|\bgod mode\b|\bjailbr(?:eak|oken)\b"
    r"|\b(?:unfiltered|uncensored|unrestricted|unaligned) (?:ai|mode|assistant|model|version|bot)\b"
    r"|\bevil (?:confidant|assistant|twin|mode|ai|bot)\b"
    r"|\bmode (?:d[ée]veloppeur|sans restriction|sans filtre|dieu)\b|\bia (?:sans filtre|non censur[ée]e)\b"
)

# --- imperatives aimed at the agent (marks only, never a reason to drop) ---
_INSTRUCTION_LIKE = _r(
    r"^(?:please,? )?(?:always|never(?! mind)|you must|you should|make sure to|remember to|ensure you)\b"
    r"|(?:^|[.!?]\s)(?:always|never|you must|from now on)\b"
    r"|^(?:toujours|jamais|ne jamais|tu dois|vous devez|n'oublie pas de|souviens-toi de|à partir de maintenant)\b"
    r"|(?:^|[.!?]\s)(?:toujours|ne jamais|tu dois|vous devez)\b"
)

# Cheap first looks, in the lowercased normalised text: every override
# pattern names the rules, the prompt or the safety it attacks, and every
# jailbreak pattern one of these words. Most turns hold none, and skip the
# long patterns.
_OVERRIDE_HINTS = (
    "instruction",
    "prompt",
    "rule",
    "directive",
    "guideline",
    "polic",
    "guardrail",
    "safeguard",
    "restriction",
    "constraint",
    "programming",
    "training",
    "filter",
    "consigne",
    "règle",
    "regle",
    "garde-fou",
    "limit",
    "politique",
    "censor",
    "censure",
    "moderation",
    "modération",
    "ethic",
    "system",
    "im_",
    "inst]",
    "safety",
    "sécurité",
    "securite",
    "content",
)
# Personas published as jailbreaks, matched with their capitals.
_JAILBREAK_NAMES = re.compile(r"\b(?:DAN|STAN|DUDE|AntiGPT|BetterDAN|Mongo Tom)\b")
_JAILBREAK_HINTS = (
    "anything now",
    "mode",
    "jailbr",
    "unfiltered",
    "uncensored",
    "unrestricted",
    "unaligned",
    "evil",
    "censur",
    "sans filtre",
    "refus",
    "comply",
    "obey",
    "obéir",
    "obeir",
    "rules",
    "restriction",
    "limit",
    "filter",
    "guideline",
    "ethic",
    "moral",
    "boundar",
    "polic",
    "anything goes",
    "whatever",
    "no matter",
    "règle",
    "regle",
    "tabou",
    "quoi qu",
    "quel que",
    "quelle que",
)

# Spaced or dotted letters ("i g n o r e  a l l  p r e v i o u s") defeat
# word patterns; the squashed form keeps letters only.
_SQUASHED = (
    ("safety_override", "ignoreallpreviousinstructions"),
    ("safety_override", "ignorepreviousinstructions"),
    ("safety_override", "disregardallpreviousinstructions"),
    ("safety_override", "revealthesystemprompt"),
    ("safety_override", "ignoretouteslesinstructions"),
    ("jailbreak", "youarenowdan"),
    ("jailbreak", "doanythingnow"),
)
_NOT_LETTERS = re.compile(r"[^a-z]+")


def kinds(norm: str) -> set[str]:
    """The attack kinds the normalised turn ``norm`` holds (cheap first looks, then the patterns)."""
    low = norm.lower()
    found = set()
    if _DESTINATION_HINT.search(norm) and _EXFILTRATION.search(norm):
        found.add("exfiltration")
    if any(hint in low for hint in _OVERRIDE_HINTS) and _SAFETY_OVERRIDE.search(norm):
        found.add("safety_override")
    if (any(hint in low for hint in _JAILBREAK_HINTS) or _JAILBREAK_NAMES.search(norm)) and (
        _JAILBREAK.search(norm) or (_PERSONA_SWITCH.search(norm) and _WEAK_CUE.search(norm))
    ):
        found.add("jailbreak")
    squashed = _NOT_LETTERS.sub("", low)
    found.update(kind for kind, needle in _SQUASHED if needle in squashed)
    return found


INSTRUCTION_LIKE = _INSTRUCTION_LIKE
