"""A cloud access key's secret printed right after its id (docs/architecture.md §3).

Issue 32 round 23 (a class read on a tuning part, CredSweeper's samples). AWS, Alibaba Cloud and Tencent Cloud issue
an access key as an id with a fixed prefix and a secret of a fixed length; code and notes print the two together:
``Credential("AKID…", "…")``, ``auth(LTAI…, …)``, ``ak=LTAI… sk=…``, a CSV row. The id is found by its prefix; the
secret has no prefix and, when it happens to hold few digits, no entropy rule takes it. Here the id names it:

- an id: AWS ``AKIA``/``ASIA`` and 16 capitals or digits, Alibaba ``LTAI`` and 12 to 20 letters or digits (16
  characters before 2019, 24 since), Tencent ``AKID`` and 32 letters or digits;
- then, within a short gap (separators, quotes, brackets and at most one short label such as ``sk=`` or
  ``secret:``), a token of that provider's secret length (AWS 40 of ``[A-Za-z0-9/+]``, Alibaba 30 and Tencent 32
  letters or digits) mixing capitals, small letters and digits, which is the secret.

Both are redacted (``cloud-key-id``, ``cloud-key-secret``): the id is half the credential, as the vendor rules take
an ``AKIA`` id alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int, str]

_GAP = r"[\s,;|\"'`()\[\]{}=:]{1,6}(?:[A-Za-z_-]{1,20}[ \t]*[=:][ \t]*[\"']?)?"
"""Between the id and the secret: separators, then at most one short label (``sk=``, ``secret: "``)."""
_PAIR_RE = lazyre.compile(
    r"(?<![A-Za-z0-9])(?P<id>(?:AKIA|ASIA)[A-Z0-9]{16}|LTAI[A-Za-z0-9]{12,20}|AKID[A-Za-z0-9]{32})(?![A-Za-z0-9])"
    + _GAP
    + r"(?P<secret>[A-Za-z0-9/+]{30,40})(?![A-Za-z0-9/+=])"
)
_SECRET_LENGTHS = {"AKIA": (40,), "ASIA": (40,), "LTAI": (30,), "AKID": (32,)}


def _random(value: str) -> bool:
    """Capitals, small letters and a digit: a random secret, not a word or a path."""
    return any(c.isupper() for c in value) and any(c.islower() for c in value) and any(c.isdigit() for c in value)


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each access key id and the secret printed right after it.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: the id (``cloud-key-id``) and the secret (``cloud-key-secret``), each without quotes.
    """
    if not any(p in text for p in ("AKIA", "ASIA", "LTAI", "AKID")):
        return
    for m in _PAIR_RE.finditer(text):
        secret = m.group("secret")
        if len(secret) not in _SECRET_LENGTHS[m.group("id")[:4]] or not _random(secret):
            continue
        if m.group("id").startswith(("LTAI", "AKID")) and ("/" in secret or "+" in secret):
            continue  # their secrets are letters and digits only
        yield m.start("id"), m.end("id"), "cloud-key-id"
        yield m.start("secret"), m.end("secret"), "cloud-key-secret"
