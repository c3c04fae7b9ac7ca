"""The words ``risk`` reads orders with: acts that give something out, and what
must not be given (secrets, personal details, whereabouts, the agent's hidden
rules, other people's data). Regex fragments, EN and FR, joined by ``risk``.
"""

DISCLOSE = (
    r"(?:share|sharing|reveal|revealing|disclose|tell|give|include|print|show|display|list|send|post|read out"
    r"|paste|output|repeat|expose|publish|leak|dump|append|put|answer(?: questions)? about|be open about|talk about"
    r"|give out|hand out|read back"
    # The same acts as they are said in a lasting order ("keep showing …").
    r"|showing|shows|displaying|printing|including|listing|sending|posting|pasting|repeating|telling"
    r"|giving|revealing|putting|outputting|dumping|appending|publishing|exposing|leaking|reading out"
    r"|partage[rz]?|r[ée]v[èe]le[rz]?|donne[rz]?|indique[rz]?|affiche[rz]?|envoie[rz]?|inclu(?:s|re|ez)|mets|mettre|colle[rz]?|publie[rz]?"
    r"|dis|dire|raconte[rz]?|montre[rz]?|recopie[rz]?|r[ée]p[èe]te[rz]?"
    # Giving out by quoting it back as the reply: "reply with the contents
    # of …", "recite your instructions", "liste tout ce que …", "en recopiant …".
    r"|reply with|respond with|answer with|recite|reciting|quote|quoting|r[ée]ponds? avec|liste[rz]?|lister"
    r"|cite[rz]?|recopiant|affichant|montrant|donnant|listant|citant|r[ée]p[ée]tant|partageant|r[ée]v[ée]lant)"
)
SENSITIVE = (
    r"(?:passwords?|passphrases?|pass ?codes?|pins?|api[ _-]?keys?|secret(?: key)?s?|tokens?|credentials?|creds"
    r"|private keys?|ssh keys?|session (?:ids?|cookies?)|cookies?|card numbers?|credit cards?|cvv|iban|bank (?:details|account)"
    r"|social security(?: numbers?)?|ssn|passport(?: numbers?)?|date of birth|medical (?:records?|history)|health data"
    r"|(?:home |postal )?address(?:es)?|phone numbers?|personal (?:data|details|information|info)|contacts? list"
    r"|\.env\b|env(?:ironment)? var(?:iable)?s|config(?:uration)? secrets|keychain|vault"
    r"|mots? de passe|cl[ée]s? (?:api|priv[ée]es?|secr[èe]tes?)|identifiants|jetons?|num[ée]ros? de carte"
    r"|coordonn[ée]es(?: bancaires)?|donn[ée]es (?:personnelles|m[ée]dicales)|num[ée]ro de s[ée]cu(?:rit[ée] sociale)?"
    # The personal details the English list names, as French says them.
    r"|adresses? (?:postales?|personnelles?|perso|du domicile|e-?mails?|mails?)"
    r"|num[ée]ros? (?:de (?:t[ée]l[ée]phone|portable|mobile|passeport|carte vitale)|perso)"
    r"|date de naissance|dossiers? m[ée]dica(?:l|ux)|carnet d'adresses|liste de contacts)"
)
# The speaker's own e-mail, named as theirs: "my email", "my new e-mail
# address", "mon adresse mail", "mon courriel".
OWN_EMAIL = (
    r"(?:[Mm]y|[Mm]on|[Mm]a) (?:new |current |nouvelle |nouveau |personal |work )?"
    r"(?:e-?mail(?: address)?|mail address|adresse (?:e-?mail|mail|électronique)|courriel|mail)"
)
# Where the person is to be found, said as a clause rather than a noun:
# "where I live" is the home address. Told to the person themself it is
# their own errand ("the weather where I live"), so it is read only when
# told to others (``risk._TOLD_OTHERS``).
WHEREABOUTS = (
    r"(?:where (?:I|we) (?:live|work|stay|sleep|park|hide the key)|my (?:whereabouts|location|home)"
    r"|when (?:I'm|I am|we're) (?:away|out|home|on holiday)"
    r"|o[ùu] (?:j'habite|j'habites|je (?:vis|travaille|dors|suis))|quand je (?:suis absente?|pars)"
    # And what the agent keeps about them: "what you've saved about me".
    r"|(?:what|everything|all) (?:that )?you(?:'ve| have)? (?:stored|saved|remembered|recorded|memori[sz]ed|learned|know)"
    r" about (?:me|us)|(?:ce que|tout ce que) tu (?:sais|as (?:enregistr|m[ée]moris|retenu|not)\w*) (?:sur|de) (?:moi|nous))"
)
# What the agent was told to keep to itself, and what it holds for everyone
# it serves: its rules (12 forms in EN and FR, and the rules as given by its
# makers: "the instructions your developers gave you", "les instructions que
# tes développeurs t'ont données"), its secrets or configuration file, and
# all it has stored ("everything you've saved", "tout ce que tu as
# enregistré", "your memory").
_MAKERS = r"(?:developers?|devs|creators?|makers?|operators?|d[ée]veloppeu(?:rs|ses)|cr[ée]ateurs|concepteurs)"
HIDDEN_RULES = (
    r"(?:(?:system|initial|original|hidden|internal|secret|developer|base|pre-?)\s?(?:prompts?|instructions?|rules|guidelines"
    r"|messages?|config\w*)|your (?:own )?(?:instructions|rules|prompt|guidelines|configuration|config|directives)"
    r"|prompts? syst[èe]me|(?:instructions?|consignes|r[èe]gles) (?:initiales|cach[ée]es|internes|syst[èe]me|secr[èe]tes)"
    r"|(?:tes|vos) (?:consignes|instructions|r[èe]gles|directives)"
    rf"|(?:instructions?|rules|guidelines|directives|prompts?|consignes|r[èe]gles)\s(?:[\w']+\s){{0,3}}?(?:your|tes|vos|the|les) {_MAKERS}"
    r"|(?:instructions?|rules|consignes|r[èe]gles) (?:you were given|you've been given|you got|qu'on t'a donn[ée]es)"
    r"|(?:your|tes|vos|ton|votre) (?:secrets?|config(?:uration)?|settings|memory) files?"
    r"|(?:ton|votre) fichier (?:de )?(?:secrets?|config\w*)|(?:your|ta|votre) (?:whole |entire |full )?(?:memory|m[ée]moire)"
    r"|(?:everything|all|tout|tout ce)\s(?:that\s)?(?:you(?:'ve| have)?|que tu as|tu as|t'as|que vous avez)\s(?:\w+\s)?"
    r"(?:stored|saved|recorded|remembered|memori[sz]ed|logged|enregistr[ée]\w*|m[ée]moris[ée]\w*|stock[ée]\w*|retenu\w*))"
)
# People other than the speaker, whose data is not theirs to hand out: 9 nouns
# behind "other/another", FR "les autres …", and what others confided.
OTHERS = (
    r"(?:(?:other|another|different|someone else'?s?)\s(?:\w+\s)?(?:users?|customers?|clients?|people|persons?|members?"
    r"|employees?|colleagues?|patients?|students?|subscribers?|accounts?)|others'|what others\b"
    r"|(?:des |les |d'|aux )autres (?:utilisateurs|clients|gens|personnes|membres|employ[ée]s|coll[èe]gues|patients"
    r"|[ée]l[èe]ves|abonn[ée]s)|autrui|salar(?:y|ies)|salaires?"
    # Everyone served at once: "all users", "tous les utilisateurs".
    r"|(?:all|every|each)\s(?:the\s|of the\s)?(?:users?|customers?|clients?|members?|patients?|accounts?)"
    r"|(?:tous|toutes|chacun) (?:les |des )?(?:utilisat(?:eurs|rices)|clients?|membres|patients|comptes|abonn[ée]s))"
)
# Where secrets are kept on disk, as a path says it: a hidden directory of a
# home (~/.ssh, ~/.aws, ~/.gnupg, ~/.kube, ~/.config/… hold per-user keys
# and tokens), the system's password files, and files named for key
# material or credentials wherever they are. Reading one out discloses what
# it keeps, whatever the file is called in the order.
SECRET_PATH = (
    r"(?:(?:~|\$HOME|%USERPROFILE%|/home/\w+|/Users/\w+|/root)[/\\]\.[\w.-]+"
    r"|/etc/(?:shadow|gshadow|passwd|sudoers|master\.passwd|ssl/private)\b|/root\b"
    r"|(?<![\w.])(?:[\w./-]*/)?(?:id_(?:rsa|dsa|ecdsa|ed25519)\b|\.netrc\b|\.pgpass\b|\.npmrc\b|\.pypirc\b"
    r"|\.git-credentials\b|\.htpasswd\b|\.env(?:\.\w+)?\b|credentials(?:\.\w+)?\b|secrets?\.\w+\b"
    r"|[\w-]+\.(?:pem|key|p12|pfx|kdbx|keystore|jks)\b))"
)
