"""Keys found by where they sit and by their documented shape: one detector for :func:`.redact`.

Issue 32, round 13 (docs/architecture.md §3). Each class was a leak breaker12 found (B12-9) that
the other detectors miss because of where the value stands, not what it is:

- a vendor key inside a path or a URL's path (``/tmp/AKIA…/x``, ``https://host/ghp_…/a.txt``,
  ``s3://bucket/AKIA…/creds.csv``): the prefix rules look for a key standing alone, and a ``/``
  before it reads as a path. Here a key counts only in a fixed shape its vendor documents (prefix,
  alphabet and length, e.g. AWS's ``AKIA`` + 16 of ``A-Z2-7``), with no letter or digit on either
  side, so a slug that starts like a prefix (``hf_transfer-0.1.8-…whl``, ``sk-learn``) stays; glued to a
  name by ``-`` or ``_`` (``prod-AKIA…``) it counts too, and a kept public span holding one
  (``prod_AKIA….csv`` read as a file name) is no longer public (:func:`holds_key`);
- a token carried in a URL's path where the service documents it there: Cloudsmith's entitlement
  token (``dl.cloudsmith.io/<token>/<owner>/<repo>/``), Gemfury's (``pypi.fury.io/<token>/<account>/``,
  ``push.fury.io/<token>/``), IFTTT's Webhooks key (``maker.ifttt.com/…/key/<key>``,
  ``maker.ifttt.com/use/<key>``); Cloudsmith's own ``public`` and ``basic`` path words are kept;
- a JSON Web Key's private or symmetric members (RFC 7518 §6.2.2, §6.3.2, §6.4.1: ``k``, ``d``, ``p``,
  ``q``, ``dp``, ``dq``, ``qi``) near a ``kty`` or an ``"alg"``, whatever their length (a 128-bit ``k`` is 22
  characters, under every length rule); the public members (``n``, ``e``, ``x``, ``y``) are not read;
- an app-specific password (Apple's ``xxxx-xxxx-xxxx-xxxx``: four groups of four lower-case letters)
  after a password word or "iCloud"/"Apple ID" on its line; after "app password" or "app-specific password" also Google's
  form (the same groups parted by spaces, or 16 letters run together). Template groups (``xxxx``,
  ``abcd``) are placeholders.

Round 13's new tuning source (Plazmaz/leaky-repo's credential files, ``build_leakyrepo.py``) added:

- a user and password passed by position: requests' ``auth=('user', 'pw')``, ``HTTPBasicAuth('user', 'pw')``
  (and Digest, Proxy, aiohttp's ``BasicAuth``), ``.login('user', 'pw')`` (smtplib, imaplib, ftplib, jsforce):
  the second string literal;
- a URL's userinfo whose user is an e-mail address or whose password holds ``@`` (``.git-credentials``:
  ``https://me@corp.com:pa@ss@github.com``): the password runs to the last ``@`` before the host;
- base64 of ``user:password`` after an ``_auth``/``auth`` label (npm's ``_auth``): checked by decoding it;
- PHP's ``define('NAME', '…')`` where the name ends in a secret word (WordPress's ``AUTH_KEY`` … ``NONCE_SALT``,
  ``DB_PASSWORD``): any literal, spaces and punctuation included, a ``…_KEY``/``…_SALT``/``…_TOKEN`` one when it
  reads as a credential and not as words and versions; WordPress's placeholder ``put your unique phrase here``
  is not taken here;
- a ``.pgpass`` line (``host:port:database:user:password``, PostgreSQL's documented format): the fifth field.

And from semgrep-rules' ``generic/secrets`` tests (``build_semgrep_secrets.py``): Braintree's and Onfido's tokens
by structure, and npm's ``_auth``/``_authToken``/``_password`` values whatever they look like. Each rule runs
only on a text holding its words, so prose pays a few substring tests.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re
from collections.abc import Iterator

from . import lazyre, rules

Span = tuple[int, int, str]

_SHAPES: tuple[tuple[str, str], ...] = (
    (r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}", "aws-access-key"),
    (r"gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}", "github-token"),
    (r"gl(?:pat|ptt|dt|rt|cbt|ft|imt|soat)-[A-Za-z0-9_-]{20,64}", "gitlab-token"),
    (r"xox[abposre]-[0-9]{6,16}-[0-9A-Za-z-]{8,128}|xapp-\d-[A-Z0-9]{6,16}-\d{6,16}-[a-f0-9]{32,80}", "slack-token"),
    (r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,128}|whsec_[A-Za-z0-9+/]{24,64}", "stripe-key"),
    (r"sk-ant-(?:api|admin|oat|ort)\d\d-[A-Za-z0-9_-]{80,120}", "anthropic-key"),
    (r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,200}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}", "openai-key"),
    (r"AIza[0-9A-Za-z_-]{35}|ya29\.[0-9A-Za-z_-]{30,512}", "google-token"),
    (r"hf_[A-Za-z]{34}|api_org_[A-Za-z]{34}", "huggingface-token"),
    (r"hv[sbr]\.[A-Za-z0-9_-]{24,512}", "vault-token"),
    (r"npm_[A-Za-z0-9]{36}", "npm-token"),
    (r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,512}", "pypi-token"),
    (r"glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}", "grafana-token"),
    (r"do[opr]_v1_[a-f0-9]{64}", "digitalocean-token"),
    (r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}", "shopify-token"),
    (r"sntry[su]_[A-Za-z0-9_=+-]{40,400}", "sentry-token"),
    (r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}", "vendor-token"),
    (r"dckr_pat_[A-Za-z0-9_-]{27}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|lin_api_[A-Za-z0-9]{40}", "vendor-token"),
    (r"r8_[A-Za-z0-9]{37}|gsk_[A-Za-z0-9]{52}|xai-[A-Za-z0-9]{80}|nvapi-[A-Za-z0-9_-]{64}", "vendor-token"),
    (r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}|LTAI[A-Za-z0-9]{12,20}|bkua_[a-f0-9]{40}", "vendor-token"),
    (r"dp\.(?:pt|st|ct|sa|scim)\.[A-Za-z0-9]{40,44}|pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}", "vendor-token"),
    (r"dapi[a-f0-9]{32}|key-[a-f0-9]{32}|SK[a-f0-9]{32}|tskey-[a-z]+-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}", "vendor-token"),
    (r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", "vendor-token"),
)
"""Vendor keys in the fixed shape their vendors document (prefix, alphabet, length), each whole."""
_SHAPE_ALTS = "|".join(f"(?P<s{i}>{p})" for i, (p, _slug) in enumerate(_SHAPES))
_SHAPE_RE = lazyre.compile(r"(?<![A-Za-z0-9])(?:" + _SHAPE_ALTS + r")(?![A-Za-z0-9])")
_PLACED_SHAPE_RE = lazyre.compile(r"[/\\:@=._-](?:" + _SHAPE_ALTS + r")(?![A-Za-z0-9])")
""":data:`_SHAPE_RE` right after what stands before a key in a path or a URL (``/``, ``\\``), a scheme or a host
(``s3:``, ``@``), a query (``=``), a file name's stem (``.``), or a ``-``/``_`` gluing it to a name (``prod-AKIA…``):
places the prefix rules leave out. The character comes first in the pattern, so a line is scanned fast."""
_STANDALONE_RE = lazyre.compile(
    r"(?<![\w.$])(?:(?P<braintree>access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-z]{32})"
    r"|(?P<onfido>api_(?:live|sandbox)(?:_[a-z]{2})?\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{32}))(?![\w$-])"
)
"""Vendor keys whose documented structure the other rules do not know: Braintree's ``access_token$production$<merchant>$<secret>``, Onfido's ``api_live[_us|_ca].<id>.<secret>``
(found on round 13's tuning source, semgrep-rules' ``generic/secrets`` tests)."""
_NPMRC_RE = lazyre.compile(r"(?m)(?:^|[:\s])_(?:auth|authToken|password)=[\"']?(?P<value>[^\s\"'`,;\\]{4,1024})")
"""npm's credential settings in ``.npmrc`` (``_auth``, ``_authToken``, ``_password``, per registry after ``//host/:``):
the value is a credential whatever it looks like. npm writes ``key=value`` and the value is one token, so it ends at
a ``,``, ``;``, backquote or ``\\`` (``--set _authToken=…,image=…``; a literal ``\\n``), and ``_auth = f(user, pw)`` is
Python (breaker16 B16-2, B16-5)."""
_NO_GLUE = ("hf_", "api_org_")
"""Letters-only shapes: after ``-`` or ``_`` they could be the tail of a name, so only the other places count."""
_HOST_TOKEN_RE = lazyre.compile(
    r"(?i)\b(?:dl\.cloudsmith\.io|(?:pypi|npm|push|gem|maven|nuget|deb|rpm|go)\.fury\.io)/"
    r"(?P<value>[A-Za-z0-9_-]{12,64})(?=/)"
    r"|\bmaker\.ifttt\.com/(?:trigger/[^\s/]{1,100}/(?:json/)?with/key|use)/(?P<ifttt>[A-Za-z0-9_-]{16,64})(?![\w-])"
)
_SEGMENT_RE = lazyre.compile(r"[A-Za-z0-9_.-]")
_IFTTT_SLOT_RE = lazyre.compile(r"(?i)your|key_?here|example|xxxx")
_HOST_PATH_WORDS = frozenset({"public", "basic", "simple", "api", "v1", "v2", "help", "docs", "download", "downloads"})
"""Cloudsmith's and Gemfury's own path words where a token could stand (``dl.cloudsmith.io/public/…``)."""

_JWK_NEAR = 2000
_JWK_ANCHOR_RE = lazyre.compile(r"[\"']kty[\"'][ \t]*:|[\"']alg[\"'][ \t]*:|(?m:^)[ \t-]*(?P<yaml>kty)[ \t]*:")
"""A JWK's ``kty`` member (JSON or a YAML key) or a JSON ``"alg"`` member: where a JWK's members are read
(breaker16 B16-3: a JWT header, a signed request or a doc naming kty is no JWK)."""
_JWK_MEMBER_RE = lazyre.compile(
    r"(?<![\w\"'])(?P<q>[\"']?)(?P<name>k|d|p|q|dp|dq|qi)(?P=q)[ \t]*:[ \t]*(?P<vq>[\"']?)"
    r"(?P<value>[A-Za-z0-9_-]{8,8192}={0,2})(?P=vq)(?![\w+/=-])"
)

_PW_WORD = (
    r"(?:pass(?:word|wd|code|phrase)s?|kennwort|mot de passe|contraseña"
    r"|(?:pass|pwd?|icloud|apple ?id)(?=[ \t]*[:=]|[ \t]+is\b))"
)
"""A password word; ``pass``, ``pw(d)``, "iCloud" and "Apple ID" only as a label (``pw:``, "icloud is"), not the verb
or the command ("tests pass on feat/…", "pwd shows", breaker16 B16-4)."""
_CLAUSE_END_RE = lazyre.compile(r"[;!?]|\.\s")
"""A clause ending between a password word and a value: the value belongs to another sentence."""
_APP_PW = r"(?:app(?:lication)?[ -]?specific[ -]pass(?:word|code)|app[ -]pass(?:word|code))s?"
_APP_PW_RE = lazyre.compile(
    rf"(?i)(?<![a-z])(?P<app>{_APP_PW})|(?<![a-z]){_PW_WORD}(?![a-z])",
)
_DASHED_RE = lazyre.compile(r"(?<![\w-])(?P<value>[a-z]{4}(?:-[a-z]{4}){3})(?![\w-])")
_SPACED_RE = lazyre.compile(r"(?<![\w-])(?P<value>[a-z]{4}(?: [a-z]{4}){3}|[a-z]{16})(?=[ \t]*(?:$|[\n.,;:)\"'`\]]))")
"""Google's app password as it shows it (four groups parted by spaces) or pasted as one run, ending its clause."""
_VOWELS_MAX = 6
"""Of 16 random letters about 4 are vowels (``aeiouy``); four English words or one long word hold more."""
_PW_WINDOW = 60
_ABOUT_RE = lazyre.compile(r"(?i)\b(?:e\.g\.|examples?|such as|looks? like|shaped?|template)(?![a-z])")
"""Words saying the value after a password word shows a password's form, not one (with :data:`.rules._ABOUT_RE`)."""


