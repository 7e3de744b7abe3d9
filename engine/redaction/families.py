"""Vendor key families read from rule sets' own examples: one detector for :func:`memrepo.engine.redaction.redact`.

Issue 32, round 7 (docs/architecture.md §3). Each family is a vendor's documented
shape (a prefix with a body of fixed length and alphabet) or a vendor's name before
a value, found missing on a tuning set built from Kingfisher's rule examples and
secrets-patterns-db's curated rules (``benchmarks/secrets_corpus/build_rule_examples.py``):

- Nightfall API key: ``NF-`` and 32 letters or digits (Kingfisher's ``nightfall`` rule),
  taken whatever its entropy: the prefix and the length name it;
- Facebook Graph API Explorer token: the app's fixed prefix ``EAACEdEose0cBA`` and more
  letters and digits (gitleaks' ``facebook-access-token`` names the ``EAA`` family);
- Weights & Biases API key: 40 hex digits with ``wandb`` before them on the line (W&B's
  ``WANDB_API_KEY``, ``wandb login``); a git object id has the same shape, so the
  word must stand within :data:`memrepo.engine.redaction.context.WINDOW` characters;
- a base64url key that starts with ``_`` or ``-`` (ConvertKit's 22-character keys do
  one time in 32) after a vendor name a rule set knows: the vendor-context rule
  (:mod:`.context`) reads values from their first letter or digit only.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .context import WINDOW, named_by_vendor
from .rules import entropy

Span = tuple[int, int, str]

_NIGHTFALL_RE = lazyre.compile(r"(?<![\w-])(?P<value>NF-[A-Za-z0-9]{32})(?![\w-])")
_FB_EXPLORER_RE = lazyre.compile(r"(?<![\w-])(?P<value>EAACEdEose0cBA[A-Za-z0-9]{4,512})(?![\w-])")
_WANDB_RE = lazyre.compile(r"(?i)wandb")
_HEX40_RE = lazyre.compile(r"(?<![\w-])(?P<value>[0-9a-f]{40})(?![\w-])")
_DASHED_RE = lazyre.compile(r"(?<![A-Za-z0-9_.+/~$-])(?P<value>[_-][A-Za-z0-9_-]{15,127})(?![A-Za-z0-9_+/=~-])")


def _line_window(text: str, start: int) -> str:
    """Up to ``WINDOW`` characters of ``text`` before ``start``, on its line."""
    line_start = text.rfind("\n", 0, start) + 1
    return text[max(line_start, start - WINDOW) : start]


def _random_body(value: str) -> bool:
    """Letters of both cases and digits, entropy 3.5+ bits a character: a random key, not a ``_private_name``."""
    body = value.strip("_-")
    return (
        len(body) >= 15
        and any(c.isupper() for c in body)
        and any(c.islower() for c in body)
        and any(c.isdigit() for c in body)
        and entropy(body) >= 3.5
    )


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of every key of these families in ``text``.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the spans, in family order (:func:`memrepo.engine.redaction.find` merges them).
    """
    if "NF-" in text:
        for m in _NIGHTFALL_RE.finditer(text):
            yield m.start("value"), m.end("value"), "nightfall-key"
    if "EAACEdEose0cBA" in text:
        for m in _FB_EXPLORER_RE.finditer(text):
            yield m.start("value"), m.end("value"), "facebook-token"
    if _WANDB_RE.search(text):
        for m in _HEX40_RE.finditer(text):
            if _WANDB_RE.search(_line_window(text, m.start())):
                yield m.start("value"), m.end("value"), "wandb-key"
    for m in _DASHED_RE.finditer(text):
        if _random_body(m.group("value")) and named_by_vendor(_line_window(text, m.start())):
            yield m.start("value"), m.end("value"), "vendor-key"
