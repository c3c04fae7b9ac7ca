"""Standing practices and habits, read from their structure, English and French.

A wish that lasts is not always said as an order. People state how their
team works ("we always squash commits before merging", "in our repo tests
live next to the code", "chez nous on fait des revues de code avant chaque
merge", "our PRs need two approvals"), how they themselves work ("I mostly
code in Rust these days", "j'utilise PostgreSQL pour tous mes projets"),
or how they want to be spoken to ("talk to me like a colleague", "explique-
moi les choses simplement"). What makes each one standing is its shape, not
its verb:

- **a team's practice** — a plural or team subject ("we", "on", "our team",
  "l'équipe", a lead-in "in our repo", "chez nous", "at work") with a verb
  in the present, on the work (a word of the work's own vocabulary: "we go
  every weekend" is no practice of work): an ``instruction`` (``convention``), since the
  agent's work must follow it. Narration is not practice: a past verb, a
  verb of feeling or of being ("we loved", "we went", "we are") reads
  nothing;
- **a person's habitual use** — "I" with a habit marker ("mostly",
  "usually", "surtout", "d'habitude", "for all my …", "pour tous mes …",
  "these days") and a verb of use: a ``preference`` (``uses``), said of the
  speaker;
- **a manner of speaking** — a verb of talking or explaining with how
  ("like a colleague", "as if I were five", "simply", "simplement",
  "comme à un collègue"): an ``instruction`` (``convention``);
- **a routine said of its time** — "our team standup is at 9:30 every
  weekday": an ``attribute`` (``schedule``), with what it is as its context;
  the speaker's own, said by what they do and a time that recurs ("I have
  piano lessons on Wednesday evenings", "I pick up the kids at 4:30 every
  day", "j'ai piscine le lundi", "je travaille de 9h à 17h"): the time is
  the value, the activity its context. A time that recurs is a plural day,
  "every"/"each", French "le"/"tous les" + a weekday, or French hours "de …
  à …"; a single day ("on Monday") is a plan;
- **a thing one need not do** — "no need to apologise all the time",
  "pas besoin de me remercier à chaque fois": an ``instruction``.

What obeying any of them does is judged apart, as for every order
(``consolidator.guard``, ``text/risk.py``).
"""

from __future__ import annotations

from .fragments import DAYS_EN, DAYS_FR, Rule, icase