def _template(groups: list[str]) -> bool:
    """Whether four letter groups are a template, not a password: one letter repeated (``xxxx``) or the
    alphabet in order (``abcd-efgh-ijkl-mnop``)."""
    joined = "".join(groups)
    if any(len(set(g)) == 1 for g in groups):
        return True
    return all(ord(b) - ord(a) == 1 for a, b in itertools.pairwise(joined))


def _shapes(text: str) -> Iterator[Span]:
    for m in _PLACED_SHAPE_RE.finditer(text):
        value, before = m.group(0)[1:], m.group(0)[0]
        if before in "-_" and value.startswith(_NO_GLUE):
            continue  # a letters-only shape glued to a name: the tail of that name
        if _named(value):
            continue  # ``docs/glpat-rotation-guide-v2-2024.md``: a file named with words, not a key (B16-8)
        if "EXAMPLE" in value or not (any(c.isdigit() for c in value) or value.startswith(("hf_", "api_org_"))):
            continue
        index = next(i for i in range(len(_SHAPES)) if m.group(f"s{i}") is not None)
        yield m.start() + 1, m.end(), _SHAPES[index][1]


def _mixed(value: str) -> bool:
    """Whether ``value`` holds upper case, lower case and a digit and no ``-``: a random token, not a name."""
    return "-" not in value and all(any(f(c) for c in value) for f in (str.isupper, str.islower, str.isdigit))


