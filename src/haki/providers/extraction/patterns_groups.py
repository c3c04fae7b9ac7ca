"""Belonging to a group, read from its frame and the group's shape.

"I'm in the Riverside Rowing Club", "i'm part of the downtown toastmasters
group", "je suis à l'AMAP du quartier", "je me suis inscrite au Tennis Club
de Nantes": a frame of belonging, then a group. Where the frame says
belonging itself ("member of", "part of", "belong to", "membre de", "fait
partie de"), a group is a capitalised name or a phrase ending in a group
noun; where the frame is only a place ("in", "on", "à", "dans"), the group
noun is required, so "I'm in Paris" or "I'm in the team meeting" (the noun
does not end the group) stay unread, and so does a bare group noun there
("je suis au club ce soir" says where, and so does "I'm in a band"). "je suis bénévole à/aux X" is the
French of "I volunteer at X"; a group named after its noun ("in a band
called Static Hum") is the name, and so is a union one is "syndiqué" to.
Doing what the group does is a frame of belonging too ("I sing in the
church choir", "je chante dans la chorale du quartier"), and so is
"I've been with the … Club", both with a group noun that is not bare. Cost: a group without a group noun after a
place frame ("I'm in Toastmasters") stays unread.
"""

from __future__ import annotations

from .fragments import CAP_SEQ, Rule, icase

# Nouns that end a group's name, English and French ("gym" is a place too).
_GROUP_NOUN = (
    r"(?:club|group|team|choir|band|society|association|league|union|guild|crew|circle|collective"
    r"|chapter|troupe|orchestra|co-op|coop|committee|board|council|squad"
    r"|groupe|équipe|chorale|asso|amicale|ligue|syndicat|orchestre|collectif|comité|conseil|amap)"
)
_WORD = r"[\w'’&-]+"
# A phrase ending in a group noun, with one word of what it belongs to:
# "Tennis Club de Nantes", "AMAP du quartier", "chess club of Lyon".
_GROUP = rf"(?:{_WORD} ){{0,4}}?{_GROUP_NOUN}(?: (?:of|de|du|des|d') ?(?:the |la |le |l')?{_WORD})?"
# Where a group's name ends: the clause, or a word that starts another part.
_AFTER = (
    r"(?=\s*(?:[,.;:!?)]|$)|\s[-–—]\s|\s(?:since|for|and|but|we|now|too|these|this|depuis|hier"
    r"|et|mais|on|nous|maintenant|aussi|cette|ce|où|where)\b)"
)
# A group noun alone (no name before it, no "of" after it), article or not.
_BARE = rf"(?:the |a |an |our |la |le |l')?{_GROUP_NOUN}\b(?! (?:of|de|du|des|d'))"
# Frames that say belonging, and frames that only say where.
_BELONG_EN = (
    r"\bI(?:'m| am|'ve been| have been) (?:(?:also |now |still )?(?:a |an )?(?:proud |paying |new |active )?"
    r"member|(?:also |now )?part) (?:of|at) (?:the |a |an |our )?"
    r"|\bI (?:also |now )?belong to (?:the |a |an )?"
)
_BELONG_FR = (
    r"\bje (?:suis|fais) (?:aussi |maintenant |désormais )?(?:membre|adhérente?|partie) "
    r"(?:de la |de l'|du |des |de |d')"
    r"|\bje suis (?:aussi |maintenant |désormais )?syndiquée? (?:à la |à l'|au |chez )"
    r"|\bje me suis (?:\w+ )?inscrite? (?:au |aux |à la |à l'|dans (?:un |une |le |la |l'))"
)
_PLACE_EN = (
    r"\bI(?:'m| am) (?:also |now |still )?(?:in|on) (?:the |a |an |our )?"
    # "I've been with the Hartford Chess Club since 2019": a tie to a group
    # (a person or a company after "with" is no group: its noun is required).
    r"|\bI(?:'ve| have) (?:also )?been with (?:the |a |an |our )?"
)
_PLACE_FR = r"\bje suis (?:aussi |maintenant )?(?:à l'|à la |au |aux |dans (?:le |la |l'|un |une ))"


def _member(pattern: str) -> Rule:
    return Rule("member_of", icase(pattern), "phrase", "preference", "slow", 0.6)


# A group the speaker is in, named after its noun: "I play bass in a band
# called Static Hum", "we're in a book club named Dog-Eared".
_NAMED_GROUP = (
    rf"\b(?:I|I'm|we|we're)\b[^.!?,;]{{0,30}}?\b(?:in|of|joined) (?:a|an|the|our) {_GROUP_NOUN}"
    rf" (?:called|named) (?P<v>(?-i:{CAP_SEQ}))"
)

# Taking part in a group by doing what the group does: "je chante dans une
# chorale", "I play guitar in a cover band", "je joue dans l'orchestre du
# lycée". As after a place frame, a bare group noun says too little to
# store ("I play the guitar in a band"): the group needs a word that tells
# it apart, before or after its noun.
_DOING_EN = r"\bI (?:also |still |now |usually )?(?:sing|play|dance|perform|drum|row|swim|run)(?: [a-z]+){0,2}?"
_DOING_FR = r"\bje (?:chante|joue|danse|rame|nage|cours)(?: (?:du|de la|de l'|des)? ?[a-zà-ÿ]+)?"
_TAKING_PART = (
    rf"(?:{_DOING_EN} in (?:the |a |an |our |my )"
    rf"|{_DOING_FR} dans (?:la |le |l'|un |une |notre |mon |ma ))(?!{_BARE})"
    rf"(?P<v>(?:[a-zà-ÿ][\w'-]* )?{_GROUP_NOUN}(?: (?:of|de|du|des|d') ?(?:the |la |le |l')?{_WORD})?)"
    rf"{_AFTER}"
)

GROUPS: tuple[Rule, ...] = (
    _member(_NAMED_GROUP),
    _member(_TAKING_PART),
    _member(
        rf"(?:{_BELONG_EN}|{_BELONG_FR})(?P<v>{_GROUP}|(?-i:{CAP_SEQ})){_AFTER}",
    ),
    # A bare group noun after a place frame is where one is ("je suis au club
    # ce soir"); a named group is what one belongs to.
    _member(rf"(?:{_PLACE_EN}|{_PLACE_FR})(?!{_BARE})(?P<v>{_GROUP}){_AFTER}"),
    Rule(
        "volunteers_at",
        icase(
            rf"\bje suis (?:aussi )?bénévole (?:à l'|à la |au |aux |à |chez |dans (?:le |la |l'|une? ))"
            rf"(?P<v>{_GROUP}|(?-i:{CAP_SEQ})){_AFTER}"
        ),
        "phrase",
        "preference",
        "slow",
        0.6,
    ),
)
