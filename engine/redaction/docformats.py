"""Key formats and vendor names taken from vendors' own documentation: one detector for :func:`.redact`.

Issue 32, round 9 (docs/architecture.md §3). A key's documented format is a fact, so
these come from each vendor's page (``benchmarks/secrets_corpus/build_vendordocs2.py``
names the page for every sample), not from another scanner's rule text. Each rule
was added for a miss on that tuning set, never for a held-out one:

- :data:`DOC_VENDORS`: names of documented-key vendors that no rule set we import
  names (Rollbar, Mollie, Statsig ...; a name a rule set names later moves to
  :mod:`.vendorwords`). :mod:`.context` reads them beside :data:`.vendorwords.VENDORS`,
  so ``rollbar: <32 hex>`` is taken as Rollbar's key the way ``datadog: <32 hex>``
  already was. Only distinctive names: a vendor
  whose name is a common word (Linear, Notion, Render, Square, Stream) is left out,
  since ``notion <32 hex>`` is as often a page id, and so is a vendor whose docs
  print a public id or key of a secret key's shape (Mixpanel's project token,
  Agora's App ID, Pusher's app key, Braze's SDK key, Typesense's search-only key)
  or whose object ids have a key's shape (Koyeb's UUIDs, ClearML's hex task ids,
  imgix's URL signatures);
- Alpha Vantage: its API key is 16 upper-case letters and digits
  (alphavantage.co/documentation), taken after "alpha vantage" on its line;
- Agora: the App Certificate is 32 hex digits, the secret beside the public App ID
  (docs.agora.io, "Manage Agora account"): taken after the words "app certificate";
- Razorpay: a key id ``rzp_live_``/``rzp_test_`` and 14 letters and digits is sent
  to the browser (:mod:`.publishable` keeps it); the 24-character key secret printed
  right after it (``rzp_live_…:<secret>``, ``rzp_live_… <secret>``) is redacted
  (razorpay.com/docs/api/authentication);
- Twilio: the Auth Token is 32 hex digits, passed right after the Account SID
  (``AC`` and 32 hex digits), as Twilio's quickstarts write ``Client(sid, token)``
  and ``-u SID:token`` (twilio.com/docs/usage/api); the SID is an id and stays.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int, str]

_DOC_VENDORS = (
    "ably akeyless alphavantage vantage axiom backblaze bitwarden brevo hcloud hetzner inngest langfuse linode "
    "mollie nexmo ovh ovhcloud rollbar statsig stytch upstash vonage wasabi xai activecampaign anyscale "
    "appdynamics bigcommerce bunnycdn clicksend dashscope deepinfra gladia infobip labelbox northflank novita "
    "paperspace picovoice pushwoosh qdrant speechmatics textmagic weaviate zulip"
)
DOC_VENDORS = frozenset(_DOC_VENDORS.split())
"""Vendors whose docs give a key format, named by no rule set we import (each has samples in ``vendordocs2``)."""

_ALPHA_VANTAGE_RE = lazyre.compile(r"(?i)alpha[ _-]?vantage")
_AV_KEY_RE = lazyre.compile(
    r"(?<![\w-])(?P<value>(?=[A-Z]*[0-9][A-Z]*[0-9])(?=[0-9]*[A-Z][0-9]*[A-Z])[A-Z0-9]{16})(?![\w-])"
)
_AGORA_RE = lazyre.compile(
    r"(?i)\bapp[ _-]?certificate\b[\"']?\s*(?:[:=]|is\b|->)?\s*[\"']?(?P<value>[0-9a-f]{32})(?![0-9a-z])"
)
_RAZORPAY_RE = lazyre.compile(
    r"(?<![\w-])rzp_(?:live|test)_[A-Za-z0-9]{14}(?:[ \t]*[:/,][ \t]*|[ \t]+(?:and[ \t]+)?(?:(?:key[ _])?secret[ \t:=]+)?)"
    r"(?P<value>(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[0-9])[A-Za-z0-9]{24})(?![\w-])"
)
_TWILIO_RE = lazyre.compile(
    r"(?<![\w-])AC[0-9a-f]{32}[\"'`]?(?:[ \t]*[:,][ \t]*|[ \t]+)[\"'`]?(?P<value>[0-9a-f]{32})(?![0-9A-Za-z_-])"
)
_LINE_WINDOW = 48


def spans(text: str) -> Iterator[Span]:
    """``(start, end, type)`` of every key these documented formats name in ``text``.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the spans (:func:`memrepo.engine.redaction.find` merges them with the other detectors').
    """
    if "antage" in text or "ANTAGE" in text:
        for m in _AV_KEY_RE.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if _ALPHA_VANTAGE_RE.search(text, max(line_start, m.start() - _LINE_WINDOW), m.start()):
                yield m.start("value"), m.end("value"), "alphavantage-key"
    if "ertificate" in text or "ERTIFICATE" in text:
        for m in _AGORA_RE.finditer(text):
            yield m.start("value"), m.end("value"), "agora-certificate"
    if "AC" in text:
        for m in _TWILIO_RE.finditer(text):
            yield m.start("value"), m.end("value"), "twilio-auth-token"
    if "rzp_" in text:
        for m in _RAZORPAY_RE.finditer(text):
            yield m.start("value"), m.end("value"), "razorpay-secret"