# What work is made of: a practice is about one of these.
_WORK_EN = (
    r"(?:code|codebase|repo|repos|repository|commits?|merg(?:e|es|ing)|branch(?:es)?|prs?|pull requests?"
    r"|reviews?|tests?|testing|deploy(?:s|ing|ments?)?|releases?|tickets?|issues?|ci|pipelines?|docs"
    r"|documentation|staging|prod|production|sprints?|linters?|formatters?|changelogs?|migrations?|builds?"
    r"|approvals?|tags?|versions?|hotfix(?:es)?|backlog|kanban|jira|gitlab|github|infra|terraform"
    r"|(?:unit|integration|e2e) tests?|feature flags?|naming|variables?|functions?|classes|modules?|apis?"
    r"|endpoints?|schemas?|logs?|logging|tabs|spaces|indentation|style guide|lint(?:ing)?)"
)
_WORK_FR = (
    r"(?:code|dépôt|repo|commits?|merges?|fusions?|branches?|revues?|relectures?|tests?|déploiements?"
    r"|mises? en prod(?:uction)?|prod|préprod|tickets?|gitlab|github|jira|ci|pipelines?|docs?"
    r"|documentation|sprints?|linter|formateur|versions?|tags?|migrations?|builds?|pr|prs|merge requests?"
    r"|variables?|fonctions?|classes|modules?|api|logs?|tabulations|espaces|indentation|nommage|noms de \w+)"
)
_EVERY_EN = (
    r"(?:always|usually|normally|generally|typically|only|never|every|each|all (?:our|the)|any)"
)
# A verb that is itself the work's ("we deploy on tuesdays only", "we
# squash before merging").
_WORK_VERB_EN = r"(?:deploy|merge|release|ship|commit|review|test|squash|rebase|lint|tag|document|refactor|pair)"
_EVERY_FR = (
    r"(?:toujours|jamais|chaque|tous|toutes|systématiquement|d'habitude|en général|uniquement)"
)
# Narration, feeling and being: no practice.
_NOT_PRACTICE_EN = (
    r"(?!(?:are|were|was|am|be|been|had|have|has|did|do|does|love|loved|like|liked|hate|hated|want|wanted"
    r"|need|wish|think|thought|feel|felt|went|got|live|lived|met|moved|can|could|would|will|should|must"
    r"|might|may|made|took|saw|came|said|told|left|bought|ate|won|lost|found|gave|knew|sent|spent|built"
    r"|began|became|wrote|drove|flew|fell|kept|brought|paid|sold|just|really|also|still|'re|'ve|'d|'ll"
    r"|[a-z]+ed)\b)"
)
_NOT_PRACTICE_FR = (
    r"(?!(?:est|sont|était|étaient|a|ont|avait|avaient|aime|aimait|adore|déteste|veut|voulait|pense"
    r"|pensait|va|allait|est allé|habite|vit|a fait|ne|n')\b)"
)
_PRESENT_EN = rf"{_NOT_PRACTICE_EN}[a-z][a-z'-]+"
_PRESENT_3SG_EN = rf"{_NOT_PRACTICE_EN}[a-z][a-z'-]+s"
_PRESENT_FR = rf"{_NOT_PRACTICE_FR}[a-zàâçéèêëîïôûùüÿœ][\wàâçéèêëîïôûùüÿœ'-]+"
_LEAD_EN = (
    r"(?:(?:in|at|on|for) my (?:team|company|org)|(?:in|at|on|for) (?:our|my team's|the team's|the|this) (?:repo|repos|codebase|code|project|projects|team"
    r"|company|org|shop|stack|side)|at work|at my work)"
)
_LEAD_FR = (
    r"(?:chez nous|(?:dans|sur) (?:notre|l'|mon|ce|cette|le) ?(?:équipe|boîte|code|dépôt|repo|projet|entreprise|boulot)"
    r"|au (?:boulot|travail|bureau))"
)
_END = r"(?:,? (?:keep (?:that|it) in mind|stick to (?:that|it)|please|thanks|fyi|btw))?[.!]?$"
_END_FR = r"(?:,? (?:respecte[sz]? (?:ça|cela)|garde ça en tête|merci|stp|s'il te plaît))?[.!]?$"


_HABIT_EN = r"(?:mostly|usually|mainly|always|only|generally|normally)"
_USE_EN = r"use|code in|program in|develop in"
_TOOL = r"(?!(?:a|an|the|my|it|this|that)\b)[\w#+.-]+(?: [\w#+.-]+)?"
_SCOPE_EN = r"(?:for (?:all|every|most) (?:of )?my [\w ]{2,30}?|these days|nowadays|at work)"
_HABIT_FR = r"(?:surtout|principalement|d'habitude|uniquement|généralement)"
_USE_FR = r"j'utilise|je code|je développe|je programme|je bosse|je travaille"
_TOOL_FR = r"(?!(?:à|au|aux|chez|pour|dans|sur|comme|le|la|les|un|une|des|mon|ma|mes)\b)[\w#+.-]+(?: [\w#+.-]+)?"
_SCOPE_FR = r"(?:pour (?:tous|toutes) mes [\w ]{2,30}?|en ce moment|au boulot|au travail)"
_TAIL = r"(?:,[^.!?]*)?[.!]?$"


def _practice(pattern: str) -> Rule:
    return Rule(
        "convention", icase(pattern), "clause", "instruction", "stable", 0.6, addressed=True
    )


