"""Public formats' own values, recognised by what each format documents (issue 32, round 17; docs/architecture.md §3).

:func:`spans` adds to :func:`.public.spans`. The values are what ``build_pubformats.py``'s tune half (lock files,
workflows, Helm values, ssh/gpg/hostapd configs, notebooks and docs of ten public repositories) found redacted;
each is kept by the structure its format defines, never by a file's or a repository's name:

- a GitHub page anchor: ``#diff-<md5 or sha256 of the path>[LR<line>]``, ``#issue-<n>`` (its comment anchors are
  :mod:`.codenames`');
- IPython's name of a cell in a traceback, ``<ipython-input-<n>-<12 hex>>``;
- a base64 value that decodes to an ``http(s)`` URL with no userinfo, no query and no path segment that reads as a
  credential (a Kubernetes Secret's ``data:`` holds values base64-encoded; a webhook URL with its token so
  encoded is still redacted);
- an npm package name with its scope, ``@scope/name`` (lower case, pieces as a host's), and a Yarn resolution,
  ``<name>@<protocol>:<path>`` (``workspace:``, ``npm:``, ``patch:``, ``portal:``, ``link:``, ``file:``);
- an OpenSSH algorithm list after its keyword (``KexAlgorithms``, ``Ciphers``, ``MACs``, ``HostKeyAlgorithms``,
  ``PubkeyAcceptedAlgorithms`` ...): lower-case names, ``name@openssh.com`` / ``@libssh.org``;
- hostapd / wpa_supplicant's ``key_mgmt`` methods (``WPA-EAP-SUITE-B-192``: upper-case pieces);
- a shields.io badge's text, ``img.shields.io/badge/<label>-<message>-<colour>``;
- a reference, never a value: Terraform's ``${module.bucket.s3_bucket_id}`` (a dotted path), a Go/Helm template's
  ``{{ .Values.image.tag }}``, a CloudFormation dynamic reference's body (``{{resolve:secretsmanager:<id>:…}}``,
  ``ssm-secure``, ``ssm``: where the secret is stored, never the value); a Nix flake's output attribute, ``github:owner/repo#packages.aarch64-linux.name``;
- a function's name where a line declares it: ``func [(recv)] <name>(`` (Go), ``def <name>(`` (Python),
  ``function <name>(`` (JavaScript), ``fn <name>(`` (Rust);
- a ``git format-patch`` file's name, ``0009-Already-set-by-SOC_SINGLE_RANGE_TLV-Speaker-Playback``: four digits, then
  the subject's words;
- an Apple board id, ``Mac-<16 upper-case hex>``; an RDS automated snapshot's id,
  ``rds:<instance>-<yyyy-mm-dd-hh-mm>``; a Linux kernel config target, ``<board>_defconfig``;
- a Google Drive share link's ``resourcekey=0-…`` (round 22);
- a Python import's names, ``from <module> import <name>[, <name>]`` (round 22);
- a pagination cursor after its name (``endCursor``, ``next_cursor``), and a name of words ending in a Unix time
  (``android-test-components_1717594066497``), unless a secret is named before them (round 22);
- a TypeScript playground's code, ``typescriptlang.org/play…#code/<lz-string>``, and Flow's, ``flow.org/try/#0…``.

A DNS host name under a label (``prefix: 123456789.dkr.ecr.eu-west-1.amazonaws.com``) was kept by its labels' shape
for one round and taken back before landing: it kept one tuning line and let two of gitleaks' held-out secrets
through (the lead's final run, counts only); a host after a label is redacted as before.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from . import lazyre, slots
from .rules import looks_like_credential

Span = tuple[int, int]

_GH_ANCHOR_RE = lazyre.compile(
    r"(?<=[\w/.-])#(?:diff-(?:[0-9a-f]{64}|[0-9a-f]{32})(?:[LR]\d{1,6}(?:-[LR]\d{1,6})?)?|issue-\d{1,12})(?![\w-])"
)
_IPYTHON_RE = lazyre.compile(r"<ipython-input-\d{1,6}-[0-9a-f]{12}>")
_B64_RE = lazyre.compile(r"(?<![A-Za-z0-9+/])(?:aHR0cHM6Ly|aHR0cDovL)[A-Za-z0-9+/]{4,1024}={0,2}(?![A-Za-z0-9+/=])")
_URL_RE = lazyre.compile(r"https?://[a-z0-9.-]{1,253}(?::\d{1,5})?(?:/[\w./~%-]{0,512})?\n?")
_PIECE_RE = lazyre.compile(r"[a-z]+|\d+|[a-z]+\d{1,2}|\d{1,2}[a-z]+|[a-z]+\d{1,2}[a-z]+")
_NPM_RE = lazyre.compile(r"(?<![\w@.-])@[a-z0-9][a-z0-9._-]{0,213}/[a-z0-9][a-z0-9._-]{0,213}(?![\w@/-])")
_YARN_RE = lazyre.compile(
    r"(?<![\w@/.-])(?:@[a-z0-9][a-z0-9._-]{0,213}/)?(?P<name>[a-z0-9][a-z0-9._-]{0,213})"
    r"@(?P<proto>workspace|npm|patch|portal|link|file):[\w@/.~^=<>*+-]{0,512}"
)
_SSH_ALGOS_RE = lazyre.compile(
    r"(?m)^[ \t]*(?:KexAlgorithms|Ciphers|MACs|HostKeyAlgorithms|PubkeyAcceptedKeyTypes|PubkeyAcceptedAlgorithms|"
    r"HostbasedAcceptedAlgorithms|HostbasedKeyTypes|CASignatureAlgorithms)[ \t]*(?:=[ \t]*)?"
    r"(?P<list>[+^-]?[a-z0-9.+-]{2,64}(?:@[a-z0-9.-]{2,64})?(?:,[a-z0-9.+-]{2,64}(?:@[a-z0-9.-]{2,64})?){0,40})$"
)
_KEY_MGMT_RE = lazyre.compile(
    r"(?<![\w])(?:wpa_)?key_mgmt[ \t]*=[ \t]*(?P<list>[A-Z0-9-]{2,40}(?: [A-Z0-9-]{2,40}){0,20})"
)
_ALGO_PIECE_RE = lazyre.compile(r"[a-z]+\d{0,5}|\d{1,5}")
_METHOD_PIECE_RE = lazyre.compile(r"[A-Z]{1,8}\d{0,3}|\d{1,3}")
_SHIELDS_RE = lazyre.compile(r"img\.shields\.io/badge/(?P<text>[^\s?)\"'<>]{1,300})")
_PLAYGROUND_RE = lazyre.compile(
    r"typescriptlang\.org/(?:[\w-]+/)?play[^\s#)]{0,200}#code/(?P<code>[A-Za-z0-9+/=$-]{1,8192})"
    r"|flow\.org/try/#0(?P<flow>[A-Za-z0-9+/=$-]{1,8192})"
)


_REF_RE = lazyre.compile(
    r"\$\{(?P<ref>[A-Za-z_][\w-]{0,80}(?:\.[A-Za-z_][\w-]{0,80}|\[\d{1,4}\]|\[\"[\w-]{1,80}\"\]){1,12})\}"
    r"|\{\{-?[ \t]*(?P<tpl>\.[A-Za-z_][\w]{0,80}(?:\.[A-Za-z_][\w]{0,80}){0,12})[ \t]*-?\}\}"
)
_RESOLVE_RE = lazyre.compile(r"\{\{resolve:(?:secretsmanager|ssm-secure|ssm):(?P<ref>[^\s{}\"'`]{1,2048})\}\}")
"""A CloudFormation dynamic reference (``{{resolve:secretsmanager:<secret-id>:SecretString:<json-key>}}``,
``{{resolve:ssm-secure:<parameter>:<version>}}``): it names where a secret is stored, CloudFormation reads the value."""
_PATCH_RE = lazyre.compile(r"(?<![\w.-])\d{4}-(?P<subject>[A-Za-z0-9_]{1,60}(?:-[A-Za-z0-9_.]{1,60}){2,30})(?![\w-])")
_FLAKE_ATTR_RE = lazyre.compile(
    r"(?:(?:github|gitlab|sourcehut):[\w.~-]{1,100}/[\w.-]{1,100}(?:/[\w.-]{1,100})?|(?<![\w/])\.)"
    r"#(?P<attr>[A-Za-z_][\w.-]{0,200})"
)
_FUNC_RE = lazyre.compile(
    r"(?m)^[ \t]*(?:func(?:[ \t]+\([\w *.\[\]]{1,80}\))?|def|function|fn)[ \t]+(?P<name>[A-Za-z_]\w{0,100})[ \t]*[(\[<]"
)
_IMPORT_RE = lazyre.compile(
    r"(?m)^[ \t]*from[ \t]+\.{0,3}[A-Za-z_][\w.]{0,200}[ \t]+import[ \t]+\(?(?P<names>[A-Za-z_][\w]{0,100}"
    r"(?:[ \t]+as[ \t]+[A-Za-z_]\w{0,100})?(?:[ \t]*,[ \t]*[A-Za-z_]\w{0,100}(?:[ \t]+as[ \t]+[A-Za-z_]\w{0,100})?){0,40})"
)
_NAME_RE = lazyre.compile(r"[A-Za-z_]\w*")
_CURSOR_RE = lazyre.compile(
    r"(?<![\w-])[\"']?(?:(?:start|end|next|prev(?:ious)?|after|before)_?[Cc]ursor|cursor)[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<value>[A-Za-z0-9+/_-]{8,200}={0,2})(?![\w+/=-])"
)
"""A pagination cursor after its name (GraphQL's ``endCursor``, Slack's ``next_cursor``): an opaque place in a list,
base64 of an offset or an id, never a credential."""
_STAMPED_RE = lazyre.compile(
    r"(?<![\w.-])(?P<words>[a-z][a-z0-9]{0,30}(?:[-_][a-z][a-z0-9]{0,30}){1,8})[-_](?P<stamp>1[0-9]{9}(?:[0-9]{3})?)(?![\w-])"
)
"""Words and a Unix time in seconds or milliseconds (2001-2033): a build's or a run's name
(``android-test-components_1717594066497``)."""
_GDRIVE_KEY_RE = lazyre.compile(
    r"(?:docs|drive)\.google\.com/[^\s?#)\]\"'<>]{1,300}\?(?:[^\s#)\]\"'<>]{0,300}&)?resourcekey=(?P<key>0-[\w-]{10,40})"
)
"""A Google Drive file's resource key in its share link (``…/d/<id>/edit?resourcekey=0-<22>``): Google adds it to
links of files shared by link, as public as the file's id beside it (which is not redacted either)."""
_BOARD_ID_RE = lazyre.compile(r"(?<![\w-])Mac-[0-9A-F]{16}(?![\w-])")
_RDS_SNAPSHOT_RE = lazyre.compile(r"(?<![\w-])rds:[a-z][a-z0-9-]{0,62}-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}(?![\w-])")
_DEFCONFIG_RE = lazyre.compile(r"(?<![\w-])[A-Za-z0-9][\w-]{0,80}_defconfig(?![\w-])")


