"""Keys known by a vendor's or a library's documented format, where no label stands before them (docs/architecture.md §3).

Issue 32 round 26, classes read on ``notes5-tune`` (its held half was not read). A key passed straight to the
code that uses it has no secret word before it: ``deepl.Translator("…")``, ``Fernet(b'…')``. Each is taken by its
documented shape only, so nothing else of that shape is touched:

- a DeepL API key for the free API: a UUID followed by ``:fx`` (DeepL's docs: "Free API keys end in ``:fx``"),
  anywhere; a UUID alone is an id and is left to the other rules;
- a Fernet key: 32 bytes in URL-safe base64, 43 characters and ``=`` (the ``cryptography`` package's docs:
  "A URL-safe base64-encoded 32-byte key"), on a line that names Fernet (``Fernet(…)``, ``FERNET_KEY``,
  ``MultiFernet``). A Fernet token (ciphertext, ``gAAAAA…``) is longer and is not taken;
- an Infura project key in its endpoint, ``https://<network>.infura.io/v3/<32 hex>`` (Infura's docs: the key is the
  URL's last segment);
- an Ethereum private key, ``0x`` and 64 hex, in a Hardhat or Truffle network's ``accounts: [...]`` (a private key
  there signs every deployment) or under a name holding ``private``;
- a Solana keypair as ``solana-keygen`` writes it, a JSON array of 64 numbers 0-255, on a text naming a keypair,
  ``id.json`` or a private or secret key in the 200 characters before it (the first 32 bytes are the secret half);
- a key named with a note in brackets before its colon (``admin key (indexing job only): <hex>``): the note is read
  as part of the name; the value mixes letters and digits and is no path, environment variable's name or UUID.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator

from . import lazyre
from .context import _UUID_RE
from .spanends import line_at

Span = tuple[int, int, str]

_DEEPL_RE = lazyre.compile(r"(?<![0-9A-Za-z-])(?P<v>[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}:fx)(?![\w-])")
_INFURA_RE = lazyre.compile(r"\binfura\.io/v3/(?P<v>[0-9a-f]{32})(?![0-9A-Za-z])")
_ETH_ACCOUNTS_RE = lazyre.compile(
    r"(?i)(?:\baccounts[\"']?[ \t]*:[ \t]*\[[ \t\n]*|private[_-]?key[\"']?[ \t]*[:=][ \t]*)[\"'`]?(?P<v>0x[0-9a-fA-F]{64})(?![0-9A-Za-z])"
)
_BYTE_ARRAY_RE = lazyre.compile(r"\[[ \t\n]*(?P<v>(?:\d{1,3}[ \t\n]*,[ \t\n]*){63}\d{1,3})[ \t\n]*\]")
_KEYPAIR_WORDS_RE = lazyre.compile(r"(?i)keypair|key pair|id\.json|private[ _-]?key|secret[ _-]?key")
_NOTED_KEY_RE = lazyre.compile(
    r"(?i)\b(?:admin|write|secret|private|master|management|server|root)[ _-]?(?:api[ _-]?)?key[ \t]*\([^()\n]{1,40}\)"
    r"[ \t]*[:=][ \t]*[\"'`]?(?P<v>[A-Za-z0-9_\-+=]{16,256})(?![\w+/=.-])"
)
_MIXED_RE = lazyre.compile(r"(?=.*\d)(?=.*[A-Za-z])")
_UPPER_NAME_RE = lazyre.compile(r"[A-Z][A-Z0-9_]+")
_FERNET_KEY_RE = lazyre.compile(r"(?<![A-Za-z0-9_=-])(?P<v>[A-Za-z0-9_-]{43}=)(?![A-Za-z0-9_=-])")


def _decodes_to_32(value: str) -> bool:
    """Whether ``value`` is URL-safe base64 of exactly 32 bytes."""
    try:
        return len(base64.urlsafe_b64decode(value)) == 32
    except (binascii.Error, ValueError):
        return False


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of each DeepL key and each Fernet key on a line naming Fernet.

    Args:
        text: any text; a memory line or a whole file.

    Returns:
        Iterator[Span]: ``deepl-key`` and ``fernet-key`` spans; nothing for a text holding neither ``:fx`` nor Fernet.
    """
    if ":fx" in text:
        for m in _DEEPL_RE.finditer(text):
            yield m.start("v"), m.end("v"), "deepl-key"
    if "infura.io/v3/" in text:
        for m in _INFURA_RE.finditer(text):
            yield m.start("v"), m.end("v"), "infura-key"
    if "0x" in text:
        for m in _ETH_ACCOUNTS_RE.finditer(text):
            if m.group("v").count("0") < 40:  # ``0x000…001``: Hardhat's placeholder, no key
                yield m.start("v"), m.end("v"), "private-key"
    if "[" in text and _KEYPAIR_WORDS_RE.search(text):
        for m in _BYTE_ARRAY_RE.finditer(text):
            named = _KEYPAIR_WORDS_RE.search(text, max(0, m.start() - 200), m.start())
            numbers = [int(n) for n in m.group("v").replace(" ", "").replace("\n", "").split(",")]
            if named and all(n <= 255 for n in numbers) and len(set(numbers)) > 16:
                yield m.start("v"), m.end("v"), "private-key"
    if "(" in text:
        for m in _NOTED_KEY_RE.finditer(text):
            value = m.group("v")
            if _MIXED_RE.match(value) and not _UPPER_NAME_RE.fullmatch(value) and not _UUID_RE.fullmatch(value):
                yield m.start("v"), m.end("v"), "labelled-secret"
    if "ernet" in text or "ERNET" in text:
        for m in _FERNET_KEY_RE.finditer(text):
            if "fernet" in line_at(text, m.start()).lower() and _decodes_to_32(m.group("v")):
                yield m.start("v"), m.end("v"), "fernet-key"
