"""Known place names (``places.txt``, from GeoNames), matched folded (pure).

A place said in lower case in a chat ("moved to osaka") is a place only
when it is a known one; the readers by pattern and by meaning share the list.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

PLACES = Path(__file__).with_name("places.txt")


def folded(text: str) -> str:
    """``text`` in lower case without its accents: how names are matched."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c)
    )


@lru_cache(maxsize=1)
def places() -> dict[str, str]:
    """Folded place name -> the name as GeoNames writes it (``places.txt``)."""
    names = PLACES.read_text().splitlines() if PLACES.exists() else []
    return {folded(n): n for n in names if n and not n.startswith("#")}


def known_place(words: str, longest: int = 3) -> str | None:
    """The known place the leading words of ``words`` name, the longest first, capitalised."""
    said = words.split()
    for n in range(min(longest, len(said)), 0, -1):
        name = " ".join(said[:n])
        if folded(name) in places():
            # As said, capitalised: GeoNames holds several spellings of one
            # folded name ("Osaka", "Ósaka").
            return name.title()
    return None