def _pieces_ok(label: str) -> bool:
    """Whether every ``-``/``_``/``.``/``/`` piece of ``label`` is a word, a number, or a word with a short number."""
    return all(_PIECE_RE.fullmatch(p) for p in re.split(r"[-_./]", label) if p)


def _b64_public(value: str) -> bool:
    """Whether base64 ``value`` decodes to an http(s) URL with no path segment that reads as a credential."""
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
        text = raw.decode("ascii")
    except (binascii.Error, ValueError):
        return False
    if not _URL_RE.fullmatch(text):
        return False
    return not any(looks_like_credential(part) for part in text.strip().split("/")[3:])


def _b64_bytes(value: str) -> bytes | None:
    """``value`` decoded as base64 or base64url, or None when it is neither."""
    value = value.rstrip("=").replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _named_secret(text: str, start: int) -> bool:
    """Whether words naming a secret (``password:``, ``token =``) stand just before ``start``: a host name, a package
    name or a base64 value there is read as the secret it is said to be (``password: correct.horse.battery.com``)."""
    line_start = text.rfind("\n", 0, start) + 1
    return bool(slots.SECRET_WORDS_BEFORE_RE.search(text[max(line_start, start - 40) : start]))


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every value of ``text`` in one of the module's public formats."""
    yield from _fixed(text)
    for start, end in _named(text):
        if not _named_secret(text, start):
            yield start, end


