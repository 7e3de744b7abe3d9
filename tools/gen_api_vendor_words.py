"""Generate engine/redaction/apivendors.py: names of public APIs that take a key, from two MIT-licensed lists.

Issue 32, round 12. The vendor-context rule (:mod:`memrepo.engine.redaction.context`)
takes a key-shaped value after a vendor's name; its names came from secret
scanners' rule sets (:mod:`.vendorwords`) and vendors' docs (:mod:`.docformats`).
This adds the names of public APIs whose listing says they take an API key or
OAuth (``Auth`` is ``apiKey``, ``OAuth`` or ``X-Mashape-Key``):

- public-apis/public-apis (github.com/public-apis/public-apis, MIT), the
  ``README.md`` tables: ``| [Name](url) | description | auth | https | cors |``;
- marcelscruz/public-apis (github.com/marcelscruz/public-apis, MIT), its
  ``db/resources.json`` (``API``, ``Auth`` of each entry).

A name becomes one word the way a config or a detector keyword writes it: lower
case, letters only, joined (``Alpha Vantage`` -> ``alphavantage``), a domain
suffix dropped (``ipdata.co`` -> ``ipdata``), and, for ``<Name> API``, ``<name>``
too. A name is kept when it is 5+ letters and not an everyday word: a word that
the lists' own descriptions use in lower case (``weather``, ``books``, ``jokes``),
or one of :data:`COMMON`, or a name the older lists already hold. Run::

    git -C PUBLIC_APIS show HEAD:README.md > /tmp/public-apis.md
    git -C MARCELSCRUZ show HEAD:db/resources.json > /tmp/resources.json
    python tools/gen_api_vendor_words.py /tmp/public-apis.md /tmp/resources.json > engine/redaction/apivendors.py
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from pathlib import Path

AUTHS = {"apikey", "oauth", "x-mashape-key"}
_ROW_RE = re.compile(r"^\|\s*\[(?P<name>[^\]]+)\]\([^)]*\)\s*\|(?P<desc>[^|]*)\|\s*`?(?P<auth>[^|`]*)`?\s*\|")
_SUFFIX_RE = re.compile(r"\.(?:io|com|co|org|net|ai|dev|app|me|info|cc|xyz|live|tech|cloud|us|uk|de|fr|in)$", re.I)
COMMON = set(
    """
    abstract active advice alpha amazing anime apple assets astronomy audio author autocomplete beacon bible
    bitcoin blockchain books border brain bridge buffer business calendar camera canvas carbon catalog census
    charity chess cinema climate coinbase colors comics compass convert cookie country covid credit crypto
    currency dictionary domain dream earth election energy envelope events exchange fashion football forecast
    fortune games genius geocoder global gold graph health history holidays horoscope hotel jokes kanye
    language library lyrics mailbox market marvel matrix medium metal metro mobile movie movies music names
    nation nature news number numbers office orbit owner paper pixel planet plants pokemon poetry postal
    quotes radio random recipe recipes rhyme robot science search shield signal sports stack stock stocks
    storm studio sunrise sunset super swift tarot timezone trace traffic train transit travel trivia unsplash
    universe vision voice wallet weather wiki words world yahoo zipcode battle buddy canopy forge genesis ghost
    hashtag humor import layer particle perspective pocket scout scraper sheet smash square steam tasty telegraph
    tweet village warrant chomp collins oxford notion polygon hunter mercury clerk resend insomnia fixer trove
    revolt useragent templated covalent datastream
    """.split()  # noqa: SIM905
)
"""Everyday words that name a listed API, which alone before a value name no key (checked by reading the list)."""


def _forms(name: str) -> set[str]:
    name = _SUFFIX_RE.sub("", name.strip())
    joined = re.sub(r"[^a-z]", "", name.lower())
    out = {joined}
    if joined.endswith("api") and len(joined) > 3:
        out.add(joined[:-3])
    return out


def names(readme: Path, resources: Path) -> tuple[list[str], set[str]]:
    """(API names that take a key, in the lists' order; the lower-case words of the lists' descriptions)."""
    found: list[str] = []
    prose: set[str] = set()
    for line in readme.read_text(encoding="utf-8").splitlines():
        m = _ROW_RE.match(line)
        if m is None:
            continue
        prose.update(re.findall(r"\b[a-z]+\b", m.group("desc")))
        if m.group("auth").strip().lower() in AUTHS:
            found.append(m.group("name"))
    for entry in json.loads(resources.read_text(encoding="utf-8"))["entries"]:
        prose.update(re.findall(r"\b[a-z]+\b", entry.get("Description", "")))
        if str(entry.get("Auth", "")).strip().lower() in AUTHS:
            found.append(entry["API"])
    return found, prose


def words(readme: Path, resources: Path) -> list[str]:
    """The names to keep (see the module's docstring)."""
    from memrepo.engine.redaction.docformats import DOC_VENDORS
    from memrepo.engine.redaction.vendorwords import VENDORS

    sys.path.insert(0, str(Path(__file__).parent))
    from gen_vendor_words import COMMON as RULE_SETS_COMMON

    found, prose = names(readme, resources)
    kept: set[str] = set()
    for name in found:
        for form in _forms(name):
            if len(form) < 5 or form in prose or form in COMMON or form in RULE_SETS_COMMON or form in VENDORS:
                continue
            if form in DOC_VENDORS:
                continue
            kept.add(form)
    return sorted(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("readme", type=Path, help="public-apis/public-apis README.md")
    parser.add_argument("resources", type=Path, help="marcelscruz/public-apis db/resources.json")
    args = parser.parse_args()
    body = textwrap.fill(" ".join(words(args.readme, args.resources)), width=112, break_long_words=False)
    print('"""Names of public APIs that take a key (generated by tools/gen_api_vendor_words.py: do not edit).')
    print()
    print("From public-apis/public-apis (github.com/public-apis/public-apis, MIT) and marcelscruz/public-apis")
    print("(github.com/marcelscruz/public-apis, MIT): every API whose listing's auth is an API key or OAuth, its name")
    print("as one lower-case word, everyday words left out; :mod:`.context` reads them beside :mod:`.vendorwords`.")
    print('"""')
    print()
    print("API_VENDORS = frozenset(")
    print('    """')
    print(body)
    print('""".split()  # noqa: SIM905')
    print(")")


if __name__ == "__main__":
    main()
