"""Secrets found by structure rather than by a name: one detector for :func:`memrepo.engine.redaction.redact`.

Issue 32, round 6 (docs/architecture.md §3). It unions twelve rules, each in its module:

- :mod:`.prefixed`: a key of a vendor no rule set names, by its ``prefix_`` and random body;
- :mod:`.layout`: a password under its label on the next line, or in a table's password column;
- :mod:`.phrases`: a passphrase of several words said without quotes, in nine languages;
- :mod:`.configs`: a password or key in a config file's syntax (XML, name/value pairs, env, YAML);
- :mod:`.assignments`: a password or key assigned to or compared with a secret name in code;
- :mod:`.said`: passwords said in orders and words :mod:`.speech` does not read (round 7);
- :mod:`.authsaid`: a password said as "auth", "login", "sudo" or Redis' ``AUTH <pw>`` (B14-3);
- :mod:`.slots`: a secret in a command's credential slot, a spaced app password (B16-10, B16-11);
- :mod:`.derkeys`: a private key pasted as one line of base64 DER (B18-7);
- :mod:`.credsaid`: a password said around the word naming it: "<pw> as the password", "changed to <pw>" (B17-7);
- :mod:`.operands`: a password in a tool's operand slot by a documented table, a device config's (B24-1);
- :mod:`.casualsaid`: a wifi key, a password or a code said casually, in English, Japanese, Spanish (B24-2/3/9).
"""

from __future__ import annotations

from collections.abc import Iterator

from . import (
    assignments,
    authsaid,
    casualsaid,
    configs,
    credsaid,
    derkeys,
    layout,
    operands,
    phrases,
    prefixed,
    said,
    slots,
)

Span = tuple[int, int, str]


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of every secret the twelve structure rules find in ``text``, rule by rule.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: spans, possibly overlapping (:func:`memrepo.engine.redaction.find` merges them).
    """
    yield from prefixed.spans(text)
    yield from layout.spans(text)
    yield from phrases.spans(text)
    yield from configs.spans(text)
    yield from assignments.spans(text)
    yield from said.spans(text)
    yield from authsaid.spans(text)
    yield from slots.spans(text)
    yield from credsaid.spans(text)
    yield from derkeys.spans(text)
    yield from operands.spans(text)
    yield from casualsaid.spans(text)
