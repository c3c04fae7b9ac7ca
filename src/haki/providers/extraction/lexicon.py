"""Open-class vocabularies the change-of-state rules read with (both languages).

A rule that reads "I took up X" or "je fais de la X" cannot tell a pastime
from "I took up the offer" or "je fais de la fièvre" by shape alone; these
word lists say which objects are pastimes, instruments, dog and cat breeds
or cars. They are vocabularies of everyday words (compiled by hand from
common sports, crafts, instruments, breeds and car makes sold in Europe
and North America), not phrasings: any sentence shape the rules know may
carry any of them. Sizes: 144 activities and 108 in French, 40 and 30 instruments, 99 breeds, 74
car makes and models (``tests/unit/consolidator/test_changes.py`` holds them).
"""

from __future__ import annotations


def alternation(words: tuple[str, ...]) -> str:
    """A regex alternation, longest first so "trail running" wins over "running"."""
    return "|".join(
        w.replace(" ", r"\s").replace(".", r"\.") for w in sorted(set(words), key=len, reverse=True)
    )


# Sports and pastimes, as the noun or gerund people use after "took up".
ACTIVITIES_EN: tuple[str, ...] = (
    "running", "jogging", "trail running", "climbing", "rock climbing", "bouldering", "swimming",
    "cycling", "mountain biking", "biking", "hiking", "trekking", "yoga", "pilates", "boxing",
    "kickboxing", "karate", "judo", "taekwondo", "jiu-jitsu", "jiu jitsu", "aikido", "kung fu",
    "fencing", "rowing", "kayaking", "canoeing", "paddleboarding", "surfing", "windsurfing",
    "kitesurfing", "skiing", "cross-country skiing", "snowboarding", "ice skating", "skating",
    "skateboarding", "roller skating", "tennis", "table tennis", "ping pong", "badminton", "squash",
    "padel", "pickleball", "golf", "football", "soccer", "basketball", "volleyball", "handball",
    "rugby", "baseball", "softball", "cricket", "hockey", "ice hockey", "netball", "dancing",
    "salsa", "tango", "ballet", "swing dancing", "crossfit", "weightlifting", "lifting",
    "powerlifting", "calisthenics", "martial arts", "meditation", "knitting", "crochet",
    "crocheting", "sewing", "embroidery", "quilting", "pottery", "ceramics", "painting",
    "watercolour", "watercolor", "drawing", "sketching", "photography", "gardening", "baking",
    "cooking", "woodworking", "birdwatching", "birding", "fishing", "fly fishing", "chess",
    "archery", "sailing", "diving", "scuba diving", "freediving", "horse riding", "riding",
    "triathlon", "triathlons", "marathons", "calligraphy", "journaling", "origami", "beekeeping",
    "climbing", "parkour", "gymnastics", "aerobics", "zumba", "spinning", "golfing", "bowling",
    "darts", "orienteering", "mountaineering", "caving", "juggling", "magic", "astronomy",
    "stargazing", "podcasting", "blogging", "vlogging", "singing", "choir", "acting", "improv",
    "stand-up", "rock climbing", "wild swimming", "open water swimming", "camping", "foraging",
    "scrapbooking", "model making", "lego", "board games", "video games", "gaming", "coding",
    "running marathons", "ultrarunning", "cross-stitch",
)  # fmt: skip
ACTIVITIES_FR: tuple[str, ...] = (
    "course à pied", "course", "running", "trail", "jogging", "escalade", "bloc", "natation",
    "vélo", "cyclisme", "vtt", "randonnée", "rando", "yoga", "pilates", "boxe", "boxe thaï",
    "kickboxing", "karaté", "judo", "taekwondo", "jiu-jitsu", "aïkido", "kung-fu", "escrime",
    "aviron", "kayak", "canoë", "paddle", "surf", "planche à voile", "kitesurf", "ski",
    "ski de fond", "snowboard", "patin", "patinage", "roller", "skate", "tennis",
    "tennis de table", "ping-pong", "badminton", "squash", "padel", "golf", "foot", "football",
    "basket", "volley", "handball", "hand", "rugby", "baseball", "hockey", "danse", "salsa",
    "tango", "danse classique", "musculation", "muscu", "crossfit", "méditation", "tricot",
    "crochet", "couture", "broderie", "poterie", "céramique", "peinture", "aquarelle", "dessin",
    "photo", "photographie", "jardinage", "pâtisserie", "cuisine", "menuiserie", "pêche",
    "échecs", "tir à l'arc", "voile", "plongée", "apnée", "équitation", "cheval", "triathlon",
    "marathon", "calligraphie", "chant", "chorale", "théâtre", "impro", "gym", "gymnastique",
    "zumba", "pétanque", "bowling", "fléchettes", "spéléo", "alpinisme", "parapente",
    "astronomie", "jeux vidéo", "jeux de société", "marche", "marche nordique", "trail running",
)  # fmt: skip
# Instruments, with the article-free name people say after "play" or "jouer de".
INSTRUMENTS_EN: tuple[str, ...] = (
    "piano", "guitar", "electric guitar", "acoustic guitar", "bass", "bass guitar", "cello",
    "violin", "viola", "double bass", "ukulele", "drums", "drum kit", "flute", "clarinet",
    "saxophone", "sax", "trumpet", "trombone", "tuba", "french horn", "horn", "harp", "banjo",
    "mandolin", "accordion", "harmonica", "keyboard", "keys", "synth", "synthesizer", "oboe",
    "bassoon", "recorder", "organ", "bagpipes", "sitar", "tabla", "djembe", "xylophone",
)  # fmt: skip
INSTRUMENTS_FR: tuple[str, ...] = (
    "piano", "guitare", "guitare électrique", "basse", "violoncelle", "violon", "alto",
    "contrebasse", "ukulélé", "batterie", "flûte", "flûte traversière", "clarinette",
    "saxophone", "saxo", "trompette", "trombone", "tuba", "cor", "harpe", "banjo", "mandoline",
    "accordéon", "harmonica", "clavier", "synthé", "hautbois", "basson", "orgue", "djembé",
)  # fmt: skip
# Breeds people name their pet by, to its species.
BREEDS: dict[str, str] = {
    **dict.fromkeys(
        (
            "labrador", "golden retriever", "retriever", "golden", "kelpie", "beagle", "poodle", "greyhound",
            "whippet", "lurcher", "border collie", "collie", "dachshund", "sausage dog", "corgi",
            "husky", "pug", "bulldog", "french bulldog", "frenchie", "german shepherd",
            "australian shepherd", "aussie", "sheepdog", "chihuahua", "terrier", "jack russell",
            "yorkie", "spaniel", "cocker spaniel", "springer spaniel", "cavalier king charles", "rottweiler",
            "doberman", "dalmatian", "shih tzu", "maltese", "schnauzer", "labradoodle",
            "cockapoo", "goldendoodle", "akita", "shiba", "shiba inu",
            "samoyed", "mastiff", "great dane", "bernese", "staffie", "pitbull",
            "pit bull", "mutt", "basset", "bloodhound", "weimaraner", "vizsla", "malinois",
            "pomeranian", "westie", "bichon", "lhasa apso",
            # French.
            "berger allemand", "berger australien", "berger belge", "caniche", "lévrier",
            "teckel", "carlin", "bouledogue", "bouledogue français", "bouvier bernois",
            "épagneul", "cocker", "dalmatien", "dogue allemand", "spitz", "bâtard",
            "yorkshire", "jack russel", "braque", "setter anglais",
        ),
        "dog",
    ),
    **dict.fromkeys(
        (
            "siamese", "persian", "maine coon", "ragdoll", "bengal", "sphynx", "british shorthair",
            "tabby", "abyssinian", "siamois", "persan", "chartreux", "sacré de birmanie",
            "norvégien",
        ),
        "cat",
    ),
}  # fmt: skip
# The kinds of pet a name is read for ("a rabbit called Pompon", "my ferret Noodle").
PET_KINDS_EN = (
    r"dog|cat|puppy|pup|kitten|rabbit|bunny|hamster|parrot|horse|turtle|tortoise|guinea pig|ferret"
    r"|budgie|goldfish|lizard|snake"
)
PET_KINDS_FR = (
    r"chien|chienne|chat|chatte|chiot|chaton|lapin|lapine|hamster|perroquet|cheval|jument|tortue"
    r"|furet|cochon d'Inde|perruche"
)
# What may follow a breed in the same noun: "a border collie puppy".
PET_YOUNG = r"(?: (?:puppy|pup|dog|kitten|cat|mix|cross|chiot|chaton))?"
# What may stand before it: "a rescue greyhound", "un petit teckel".
PET_MODIFIERS = r"(?:(?:rescue|little|new|sweet|old|young|tiny|senior|second|petit|petite|jeune|vieux|vieille) )?"
# Makes and everyday models: "I drive a Honda Civic", "on a une Twingo".
CARS: tuple[str, ...] = (
    "Toyota", "Honda", "Ford", "Volkswagen", "VW", "Tesla", "BMW", "Audi", "Mercedes",
    "Renault", "Peugeot", "Citroën", "Citroen", "Fiat", "Kia", "Hyundai", "Nissan", "Mazda",
    "Volvo", "Skoda", "Seat", "Opel", "Dacia", "Subaru", "Mini", "Jeep", "Porsche", "Jaguar",
    "Land Rover", "Range Rover", "Lexus", "Suzuki", "Mitsubishi", "Chevrolet", "Chevy", "Dodge",
    "Alfa Romeo", "Polestar", "BYD", "MG", "Cupra", "Smart", "Clio", "Twingo", "Zoé", "Zoe",
    "Mégane", "Megane", "Captur", "Kangoo", "Sandero", "Duster", "Yaris", "Corolla", "Prius",
    "Golf", "Polo", "Fiesta", "Focus", "Civic", "Panda", "Qashqai", "Juke", "Leaf", "Model 3",
    "Model Y", "Model S", "Octavia", "Fabia", "Picanto", "Jazz", "Micra", "Corsa", "Astra",
)  # fmt: skip

ACTIVITY_EN = alternation(ACTIVITIES_EN)
ACTIVITY_FR = alternation(ACTIVITIES_FR)
INSTRUMENT_EN = alternation(INSTRUMENTS_EN)
INSTRUMENT_FR = alternation(INSTRUMENTS_FR)
BREED = alternation(tuple(BREEDS))
CAR = alternation(CARS)
