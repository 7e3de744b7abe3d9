"""Public values in the notes a project keeps about itself (issue 32, round 11; docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans`. The values are what
``build_memnotes.py``'s set (changelogs, agent memory files such as
``CLAUDE.md``, runbooks, docs quoting ``kubectl``) found redacted. Each is
recognised by a structure its maker documents, never by looking random or
not, so a secret written in the same place is still redacted:

- a file name or path ending in a known extension (``.md``, ``.png``,
  ``.tar.gz`` ...) whose every piece between ``/ _ - .`` is a word, a number,
  a version, a size (``3992x2242``), a short content hash (6-20 lower-case hex,
  as bundlers fingerprint files) or a shell variable (``${ARCH}``): a random
  token has pieces of none of these kinds; a file named for a credential (``token-<hex>.json``) is not kept;
- a source location as compilers, linters and editors print it, ``path/name.ext:<line>[:<column>]``
  (``src/login.py:14``): kept even beside a secret word (``the auth bug is in src/login.py:14``, breaker11
  B11-1), and even when a piece names one (``api/token.py:120``), unless a label stands right before it;
- a CUID (github.com/paralleldrive/cuid: ``c`` + 8 base-36 digits of the time in
  ms + counter, fingerprint and random blocks, 25 lower-case characters) whose
  time decodes to 2015-2034;
- a Go or Java qualified name ``package.TypeName`` (``oauth2.TokenSource``):
  a lower-case package, then two or more capitalised words, no digits;
- the prefix Kubernetes writes before data encrypted at rest,
  ``k8s:enc:<provider>:v1:<key name>`` (kubernetes.io, "Encrypting Confidential
  Data at Rest": the key's name in the config, never its material);
- a JWK's ``"kid"`` that is an RFC 7638 thumbprint (base64url of a SHA-256, 43 characters): a key's public name;
- tiktoken's encoding names (``cl100k_base``, ``o200k_base`` ...: github.com/openai/tiktoken's registry);
- a persistent volume's name as Kubernetes' provisioners make it, ``pvc-`` and the claim's UID;
- an AWS security-group rule id (``sgr-`` and 17 hex), and an AWS resource id whose end is masked with ``x``
  (``sg-05ae66b3cfafxxxxx``: 17 characters, the hex then the ``x``s): a masked value is no secret;
- a bucket name after ``make_bucket:`` or ``remove_bucket:`` (``aws s3 mb``/``rb`` output), in S3's naming rules;
- a function applied to a ``<placeholder>`` (``sha256(<cache-key>)``): a template, no value;
- an image reference after ``image:``, ``FROM`` or ``docker pull|run`` in the grammar of
  github.com/distribution/reference (lower-case components, ``host[:port]/path[:tag]``, one ``/`` at least), its tag made of the pieces a file
  name may hold (``1.27-alpine``, ``v2.1.0-rc.1``): a token as the tag is no tag.

None of them is kept where a credential's label stands right before it on its line (``Authorization: Bearer``,
``DB_PASS=``, ``the wifi password is``, a vendor's name then ``key``): a value written under a label naming a secret
is that secret whatever its shape (breaker9, B9-10 to B9-13). A file name holds at most one short content hash, a
bucket name no random piece of 20 or more characters, and the ``k8s:enc:`` prefix a key name of at most 32
characters in a config's name shape (lower case, ``key1``), not a key's random material.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre

Span = tuple[int, int]

_EXT = (
    r"(?:tar\.gz|tar\.xz|tar\.bz2|tar\.zst|mdx?|txt|rst|adoc|png|jpe?g|gif|svg|webp|ico|bmp|pdf|json|jsonl|ya?ml|"
    r"toml|ini|cfg|conf|lock|log|csv|tsv|html?|css|scss|js|mjs|cjs|jsx|ts|tsx|py|ipynb|rb|go|rs|java|kt|swift|"
    r"cpp|hpp|cs|php|sh|bash|zsh|ps1|sql|xml|proto|tf|tfvars|hcl|zip|tgz|gz|xz|whl|deb|rpm|dmg|exe|msi|jar|"
    r"mp4|mp3|wav|mov|pem|pub|crt|cer|csr|der|sig|asc|gpg)"
)
_FILE_RE = lazyre.compile(r"(?<![\w./${}-])(?P<stem>[\w./${}-]+?)\." + _EXT + r"(?![\w/${}-]|\.\w)")
_SOURCE_RE = lazyre.compile(
    r"(?<![\w./${}-])(?P<stem>[\w./${}-]+?)\." + _EXT + r":[1-9]\d{0,5}(?::[1-9]\d{0,3})?(?![\w:./-])"
)
"""A source location, ``path/name.ext:<line>[:<column>]``, as compilers, linters and editors print it."""
_PIECE_RE = re.compile(
    r"\d+|[A-Za-z][a-z]*(?:[A-Z][a-z]+)*\d{0,4}|[A-Z]{1,8}\d{0,4}|v\d+|\d+x\d+|[0-9a-f]{6,20}|\$\{?[A-Z_]+\}?"
)
_SPLIT_RE = re.compile(r"[/_.-]+")
_CUID_RE = lazyre.compile(r"(?<![\w-])c[0-9a-z]{24}(?![\w-])")
_CUID_TIME = (1_420_070_400_000, 2_051_222_400_000)
"""2015-01-01 to 2035-01-01 in ms: the time a CUID's first block must decode to."""
_QUALIFIED_RE = lazyre.compile(r"(?<![\w.])[a-z][a-z0-9]{1,20}\.(?:[A-Z][a-z]{1,20}){2,6}(?![\w]|\.\w)")
_KID_RE = lazyre.compile(r"[\"']kid[\"']\s*:\s*[\"'](?P<kid>[A-Za-z0-9_-]{43})[\"']")
_ETCD_RE = lazyre.compile(
    r"\bk8s:enc:(?:aescbc|aesgcm|secretbox|identity|kms):v[12]:[a-z][a-z0-9._-]{0,31}(?::|(?![\w+/=-]))"
)
_TIKTOKEN_RE = lazyre.compile(r"(?<![\w-])(?:r50k_base|p50k_base|p50k_edit|cl100k_base|o200k_base|o200k_harmony)\b")
_PV_RE = lazyre.compile(r"(?<![\w-])pvc-[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}(?![\w-])")
_AWS_MORE_ID_RE = lazyre.compile(
    r"(?<![\w-])(?:sgr-(?:[0-9a-f]{17}|(?=[0-9a-fx]{17}(?![\w-]))[0-9a-f]{4,14}x{3,13})"
    r"|(?:i|ami|vpc|subnet|sg|vol|snap|eni|igw|rtb|acl|nat|eipalloc|lt|tgw|pcx|vpce)-"
    r"(?=[0-9a-fx]{17}(?![\w-]))[0-9a-f]{4,14}x{3,13})(?![\w-])"
)
_BUCKET_RE = lazyre.compile(r"\b(?:make|remove)_bucket: (?:s3://)?(?P<b>[a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?![\w.-])")
_PLACEHOLDER_CALL_RE = lazyre.compile(r"\b[A-Za-z_]\w{0,30}\(<[\w .:/-]{1,80}>\)")
_IMAGE_REF_RE = lazyre.compile(
    r"(?:\bimage:\s*[\"']?|^\s*FROM\s+|\bdocker\s+(?:pull|run)\s+)"
    r"(?P<ref>[a-z0-9]+(?:[._-][a-z0-9]+)*(?::\d{1,5})?(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)+"
    r"(?::(?P<tag>[\w][\w.-]{0,127}))?)(?![\w./:@-])",
    re.M,
)