def holds_key(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds a vendor key in its fixed shape (:data:`_SHAPES`): a span a kept public
    format (:mod:`.public`) claims is no public value then (``prod_AKIA….csv`` is no file name to keep)."""
    for m in _SHAPE_RE.finditer(text, start, end):
        value = m.group(0)
        keyish = "EXAMPLE" not in value and any(c.isdigit() for c in value) and not value.startswith(_NO_GLUE)
        if keyish and not _named(value):  # ``glpat-rotation-guide-v2-2024.md``: a file name of words (B16-8)
            return True
    return False


def _host_tokens(text: str) -> Iterator[Span]:
    for m in _HOST_TOKEN_RE.finditer(text):
        group = "value" if m.group("value") is not None else "ifttt"
        value = m.group(group)
        if value.lower() in _HOST_PATH_WORDS:
            continue
        cloudsmith = "cloudsmith" in m.group(0).lower() and not value.islower()  # its first segment: a token or a word
        if (
            group == "value"
            and not cloudsmith
            and not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value))
        ):
            continue  # an owner's or a path's name (``acme``, ``my-org``), not a token
        if (
            group == "value"
            and not cloudsmith
            and not _SEGMENT_RE.match(text, m.end("value") + 1)
            and not _mixed(value)
        ):
            continue  # Gemfury's public index ``pypi.fury.io/<account>/`` (the token form has a second segment, B16-9)
        if group == "ifttt" and (not _literal_ok(value) or _IFTTT_SLOT_RE.search(value)):
            continue  # ``…/with/key/YOUR_KEY_HERE_1234``: a placeholder
        yield m.start(group), m.end(group), "url-token"


def _jwk_scopes(text: str) -> set[tuple[int, int]]:
    """Where a JWK's members are read: the JSON object holding a ``kty`` or ``"alg"`` member (between its braces),
    or for YAML, or JSON members quoted without their object's braces (issue 32 round 22), the block of lines round
    ``kty:`` (to a blank line); each at most :data:`_JWK_NEAR` either side."""
    scopes = set()
    for m in _JWK_ANCHOR_RE.finditer(text):
        at, floor = m.start(), max(0, m.start() - _JWK_NEAR)
        lo = text.rfind("{", floor, at)
        if lo >= 0 and "}" not in text[lo:at]:
            hi = text.find("}", at, at + _JWK_NEAR)
        elif m.group("yaml") or m.group(0)[1:4] == "kty":  # a JWK's members quoted without their braces
            lo, hi = max(text.rfind("\n\n", floor, at), floor), text.find("\n\n", at, at + _JWK_NEAR)
        else:
            continue
        scopes.add((lo, min(len(text), at + _JWK_NEAR) if hi < 0 else hi))
    return scopes


def _jwk(text: str) -> Iterator[Span]:
    if "kty" not in text and "alg" not in text:
        return
    merged: list[list[int]] = []
    for lo, hi in sorted(_jwk_scopes(text)):  # overlapping scopes read once (``{"alg":1,`` x 6,000: 17 ms, not 394)
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    seen: set[int] = set()
    for lo, hi in merged:
        for m in _JWK_MEMBER_RE.finditer(text, lo, hi):
            value = m.group("value")
            if len(value) < 16 and not (m.group("q") and m.group("vq")):
                continue  # unquoted and short: a YAML line near a JWK, not its key
            if ("-" in value or "_" in value) and _named(value):
                continue  # "billing-admin", "queue-name-orders": words, not base64url of a key (B16-3)
            if m.start("value") not in seen:
                seen.add(m.start("value"))
                yield m.start("value"), m.end("value"), "private-key"


def _app_passwords(text: str) -> Iterator[Span]:
    if "-" not in text and "pp" not in text.lower():
        return
    for m in _APP_PW_RE.finditer(text):
        line_end = text.find("\n", m.end())
        stop = len(text) if line_end < 0 else line_end
        shapes = ((_DASHED_RE, False), (_SPACED_RE, True)) if m.group("app") else ((_DASHED_RE, False),)
        for shape, spaced in shapes:
            v = shape.search(text, m.end(), stop)
            if v is None or v.start() - m.end() > _PW_WINDOW:
                continue
            between = text[m.end() : v.start()]
            if rules._ABOUT_RE.search(between) or _ABOUT_RE.search(between) or _CLAUSE_END_RE.search(between):
                break  # "password rules: must-have-four-kind", "app password, e.g. abcd-…"
            value = v.group("value")
            groups = re.split(r"[- ]", value) if len(value) > 16 else [value[i : i + 4] for i in range(0, 16, 4)]
            if _template(groups) or (spaced and sum(c in "aeiouy" for c in value) > _VOWELS_MAX):
                continue
            yield v.start("value"), v.end("value"), "password"
            break


_PAIR_RE = lazyre.compile(
    r"(?:\bauth\s*=\s*[(\[]|\b(?:HTTP(?:Basic|Digest|Proxy)Auth|BasicAuth|DigestAuth)\s*\(|\bbasic_auth\s*=\s*[(\[]"
    r"|\.(?:login|signin|sign_in|authenticate)\s*\()\s*(?P<uq>[\"'`])[^\"'`\n]{1,200}(?P=uq)\s*,\s*"
    r"(?P<pq>[\"'`])(?P<value>[^\"'`\n]{1,256})(?P=pq)"
)
_TEMPLATE_RE = lazyre.compile(r"\{[\w.-]*\}|%\(\w+\)[sd]|\$\w+|:\w+|\?")
"""A literal that is wholly a format's slot (``{placeholder}``, ``%(pw)s``, ``$pw``, ``:pw``, ``?``)."""
_PW_WORDS = frozenset({"password", "passwd", "pass", "pwd", "secret", "pw", "your_password", "yourpassword"})
_USERINFO_RE = lazyre.compile(
    r"\b[a-z][a-z0-9+.-]{1,20}://(?P<user>[^\s/:?#\"'<>]{1,128}):(?P<value>[^\s/\"'<>]{1,256})"
    r"@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}(?=[:/\s?#\"'<>]|$)",
    re.I,
)
_AUTH64_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?:_auth|auth|basic_?auth)[\"']?[ \t]*[:=][ \t]*[\"']?(?P<value>[A-Za-z0-9+/]{8,1024}={0,2})(?![\w+/=])"
)
_DEFINE_RE = lazyre.compile(
    r"(?i)\bdefine\s*\(\s*(?P<q>[\"'])(?P<name>\w*?(?P<word>KEY|SALT|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD))(?P=q)"
    r"\s*,\s*(?P<vq>[\"'])(?P<value>[^\n]{1,512}?)(?P=vq)\s*[).]"
)
_PGPASS_RE = lazyre.compile(
    r"(?m)^[ \t]*(?:[-*][ \t]+)?(?:\S{0,40}pgpass\S{0,20}[ \t]+)?"
    r"(?P<line>(?:\*|localhost|\[[0-9a-fA-F:]+\]|[\w-]+(?:\.[\w-]+)+):(?:\d{1,5}|\*):[^:\s]+:[^:\s]+:"
    r"(?P<value>[^\s:]{1,256}))[ \t]*$"
)
"""A ``.pgpass`` line: a host (``*``, ``localhost``, an address or a dotted name), a port, a database, a user; it may
follow its file's name in a note (``~/.pgpass: db.internal:5432:app:app_rw:<pw>``, round 26)."""
_SOURCE_EXTS = frozenset(
    {"py", "js", "ts", "go", "rb", "rs", "java", "kt", "c", "h", "cc", "cpp", "cs", "php", "md", "txt", "yml", "yaml"}
    | {"json", "toml", "sh", "ini", "cfg"}
)
"""A dotted "host" ending so is a file name (``main.py:12:5:…``, a linter's line), not a database host."""


