"""Safety gate: secrets and prompt-injection lines that must never reach an agent.

Patterns favour recall: a false positive hides one memory with a visible
reason, a false negative leaks a credential or hijacks the agent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_SECRETS: tuple[tuple[str, str, int], ...] = (
    ("aws-access-key", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b", 0),
    (
        "aws-secret-key",
        r"aws_?secret_?access_?key\s*[=:]\s*['\"]?[A-Za-z0-9/+=]{30,}",
        re.I,
    ),
    ("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{22,})", 0),
    ("slack-token", r"\bxox[abprs]-[A-Za-z0-9-]{10,}", 0),
    ("openai-key", r"\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}", 0),
    ("stripe-key", r"\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}", 0),
    ("google-api-key", r"\bAIza[0-9A-Za-z_-]{35}\b", 0),
    ("private-key", r"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----", 0),
    ("jwt", r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}", 0),
    (
        "password",
        r"\b(?:password|passwd|pwd|secret|api_?key|access_?token|auth_?token|client_?secret)"
        r"\s*[=:]\s*['\"]?(?![<{$%]|\*{3}|x{3}|\.\.\.|changeme\b|example\b|your[_-])"
        r"[^\s'\"`()\[\]]{8,}(?=[\s'\"`,;]|$)",
        re.I,
    ),
    (
        "url-credentials",
        r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:(?!\$|\{|<|\*)[^\s:/@]{4,}@[^\s/]+",
        re.I,
    ),
    ("bearer-token", r"\bBearer\s+[A-Za-z0-9._~+/-]{24,}=*", 0),
)

# Patterns as (name, source, flags), compiled the first time a text passes their
# needles (``_compiled``): a cold build scans every memory, but most memories name no
# pattern's strings, and compiling all the patterns up front was a few ms of every
# process that built an index.
_CARD = ("card", r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])", 0)
# Issuer prefixes (Visa, Mastercard, Amex, Discover, JCB) keep timestamps and ids out.
_CARD_PREFIX = (
    "card-prefix",
    r"^(?:4\d{12}(?:\d{3}){0,2}|5[1-5]\d{14}|2(?:2[2-9]|[3-6]\d|7[01])\d{13}|3[47]\d{13}|6(?:011|5\d\d)\d{12}|35\d{14})$",
    0,
)

_INJECTION: tuple[tuple[str, str, int], ...] = (
    (
        "ignore-instructions",
        r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?"
        r"(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions|prompts?|rules|messages|context)",
        re.I,
    ),
    (
        "role-hijack",
        r"\byou\s+are\s+now\s+(?:in\b|a\b|an\b|the\b|my\b|dan\b|free\b|no\s+longer|unrestricted|operating|acting|jailbroken)",
        re.I,
    ),
    (
        "system-tag",
        r"</?\s*(?:system|assistant|im_start|im_end)\s*>|<\|im_(?:start|end)\|>",
        re.I,
    ),
    (
        "reveal-prompt",
        r"\b(?:reveal|print|show|repeat)\s+(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions)",
        re.I,
    ),
    (
        "exfiltration",
        r"^(?!.*\b(?:never|do not|don't|must not|avoid)\b).*"
        r"\b(?:paste|send|upload|post|exfiltrate|copy|include|dump)\b[^\n]{0,60}"
        r"(?:contents?\s+of|\.env\b|~/\.aws|\.ssh|id_rsa|/etc/passwd|credentials\s+file)"
        r"[^\n]{0,120}\b(?:into|to)\b",
        re.I | re.M,
    ),
    ("new-instructions", r"\bnew\s+system\s+(?:prompt|instructions)\b", re.I),
    (
        "ignore-instructions-fr",
        r"\bignore[zr]?\s+(?:toutes\s+)?les\s+instructions\s+pr[ée]c[ée]dentes",
        re.I,
    ),
)


_SEPARATOR = "\n\x00\n"

# For each pattern, lower-case strings it cannot match without (a necessary condition,
# so skipping a pattern whose strings are all absent never hides a finding). Substring
# tests are cheap; most memories name none of them and skip most patterns.
# Under re.I these four match an ASCII letter; folded first so a needle still meets them.
_ASCII_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_FOLDED = "\u0130\u0131\u017f\u212a"
_NEEDS: dict[str, tuple[str, ...]] = {
    "aws-access-key": ("akia", "asia", "agpa", "aida", "aroa"),
    "aws-secret-key": ("aws",),
    "github-token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "slack-token": ("xox",),
    "openai-key": ("sk-",),
    "stripe-key": ("k_live_", "k_test_"),
    "google-api-key": ("aiza",),
    "private-key": ("private key",),
    "jwt": ("eyj",),
    # The pattern's names in full (``api`` and ``token`` alone are everyday words).
    "password": (
        "passw",
        "pwd",
        "secret",
        "apikey",
        "api_key",
        "accesstoken",
        "access_token",
        "authtoken",
        "auth_token",
    ),
    "url-credentials": ("://",),
    "bearer-token": ("bearer",),
    "ignore-instructions": ("ignore", "disregard", "forget", "override"),
    "role-hijack": ("now",),
    "system-tag": ("system", "assistant", "im_start", "im_end"),
    "reveal-prompt": ("prompt", "instructions"),
    "exfiltration": ("content", ".env", ".aws", ".ssh", "id_rsa", "/etc/passwd", "credentials"),
    "new-instructions": ("system",),
    "ignore-instructions-fr": ("ignore",),
}
# The same as flat pairs: one loop of substring tests, no generator per pattern.
_NEEDLES = tuple((needle, name) for name, needles in _NEEDS.items() for needle in needles)
# A second necessary condition, for patterns whose first is an everyday word: one of
# these strings must occur too.
_ALSO_NEEDS: dict[str, tuple[str, ...]] = {
    "exfiltration": ("paste", "send", "upload", "post", "exfiltrate", "copy", "include", "dump"),
}
# ``\d`` is any Unicode decimal digit: counted on text that is not ASCII.
_DIGIT = ("digit", r"\d", 0)
_COMPILED: dict[str, re.Pattern[str]] = {}


def _compiled(name: str, source: str, flags: int) -> re.Pattern[str]:
    pattern = _COMPILED.get(name)
    if pattern is None:
        pattern = _COMPILED[name] = re.compile(source, flags)
    return pattern


def scan(parts: Iterable[str]) -> tuple[str, ...]:
    """Return sorted finding labels such as ``secret:github-token`` (empty when safe)."""
    found: set[str] = set()
    # One pass over all the parts: a cold index scans every memory, and each pattern is
    # searched once per memory rather than once per field. The separator holds no word
    # character and ends the line, so no pattern reads across two fields.
    text = _SEPARATOR.join(p for p in parts if p)
    if text:
        # Folding is a slow per-character table lookup on non-ASCII text (a third of the
        # memories: dashes, arrows); four substring tests say whether it changes anything.
        folds = not text.isascii() and any(ch in text for ch in _FOLDED)
        lower = (text.translate(_ASCII_FOLD) if folds else text).lower()
        present = {name for needle, name in _NEEDLES if needle in lower}
        for name, needles in _ALSO_NEEDS.items():
            if name in present and not any(needle in lower for needle in needles):
                present.discard(name)
        for name, source, flags in _SECRETS:
            if name in present and _compiled(name, source, flags).search(text):
                found.add(f"secret:{name}")
        # A card number holds at least 13 digits; most memories hold fewer than that in
        # all, and counting them costs far less than the pattern tried at every position.
        if text.isascii():
            few_digits = sum(map(text.count, "0123456789")) < 13
        else:
            few_digits = len(_compiled(*_DIGIT).findall(text)) < 13
        for match in () if few_digits else _compiled(*_CARD).finditer(text):
            digits = re.sub(r"\D", "", match.group())
            if _compiled(*_CARD_PREFIX).match(digits) and _luhn(digits):
                found.add("secret:card-number")
                break
        for name, source, flags in _INJECTION:
            if name in present and _compiled(name, source, flags).search(text):
                found.add(f"injection:{name}")
    return tuple(sorted(found))


def _luhn(digits: str) -> bool:
    if not 13 <= len(digits) <= 19 or len(set(digits)) == 1:
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0
