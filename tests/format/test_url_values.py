"""A URL in a metadata value is kept as it is written (issue 34 item 4).

A URL is already percent-encoded: ``%3B`` in it is a spelling the URL's owner chose. Before, a
``source:`` URL holding ``%3B`` was written ``%253B`` (the ``%`` escaped so that decoding gives the
``%3B`` back), so the file showed a URL nobody wrote, and a reader that decodes only the format's
three escapes got ``%253B``. Now a URL value's ``%`` is never escaped; the characters a value
cannot hold (``;``, ``[``, ``]``) are written as the URL's own percent-escapes, which a URL reads
the same; an IPv6 host's brackets come back as brackets.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.format import entries as fmt
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

URL = "https://example.com/search?q=a%3Bb&x=%5Bc%5D&y=%25&z=%20"


def test_a_source_url_with_percent_escapes_is_stored_byte_for_byte(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    result = store.remember(Candidate(text="The search page takes a semicolon list", source=URL))
    raw = (store.root / result.path).read_text(encoding="utf-8")
    assert f"source: {URL}" in raw
    assert "%253B" not in raw and "%255B" not in raw and "%2525" not in raw
    entry = next(e for e in store.read_file(result.path).entries if e.ref == result.ref)
    assert entry.meta["source"] == URL


@pytest.mark.parametrize(
    "url",
    [
        URL,
        "http://[::1]:8080/path?a=%3B",
        "https://[2001:db8::1]/",
        "file:///home/me/notes%3Bold.md",
        "https://example.com/a%3bb",  # lower-case escapes too
    ],
)
def test_url_values_round_trip_exactly(url: str) -> None:
    stored = fmt.encode_value(url)
    assert ";" not in stored and "%253B" not in stored and "%2525" not in stored
    if "[" not in url:
        assert stored == url  # byte for byte
    assert fmt.decode_value(stored) == url
    line = f"- Entry [source: {stored}; by: user]"
    ((_number, entry),) = fmt.parse(line.encode()).entries()
    assert entry.meta["source"] == url


def test_characters_a_value_cannot_hold_become_the_urls_own_escapes() -> None:
    stored = fmt.encode_value("https://example.com/a;b/[c]")
    assert stored == "https://example.com/a%3Bb/%5Bc%5D"
    assert fmt.decode_value(stored) == stored  # the same URL, spelled with escapes


@pytest.mark.parametrize("value", ["a literal %3B here", "%253B twice", "x;y[z]", "not a url: http:/x%3B"])
def test_other_values_still_round_trip_as_before(value: str) -> None:
    assert fmt.decode_value(fmt.encode_value(value)) == value