_LABEL_TAIL_RE = lazyre.compile(
    r"(?i)(?:pass(?:word|wd|phrase)?|pwd|secret|token|api_?key|access_?key|auth(?:orization)?|bearer|credentials?)"
    r"(?:[_-]?key)?s?(?![a-z])[\"']?\s*(?:[:=]|is|was)?\s*[\"']?$"
)
"""A credential's label ending right before a value (``PGPASSWORD=``, ``apiKey": "``, ``Bearer ``)."""
_RANDOM_PIECE_RE = re.compile(r"(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{20,}")
"""A piece of a bucket name of 20 or more letters and digits mixed: a random value, not a name."""


def _labelled(text: str, start: int, *, tail_only: bool = False) -> bool:
    """Whether a credential's label stands before ``start`` on its line: ``PGPASSWORD=`` / ``password is`` right
    before it (:data:`_LABEL_TAIL_RE`), or, unless ``tail_only``, a secret word or a vendor's name within the
    window (:func:`.context.named_before`, the rule a UUID is kept by)."""
    from .context import WINDOW, named_before

    window = text[max(text.rfind("\n", 0, start) + 1, start - WINDOW) : start]
    return bool(_LABEL_TAIL_RE.search(window)) or (not tail_only and named_before(text, start))


_SECRET_PIECES = frozenset({"token", "secret", "secrets", "password", "passwd", "pwd", "key", "apikey", "credential"})
"""A piece naming a credential: a value filed under it (``token-<hex>.json``) is not taken for a plain file name."""


