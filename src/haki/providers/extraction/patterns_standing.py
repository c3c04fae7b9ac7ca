"""When the speaker is available and how their code is written, read by what the object is.

Two standing preferences people correct later are said without any order
word, so the request rules miss them:

- **availability**: the speaker (or "we") is off, busy, free or not
  available on a *recurring* time ("I'm off on Fridays", "I'm never
  available before 10", "je ne suis pas dispo le mercredi après-midi", "je
  suis en télétravail le lundi"). A one-off time ("I'm free on Friday",
  "je suis pas là mercredi") is a plan, not a schedule: the time must be
  plural, "every"/"tous les", or French "le" + a weekday (the habitual
  article); "before"/"after" an hour recurs only with such a marker or a
  habit word ("usually", "never available", "toujours");
- **code style**: a practice of the speaker or the team ("we use …", "on
  écrit …", "I always write …") whose object is a matter of how code is
  written — a naming case, tabs or spaces, quotes, semicolons, line
  length, type hints, the language of commit messages. Tabs and spaces
  count only in a sentence that speaks of code ("tabs in Chrome", "wide
  open spaces" do not). It is a
  ``code_convention``, the more specific reading of the team practice the
  ``convention`` rules read from the same words (the engine keeps the more
  specific one). A practice about anything else ("we deploy on Tuesdays")
  stays a ``convention``.
"""

from __future__ import annotations

from .fragments import DAYS_EN, DAYS_FR, Rule, icase
from .vocabulary import LANGS

_RECURRING_EN = (
    rf"(?:on |every )?(?:(?:{DAYS_EN})s|weekends|mornings|afternoons|evenings|nights)"
    rf"|every (?:{DAYS_EN}|weekend|morning|afternoon|evening|day)"
    r"|on weekends|at weekends|during lunch|at lunchtime"
)
# "Before/after an hour" is a habit only with a word that makes it recur:
# "I'm usually free after 3", "busy before 10 on weekdays"; "Sure, I'm free
# after 3" is an offer for today.
_HOUR_EN = r"(?:before|after|past|until) \d{1,2}(?:[:h]\d\d)?(?: ?(?:am|pm))?"
_MARK_EN = (
    rf"(?:on )?(?:(?:{DAYS_EN})s|weekdays|weekends|workdays|work days)"
    rf"|every (?:{DAYS_EN}|weekday|day|morning|evening|week)|during the week|on school days"
)
_HOUR_FR = r"(?:avant|après|jusqu'à) \d{1,2} ?h(?:\d\d)?"
_MARK_FR = (
    rf"(?:le|les|tous les|chaque) (?:{DAYS_FR})s?|tous les jours|chaque jour|en semaine"
    r"|la semaine|le week-end|les week-ends"
)
_RECURRING_FR = (
    rf"(?:le|les|tous les|chaque) (?:{DAYS_FR})s?(?: (?:matin|midi|après-midi|soir))?"
    r"|(?:le|les|tous les) (?:week-ends?|matins?|soirs?)|le matin|le soir|le midi"
)
# A time that pins the occasion down makes it one-off: "free after 5pm today",
# "libre le samedi 12".
_NOT_ONCE = r"(?! (?:today|tonight|tomorrow|this|next|ce|cet|cette|demain|aujourd'hui|prochain|\d))"
_OFF_EN = (
    r"(?:off|busy|free|unavailable|not available|never available|away|out of office|offline|not around"
    r"|not reachable|unreachable|working from home|remote|wfh|at the office|in the office)"
)
_OFF_FR = (
    r"(?:pas dispo|jamais dispo|pas disponible|indisponible|dispo|disponible|libre|pas là|absente?"
    r"|en télétravail|en congé|de repos|au bureau|injoignable)"
)

# What a code style is about.
_STYLE = (
    r"(?:snake_case|camelCase|camel case|PascalCase|pascal case|kebab-case|kebab case|SCREAMING_CASE|UPPER_CASE"
    r"|tab indentation|double quotes|single quotes|semicolons?|trailing commas?"
    r"|line length|\d+[- ]char(?:acter)? lines|type hints|type annotations|f-strings|early returns"
    r"|guillemets doubles|guillemets simples|doubles guillemets|points?-virgules?"
    r"|virgules finales|annotations de type|indentation|(?:curly )?braces|curly brackets|accolades)"
)
# Tabs and spaces are also browser tabs and open spaces: they are a code
# style only in a sentence that speaks of code.
_LAYOUT = r"(?:tabs|spaces|\d spaces|tabulations|espaces)"
_CODE = (
    r"\b(?:indent\w*|code\w*|coding|source|reformat\w*|files?|fichiers?|editor\w*|éditeur|IDE|vim|emacs|vs ?code"
    r"|repos?|repository|dépôt|lint\w*|formatt?\w*|prettier|pep ?8|style guide|functions?|fonctions?"
    r"|scripts?|programm\w*|python|javascript|typescript|js|ts|golang|rust|java|kotlin|swift|ruby|php"
    r"|c\+\+|c#|scala|haskell|elixir|yaml|json|html|css|sql|makefiles?|bash|shell|(?-i:Go))(?!\w)"
)
_COMMIT_LANG = (
    rf"(?:commit messages|messages de commit|commits)\b[^.!?]{{0,20}}?\b(?:in|en) (?:{LANGS})"
)

