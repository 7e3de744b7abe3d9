"""detect-secrets' (Yelp) maintained patterns as spans (docs/architecture.md §3).

- every regex plugin's ``denylist`` (AWS, GitHub, GitLab, Slack, Stripe, JWT,
  private key headers, basic-auth URLs, npm, PyPI, SendGrid, Twilio, ...),
  except the public-IP plugin (an IP address is not a secret);
- the whole PEM block of a private key (detect-secrets only matches its ``BEGIN`` line);
- the high-entropy plugins' Shannon entropy limits for quoted strings and for
  values assigned to token-like keys.

Imported on first use only (:func:`engine.secrets.redact`): building the plugin
table costs about 0.3 s.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString
from detect_secrets.plugins.ip_public import IPPublicDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector

SLUGS: dict[str, str] = {
    "AWS Access Key": "aws-access-key",
    "GitHub Token": "github-token",
    "GitLab Token": "gitlab-token",
    "Slack Token": "slack-token",
    "Stripe Access Key": "stripe-key",
    "JSON Web Token": "jwt",
    "Private Key": "private-key",
    "Basic Auth Credentials": "url-password",
    "OpenAI Token": "openai-key",
}
"""Short types for detect-secrets' ``secret_type`` names; others are slugified."""

_PEM_START = re.compile(r"-*\s*$")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*")
_TOKEN_KEY_RE = re.compile(
    r"(?<![\w-])(?P<key>[\w.-]*?(?:access_?|auth_?|bearer_?|refresh_?|session_?)?(?:token|auth|credentials?|bearer)\w*)"
    r"[\"'\]]{0,2}\s*(?::=|=>|=|:)\s*[\"'`]?(?P<value>[^\s\"'`,;&]+)",
    re.IGNORECASE,
)
_QUOTED_RE = re.compile(r"([\"'`])([A-Za-z0-9+/\\_=-]{16,})\1")
_PURE_HEX_RE = re.compile(r"[0-9a-fA-F]+")
_UUID_RE = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
_TOKEN_TAIL_RE = re.compile(r"[\w+/=.-]*")

_HEX = HexHighEntropyString()
_B64 = Base64HighEntropyString()


def _regex_plugins() -> list[tuple[str, type[RegexBasedDetector]]]:
    out: list[tuple[str, type[RegexBasedDetector]]] = []
    cls: object
    for secret_type, cls in get_mapping_from_secret_type_to_class().items():
        if isinstance(cls, type) and issubclass(cls, RegexBasedDetector) and cls is not IPPublicDetector:
            slug = SLUGS.get(secret_type) or re.sub(r"[^a-z0-9]+", "-", secret_type.lower()).strip("-")
            out.append((slug, cls))
    return out


_PLUGINS = _regex_plugins()


def is_high_entropy(value: str) -> bool:
    """detect-secrets' own test: Shannon entropy over its hex or base64 limit."""
    plugin = _HEX if _PURE_HEX_RE.fullmatch(value) else _B64
    return plugin.calculate_shannon_entropy(value) > plugin.entropy_limit


def _token_end(text: str, end: int) -> int:
    """Where the token around ``end`` ends (a full stop ending a sentence is not part of it)."""
    m = _TOKEN_TAIL_RE.match(text, end)
    tail = m.group(0).rstrip(".") if m else ""
    return end + len(tail)


def spans(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, type) of every secret value detect-secrets' patterns find in ``text``."""
    for slug, cls in _PLUGINS:
        for regex in getattr(cls, "denylist", ()):
            for m in regex.finditer(text):
                if cls is PrivateKeyDetector:
                    lead = _PEM_START.search(text[: m.start()])
                    start = m.start() - (len(lead.group(0)) if lead else 0)
                    end_m = _PEM_END.search(text, m.end())
                    # No END line: everything after the header may be key material.
                    yield start, end_m.end() if end_m else len(text), slug
                elif cls in (BasicAuthDetector, AWSKeyDetector) and regex.groups and m.group(1):
                    yield m.start(1), m.end(1), slug  # the value, not its context
                elif m.end() > m.start():
                    # Some denylist regexes stop early (the JWT one is lazy about its signature).
                    yield m.start(), _token_end(text, m.end()), slug
    for m in _TOKEN_KEY_RE.finditer(text):
        value = m.group("value")
        if len(value) >= 16 and is_high_entropy(value) and not value.startswith(("[REDACTED", "${", "$")):
            yield m.start("value"), m.end("value"), "high-entropy"
    for m in _QUOTED_RE.finditer(text):
        value = m.group(2)
        if (_PURE_HEX_RE.fullmatch(value) and len(value) <= 64) or _UUID_RE.fullmatch(value):
            continue
        if is_high_entropy(value):
            yield m.start(2), m.end(2), "high-entropy"