def _file_ok(stem: str, *, source: bool = False) -> bool:
    """Whether every piece of ``stem`` is a word, number, version, size, short hash or shell variable, none of
    them a credential word unless ``source`` (a source location: ``auth/token.py:120`` is code, not a key)."""
    pieces = [p for p in _SPLIT_RE.split(stem) if p]
    hashes = sum(1 for p in pieces if len(p) >= 6 and not p.isdigit() and all(c in "0123456789abcdef" for c in p))
    return (
        bool(pieces)
        and all(_PIECE_RE.fullmatch(p) for p in pieces)
        and (source or not any(p.lower() in _SECRET_PIECES for p in pieces))
        and hashes <= 1  # a bundler's one content hash; a hex secret cut in pieces is no file name
    )


def _cuid_ok(value: str) -> bool:
    low, high = _CUID_TIME
    return low <= int(value[1:9], 36) < high and any(c.isdigit() for c in value)


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every value of the kinds above in ``text``, in no particular order; none under a
    credential's label (:func:`_labelled`)."""
    for start, end in _spans(text):
        if not _labelled(text, start):
            yield start, end
    if ":" in text and "." in text:  # a source location: only a label right before it makes it a value
        for m in _SOURCE_RE.finditer(text):
            stem = m.group("stem")
            if (
                not stem.startswith("-")
                and _file_ok(stem, source=True)
                and not _labelled(text, m.start(), tail_only=True)
            ):
                yield m.span()
    if "." in text:  # a code name: only a label right before it (``password is``) makes it a value
        for m in _QUALIFIED_RE.finditer(text):
            if not _labelled(text, m.start(), tail_only=True):
                yield m.span()
    if "k8s:enc:" in text:  # a prefix and a key's name in a config's shape: what stands before it does not matter
        for m in _ETCD_RE.finditer(text):
            yield m.span()
    if "_base" in text or "_edit" in text or "_harmony" in text:
        for m in _TIKTOKEN_RE.finditer(text):
            yield m.span()
    if "(<" in text:
        for m in _PLACEHOLDER_CALL_RE.finditer(text):
            yield m.span()


def _spans(text: str) -> Iterator[Span]:
    if "." in text:
        for m in _FILE_RE.finditer(text):
            if not m.group("stem").startswith("-") and _file_ok(m.group("stem")):  # ``-pPassword.sql``: a flag
                yield m.span()
    if "c" in text:
        for m in _CUID_RE.finditer(text):
            if _cuid_ok(m.group(0)):
                yield m.span()
    if "kid" in text:
        for m in _KID_RE.finditer(text):
            yield m.start("kid"), m.end("kid")
    if "pvc-" in text:
        for m in _PV_RE.finditer(text):
            yield m.span()
    if "-" in text and ("sgr-" in text or "xxx" in text):
        for m in _AWS_MORE_ID_RE.finditer(text):
            yield m.span()
    if "_bucket: " in text:
        for m in _BUCKET_RE.finditer(text):
            if not any(_RANDOM_PIECE_RE.fullmatch(p) for p in re.split(r"[.-]", m.group("b"))):
                yield m.start("b"), m.end("b")
    if "image" in text or "FROM" in text or "docker" in text:
        for m in _IMAGE_REF_RE.finditer(text):
            if m.group("tag") is None or _file_ok(m.group("tag")):
                yield m.start("ref"), m.end("ref")
