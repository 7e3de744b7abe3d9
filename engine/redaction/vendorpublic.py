"""Values their vendors document as public, known by a label and a shape: spans redaction leaves alone.

breaker24's B24-4 (issue 32, round 13; docs/architecture.md §3). People keep these on
purpose (a front-end config, a setup note); each is taken only in the shape its docs
give and, where the vendor's secret shares that shape, only after the public one's label:

- a Tailscale node's, machine's or disco public key: ``nodekey:``, ``mkey:``, ``discokey:``
  and 64 hex digits (``tailscale status --json`` prints them; the private keys are
  ``privkey:``/``nlpriv:``, not taken);
- a reCAPTCHA site key (``6L`` and 38 characters) after "site key is" or a name ending
  ``_SITE_KEY`` (:mod:`.identifiers` keeps it right after ``sitekey``/``site key:``): the site
  key is in every page's HTML; the secret key has the same shape, so without that label,
  or with "secret" between, it is redacted;
- a Datadog client token (``pub`` and 32 hex digits) on a line naming Datadog, RUM or a
  client token: Datadog documents client tokens as safe to expose in browsers;
- a Mixpanel project token (32 hex digits) after "project token" or in ``mixpanel.init(``,
  on a line naming Mixpanel: public by Mixpanel's docs (its API secret, same shape, is not);
- a cache key (``v3-deps-4f9a…``, ``Linux-node-<hash>``) after "cache key": words joined by
  dashes, underscores or colons, then a hex digest, as CI caches name them.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int]

_TAILSCALE_RE = lazyre.compile(r"(?<![\w-])(?:nodekey|mkey|discokey):[0-9a-f]{64}(?![\w-])")
_SITE_KEY_RE = lazyre.compile(
    r"(?i)(?:(?<=_)site_key[\"']?[ \t]*[:=][ \t]*|site[ _-]?key(?P<between>[^\n=:]{0,30}?)[ \t]+(?:is|was)[ \t]+)"
    r"[\"']?(?P<value>6L[A-Za-z0-9_-]{38})(?![\w-])"
)
"""A reCAPTCHA site key after "site key is" or a name ending ``_SITE_KEY``: :mod:`.identifiers` keeps the one right
after ``sitekey``/``site key:``."""
_DATADOG_RE = lazyre.compile(r"(?<![\w-])pub[0-9a-f]{32}(?![\w-])")
_DATADOG_LINE_RE = lazyre.compile(r"(?i)datadog|\brum\b|client[ _-]?token|clienttoken|\bdd_")
_MIXPANEL_RE = lazyre.compile(
    r"(?i)(?:project[ _-]?token(?P<between>[^\n=:]{0,30}?)(?:[\"']?[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+)[\"']?|"
    r"mixpanel\.init\([ \t]*[\"'])(?P<value>[0-9a-f]{32})(?![\w-])"
)
_CACHE_KEY_RE = lazyre.compile(
    r"(?i)\bcache[ _-]?key(?P<between>[^\n=:]{0,20}?)(?:[\"']?[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+)[\"']?"
    r"(?P<value>(?:[A-Za-z][A-Za-z0-9.]{0,20}[-_:]){1,6}[0-9a-f]{8,64})(?![\w-])"
)
_SECRET_BETWEEN_RE = lazyre.compile(r"(?i)secret|private|priv|pass|\band\b")


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of each value ``text`` holds that its vendor documents as public (the module's list).

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the values' spans (:mod:`.public` drops findings inside them).
    """
    low = text.lower()
    if "key:" in low:
        for m in _TAILSCALE_RE.finditer(text):
            yield m.span()
    if "sitekey" in low or "site key" in low or "site_key" in low or "site-key" in low:
        for m in _SITE_KEY_RE.finditer(text):
            if not _SECRET_BETWEEN_RE.search(m.group("between") or ""):
                yield m.start("value"), m.end("value")
    if "pub" in low:
        for m in _DATADOG_RE.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            line_end = text.find("\n", m.end())
            if _DATADOG_LINE_RE.search(text, line_start, len(text) if line_end < 0 else line_end):
                yield m.span()
    if "mixpanel" in low:
        for m in _MIXPANEL_RE.finditer(text):
            if not (m.group("between") and _SECRET_BETWEEN_RE.search(m.group("between"))):
                yield m.start("value"), m.end("value")
    if "cache" in low:
        for m in _CACHE_KEY_RE.finditer(text):
            if not _SECRET_BETWEEN_RE.search(m.group("between")):
                yield m.start("value"), m.end("value")