def _literal_ok(value: str) -> bool:
    """Whether a literal in a password's place is a value, not a placeholder or a template."""
    v = value.strip()
    if not v or v.lower() in _PW_WORDS or _TEMPLATE_RE.fullmatch(v):
        return False
    return not rules._PLACEHOLDER_RE.match(v) and "%s" not in v


def _pairs(text: str) -> Iterator[Span]:
    for m in _PAIR_RE.finditer(text):
        if _literal_ok(m.group("value")):
            yield m.start("value"), m.end("value"), "password"


def _userinfo(text: str) -> Iterator[Span]:
    for m in _USERINFO_RE.finditer(text):
        value = m.group("value")
        if ("@" in m.group("user") or "@" in value) and _literal_ok(value):
            yield m.start("value"), m.end("value"), "url-password"


def _auth64(text: str) -> Iterator[Span]:
    for m in _AUTH64_RE.finditer(text):
        value = m.group("value")
        try:
            decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("ascii")
        except (binascii.Error, ValueError):
            continue
        user, sep, pw = decoded.partition(":")
        if sep and user and pw and decoded.isprintable():
            yield m.start("value"), m.end("value"), "basic-auth"


def _named(value: str) -> bool:
    """Whether every piece of ``value`` is a word, a number or a version (``user_session_v2_prefix``): a name."""
    pieces = [p for p in re.split(r"[-_. /:]+", value) if p]
    return all(rules._WORDS_RE.fullmatch(p) or p.isdigit() or re.fullmatch(r"v\d+", p) for p in pieces)


