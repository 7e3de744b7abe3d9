"""What a labelled value names when it is not the secret the label promises (docs/architecture.md §3).

Issue 32 round 24 (the blind ``vendorkeys`` and ``speech4`` sources' tune halves, then breaker24's trial).
:func:`.rules._not_a_value` asks these before the label rule redacts what follows a secret's label:

- :func:`names_public`: the key's id or its public half ("key id: 4OSH…", "the service token id is 93z7…",
  ``publishableKey``, "the public key is …");
- :func:`names_the_thing`: the thing a password is for, read as its value because a preposition stands before it
  and a link after it ("the password on build-3.ci.example.org is …", "password for db7.internal: …"): the
  password after the link is :mod:`.codesaid`'s.
"""

from __future__ import annotations

import re

from . import lazyre

_LINK_AFTER_RE = lazyre.compile(r"[ \t]+(?:is|was|are|were)[ \t]+\S|[ \t]*[:=][ \t]*\S")
"""A link right after a value read with no link before it: that value is what the label is for, its own value follows."""
_PUBLIC_KEY_LABEL_RE = lazyre.compile(r"(?i)(?:^|[_.-]|(?<=[a-z]))(?:public|publishable|site)[_ .-]?key$")
"""A label naming a key's public half as a whole (not "site api key", "public access key": breaker24 L5)."""
_NEXT_VALUE_RE = lazyre.compile(r"[ \t]+\S")
_ID_WORDS = frozenset({"id", "ids", "identifier", "fingerprint", "alias"})
"""The last word between a key's label and its value that makes the value the key's name, not the key."""


def names_public(m: re.Match[str], label: str) -> bool:
    """Whether a labelled match names a key's id or its public half (issue 32 round 24): "key id: 4OSH…", "the
    service token id is 93z7…", "publishableKey: '…'", "the public key is …", "site key for the form: …"."""
    between = m.group("between").lower().split()
    if label.endswith(("key", "keys", "token", "tokens")) and between and between[-1] in _ID_WORDS:
        return True
    if _PUBLIC_KEY_LABEL_RE.search(label):
        return True  # publishableKey, public_key, site-key
    if label not in ("key", "keys"):
        return False
    before = m.string[max(0, m.start("label") - 12) : m.start("label")].lower().split()
    return bool(before) and before[-1] in ("public", "publishable", "site")


def names_the_thing(m: re.Match[str]) -> bool:
    """Whether a labelled match read the thing a password is for as its value (round 24): a preposition before it and
    a link after it ("the password on build-3.ci.example.org is …", "password for db7.internal: …")."""
    between = m.group("between").lower().split()
    if not between or between[-1] not in ("for", "of", "on", "to", "in", "at"):
        return False
    end = m.end("value")
    if m.group("value").endswith(":"):  # the colon glued to the thing: "for db7.x: <pw>"
        return bool(_NEXT_VALUE_RE.match(m.string, end))
    return not m.group("sep").strip() and bool(_LINK_AFTER_RE.match(m.string, end))
