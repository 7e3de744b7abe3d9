"""Keys their vendors document as public: spans redaction leaves alone (docs/architecture.md §3).

Issue 32, round 9. Each vendor below issues a key meant to ship in a web page or an
app, and says so in its docs; a user keeps it in memory on purpose (a front-end
config, a setup note). Each is recognised by its documented prefix, alphabet and
length, so the vendor's secret key beside it (another prefix) is still redacted:

- PostHog project API key ``phc_`` (the personal key ``phx_`` is secret), posthog.com/docs/api;
- Supabase ``sb_publishable_`` (the secret key is ``sb_secret_``), supabase.com/docs/guides/api/api-keys;
- Langfuse public key ``pk-lf-`` and a UUID (the secret key is ``sk-lf-``), langfuse.com/docs;
- Statsig client SDK key ``client-`` and 32-64 letters and digits (the server key is
  ``secret-``), docs.statsig.com/sdk-keys/api-keys;
- Paddle client-side token ``live_``/``test_`` and 27 hex digits (API keys are
  ``pdl_live_apikey_…``), developer.paddle.com/api-reference/about/api-keys;
- Dynatrace token identifier: the prefix and the 24-character public portion
  (``dt0c01.<24>``), which Dynatrace documents as safe to display; with the
  secret portion after it (``.<64>``) it is a whole token and stays a secret;
- Mollie profile id ``pfl_`` and 10 letters and digits, docs.mollie.com;
- Flutterwave public key ``FLWPUBK-``/``FLWPUBK_TEST-``, 32 hex digits, ``-X``
  (the secret key is ``FLWSECK-``), developer.flutterwave.com;
- Checkout.com sandbox public key ``pk_sbox_`` and 26 base32 characters (the secret
  is ``sk_sbox_``), checkout.com/docs/developer-resources/api/api-keys;
- Razorpay key id ``rzp_live_``/``rzp_test_`` and 14 letters and digits, given to
  the browser's Checkout (the key secret is not prefixed: :mod:`.docformats`).

Public values known by a label as well as a shape (a Tailscale node key, a reCAPTCHA site key, a Datadog
client token, a Mixpanel project token, a CI cache key) are :mod:`.vendorpublic`'s.

Left out: Square's application id ``sq0idp-`` and Mailgun's ``pubkey-``, which the
docs call public but Kingfisher's and gitleaks' rules redact; we follow them there.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int]

_PUBLISHABLE_RE = lazyre.compile(
    r"(?<![\w-])(?:"
    r"phc_[A-Za-z0-9]{32,64}"
    r"|sb_publishable_[A-Za-z0-9_-]{20,64}"
    r"|pk-lf-[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}"
    r"|client-[A-Za-z0-9]{32,64}"
    r"|(?:live|test)_[0-9a-f]{27}"
    r"|dt0[a-z][0-9]{2}\.[A-Z0-9]{24}(?!\.[A-Za-z0-9])"
    r"|pfl_[A-Za-z0-9]{10}"
    r"|FLWPUBK(?:_TEST)?-[0-9a-f]{32}-X"
    r"|pk_sbox_[a-z2-7]{26}"
    r"|rzp_(?:live|test)_[A-Za-z0-9]{14}"
    r")(?![\w-])"
)
_KEYWORDS = ("phc_", "sb_publishable_", "pk-lf-", "client-", "live_", "test_", "dt0", "pfl_", "FLWPUBK", "pk_sbox_")


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every key in ``text`` that its vendor documents as public.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the spans, in order (:mod:`.public` drops findings inside them).
    """
    if any(k in text for k in _KEYWORDS):
        for m in _PUBLISHABLE_RE.finditer(text):
            yield m.span()
    from .vendorpublic import spans as vendor_spans  # public by label and shape: Tailscale, reCAPTCHA ... (B24-4)

    yield from vendor_spans(text)