# The verbs of a practice of style.
_USE = (
    r"use|write|indent with|format with|prefer|stick to|name \w+ (?:in|with)|utilise|utilisons"
    r"|écrit|écrivons|écris|indente|indentons|met|mettons|nomme|nommons"
)
# The verbs of a change to a new style.
_CHANGED_TO = (
    r"(?:switched|moved|changed|migrated|went back|went|reformatted (?:everything|the code(?:base)?|all)"
    r") (?:to|with)|adopted|bumped|raised|lowered"
    r"|(?:sommes|est|a) passée?s? (?:à|aux|au)|pass(?:e|ons) (?:à|aux|au)|avons adopté|a adopté"
)
# Where the style holds ends it: "tabs, not spaces, in all our Go code" is "tabs, not spaces".
_WHERE = (
    r",? (?:in|for|dans|pour) (?:all |every |tout |tous |toute |toutes )?(?:of )?"
    r"(?:our|my|notre|nos|mon|mes|this|these|ce|cette|ces) "
)
# The code itself, or its written rule, as the subject of a style ("our js
# codebase uses camelCase for filenames", "our naming convention is
# camelCase", "notre convention de nommage, c'est le snake_case").
_CODE_SUBJECT = (
    r"\b(?:our|my|the|this|notre|mon|ma|la|le) (?:[\w+#-]+ )?"
    r"(?:codebase|code|repo|repository|project|naming convention|coding style|code style"
    r"|style guide|convention de nommage|convention|projet|dépôt)"
)
_CODE_VERB = r"(?:uses|is|are|requires|enforces|sticks to|c'est|utilise|impose|est)"

STANDING: tuple[Rule, ...] = (
    Rule(
        "schedule",
        icase(
            rf"\b(?:I(?:'m| am|'ve been| have been)|[Ww]e(?:'re| are|'ve been| have been))"
            r" (?:usually |always |generally |normally )?"
            rf"(?P<v>{_OFF_EN} (?:{_RECURRING_EN}|{_HOUR_EN} (?:{_MARK_EN})))\b{_NOT_ONCE}"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "schedule",
        icase(
            rf"\b(?:I(?:'m| am|'ve been| have been)|[Ww]e(?:'re| are|'ve been| have been))"
            r" (?:(?:usually|always|generally|normally) |(?=never ))"
            rf"(?P<v>{_OFF_EN} {_HOUR_EN}(?: (?:{_MARK_EN}))?)\b{_NOT_ONCE}"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "schedule",
        icase(
            rf"\b(?:je (?:ne )?suis|j'suis|chuis|on (?:n'est|est)|nous (?:ne )?sommes) "
            rf"(?:généralement |toujours |jamais )?(?P<v>{_OFF_FR}(?: pas)? (?:{_RECURRING_FR}"
            rf"|{_HOUR_FR} (?:{_MARK_FR})))(?![\w-]){_NOT_ONCE}"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    Rule(
        "schedule",
        icase(
            rf"\b(?:je (?:ne )?suis|j'suis|chuis|on (?:n'est|est)|nous (?:ne )?sommes) "
            r"(?:(?:généralement|toujours|d'habitude|habituellement) |(?=jamais ))"
            rf"(?P<v>{_OFF_FR}(?: pas)? {_HOUR_FR}(?: (?:{_MARK_FR}))?)(?![\w-]){_NOT_ONCE}"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
    *(
        Rule(
            "code_convention",
            icase(
                lead + r"\b(?:(?:we|I|on|nous|je|(?:the|our|my) team|l'équipe|notre équipe)"
                r"(?: always| only| never| toujours| jamais| uniquement| finally| finalement)? |j')"
                rf"(?:{verbs})"
                rf" (?:the |les |des |le |la |l')?(?P<v>[^.!?;]{{0,30}}?\b(?:{what})\b[^.!?;]{{0,40}}?)(?={stop}|$|{_WHERE})"
            ),
            "clause",
            "instruction",
            "stable",
            0.65,
        )
        # The tabs-or-spaces reading checks the whole sentence, so it starts there.
        for lead, what in (("", f"{_STYLE}|{_COMMIT_LANG}"), (rf"^(?=.*{_CODE}).*?", _LAYOUT))
        # A change of style is the style from now on ("we switched to
        # camelCase", "on est passés aux espaces"); what follows a comma
        # there is what it replaced ("…, plus de tabulations").
        for verbs, stop in ((_USE, r"[.!?;]"), (_CHANGED_TO, r"[.!?;,]"))
    ),
    Rule(
        "code_convention",
        icase(
            rf"{_CODE_SUBJECT},? (?:always |only |now )?{_CODE_VERB} (?:to (?:use|write) |d'utiliser )?(?:the |le |la |les |des )?"
            rf"(?P<v>[^.!?;]{{0,30}}?\b(?:{_STYLE})\b[^.!?;]{{0,40}}?)(?=[.!?;]|$|{_WHERE})"
        ),
        "clause",
        "instruction",
        "stable",
        0.65,
    ),
)
