"""Where obeying an order would send something or what it would run, read from the shape of a token (pure).

``text.risk`` knows the addresses its lists name: a URL, an e-mail, a host
under one of 26 well-known endings. An order can name a target in any
other shape and do the same harm: a host under any ending
("getfreeprizes.win", "bonsplans.shop", "pasteboard.ee"), a host spelled
out to slip past a link check ("bargainhub dot net", "evil[.]com"), a machine by its number
("198.51.100.7"), a phone number to text or call ("+44 7700 900123"), or a program file to run
("./install.sh", "setup.exe"). The token's shape says it is a place or a
program whatever the verb, so a standing order that holds one is an
effect target; the guard asks this only of orders, never of a statement
about the person ("my number is …" is a fact).

What is not read as a host: a file name ("main.py", "README.md",
"config.yaml": 75 endings of code, data, documents and programs), a name written in
capitals ("ASP.NET"), an abbreviation ("e.g.", "a.m."), a version or a
number ("v1.2", "3.5"). A date or a time is not a phone number. The cost:
an order that names a host in passing ("always check status.acme.io
before a deploy") waits for confirmation like one that sends there.
"""

from __future__ import annotations

import re

# File endings that a host name never has: a name ending on one is a file.
_FILE_ENDINGS = (
    "py|pyc|js|mjs|cjs|ts|tsx|jsx|md|txt|json|yaml|yml|toml|ini|cfg|conf|csv|tsv|xml|html|htm|css|scss"
    "|go|rs|rb|java|kt|swift|php|pl|lua|sql|lock|log|pdf|doc|docx|xls|xlsx|ppt|pptx|png|jpg|jpeg|gif|svg"
    "|zip|gz|tar|tgz|mp3|mp4|wav|c|h|cpp|hpp|cs|ipynb|env|bak|tmp|sh|ps1|bat|exe|msi|dmg|apk|deb|rpm|bin|run"
)
# Abbreviations written with dots that are not hosts.
_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "a.m", "p.m", "etc", "vs", "cf", "n.b", "p.s", "u.s", "u.k"}
)
# A host: labels of letters, digits and hyphens, the last all lower-case
# letters (a capitalised "ASP.NET" is a product name), not a file ending.
_HOST = re.compile(
    r"(?<![\w@./-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?-i:[a-z]{2,12}))\b(?![.-]?\w)",
    re.IGNORECASE,
)
_FILE_END = re.compile(rf"\.(?:{_FILE_ENDINGS})$", re.IGNORECASE)
# A host spelled out: "bargainhub dot net", "evil[.]com", "site (point) fr".
# Tried where a label starts only, so a long run of labels costs one pass.
_SPELLED_HOST = re.compile(
    r"(?<![a-z0-9-])[a-z0-9-]{2,}\s*(?:\[\.\]|\(\.\)|\[dot\]|\(dot\)|\s(?:dot|point)\s)\s*"
    r"(?:com|net|org|io|co|fr|de|uk|ru|xyz|top|site|info|biz|app|dev|me|ly|shop|store|win|online|club|link)\b",
    re.IGNORECASE,
)
# A machine by its number: "198.51.100.7", "10.0.0.5:8080".
_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{2,5})?(?![\w.])")
# A phone number: an international prefix, or at least eight digits in
# groups; a date (2024-01-31, 31/01/2024) or a time is not one.
_PHONE = re.compile(r"(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(?\d{1,4}\)?[\s.-]?){2,6}\d{2,4}(?!\w)")
_DATE_LIKE = re.compile(r"^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$|^\d{1,2}[:h]\d{2}")
# A program file, by its ending or as a path run from here.
_PROGRAM = re.compile(
    r"(?<![\w./-])(?:\.{0,2}/)?[\w./-]*[\w-]\.(?:sh|bash|ps1|bat|cmd|exe|msi|dmg|pkg|apk|deb|rpm|run|bin|scr|vbs|jar)\b"
    r"|(?<![\w.])\./[\w.-]+",
    re.IGNORECASE,
)


def hosts(text: str) -> list[str]:
    """The hosts in ``text``: names, then spelled-out names, then numeric addresses."""
    found = []
    for match in _HOST.finditer(text):
        name = match.group(1)
        if _FILE_END.search(name) or name.casefold() in _ABBREVIATIONS:
            continue
        if name.replace(".", "").isdigit():
            continue
        found.append(name)
    found += [m.group(0) for m in _SPELLED_HOST.finditer(text)]
    found += [m.group(0) for m in _IPV4.finditer(text)]
    return found


def phones(text: str) -> list[str]:
    """Phone numbers in ``text``: eight digits or more, or an international prefix, not a date."""
    out = []
    for match in _PHONE.finditer(text):
        token = match.group(0).strip()
        digits = sum(c.isdigit() for c in token)
        if _DATE_LIKE.match(token):
            continue
        if digits >= 8 or (token.startswith("+") and digits >= 6):
            out.append(token)
    return out


def programs(text: str) -> list[str]:
    """Program files named in ``text`` ("install.sh", "./setup", "tool.exe")."""
    return [m.group(0) for m in _PROGRAM.finditer(text)]


def address_target(text: str) -> bool:
    """Whether ``text`` names a place outside the conversation: a host of any ending or a phone number."""
    return bool(hosts(text) or phones(text))


# Every pattern a target is found by, for the prefilter of ``risk.effects``.
PATTERNS = (_HOST, _SPELLED_HOST, _IPV4, _PHONE, _PROGRAM)