def _defines(text: str) -> Iterator[Span]:
    for m in _DEFINE_RE.finditer(text):
        value, word = m.group("value"), m.group("word").upper()
        if not _literal_ok(value) or value.lower().startswith("put your unique phrase"):
            continue
        if word in ("KEY", "SALT", "TOKEN") and (not rules.looks_like_credential(value, min_len=16) or _named(value)):
            continue  # ``define('CACHE_KEY', 'users_list')``, ``'myapp_cache_v2_prefix'``: a key's name, not a key
        yield m.start("value"), m.end("value"), "labelled-secret"


def _pgpass(text: str) -> Iterator[Span]:
    for m in _PGPASS_RE.finditer(text):
        if m.group("value") == "*" or m.group("value").isdigit():
            continue
        host, _port, database = m.group("line").split(":")[:3]
        if database.isdigit() or "." in database or host.rsplit(".", 1)[-1].lower() in _SOURCE_EXTS:
            continue  # ``src/main.py:12:5:E501:…`` (a linter), ``host:6379:0:…`` (Redis), ``…:443:TLSv1.3:…`` (B16-6)
        yield m.start("value"), m.end("value"), "password"


def _standalone(text: str) -> Iterator[Span]:
    if "access_token$" in text or "api_" in text:
        for m in _STANDALONE_RE.finditer(text):
            group = m.lastgroup or "vendor"
            yield (
                m.start(),
                m.end(),
                "braintree-token" if group == "braintree" else "onfido-token",
            )
    if "_auth" in text or "_password" in text:
        for m in _NPMRC_RE.finditer(text):
            if _literal_ok(m.group("value")):
                yield m.start("value"), m.end("value"), "npm-token"


def spans(text: str) -> Iterator[Span]:
    """Every span of ``text`` that is a key by where it sits (module docstring)."""
    yield from _shapes(text)
    yield from _standalone(text)
    lower = text.lower()
    if "cloudsmith.io/" in lower or "fury.io/" in lower or "ifttt.com/" in lower:
        yield from _host_tokens(text)
    yield from _jwk(text)
    if any(word in lower for word in _PW_GATE):
        yield from _app_passwords(text)
    if "(" in text and any(word in lower for word in _PAIR_GATE):
        yield from _pairs(text)
    if "define" in lower:
        yield from _defines(text)
    if "://" in text and "@" in text:
        yield from _userinfo(text)
    if "auth" in lower:
        yield from _auth64(text)
    if text.count(":") >= 4:
        yield from _pgpass(text)


_PW_GATE = ("pass", "pw", "icloud", "apple", "kennwort", "mot de passe", "contraseña")
_PAIR_GATE = ("auth", "login", "signin", "sign_in")