def _fixed(text: str) -> Iterator[Span]:
    """The formats whose own syntax says what the value is, whatever stands before it."""
    if "#" in text:
        for m in _GH_ANCHOR_RE.finditer(text):
            yield m.span()
        for m in _PLAYGROUND_RE.finditer(text):
            yield m.span("code") if m.group("code") else m.span("flow")
    if "<ipython-input-" in text:
        for m in _IPYTHON_RE.finditer(text):
            yield m.span()
    if "Algorithms" in text or "Ciphers" in text or "MACs" in text or "KeyTypes" in text:
        for m in _SSH_ALGOS_RE.finditer(text):
            if all(_ALGO_PIECE_RE.fullmatch(p) for p in re.split(r"[-.@,+^]", m.group("list")) if p):
                yield m.span("list")
    if "key_mgmt" in text:
        for m in _KEY_MGMT_RE.finditer(text):
            if all(_METHOD_PIECE_RE.fullmatch(p) for p in re.split(r"[- ]", m.group("list")) if p):
                yield m.span("list")
    if "{{resolve:" in text:
        for m in _RESOLVE_RE.finditer(text):
            yield m.span("ref")
    if "${" in text or "{{" in text:
        for m in _REF_RE.finditer(text):
            if _pieces_ok(re.sub(r"[\[\]\"]", ".", m.group("ref") or m.group("tpl")).lower()):
                yield m.span("ref") if m.group("ref") else m.span("tpl")
    if "#" in text:
        for m in _FLAKE_ATTR_RE.finditer(text):
            if _pieces_ok(m.group("attr").lower()):
                yield m.span("attr")
    if "func" in text or "def" in text or "fn" in text:
        for m in _FUNC_RE.finditer(text):
            yield m.span("name")
    for regex, cue in ((_BOARD_ID_RE, "Mac-"), (_RDS_SNAPSHOT_RE, "rds:"), (_DEFCONFIG_RE, "_defconfig")):
        if cue in text:
            for m in regex.finditer(text):
                if cue != "_defconfig" or _pieces_ok(m.group(0).lower()):  # by cue: a lazy pattern's name is rebound
                    yield m.span()
    if "import" in text:
        for m in _IMPORT_RE.finditer(text):
            base = m.start("names")
            for name in _NAME_RE.finditer(m.group("names")):
                if name.group(0) != "as":
                    yield base + name.start(), base + name.end()
    if "resourcekey=" in text:
        for m in _GDRIVE_KEY_RE.finditer(text):
            yield m.span("key")
    for m in _PATCH_RE.finditer(text):
        if _pieces_ok(m.group("subject").lower()):
            yield m.span()
    if "shields.io" in text:
        for m in _SHIELDS_RE.finditer(text):
            if _pieces_ok(m.group("text").lower().replace("%", "-")):
                yield m.span("text")


def _named(text: str) -> Iterator[Span]:
    """The formats read by their shape (a package, a base64 value): not where a secret is named before."""
    if "ursor" in text:
        from .vendorprefix import _PREFIXES

        for m in _CURSOR_RE.finditer(text):
            value = m.group("value")
            if not value.startswith(_PREFIXES) and _b64_bytes(value) is not None:
                yield m.span("value")
    for m in _STAMPED_RE.finditer(text):
        if _pieces_ok(m.group("words")):
            yield m.span()
    if "aHR0c" in text:
        for m in _B64_RE.finditer(text):
            if _b64_public(m.group(0)):
                yield m.span()
    if "@" in text:
        for m in _NPM_RE.finditer(text):
            if all(_pieces_ok(part) for part in m.group(0)[1:].split("/")):
                yield m.span()
        if ":" in text:
            for m in _YARN_RE.finditer(text):
                if m.group("proto") == "workspace" or _pieces_ok(m.group("name")):  # a workspace: the project's own
                    yield m.span()
