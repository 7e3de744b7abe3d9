"""The words of a key's name in any style: a leaf module, so every rule that reads a key can ask it.

:mod:`.shapelabels` reads the key before a value for a public value's last word (``contentDigest``, ``COMMIT_SHA``);
:mod:`.rules` reads the name before a value for a pin's or a code's word (``door_pin``, ``unlockCode``). Both split
the name the same way here; :mod:`.shapelabels` imports :mod:`.context`, which imports :mod:`.rules`, so the split
lives apart from both (docs/architecture.md §3).
"""

from __future__ import annotations

from . import lazyre

PASSWORD_WORD = r"pa?ss?wo?r?d"
"""``password`` and the ways names shorten it, one regex for every reader of a password's name: ``passwd``,
``pswd``, ``psswd``, ``paswd``, ``pswrd``, ``passwrd``, ``pasword``, ``pssword`` (``DB_PSWD``, ``smtp_paswd``;
issue 32 round 22). ``pwd`` and ``pass`` stand apart: each reader says where a bare ``pass`` is a password's."""

_KEY_WORD_RE = lazyre.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def key_words(key: str) -> list[str]:
    """The words of a key in any style, lower case, numbers as words of their own.

    Args:
        key: a key's or a variable's name (``contentDigest``, ``X-Request-Id``, ``COMMIT_SHA``, ``pin2``).

    Returns:
        list[str]: ``["content", "digest"]``, ``["x", "request", "id"]``, ``["commit", "sha"]``, ``["pin", "2"]``.
    """
    return [w.lower() for w in _KEY_WORD_RE.findall(key)]
