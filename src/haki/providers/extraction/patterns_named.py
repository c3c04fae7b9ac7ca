"""Who the speaker names, where they can be reached and where they live, read by structure.

People name the beings of their life in many shapes: "The dog's called
Ziggy", "my partner is Sam", "notre chienne, c'est Lola", "Ma fille, elle
s'appelle Jade". One reader covers them all: a possessive (or "the", "le",
"la") before a noun, an optional adjective ("older", "best", "petite"),
a naming verb, then a capitalised name that ends its clause. The noun says
the predicate: a relation word of the rules (``RELATION_PREDICATES``) or a
word the relation's topic lists (``text.topics.relation_words``: "bestie",
"pote", "hubby"); a noun that names no relation ("my boss is Mike", "my
car is a Tesla") gives no fact here.

A bare "is" before the name is the riskiest shape ("My husband is
French", "my daughter is Elsa this year"): it is read only after a
possessive, never for a child (a child "is" a costume or a role far more
often than a name; "'s called" still names one), and a word the speaker
may use as an adjective of a person is no name: a listed nationality, faith or state,
a colour, a zodiac sign, or a word shaped like an adjective of origin
(-ian, -ese, -ish, -ican, "Bangladeshi", "Filipina"; see ``_DESCRIPTION``).

A birthday told without a subject ("Turned 35 last Tuesday") is the
speaker's only when the number is no measure ("turned 40 degrees") and no
other person is the topic of the turn ("My daughter just had her birthday.
Turned 7 on Sunday."): ``another_turned`` reads the whole turn.

The other two readers follow the same idea, a first person and a verb that
says what its object is:

- contact details given as a way to reach the speaker ("you can reach me
  at …", "text me on …", "tu peux me joindre au …"): the value's shape
  says whether it is an e-mail address or a phone number;
- where the speaker lives said with a shared subject ("we live in Leeds",
  "on habite à Rennes", "nous vivons à Lyon"), and the job given after the
  employer ("I work at Deloitte as an auditor", "je bosse chez Orange
  comme comptable").
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ...text.topics import relation_words
from .fragments import (
    CAP,
    CAP_SEQ,
    EMAIL,
    END,
    KIN_ADJ_EN,
    KIN_ADJ_FR,
    PHONE,
    PHRASE,
    Rule,
    cased,
    icase,
)

_ADJ_EN = KIN_ADJ_EN
_ADJ_FR = KIN_ADJ_FR
# The noun: any lower-case word; the engine maps it to a relation or drops it.
_NOUN = r"(?P<rel>(?-i:[a-zàâçéèêëîïôûùüÿœ][a-zàâçéèêëîïôûùüÿœ-]+))"
# A name ends its clause: "Sam, we've been together", "Lola.", "Jade et …".
_NAME_END = (
    r"(?=\s*(?:[,.;:!?)]|$|\s[-–—]\s|\s(?:and|et|but|mais|btw|lol|haha|too|aussi|now|maintenant"
    r"|for the record|fwiw)\b))"
)
# Capitalised words that say what a person is, not who: "My husband is French".
_NOT_NAMES = (
    r"(?!(?:French|English|British|Irish|Scottish|Welsh|American|Canadian|Mexican|Brazilian"
    r"|Italian|Spanish|Portuguese|German|Dutch|Belgian|Swiss|Austrian|Polish|Russian|Ukrainian"
    r"|Greek|Turkish|Indian|Pakistani|Chinese|Japanese|Korean|Vietnamese|Thai|Filipino"
    r"|Australian|African|Asian|European|Latino|Latina|Arab|Arabic|Jewish|Muslim|Catholic"
    r"|Christian|Buddhist|Hindu|Protestant|Orthodox|Vegan|Vegetarian|Single|Married|Pregnant"
    r"|Autistic|Deaf|Blind|Gay|Lesbian|Bi|Trans|Sick|Ill|Home|Back|Here|There|Away|Out|Fine"
    r"|Great|Good|Okay|OK|Ok|Happy|Sad|Tired|Cute|Lazy|Old|Young|Busy|Gone|Dead|Alive|Better|Worse"
    r"|Amazing|Awesome|Adorable|Right|Wrong|Late|Early|Done|Ready|Sure"
    r"|Nigerian|Kenyan|Ghanaian|Egyptian|Moroccan|Algerian|Tunisian|Senegalese|Ethiopian|Israeli"
    r"|Iranian|Iraqi|Syrian|Lebanese|Saudi|Afghan|Bangladeshi|Nepalese|Indonesian|Malaysian"
    r"|Singaporean|Taiwanese|Cambodian|Burmese|Argentinian|Argentine|Chilean|Colombian|Peruvian"
    r"|Venezuelan|Cuban|Jamaican|Haitian|Dominican|Norwegian|Swedish|Danish|Finnish|Icelandic|Czech"
    r"|Slovak|Hungarian|Romanian|Bulgarian|Serbian|Croatian|Bosnian|Albanian|Lithuanian|Latvian"
    r"|Estonian|Georgian|Armenian|Kazakh|Mongolian|Kiwi|Sikh|Mormon|Atheist|Agnostic|Republican"
    r"|Democrat|Conservative|Liberal)\b)"
)

# Capitalised words shaped like what a person is rather than who: a colour,
# a zodiac sign ("Leo" is left a name), or an adjective of origin by its
# ending. The endings are gated by length so that short given names keep
# their reading ("Ian", "Julian", "Ryan", "Naomi"); the cost is a few long
# names of the same shape ("Sebastian", "Lillian") after a bare "is".
_DESCRIPTION = (
    r"(?!(?:Black|White|Brown|Biracial|Mixed|Amish|Aries|Taurus|Gemini|Cancer|Virgo|Libra|Scorpio"
    r"|Sagittarius|Capricorn|Aquarius|Pisces)\b)"
    r"(?!(?=\w{7,}\b)\w+(?:ian|ean|ican)\b)"
    r"(?!(?=\w{6,}\b)\w+(?:ese|ish|yan|ani|eli|aqi|udi|shi|ali|abi|iti|ari|eni|ati)\b)"
    r"(?!(?=\w{8,}\b)\w+(?:(?<!t)in[ao]|ic)\b)"
)
# A child "is" a role far more often than a name ("my daughter is Elsa this
# year", "my son is Spiderman for Halloween"): the bare "is" never names one.
_CHILDREN = {
    "son",
    "daughter",
    "kid",
    "child",
    "baby",
    "boy",
    "girl",
    "stepson",
    "stepdaughter",
} | {
    word
    for word, predicate in relation_words().items()
    if predicate in {"son", "daughter"} and " " not in word
}
_IS_NOUN = (
    "(?!(?:"
    + "|".join(re.escape(w) for w in sorted(_CHILDREN, key=lambda w: (-len(w), w)))
    + r")\b)"
)

# A birthday with its subject dropped, and a number that says a measure, not years.
_SUBJECTLESS_AGE = r"^(?:just |finally |officially )?turned (?P<v>\d{1,2})\b"
_MEASURE = (
    r"(?!\s*(?:%|°|percent|per ?cent|degrees?|deg\b|minutes|mins|hours|hrs|days|weeks|months|seconds"
    r"|secs|km|kms|kilomet|miles?|mph|kph|meters|metres|feet|ft|yards|laps|points|pts|pounds|lbs|kg"
    r"|kilos|bucks|dollars|euros|quid|times|x\b|k\b|pages|reps|sets|pm|am|o'clock|h\b|:))"
)
# Another person the turn is about: a relation word or a third-person pronoun.
_ANOTHER = re.compile(
    r"\b(?:he|she|his|her|him|kids?|child|children|baby|boy|girl|little one|toddler)\b",
    re.IGNORECASE,
)
_SUBJECTLESS = re.compile(_SUBJECTLESS_AGE, re.IGNORECASE)


def another_turned(evidence: str, turn: str, relations: Collection[str]) -> bool:
    """True when a subjectless "turned N" (``evidence``) is about another person of ``turn``.

    A dropped subject stands for the topic of the turn: the speaker, unless
    the turn speaks of someone else ("My daughter just had her birthday.
    Turned 7 on Sunday.", "Turned 5! My little girl is growing up").
    """
    if not _SUBJECTLESS.match(evidence.strip()):
        return False
    words = set(re.findall(r"[\w'-]+", turn.lower()))
    return bool(words & set(relations)) or _ANOTHER.search(turn) is not None


# "as a result", "comme d'habitude": a manner, not a job.
_NOT_ROLE = (
    r"(?!(?:d')?(?:result|matter|consequence|joke|favou?r|bonus|side|habitude|hab|prévu|toujours"
    r"|team|group|whole|family)\b)"
)

# "'s name is", "is called", "'s called", "goes by" (EN); "s'appelle",
# ", elle s'appelle", ", c'est" (FR).
_NAMING_EN = (
    r"(?:'s name(?:'s| is)| name is|(?:'s| is) (?:called|named)|,? (?:he|she|it)(?:'s| is) (?:called|named)"
    r"| goes by)"
)
# A name set apart by a comma or a dash that ends the sentence.
_APPOSED = rf"(?:,| [-–—]) (?P<v>{CAP})(?=\s*(?:[.!]+|$))"
_NAMING_FR = r"(?:,? (?:il |elle )?(?:s'appelle|se nomme|se prénomme)|,? c'est)"
# A word of time or of correction between the noun and its naming verb
# ("my dog now is Biscuit", "my sister actually is called Hanna", "mon chien
# maintenant s'appelle Max"): the name is still what the noun is called.
_NOW = r"(?: (?:now|actually|really|currently|these days|nowadays|maintenant|en fait|désormais))?"

_CONTACT_EN = (
    r"\b(?:reach|contact|email|e-mail|mail|text|call|ping|message|phone|ring|write to|get hold of"
    r"|get in touch with) me (?:at|on|via|by|through)(?: (?:my )?(?:email|e-mail|mail|phone|mobile"
    r"|cell|number|address))?:? "
)
_CONTACT_FR = (
    r"\b(?:me (?:joindre|contacter|texter|biper)|m'(?:écrire|appeler|envoyer un (?:mail|sms|texto|message))"
    r"|(?:écris|appelle|contacte|joins|texte|écrivez|appelez|contactez|joignez)-moi)"
    r" (?:à|au|sur|par)(?: (?:l'adresse|le numéro|le|mail|e-mail|sms))?:? "
)

NAMED: tuple[Rule, ...] = (
    Rule(
        "",
        cased(
            rf"\b(?i:(?:my|our) {_ADJ_EN}){_NOUN}(?i:{_NOW}{_NAMING_EN}) (?P<v>{CAP}){_NAME_END}"
        ),
        "name",
        confidence=0.75,
    ),
    # "The" points at a being already spoken of; with two dogs, "Wait no,
    # the dog is called Max" cannot say which one, so only the possessive
    # forms the rules read after "the" ("the dog's name is") are read here.
    Rule(
        "",
        cased(
            rf"\b(?i:the {_ADJ_EN}){_NOUN}(?i:'s (?:called|named|name(?:'s| is))) (?P<v>{CAP}){_NAME_END}"
        ),
        "name",
        confidence=0.7,
    ),
    # The bare "is" only after a possessive and for no child: "my partner is Sam".
    Rule(
        "",
        cased(
            rf"\b(?i:(?:my|our) {_ADJ_EN}){_IS_NOUN}{_NOUN}(?i:{_NOW}) is {_NOT_NAMES}{_DESCRIPTION}(?P<v>{CAP}){_NAME_END}"
        ),
        "name",
        confidence=0.65,
    ),
    Rule(
        "",
        cased(
            rf"\b(?i:(?:mon|ma|notre|le|la) {_ADJ_FR}){_NOUN}(?i:{_NOW}{_NAMING_FR}) (?P<v>{CAP}){_NAME_END}"
        ),
        "name",
        confidence=0.75,
    ),
    # The possessive pronoun set against someone else's ("Rufus is my
    # parents' dog, not mine. mine's a cat named Olive"): the speaker's own.
    Rule(
        "",
        cased(
            rf"(?:^|[,;.]\s*|\b(?i:but|and) )(?i:mine(?:'s| is) (?:an?|actually an?|now an?) {_ADJ_EN}){_NOUN}"
            rf"(?i: (?:named|called)) (?P<v>{CAP}){_NAME_END}"
        ),
        "name",
        confidence=0.7,
    ),
    # A being brought into the speaker's life, named in apposition at the end:
    # "we brought home a rescue greyhound, Pickle", "on a adopté un chaton, Filou".
    Rule(
        "",
        cased(
            r"\b(?i:(?:I|we)(?:'ve| have)? (?:just |finally |recently )?(?:adopted|got|rescued|brought home"
            rf"|picked up|welcomed) (?:a|an|another|our) (?:[a-z-]+ ){{0,2}}?){_NOUN}{_APPOSED}"
        ),
        "name",
        confidence=0.7,
    ),
    Rule(
        "",
        cased(
            r"\b(?i:(?:I|we)(?:'ve| have)? (?:just )?(?:had|welcomed) (?:a|our) (?:baby |little |new )?)"
            rf"(?P<rel>boy|girl|son|daughter){_APPOSED}"
        ),
        "name",
        confidence=0.7,
    ),
    Rule(
        "",
        cased(
            r"\b(?i:(?:j'ai|on a|nous avons) (?:enfin |récemment )?(?:adopté|pris|eu|recueilli|accueilli)"
            rf" (?:un|une) (?:[a-zàâçéèêëîïôûùüÿœ-]+ ){{0,2}}?){_NOUN}{_APPOSED}"
        ),
        "name",
        confidence=0.7,
    ),
    # The subject people drop from a birthday: "Turned 35 last Tuesday".
    Rule(
        "age",
        icase(_SUBJECTLESS_AGE + _MEASURE),
        "number",
        volatility="slow",
        confidence=0.7,
    ),
    Rule("email", icase(rf"{_CONTACT_EN}(?P<v>{EMAIL})"), "email", confidence=0.8),
    Rule("phone", icase(rf"{_CONTACT_EN}(?P<v>{PHONE})"), "phone", confidence=0.75),
    Rule("email", icase(rf"{_CONTACT_FR}(?P<v>{EMAIL})"), "email", confidence=0.8),
    Rule("phone", icase(rf"{_CONTACT_FR}(?P<v>{PHONE})"), "phone", confidence=0.75),
    Rule(
        "home_city",
        cased(
            r"\b(?i:(?:we|my \w+ and I|[A-Z]\w+ and I)(?:'ve| have)?(?: been)? (?:currently |now |still )?"
            rf"(?:live|living)) in (?P<v>{CAP_SEQ})"
        ),
        "place",
        volatility="slow",
        confidence=0.75,
    ),
    # Moving in with someone somewhere, the subject often dropped:
    # "Moved in with my girlfriend in Bristol", "we moved in together in Leeds".
    Rule(
        "home_city",
        cased(
            r"(?:^|\b(?i:I|we)(?:'ve| have)? )(?i:(?:just |finally )?moved in (?:together |with (?:my |our )?"
            rf"[\w-]+ )?)(?:in|to) (?P<v>{CAP_SEQ})"
        ),
        "place",
        volatility="slow",
        confidence=0.7,
    ),
    Rule(
        "home_city",
        cased(
            r"\b(?i:(?:on|nous) (?:habite|habitons|vit|vivons|est installés?|sommes installés?)"
            rf"(?: maintenant| désormais| toujours)?) (?:à|a|en|au) (?P<v>{CAP_SEQ})"
        ),
        "place",
        volatility="slow",
        confidence=0.75,
    ),
    Rule(
        "occupation",
        icase(
            r"\bI(?:'ve| have)?(?: been)? (?:currently |now )?(?:work|working)"
            rf" (?:at|for) (?-i:[A-Z][\w&'-]*(?: [A-Z][\w&'-]*){{0,3}}) as an? {_NOT_ROLE}(?P<v>{PHRASE}){END}"
        ),
        "phrase",
        volatility="slow",
        confidence=0.75,
    ),
    Rule(
        "occupation",
        icase(
            r"\bje (?:travaille|bosse|taffe) (?:chez|pour) (?-i:[A-ZÀ-Ý][\w&'-]*(?: [A-ZÀ-Ý][\w&'-]*){0,3})"
            rf" (?:comme|en tant que) {_NOT_ROLE}(?P<v>{PHRASE}){END}"
        ),
        "phrase",
        volatility="slow",
        confidence=0.75,
    ),
)

# The relation words the readers above may name, beyond the rules' own.
NAMED_RELATIONS: dict[str, str] = relation_words()