PRACTICE: tuple[Rule, ...] = (
    # "we always squash commits before merging", "we use pnpm in all our frontend projects".
    _practice(
        rf"^(?:{_LEAD_EN},? )?(?P<v>we (?:{_EVERY_EN} )?(?:{_WORK_VERB_EN}\b|{_PRESENT_EN} (?=[^.!?]*\b{_WORK_EN}\b))"
        rf"[^.!?]{{2,120}}?){_END}"
    ),
    # "our team writes commit messages in the imperative mood".
    _practice(
        rf"^(?P<v>(?:our|my|the) (?:team|devs|developers|engineers|company|org) (?:{_EVERY_EN} )?{_PRESENT_3SG_EN} "
        rf"(?=[^.!?]*\b{_WORK_EN}\b)[^.!?]{{2,120}}?){_END}"
    ),
    # "our PRs need two approvals before merge", "every commit must reference a ticket".
    _practice(
        rf"^(?P<v>(?:our|all (?:our|the)|every|each) (?:\w+ )?{_WORK_EN} (?:need|needs|must|have to|has to|should"
        rf"|go|goes|live|lives|run|runs) [^.!?]{{2,100}}?){_END}"
    ),
    # "in our repo tests live next to the code", "at work we name flags ff_<team>".
    # A subject with a past, a feeling or a being narrates ("at work I met …").
    _practice(
        rf"^{_LEAD_EN},? (?P<v>(?!we had|we were|there was)"
        rf"(?!(?:I|we|they|he|she|everyone|everybody) (?!{_PRESENT_EN}))[^.!?]{{6,120}}?){_END}"
    ),
    # "chez nous on fait des revues de code avant chaque merge", "dans l'équipe on écrit …".
    _practice(
        rf"^{_LEAD_FR},? (?P<v>(?:on|nous) (?:{_EVERY_FR} )?{_PRESENT_FR} [^.!?]{{2,120}}?){_END_FR}"
    ),
    # "chez nous les tests d'intégration tournent la nuit", "nos tickets c'est sur gitlab".
    _practice(
        rf"^(?:{_LEAD_FR},? )?(?P<v>(?:les|nos) (?:\w+ ){{0,2}}?{_WORK_FR}(?: [\wàâçéèêëîïôûùüÿœ']+){{0,2}}? "
        rf"(?:c'est|sont|tournent|passent|vont|doivent|se font|ont besoin) [^.!?]{{2,100}}?){_END_FR}"
    ),
    # "on utilise black pour formater tout notre code python".
    _practice(
        rf"^(?P<v>(?:on|nous|l'équipe|notre équipe|mon équipe) (?:{_EVERY_FR} )?{_PRESENT_FR} "
        rf"(?=[^.!?]*\b{_WORK_FR}\b)[^.!?]{{2,120}}?){_END_FR}"
    ),
    # A person's habitual use: "I mostly code in rust these days", "J'utilise
    # PostgreSQL pour tous mes projets", "je bosse surtout en typescript".
    Rule(
        "uses",
        icase(
            rf"^I (?:{_HABIT_EN} )(?:{_USE_EN}) (?P<v>{_TOOL})(?: {_SCOPE_EN})?{_TAIL}"
            rf"|^I (?:{_USE_EN}) (?P<v2>{_TOOL}) {_SCOPE_EN}{_TAIL}"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
        addressed=True,
    ),
    Rule(
        "uses",
        icase(
            rf"^(?:{_USE_FR}) (?:{_HABIT_FR} )(?:en |avec |sous )?(?P<v>{_TOOL_FR})(?: {_SCOPE_FR})?{_TAIL}"
            rf"|^(?:{_USE_FR}) (?:en |avec |sous )?(?P<v2>{_TOOL_FR}) {_SCOPE_FR}{_TAIL}"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
        addressed=True,
    ),
    # A manner of speaking: "talk to me like a colleague", "explique-moi les choses simplement".
    _practice(
        r"^(?:please,? |pls,? )?(?P<v>(?:talk|speak|write|answer|reply|respond|explain(?: things)?|address me)"
        r"(?: to me| with me| me)? (?:like|as if|as though|as you would|in plain|in simple|simply|plainly|casually"
        r"|formally|informally|in a (?:\w+ ){1,2}(?:tone|way|manner|voice))\b[^.!?]{0,80}?)"
        r"(?:,? (?:not like|not as)[^.!?]{0,60})?(?:,? please)?[.!]?$"
    ),
    _practice(
        r"^(?:merci de |stp,? )?(?P<v>(?:parle|écris|réponds|explique|adresse-toi)(?:-moi)?(?: à moi)?"
        r"(?: les choses| tout)? (?:comme|simplement|clairement|familièrement|simple|sur un ton|avec des mots"
        r"|sans (?:jargon|chichis))\b[^.!?]{0,80}?)(?:,? (?:stp|merci|s'il te plaît))?[.!]?$"
    ),
    # Something the agent need not do: "no need to apologise all the time".
    _practice(
        r"^(?P<v>(?:no need to|there's no need to|you don't (?:need|have) to|pas besoin de|tu n'as pas besoin de)"
        r" (?:keep )?[a-zàâçéèêëîïôûùüÿœ'-]+[^.!?]{0,60}?\b(?:all the time|every time|each time|anymore|any more"
        r"|always|in (?:every|each|your) (?:answer|reply|message)s?|à chaque fois|tout le temps|dans tes réponses"
        r"|systématiquement)\b[^.!?,]{0,40}?)(?:,|[.!]|$)"
    ),
    # The speaker's routine: a verb of doing, what is done, a time that recurs.
    Rule(
        "schedule",
        icase(
            r"^(?:I|we)(?: usually| always| normally| still)? (?:have|do|go to|take|attend|teach|train"
            r"|pick up|drop off|work|play|swim|practi[cs]e)\b(?P<ctx2>[^.!?,;]{1,40}?)"
            r" (?:at (?P<v>\d{1,2}(?::\d\d)?(?: ?[ap]m)?) (?:every|each) (?:day|weekday|morning|evening)"
            rf"|(?:every|each) (?P<v2>weekend|(?:{DAYS_EN})(?: (?:morning|afternoon|evening|night))?)"
            rf"|on (?P<v3>(?:{DAYS_EN})s(?: and (?:{DAYS_EN})s)?|(?:{DAYS_EN}) (?:morning|afternoon|evening|night)s))"
            r"(?:,? (?:before|after) (?:work|school))?[.!]?$"
        ),
        "phrase",
        "attribute",
        "slow",
        0.6,
        addressed=True,
    ),
    Rule(
        "schedule",
        icase(
            r"^(?:j'ai|on a|je vais (?:à|au|aux)|on va (?:à|au|aux)|je fais|je travaille|je bosse|je donne"
            r"|je prends)\b(?P<ctx2>[^.!?,;]{0,40}?)"
            rf" (?P<v>(?:le|les|tous les|chaque) (?:{DAYS_FR})s?(?: (?:matin|midi|après-midi|soir)s?)?"
            r"|tous les (?:jours|matins|soirs)|de \d{1,2} ?h(?:\d\d)? à \d{1,2} ?h(?:\d\d)?)"
            r"(?: (?:en semaine|après le (?:boulot|travail)))?[.!]?$"
        ),
        "phrase",
        "attribute",
        "slow",
        0.6,
        addressed=True,
    ),
    # A routine said of its time: "Our team standup is at 9:30 every weekday".
    Rule(
        "schedule",
        icase(
            r"^(?:our|my|the|notre|mon|ma) (?P<ctx2>(?:team |daily |weekly |équipe )?(?:standup|stand-up|sync|retro"
            r"|retrospective|planning|meeting|réunion|point|daily|weekly)(?: d'équipe)?) (?:is|are|happens|est|a lieu)"
            r" (?:at |à )?(?P<v>(?:\d|every |on |le |les |tous les |chaque )[^.!?]{1,40}?)[.!]?$"
        ),
        "phrase",
        "attribute",
        "slow",
        0.6,
        addressed=True,
    ),
)
