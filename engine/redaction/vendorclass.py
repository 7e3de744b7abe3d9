"""Vendor keys by their documented shape wherever they stand, and the secret paired with an access id: one detector.

Issue 32, round 18 (docs/architecture.md §3). Found on the round's new tuning source, the detector tests of Veles
(Google's OSV-SCALIBR secret scanner, ``build_veles_tests.py``), and fixed by class, never per sample:

- a key of a prefix, an alphabet and a length its vendor documents (Packagist's ``packagist_ack_``/``acs_``/…,
  Supabase's ``sbp_`` and ``sb_secret_``, 1Password's secret key ``A3-…``, service-account token ``ops_eyJ…`` and
  recovery code ``1PRK-…``, Elastic Cloud's ``essu_``, PyX's ``sk-pyx-``, Shippo's ``shippo_live_``/``_test_``, a
  Salesforce session id ``00D…!…``, Hugging Face's ``hf_`` + 34 letters). The prefix alone is the evidence, so the
  key is taken whatever its letters (``sbp_`` + 40 ``a`` is a key's form, not a word), also twice with no space
  between (a key pasted twice). A longer run is not the shape (``hf_FakeFake…`` of 35 letters, a placeholder). The
  other rules ask a boundary after the key and entropy of it (Shippo's shape is trufflehog's tests' tuned half);
- the secret paired with a Google Cloud Storage HMAC access id (``GOOG1`` + 56): a run of 40 base64 characters
  after it, on its line or the next two (``GOOG1…:secret``, ``access_id``/``secret`` JSON members, an id and
  its secret on two lines), as AWS pairs an ``AKIA`` id with a 40-character secret. The id itself is taken too:
  it names the account (gitleaks' and Kingfisher's rules take AWS's the same way).

Each rule runs only on a text holding its prefix, so prose pays a few substring tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int, str]

_SHAPES: tuple[tuple[str, str, str], ...] = (
    (
        "packagist_",
        r"packagist_(?:ack_[0-9a-f]{28,32}|acs_[0-9a-f]{64,96}|(?:ort|out|uut|cut)_[0-9a-f]{68})",
        "packagist-token",
    ),
    ("sbp_", r"sbp_[0-9a-f]{40}", "supabase-token"),
    ("sb_secret_", r"sb_secret_[A-Za-z0-9_-]{31,36}", "supabase-token"),
    (
        "A3-",
        r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
        "1password-key",
    ),
    ("ops_eyJ", r"ops_eyJ[A-Za-z0-9+/]{250,8192}={0,3}", "1password-key"),
    ("1PRK-", r"1PRK(?:-[A-Z0-9]{4}){13}", "1password-key"),
    ("essu_", r"essu_(?:[A-Za-z0-9+/]{92}|[A-Za-z0-9+/]{91}=|[A-Za-z0-9+/]{90}==)", "elastic-cloud-api-key"),
    ("sk-pyx-", r"sk-pyx-(?:2[A-Za-z]{45}|[A-Za-z0-9]{64})", "pyx-key"),
    ("!", r"00D[0-9A-Za-z]{8,15}![A-Za-z0-9._-]{30,100}", "salesforce-token"),
    ("hf_", r"hf_[A-Za-z]{34}", "huggingface-token"),
    ("shippo_", r"shippo_(?:live|test)_[0-9a-f]{40}", "shippo-token"),
)
"""(a substring every match holds, the shape, its type), from each vendor's documented format as Veles' detectors
(Apache-2.0) write it. A Salesforce session id is its org id (``00D`` + 8 to 15 characters, as Veles reads it),
``!``, the token."""
_LEFT = r"(?<![A-Za-z0-9_+/-])"
_RUN_LEFT = r"(?<=[A-Za-z])"
_SHAPE_RES = tuple(
    lazyre.compile(f"{_LEFT}(?:{shape})(?=$|[^A-Za-z0-9_-]|{re.escape(shape[:3])})") for _gate, shape, _slug in _SHAPES
)
_RUN_RES = tuple(
    lazyre.compile(f"{_RUN_LEFT}(?:{shape})(?=$|[^A-Za-z0-9_-]|{re.escape(shape[:3])})")
    for _gate, shape, _slug in _SHAPES
)
"""Each shape ends at a word's end or where the same shape starts again (a key pasted twice with no space):
a longer run (``hf_`` + 35 letters) is not the shape. :data:`_RUN_RES`: a shape right after letters, counted only
where it follows a key of the same shape."""

_GCS_ID_RE = lazyre.compile(r"(?<![A-Za-z0-9])GOOG1[A-Z0-9]{56}(?![A-Za-z0-9])")
_GCS_SECRET_RE = lazyre.compile(
    r"(?<![A-Za-z0-9+/])(?=[A-Za-z+/]*[0-9])(?=[0-9+/]*[A-Za-z])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])"
)
_GCS_LINES = 3


def _shapes(text: str) -> Iterator[Span]:
    for (gate, _shape, slug), shape_re, run_re in zip(_SHAPES, _SHAPE_RES, _RUN_RES, strict=True):
        if gate not in text:
            continue
        ends: set[int] = set()
        for m in shape_re.finditer(text):
            ends.add(m.end())
            yield m.start(), m.end(), slug
        for m in run_re.finditer(text):
            if m.start() in ends:
                ends.add(m.end())
                yield m.start(), m.end(), slug


def _gcs_pairs(text: str) -> Iterator[Span]:
    for m in _GCS_ID_RE.finditer(text):
        yield m.start(), m.end(), "gcs-hmac-key"
        stop = m.end()
        for _ in range(_GCS_LINES):
            nl = text.find("\n", stop + 1)
            stop = len(text) if nl < 0 else nl
        s = _GCS_SECRET_RE.search(text, m.end(), stop)
        if s is not None:
            yield s.start(), s.end(), "gcs-hmac-key"


def spans(text: str) -> Iterator[Span]:
    """Every span of ``text`` that is a vendor key by its documented shape (module docstring)."""
    yield from _shapes(text)
    if "GOOG1" in text:
        yield from _gcs_pairs(text)
