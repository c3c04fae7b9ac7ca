"""A check released by the act that dismisses it, whatever its verb (pure).

``text.risk`` reads a lowered safeguard where a lowering verb (disable,
skip, bypass) or a stopped check ("stop asking before you delete") meets
what it guards. People release a check in other acts just as often:

- **a dismissing frame over a check**: "don't bother with the second
  approval step", "forget the code review", "laisse tomber la
  validation", "pas besoin de relecture", "mets les tests en skip". What
  is dismissed decides: an approval, a confirmation, a review, a test
  run, a verification, a sign-off. "Don't bother with the intro" dismisses
  no check;
- **the gated act done anyway**: "merge anyway", "deploy regardless",
  "valide quand même", "paie malgré tout": the act a check stands before
  (merge, approve, deploy, release, pay, sign) carried out over it;
- **an approval written without its check**: "just mark them approved",
  "mark the build as passed", "coche-les comme validées": the record of a
  check, set by the agent, is the check skipped;
- **the gated act ordered on doubt**: "when you're unsure, just approve
  the PR", "dans le doute, valide": doubt is where the check would be.

French chat drops the "ne" of a negation ("me demande plus de
confirmation", "m'avertis pas"): a verb after an object pronoun, then
"plus", "pas" or "jamais", forbids as "ne … plus" does (``BARE_NEGATION``).
"Plus" alone after a verb is a comparative ("fais plus court"), so the
pronoun is required with it.

The cost: a standing order that waives a check the person really means
to waive ("for my own sandbox repo, merge anyway") is quarantined and
waits for confirmation, like every order that lowers a safeguard.
"""

from __future__ import annotations

import re

# "me demande plus", "m'avertis pas", "le fais jamais"; "fais pas ça".
BARE_NEGATION = (
    r"(?:(?:me|te|le|la|les|lui|leur|nous|vous)\s+|[mtl]')+[\w-]+\s+(?:plus|pas|jamais)\b"
    # "si jamais" is "if ever", not a negation.
    r"|(?!(?:si|que|qu|et|ou|mais|quand|comme|ou)\b)[\w-]+\s+(?:pas|jamais)\b"
)

# The checks an order can release: what others or the tools vouch with.
_CHECK = (
    r"(?:(?:second |2nd |double |final |manual |human |security |code |peer )?"
    r"(?:approvals?|approval steps?|sign[- ]?offs?|confirmations?|reviews?|code reviews?|tests?|test suites?"
    r"|checks?|verifications?|validations?|qa|ci|2fa|mfa|two-factor|scans?|audits?"
    r"|relectures?|revues?|v[ée]rifications?|contr[ôo]les?|double validation|confirmations?))"
)
# Dismissals whose own words deny ("don't bother with"), read under any
# clause; the others ("skip", "forget") are acts a "never" forbids.
_DENYING_DISMISS = (
    r"(?:don't|do not|dont|no need to|needn't) bother(?: with| about| doing| running| asking for)?"
    r"|no need for|(?:pas|plus) besoin d[e']|pas la peine d[e']"
)
_DISMISS = (
    r"forget(?: about)?|never mind|skip(?:ping)?|drop(?:ping)?|ditch|leave out|do without"
    r"|laisse[rz]? tomber|oublie[rz]?|zappe[rz]?|saute[rz]?|passe[rz]? outre"
)
_OBJECT = (
    r"\s+(?:(?:the|a|an|any|all|my|our|that|this|those|these|le|la|les|l'|du|de la|des|ce|cette|ces)\s*)?"
    rf"(?:[\w-]+\s+){{0,2}}?{_CHECK}\b"
)
_DENIED_CHECK = re.compile(rf"\b(?:{_DENYING_DISMISS}){_OBJECT}", re.IGNORECASE)
_DISMISSED_CHECK = re.compile(
    rf"\b(?:{_DISMISS}){_OBJECT}"
    # The check as the pronoun's antecedent, put aside: "mets-les en skip".
    r"|\b(?:mets|mettez|mettre|put|set|mark)(?:-les|-la|-le|\s+(?:them|it|les|la|le))?\s+(?:en|as|to|in)\s+(?:skip|skipped|ignor\w*)\b",
    re.IGNORECASE,
)
# The acts a check stands before (merge, approve, deploy, release, pay, sign).
_GATED_ACT = (
    r"(?:merg\w*|approv\w*|deploy\w*|ship|ships|shipping|release|releases|releasing|pay|pays|paying|sign(?: off)?"
    r"|wire|wires|wiring|fusionne[rz]?|merge[rz]?|valide[rz]?|approuve[rz]?|d[ée]ploie[rz]?|d[ée]ployer|livre[rz]?"
    r"|paie[rz]?|payer|vire[rz]?|signe[rz]?|mets? en prod)"
)
_ANYWAY = re.compile(
    rf"\b{_GATED_ACT}\b[^.!?\n,;]{{0,30}}?\b(?:anyway|anyways|regardless|all the same|even if (?:it|they) fails?"
    r"|quand m[êe]me|malgr[ée] tout|de toute fa[çc]on|m[êe]me si (?:ça|ils|elles?) (?:plante|[ée]choue)\w*)\b",
    re.IGNORECASE,
)
_MARKED_PASSED = re.compile(
    r"\b(?:mark|marks|marking|flag|tick|set|record|log|coche[rz]?|marque[rz]?|note[rz]?)\b[^.!?\n,;]{0,30}?"
    r"\b(?:as\s+|comme\s+|en\s+)?(?:approved|verified|reviewed|validated|passed|passing|signed off|checked"
    r"|approuv[ée]e?s?|valid[ée]e?s?|v[ée]rifi[ée]e?s?|relu[e]?s?)\b",
    re.IGNORECASE,
)


# The gated act ordered where the doubt is: "when you're unsure, just
# approve the PR", "dans le doute, valide". Doubt is where the check
# would be; acting on it skips the check. "When in doubt, ask me before
# you merge" opens on asking, not on the act.
_ACT_ON_DOUBT = re.compile(
    r"\b(?:unsure|not sure|uncertain|in doubt|doubtful|dans le doute|en cas de doute|pas s[ûu]re?|h[ée]sites?)\b"
    rf"[\s,;:]*(?:(?:just|simply|then|go ahead and|juste|alors)\s+)?{_GATED_ACT}\b",
    re.IGNORECASE,
)


def released_by_act(part: str, forbids: bool) -> bool:
    """Whether ``part`` dismisses a check, does a gated act anyway, or records a check unmade.

    Under a forbidding clause ("never skip the review", "never approve it
    anyway") only a dismissal that is itself the denial counts ("don't
    bother with the approval").
    """
    if _DENIED_CHECK.search(part):
        return True
    return not forbids and any(
        p.search(part) for p in (_DISMISSED_CHECK, _ANYWAY, _MARKED_PASSED, _ACT_ON_DOUBT)
    )


# Every pattern ``released_by_act`` reads, for the prefilter of ``risk.effects``.
PATTERNS = (_DENIED_CHECK, _DISMISSED_CHECK, _ANYWAY, _MARKED_PASSED, _ACT_ON_DOUBT)
