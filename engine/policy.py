"""The write policy: what a candidate may become before it reaches disk (DESIGN.md §3 "policy").

:func:`decide` runs first in :meth:`engine.store.MemoryStore.remember`, before
routing and before the lock. In order it refuses:

- scopes that never go to the repo (``private``, ``contact``, ``task``);
- a ``<no-memory>`` marker in the origin text (the user message the fact came
  from) or in the text itself;
- empty text;

then redacts secrets in ``text``, ``subject`` and ``source`` (each value
replaced by ``[REDACTED:<type>]``), and refuses text that is nothing but
secrets ("secret-only text dropped"), filler, or over the entry limit.

Secret detection uses the patterns of `detect-secrets`_ (Yelp), not a list
of our own:

- every regex plugin's ``denylist`` (AWS, GitHub, GitLab, Slack, Stripe, JWT,
  private key headers, basic-auth URLs, npm, PyPI, SendGrid, Twilio, ...),
  except the public-IP plugin (an IP address is not a secret);
- the keyword plugin's secret-sounding key names (``password``, ``api_key``,
  ``secret``, ...) for ``key=value`` / ``key: value`` assignments;
- the high-entropy plugins' Shannon entropy and limits for quoted strings and
  for values assigned to token-like keys.

What it lacks, added here (:data:`EXTRA_PATTERNS`): current OpenAI keys
(``sk-...``, ``sk-proj-...``; detect-secrets only knows the legacy
``T3BlbkFJ`` shape), Anthropic keys (``sk-ant-...``), a URL password holding
characters the basic-auth regex excludes, and the whole PEM block of a private
key (detect-secrets only matches its ``BEGIN`` line). Pure hex up to 64
characters (commit ids, sha256) and UUIDs are never taken for high entropy
outside an assignment, so memory about code passes untouched.

.. _detect-secrets: https://github.com/Yelp/detect-secrets
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString
from detect_secrets.plugins.ip_public import IPPublicDetector
from detect_secrets.plugins.keyword import DENYLIST as KEYWORD_DENYLIST
from detect_secrets.plugins.private_key import PrivateKeyDetector

from .errors import LimitError
from .limits import check_entry
from .models import Candidate

REFUSED_SCOPES: dict[str, str] = {
    "private": "scope private never goes to the memory repo (DESIGN.md §3)",
    "contact": "scope contact (facts about other people) never goes to the memory repo (DESIGN.md §3)",
    "task": "scope task lives only as long as its task and never goes to the memory repo (DESIGN.md §3)",
}

NO_MEMORY = "<no-memory>"

FILLER = frozenset(
    {
        "ok", "okay", "k", "kk", "thanks", "thank", "thx", "ty", "hello", "hi", "hey", "noted", "sure",
        "yes", "yeah", "yep", "no", "nope", "nah", "cool", "lol", "hmm", "um", "uh", "好", "好的",
        "谢谢", "是", "是的", "不", "嗯", "收到", "行",
    }
)
"""Words that carry nothing to remember on their own ("ok thanks" is still filler)."""

_WORD_RE = re.compile(r"[^\W_]+")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_MARK_RE = re.compile(r"\[REDACTED:[a-z0-9-]+\]")

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

_SPECIFIC, _GENERIC = 0, 1

EXTRA_PATTERNS: list[tuple[str, re.Pattern[str], int]] = [
    # Anthropic keys: sk-ant-api03-..., sk-ant-admin01-...
    ("anthropic-key", re.compile(r"(?<![\w-])sk-ant-[a-z]+\d*-[A-Za-z0-9_-]{20,}"), 0),
    # OpenAI keys as issued today: sk-..., sk-proj-..., sk-svcacct-..., sk-admin-...
    ("openai-key", re.compile(r"(?<![\w-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"), 0),
    # A password in a URL holding characters detect-secrets' basic-auth regex excludes.
    ("url-password", re.compile(r"://[^/\s:@]+:([^/\s@]+)@[\w.-]"), 1),
]
"""(type, regex, group holding the value; 0 = the whole match) detect-secrets lacks."""

_PEM_START = re.compile(r"-*\s*$")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*")

_KEYWORD_KEY = r"(?:{})\w*".format("|".join(KEYWORD_DENYLIST))
_TOKEN_KEY = r"(?:access_?|auth_?|bearer_?|refresh_?|session_?)?(?:token|auth|credentials?|bearer)\w*"
_ASSIGN_RE = re.compile(
    r"(?<![\w-])(?P<key>[\w.-]*?(?:(?P<kw>" + _KEYWORD_KEY + r")|(?P<tok>" + _TOKEN_KEY + r")))"
    r"[\"'\]]{0,2}\s*(?::=|=>|==?|:)\s*[\"'`]?(?P<value>[^\s\"'`,;]+)",
    re.IGNORECASE,
)
"""``key = value`` / ``key: value`` with a secret-sounding key (detect-secrets' keyword list) or a token-like key."""

_QUOTED_RE = re.compile(r"([\"'`])([A-Za-z0-9+/\\_=-]{16,})\1")
_PURE_HEX_RE = re.compile(r"[0-9a-fA-F]+")
_UUID_RE = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")

_HEX = HexHighEntropyString()
_B64 = Base64HighEntropyString()


def _regex_plugins() -> list[tuple[str, type[RegexBasedDetector]]]:
    out = []
    for secret_type, cls in get_mapping_from_secret_type_to_class().items():
        if isinstance(cls, type) and issubclass(cls, RegexBasedDetector) and cls is not IPPublicDetector:
            slug = SLUGS.get(secret_type) or re.sub(r"[^a-z0-9]+", "-", secret_type.lower()).strip("-")
            out.append((slug, cls))
    return out


_PLUGINS = _regex_plugins()


@dataclass(slots=True)
class Decision:
    """What the policy made of a candidate.

    Attributes:
        candidate: the candidate to write (secrets redacted), or None when refused.
        reason: why the candidate was refused, or None.
        redacted: the types of secrets redacted, in order, each once (never values).
    """

    candidate: Candidate | None
    reason: str | None = None
    redacted: list[str] = field(default_factory=list)


def word_count(text: str) -> int:
    """Word-ish tokens of ``text`` that are not filler; each CJK character counts as one."""
    count = 0
    for word in _WORD_RE.findall(text.casefold()):
        cjk = _CJK_RE.findall(word)
        rest = _CJK_RE.sub(" ", word).split()
        if cjk and "".join(cjk) in FILLER:
            cjk = []
        count += len(cjk) + sum(1 for w in rest if w not in FILLER)
    return count


def _is_high_entropy(value: str) -> bool:
    plugin = _HEX if _PURE_HEX_RE.fullmatch(value) else _B64
    return plugin.calculate_shannon_entropy(value) > plugin.entropy_limit


_TOKEN_TAIL_RE = re.compile(r"[\w+/=.-]*")


def _token_end(text: str, end: int) -> int:
    """Where the token around ``end`` ends (a full stop ending a sentence is not part of it)."""
    tail = _TOKEN_TAIL_RE.match(text, end).group(0).rstrip(".")
    return end + len(tail)


def _spans(text: str) -> Iterator[tuple[int, int, str, int]]:
    """(start, end, type, priority) of every secret value found in ``text``."""
    for slug, cls in _PLUGINS:
        for regex in cls.denylist:
            for m in regex.finditer(text):
                if cls is PrivateKeyDetector:
                    start = m.start() - len(_PEM_START.search(text[: m.start()]).group(0))
                    end_m = _PEM_END.search(text, m.end())
                    # No END line: everything after the header may be key material.
                    yield start, end_m.end() if end_m else len(text), slug, _SPECIFIC
                elif cls in (BasicAuthDetector, AWSKeyDetector) and regex.groups and m.group(1):
                    yield m.start(1), m.end(1), slug, _SPECIFIC  # the value, not its context
                elif m.end() > m.start():
                    # Some denylist regexes stop early (the JWT one is lazy about its
                    # signature): the rest of the token goes too.
                    yield m.start(), _token_end(text, m.end()), slug, _SPECIFIC
    for slug, regex, group in EXTRA_PATTERNS:
        for m in regex.finditer(text):
            yield m.start(group), m.end(group), slug, _SPECIFIC
    for m in _ASSIGN_RE.finditer(text):
        value = m.group("value")
        if _MARK_RE.fullmatch(value) or value.startswith("[REDACTED"):
            continue
        high = len(value) >= 16 and _is_high_entropy(value)
        if m.group("kw"):
            # detect-secrets' keyword list: any value that is not a plain lower-case word.
            if not (high or (len(value) >= 4 and not value.isalpha()) or (value.isalpha() and not value.islower())):
                continue
            key = m.group("key").lower()
            slug = "aws-secret-key" if "aws" in key else ("high-entropy" if high else "secret-keyword")
        elif high:
            slug = "high-entropy"
        else:
            continue
        yield m.start("value"), m.end("value"), slug, _GENERIC
    for m in _QUOTED_RE.finditer(text):
        value = m.group(2)
        if (_PURE_HEX_RE.fullmatch(value) and len(value) <= 64) or _UUID_RE.fullmatch(value):
            continue
        if _is_high_entropy(value):
            yield m.start(2), m.end(2), "high-entropy", _GENERIC


def redact(text: str) -> tuple[str, list[str]]:
    """Replace every secret value in ``text`` with ``[REDACTED:<type>]``.

    Overlapping findings are merged into one redaction named after the most
    specific finding, so no part of a secret survives.

    Returns:
        tuple[str, list[str]]: the redacted text and the types found, in
        order of appearance (never the values).
    """
    found = sorted(_spans(text))
    merged: list[list] = []  # [start, end, slug, priority]
    for start, end, slug, prio in found:
        if merged and start < merged[-1][1]:
            last = merged[-1]
            last[1] = max(last[1], end)
            if prio < last[3]:
                last[2], last[3] = slug, prio
        else:
            merged.append([start, end, slug, prio])
    out, pos, types = [], 0, []
    for start, end, slug, _ in merged:
        out.append(text[pos:start])
        out.append(f"[REDACTED:{slug}]")
        pos = end
        types.append(slug)
    out.append(text[pos:])
    return "".join(out), types


def decide(cand: Candidate, clean: Callable[[str], str]) -> Decision:
    """Decide what ``cand`` may become before it reaches disk.

    Args:
        cand: the candidate as asked.
        clean: folds text to one clean line (the writer's ``clean_text``).

    Returns:
        Decision: the candidate with secrets redacted in text, subject and
        source, or a refusal with its reason. Other checks (NUL bytes,
        pinning, a missing workspace) stay with the writer.
    """
    if cand.scope in REFUSED_SCOPES:
        return Decision(None, REFUSED_SCOPES[cand.scope])
    for name, value in (("origin text", cand.origin_text), ("text", cand.text)):
        if value and NO_MEMORY in value.casefold():
            return Decision(None, f"the {name} holds {NO_MEMORY}: the user asked not to remember it")
    text = clean(cand.text or "")
    if not text:
        return Decision(None, "empty text: nothing to remember")
    text, types = redact(text)
    update: dict[str, str] = {"text": text}
    for key in ("subject", "source"):
        value = getattr(cand, key)
        if value:
            update[key], more = redact(value)
            types += more
    redacted = list(dict.fromkeys(types))
    try:
        check_entry(text)
    except LimitError as exc:
        return Decision(None, str(exc), redacted)
    if word_count(_MARK_RE.sub(" ", text)) < 2:
        if redacted:
            return Decision(None, "secret-only text dropped: nothing but secrets (and filler) was left", redacted)
        return Decision(None, "filler: fewer than two words worth remembering")
    return Decision(cand.model_copy(update=update), None, redacted)
