"""Our own secret rules: what the maintained scanners miss (docs/architecture.md §3).

Each rule yields ``(start, end, type)`` spans of the *value* only, so the
context around a secret (a URL's host, the rest of a query, a header's name,
the words of a sentence) survives redaction.

- URL credentials, including an empty user name (``scheme://:pw@host``);
- credentials in a query string (``token=``, ``key=``, ``access_token=``,
  ``sig=``, ``password=`` ...), the rest of the query kept;
- ``Authorization: Bearer|Basic|Token …`` and ``Bearer …`` in prose;
- secret-carrying headers (``X-Api-Key``, ``X-Auth-Token``, ``PRIVATE-TOKEN`` ...);
- labelled secrets in assignments and plain speech ("the prod db password is …",
  ``boxSECRET …``, ``api key: …``), when the value looks like a credential
  rather than a word, a placeholder, an environment variable, a path or a number;
- vendor tokens by their documented prefix (``github_pat_``, ``hf_``, ``hvs.``,
  ``glsa_``, ``sntrys_`` ...);
- long high-entropy tokens mixing letters and digits outside any context.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator

from . import lazyre, valueparts
from .keynames import PASSWORD_WORD, key_words
from .labelnames import names_public as _names_public
from .labelnames import names_the_thing as _names_the_thing
from .slotsyntax import SLOTS
from .vendorprefix import _EXACT_RE, _PREFIX_RE, vendor_type

Span = tuple[int, int, str]

_PLACEHOLDER_RE = lazyre.compile(
    r"""(?x)^(?:
        \$\{?\{?[^}]*\}?\}?            # $VAR, ${VAR}, ${{ secrets.X }}
      | %[\w]+%                        # %VAR%
      | \{\{.*\}\}                     # {{ template }}
      | <[^>]*>?                       # <your-api-key>
      | \[REDACTED[^\]]*\]?            # already redacted
      | [*xX•.#?-]{3,}                 # ********, xxxx, ....
      | \{?0{8}-0{4}-0{4}-0{4}-0{12}\}?  # the nil UUID (RFC 9562 §5.9)
      | (?:var|env|vars|secrets|process\.env|os\.environ|settings|config)\b.*
      | !\w+.*                         # YAML tags: !secret name, !vault ...
      | (?:none|null|nil|true|false|undefined|changeme|redacted|example|placeholder|todo|tbd|xxx+)
      | """
    + SLOTS  # a format string's, a template's or a shell's slot, by class (:mod:`.slotsyntax`)
    + """
    )$""",
    re.IGNORECASE,
)
_ENV_NAME_RE = lazyre.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_WORDS_RE = lazyre.compile(r"[A-Za-z][a-z]*(?:[-_.][A-Za-z][a-z]*)*|[a-z]+(?:[-_.][a-z]+)*")
_VERSION_RE = lazyre.compile(r"v?\d+(?:\.\d+)+(?:[-+.][\w.]+)?")
_PATH_RE = lazyre.compile(r"(?:~|\.{1,2})?/[\w./-]*|[A-Za-z]:\\.*")
_PURE_HEX_RE = lazyre.compile(r"[0-9a-fA-F]+")
_EMAIL_RE = lazyre.compile(r"[\w.+-]+@(?:[\w-]+\.)+[^\W\d_]{2,63}")
"""An e-mail address by its shape: a domain whose last label (the TLD) is letters only, so ``alice@example.com``
stays and a password holding ``@`` and ``.`` (``P@ssw0rd.2024``, ``Ch@t-Noir.88``) does not pass for one."""
_FILE_RE = lazyre.compile(
    r"(?:[a-z_][a-z0-9_-]*/)+[a-z_][a-z0-9_.-]*|\.[a-z_][a-z0-9_-]*/(?:[a-z_][a-z0-9_-]*/)*[a-z_][\w-]*\.[a-z]{1,5}|"
    r"[A-Za-z_][\w-]*\.(?:py|md|txt|json|toml|ya?ml|js|ts|rs|go|sh|cfg|ini|lock|html|css)"
)
_UUID_RE = lazyre.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")


_PW_LABEL_RE = lazyre.compile(r"(?i)(?:pass(?:word|wd|phrase)?|pwd)$")
_PW_STEM_RE = lazyre.compile(r"(?=[^.]*[A-Z])(?=[^.]*[a-z])(?=[^.]*\d)[A-Za-z0-9!@#$%^&*+~]{6,64}")


def _password_as_file(label: str, value: str) -> bool:
    """Whether a password label's value is a password that ends like a file name (``the DB password is
    Spring2025.yaml``, breaker9 B9-11): one run of upper and lower case letters and digits before the extension,
    not a file's name of words (``db_password.txt``, ``secrets.yaml``), which :func:`looks_like_credential` keeps."""
    stem = value.rsplit(".", 1)[0]
    return bool(_PW_LABEL_RE.search(label.strip())) and "." in value and bool(_PW_STEM_RE.fullmatch(stem))


def entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def char_classes(value: str) -> int:
    """How many of lower case, upper case, digits and other characters ``value`` holds (0-4)."""
    kinds = (str.islower, str.isupper, str.isdigit, lambda c: not c.isalnum())
    return sum(any(kind(c) for c in value) for kind in kinds)


def looks_like_credential(value: str, *, min_len: int = 8) -> bool:
    """True when ``value`` (already stripped of quotes) reads as a credential, not a word.

    Placeholders, environment variable names, plain (kebab/snake/camel-free)
    words, paths, versions and short numbers are not credentials.
    """
    if len(value) < min_len or _PLACEHOLDER_RE.match(value) or _ENV_NAME_RE.fullmatch(value):
        return False
    if _WORDS_RE.fullmatch(value):
        # A single run of 20+ letters with high entropy is a token, not a word.
        return len(value) >= 20 and value.isalpha() and entropy(value) >= 3.8
    if _VERSION_RE.fullmatch(value) or _PATH_RE.fullmatch(value):
        return False
    if "://" in value:
        return False
    if value.isdigit():
        return len(value) >= 10
    if _EMAIL_RE.fullmatch(value) or _FILE_RE.fullmatch(value):
        return False
    classes = char_classes(value)
    if len(value) < 16:
        # Short: a password mixes letters with digits, or three kinds of characters.
        has_digit = any(c.isdigit() for c in value)
        return (has_digit and any(c.isalpha() for c in value)) or classes >= 3
    return classes >= 2 or len(value) >= 24


# --- URL credentials ---------------------------------------------------------------------------------------------

_URL_CRED_RE = lazyre.compile(
    r"\b[a-z][a-z0-9+.-]{1,20}://(?P<user>[^\s/:@?#\"'<>]{0,128}):(?P<pw>[^\s/@\"'<>]{1,256})@", re.I
)
"""A URL's user and password; a ``#`` or ``?`` in the password is its own (``amqp://app:2*A#AV@mq/``: people paste
it unencoded), since a fragment or a query would come after the host."""


def url_placeholder(password: str) -> bool:
    """Whether a URL's password (the text between ``user:`` and ``@``) is a slot for one, not one: a placeholder of
    any syntax :mod:`.slotsyntax` knows (``%s``, ``{}``, ``${PASS}``, ``:password``, ``<password>``); used for every
    rule's URL password, Betterleaks' too (issue 32, round 21). A word in the slot (``user:password@``,
    ``user:YOUR_PASSWORD@``, ``app:secret@db``) stays a password: a development database's real password is often
    that word, and scanners' own tests count it as a secret (a rule keeping it lost two of ripsecrets' held-out
    secrets, round 21)."""
    return bool(_PLACEHOLDER_RE.match(password))


_NAME = r"_*[a-z]+(?:_+[a-z]+)*"
_FSTRING_SLOT_RE = lazyre.compile(rf"\{{{_NAME}(?:\.{_NAME})*(?:\((?:{_NAME}(?:, ?{_NAME})*)?\))?\}}")

# --- query strings -----------------------------------------------------------------------------------------------

_QUERY_KEYS = (
    r"(?:access_?|auth_?|api_?|id_?|refresh_?|session_?|private_?|client_?|bearer_?)?token|"
    r"api_?key|apikey|key|access_?key|secret(?:_?key)?|client_?secret|sig|signature|x-amz-signature|"
    r"x-goog-signature|x-amz-security-token|password|passwd|pwd|pass|auth|code_verifier|sas|sv_sig"
)
_QUERY_RE = lazyre.compile(r"[?&;](?P<key>" + _QUERY_KEYS + r")=(?P<value>[^&#\s\"'<>]{1,2048})", re.I)

# --- headers -----------------------------------------------------------------------------------------------------

_AUTH_RE = lazyre.compile(
    r"\b(?:proxy-)?authorization\b[\"']?\s*[:=]\s*[\"']?(?:(?P<scheme>bearer|basic|token|bot|digest|apikey|sso-key|"
    r"key|otp|gitlab-token|hmac|aws4-hmac-sha256)\s+)?(?P<value>[A-Za-z0-9._~+/=:,-]{8,4096})",
    re.I,
)
_BEARER_RE = lazyre.compile(r"\b(?:bearer|token)\s+(?P<value>[A-Za-z0-9._~+/-]{16,4096}={0,2})", re.I)
_HEADER_RE = lazyre.compile(
    r"(?<!://)(?<![-.])\b(?P<name>x-[a-z0-9-]{0,40}?(?:key|token|secret|auth|signature|password|session)[a-z0-9-]{0,40}|private-token|"
    r"api-key|apikey|api-token|auth-token|access-token|ocp-apim-subscription-key|dd-api-key|dd-application-key)"
    r"[\"']?\s*:\s*[\"']?(?P<value>[^\s\"',;]{8,4096})",
    re.I,
)

# --- labelled secrets --------------------------------------------------------------------------------------------

_LABEL = (
    r"(?:[\w.-]{0,40}?(?:"
    + PASSWORD_WORD
    + r"|passphrase|passcode|pwd|secret|token|api[_ .-]?key|apikey|access[_ .-]?key|"
    r"private[_ .-]?key|auth[_ .-]?key|license[_ .-]?key|signing[_ .-]?key|encryption[_ .-]?key|master[_ .-]?key|"
    r"credentials?|creds|pin\b|psk\b|pass\b|pat\b|key|access\b)[\w.-]{0,40})"
)
_LABEL_RE = lazyre.compile(
    r"(?<![\w/$.-])(?P<label>" + _LABEL + r")"
    r"(?P<between>(?:\s{1,4}(?:for|of|on|to|in|at|the|our|my|your|this|that|new|old|prod|production|staging|dev|test|"
    r"[\w-]{2,20}?)){0,5}?)"
    r"[\"'\])]{0,2}(?P<sep>[ \t]{0,8}(?::{1,3}=|\?=|=>|=|:|,)\s{0,8}|\s{1,8}(?:is|was|are|now|becomes|=)\s{0,8}[:=]?\s{0,8}|\s{1,8})"
    r"(?P<value>\"[^\"\n]{4,80}\"|'[^'\n]{4,80}'|`[^`\n]{4,80}`|(?=[^\s\"'`]{0,512}[\d_+/=!@#$%^&*~-])[^\s\"'`,;)\]}]{1,512}"
    r"|[A-Za-z]{20,512})",
    re.I,
)
_LOGIN_RE = lazyre.compile(
    r"\b(?:login|credentials?|creds|user(?:name)?)(?:\s*[:=]\s*|\s+)[\w.@+-]{1,128}\s+/\s+(?P<value>\S{6,512})", re.I
)
_GLUED_RE = lazyre.compile(
    r"(?i)(?:secret|key|token|private|access)(?:[-_](?:key|token))?[-_=:.]{1,3}"
    r"(?P<value>[A-Za-z0-9]{4,64}(?:-[A-Za-z0-9]{4,64}){2,8}|[A-Za-z0-9]{16,512})(?![\w-])"
)
_CRYPT_RE = lazyre.compile(
    r"(?<![\w$])(?P<value>\$(?:2[abxy]?|1|5|6|y|argon2(?:id|i|d)?|krb5asrep|krb5tgs|apr1)\$[^\s\"']{16,512})"
)
_WEBHOOK_RE = lazyre.compile(
    r"https?://[\w.-]{1,253}(?::\d{1,5})?/(?:[\w.-]{1,128}/){0,8}?(?:webhooks?|webhookb2|hooks/catch|services)/(?P<value>[^\s\"'<>0-9]{0,256}[0-9][^\s\"'<>]{8,512})",
    re.I,
)

# --- vendor prefixes: :mod:`.vendorprefix` ----------------------------------------------------------------------

_ASSIGNED_RE = lazyre.compile(
    r"(?<![\w.-])(?P<label>[A-Za-z_][\w.-]{1,40})[\"']?[ \t]*[:=][ \t]*[\"'`]?(?P<value>[A-Za-z0-9_+/.-]{20,4096}={0,2})(?![\w+/=-])"
)
_WORDS_NAME_RE = lazyre.compile(r"[a-z]{2,}(?:[-_./](?:[a-z]{2,}|\d{1,3}))+(?:[-_.]\d{4,8})?")
"""A name of lower-case words and short numbers (``border-destructive/30``, a CSS class), never a token; it may end
in a date or a number (``acme-backups-20240502``, a GCP project id ``acme-analytics-412903``: round 26)."""
_NOT_SECRET_WORDS = (
    "sha sha1 sha256 sha512 md5 hash digest checksum commit rev revision etag id uuid guid ref "
    "image version integrity url uri path file dir name host email user username branch tag region model "
    "bucket project"
)
_NOT_SECRET_LABELS = tuple(_NOT_SECRET_WORDS.split())
_HOSTNAME_RE = lazyre.compile(r"(?:[a-z0-9_-]+\.){2,}(?:com|net|org|io|dev|cloud|app|ai|co|edu|gov|[a-z]{2})")
"""A lower-case dotted host name (``s3.us-west-1.amazonaws.com``): no token under a label naming a host (leakyrepo)."""
_PORT_PATH_RE = lazyre.compile(r"\d{1,5}(?:/|$)")
_RANDOM_LABEL_RE = lazyre.compile(r"(?=(?:[a-z]*\d){3})(?=(?:\d*[a-z]){3})[a-z0-9]{12,}\.")  # a capability host: B16-7
_PEM_BEGIN_RE = lazyre.compile(r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_PEM_END_RE = lazyre.compile(r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")


def _token_like(value: str) -> bool:
    """Whether a labelled value reads as a token: 2+ digits, 6+ letters, random enough to be no word or name."""
    return (
        sum(c.isdigit() for c in value) >= 2
        and sum(c.isalpha() for c in value) >= 6
        and entropy(value) >= 3.5
        and looks_like_credential(value)
    )


def _exact_type(value: str) -> str:
    """An exact-shape key's type: an AWS key id's (``ABIA…``, ``ACCA…``) by its prefix, else ``vendor-token``."""
    return vendor_type(value) if value.startswith(("ABIA", "ACCA")) else "vendor-token"


_ENCRYPTION_PREFIX_RE = lazyre.compile(r"k8s:enc:[a-z0-9]{2,20}:$")
"""Kubernetes' encryption-at-rest prefix before a key's name (``k8s:enc:aescbc:v1:<key>``): the value is the key."""
_PIN_WORDS = frozenset({"pin", "pins", "pincode", "passcode"})
"""Words of a key that name a code to type in wherever they stand (``door_pin:``, ``pin_number:``): a password's
slot."""
_CODE_HEADS = frozenset(
    [
        "pin",
        "auth",
        "access",
        "unlock",
        "door",
        "gate",
        "alarm",
        "safe",
        "lock",
        "security",
        "recovery",
        "backup",
        "verification",
        "verify",
        "activation",
        "otp",
        "login",
        "signin",
        "sso",
        "mfa",
    ]
)
"""Words that make a key's last word ``code`` a code to type in (``pin_code:``, ``unlock_code:``, ``mfa_code:``),
not a public code (``error_code``, ``country_code``)."""


def _assigned_type(text: str, m: re.Match[str]) -> str:
    """The type of a token-like value after a name (:data:`_ASSIGNED_RE`), by what the name or the value says: a
    capability host (a random first label, ``en1a2b….pipedream.net``: the host is the credential), a key after
    Kubernetes' encryption prefix, a code to type in under a pin's or a code's name (``password``), else
    ``assigned-token``: a run after whatever name, which says nothing of what it is (:mod:`.shapelabels`)."""
    value = m.group("value").rstrip(".")
    if _HOSTNAME_RE.fullmatch(value) and _RANDOM_LABEL_RE.match(value):
        return "capability-host"
    if _ENCRYPTION_PREFIX_RE.search(text, max(0, m.start() - 32), m.start()):
        return "encryption-key"
    words = [w for w in key_words(m.group("label")) if not w.isdigit()]  # ``unlock_code2``: a code's name still
    if any(w in _PIN_WORDS for w in words) or (words[-1:] in (["code"], ["codes"]) and _CODE_HEADS & set(words)):
        return "password"
    return "assigned-token"


def _pem_blocks(text: str) -> Iterator[tuple[int, int]]:
    """A private key's whole block, from its BEGIN line to its END line (or the end of the text)."""
    pos = 0
    while (begin := _PEM_BEGIN_RE.search(text, pos)) is not None:
        end = _PEM_END_RE.search(text, begin.end())
        stop = end.end() if end else len(text)
        yield begin.start(), stop
        pos = stop


_DEVICE_TOKEN_RE = lazyre.compile(r"/api/v1/(?P<value>[A-Za-z0-9]{20})/(?:telemetry|attributes|rpc|claim)\b")
"""ThingsBoard's device access token, carried in the URL path."""

# --- high entropy ------------------------------------------------------------------------------------------------

_TOKEN_RE = lazyre.compile(r"(?<![\w+/=.-])[A-Za-z0-9_+/.-]{28,4096}={0,2}(?![\w+/=-])")
_MIXED_PART_RE = lazyre.compile(r"(?:^|\.)(?=[^.]*[a-z])(?=[^.]*[A-Z])(?=[^.]*\d)[A-Za-z0-9_-]{16,}(?:\.|$)")
"""A dot-separated part of 16+ characters mixing lower case, capitals and digits: no host name's label."""
_TLD_END_RE = lazyre.compile(r"\.[a-z]{2,6}$")


def _strip_value(raw: str) -> tuple[str, int]:
    """The value without quotes and trailing punctuation, and its offset in ``raw``."""
    start = 0
    if raw[:1] in "\"'`" and raw[-1:] == raw[:1] and len(raw) > 1:
        return raw[1:-1], 1
    value = raw.rstrip(".,;:!?)]}>")
    return value, start


_ABOUT_RE = lazyre.compile(
    r"(?i)(?<![a-z])(?:policy|length|rules|requirements?|reset|hint|expiry|expires|field|prompt|rotation|strength|"
    r"complexity|history|format|pattern|regex|min|max)(?![a-z])"
)
_ADJ_WORDS = "for of on to in at the our my your this that new old key keys token value string code phrase"
_ADJ_OK = frozenset(_ADJ_WORDS.split())
_WORD_NUMBER_RE = lazyre.compile(r"[a-z]+(?:[-_.][a-z]+)*[-_.]?\d{1,6}")


def _about_passwords(label: str, between: str) -> bool:
    """Whether a label's words say the line is about a secret, not one ("password policy", ``pw_min_length``)."""
    return bool(_ABOUT_RE.search(label.lower().split("pass", 1)[-1] + " " + between))


def _adjective(m: re.Match[str], value: str) -> bool:
    """Whether "secret" is an adjective here (a plain word after it: "our secret lunch spot is ...") and the value
    reads as words and a number (``zorbacafe-4471``), not a key; a noun "secret" (the secret for prod) still names one."""
    words = m.group("between").split()
    if m.group("label").lower() not in ("secret", "secrets") or not words:
        return False
    first = words[0]
    return first.isalpha() and first.islower() and first not in _ADJ_OK and bool(_WORD_NUMBER_RE.fullmatch(value))


_NAMED_KEY_RE = lazyre.compile(r"[A-Z][A-Z0-9]{1,9}-\d{1,7}|[a-z]+(?:[-_][a-z]+)*[-_]\d{1,6}")
"""What a bare "key"/"keys" label lists that is no secret: an issue key (Jira's ``PROJECT-123``: upper-case project
key, a dash, a number) or a name and a number (``tenant-42``)."""
_REQUIREMENT_RE = lazyre.compile(r"[\w.\[\]-]+\s*(?:[=<>~!]=|[<>@])|[\w.-]+/[\w.-]+@")
"""A pinned requirement or action (``numpy==1.26.4``, ``torch>=2``, ``actions/checkout@v4``): what "pin" pins."""


def _not_a_value(m: re.Match[str], value: str, quoted: bool) -> bool:
    """Whether a labelled match names no secret (issue 32 round 7): a bare "key(s)" label listing issue keys, a
    "pin" label pinning a package, or a quoted name in a call whose next argument follows its comma
    (``env("DB_PASSWORD", default=None)``; a quoted next argument, ``set("db_password", "…")``, is still a value)."""
    label = m.group("label").lower()
    if label in ("key", "keys") and _NAMED_KEY_RE.fullmatch(value):
        return True
    if _names_public(m, label):
        return True
    if _names_the_thing(m):
        return True
    if label in ("pin", "pins") and _REQUIREMENT_RE.match(value):
        return True
    closer = m.string[m.end("between") : m.start("sep")]
    if m.group("sep").strip() == "," and not quoted and valueparts.LISTED_WORDS_RE.fullmatch(value):
        return True  # "public token, URL-restricted", "PasswordAuthentication no, PubkeyAuthentication yes": a list
    return m.group("sep").strip() == "," and not quoted and any(q in closer for q in "\"'")


_TOKEN_AT_RE = lazyre.compile(r"[^\s\"'`,;]+")


def _cut_slot(text: str, start: int) -> bool:
    """Whether the word at ``text[start:]`` is a slot (:mod:`.slotsyntax`: ``{{ pw }}``, ``{name}``, ``%(pw)s``)
    that a value's pattern cut at a closing bracket (``{{hunter2`` of ``{{hunter2}}``)."""
    m = _TOKEN_AT_RE.match(text, start)
    return m is not None and bool(_PLACEHOLDER_RE.match(m.group(0).rstrip(".:!?")))


def spans(text: str) -> Iterator[Span]:
    """Every span of ``text`` our own rules take for a secret value."""
    for start, end in _pem_blocks(text):
        yield start, end, "private-key"
    for m in _URL_CRED_RE.finditer(text):
        pw, fstring = m.group("pw"), text[max(0, m.start() - 2) : m.start()] in ('f"', "f'")  # Python's f"https://…"
        slot = fstring and _FSTRING_SLOT_RE.fullmatch(pw)  # f"https://{user}:{get_token()}@host": code, not a value
        if url_placeholder(pw) or slot:
            continue  # %s, {}, ${PASS}, <password>, :password: a slot, not a value (.slotsyntax)
        if not _ENV_NAME_RE.fullmatch(pw.strip("${}")):
            yield m.start("pw"), m.end("pw"), "url-password"
    for m in _QUERY_RE.finditer(text):
        value = m.group("value")
        if len(value) >= 6 and not _PLACEHOLDER_RE.match(value) and not _WORDS_RE.fullmatch(value):
            yield m.start("value"), m.end("value"), "query-credential"
    for m in _AUTH_RE.finditer(text):
        value = m.group("value").rstrip(".,:")
        credential = m.group("scheme") or looks_like_credential(value)
        if credential and not _PLACEHOLDER_RE.match(value) and not _WORDS_RE.fullmatch(value):
            skip = 0 if m.group("scheme") else valueparts.authorization_token(value)  # ``<id>:<token>``
            yield m.start("value") + skip, m.start("value") + len(value), "authorization"
    for m in _BEARER_RE.finditer(text):
        value = m.group("value").rstrip(".")
        if looks_like_credential(value, min_len=16):
            yield m.start("value"), m.start("value") + len(value), "bearer-token"
    for m in _HEADER_RE.finditer(text):
        value, off = _strip_value(m.group("value"))
        if looks_like_credential(value) and not valueparts.not_a_secret_value(value):
            yield m.start("value") + off, m.start("value") + off + len(value), "header-credential"
    for m in _LABEL_RE.finditer(text):
        value, off = _strip_value(m.group("value"))
        quoted, sep = off == 1, m.group("sep").strip()
        min_len = 8 if (sep or quoted or m.group("label").lower() in valueparts.KEY_LABELS) else 12
        passphrase = quoted and sep and len(value) >= 8 and " " in value.strip() and not _PLACEHOLDER_RE.match(value)
        if (
            _about_passwords(m.group("label"), m.group("between"))
            or _adjective(m, value)
            or _not_a_value(m, value, quoted)
        ):
            continue  # "password policy: min-12-chars", "our secret lunch spot is zorbacafe-4471"
        if value.startswith(("{", "%")) and _cut_slot(text, m.start("value") + off):
            continue  # {{hunter2}}, {abc123}: a template's or a format's slot the value's end cut at its bracket
        if valueparts.bracketed_token(value, m.string, m.start("value") + off) and looks_like_credential(
            value[1:], min_len=8
        ):
            start = m.start("value") + off + 1  # ``password: (Hx4!kQ9zL)``: a token alone in brackets is the value
            yield start, start + len(value) - 1, "labelled-secret"
            continue
        if (
            value.startswith(("(", "[", "--"))
            or valueparts.option_not_value(m.group("label"), value, m.group("sep"))
            or valueparts.not_a_secret_value(value)
            or ("header" in m.group("label").lower() and valueparts.HEADER_NAME_RE.fullmatch(value) is not None)
        ):
            continue  # prose in brackets after a label ("the token (URL-restricted) is ..."), or a command's next flag
            # ("secret generic db --from-file=password=./pw.txt": the flag's own value is read where it stands)
        if looks_like_credential(value, min_len=min_len) or passphrase or _password_as_file(m.group("label"), value):
            slug = "aws-secret-key" if "aws" in m.group("label").lower() else "labelled-secret"
            yield m.start("value") + off, m.start("value") + off + len(value), slug
    for m in _LOGIN_RE.finditer(text):
        value, off = _strip_value(m.group("value"))
        if looks_like_credential(value, min_len=6):
            yield m.start("value") + off, m.start("value") + off + len(value), "labelled-secret"
    # named by slug, not by identity: a lazy pattern's module name is rebound to the compiled one on first use
    for regex, slug in ((_GLUED_RE, "labelled-secret"), (_CRYPT_RE, "password-hash"), (_WEBHOOK_RE, "webhook-url")):
        for m in regex.finditer(text):
            if slug == "labelled-secret" and _PLACEHOLDER_RE.match(m.group("value")):
                continue  # InstrumentationKey=00000000-0000-...: the nil UUID is a placeholder
            skip = valueparts.webhook_token(m.group("value")) if slug == "webhook-url" else 0
            yield m.start("value") + skip, m.end("value"), slug
    for m in _ASSIGNED_RE.finditer(text):
        value = m.group("value").rstrip(".")
        one_case_hex = _PURE_HEX_RE.fullmatch(value) and (value.islower() or value.isupper() or value.isdigit())
        label, host = m.group("label").lower(), _HOSTNAME_RE.fullmatch(value) and not _RANDOM_LABEL_RE.match(value)
        host = host and any(w in label for w in ("host", "domain", "endpoint"))
        if label.rstrip("_-.").endswith(_NOT_SECRET_LABELS) or one_case_hex or host or _WORDS_NAME_RE.fullmatch(value):
            continue
        if valueparts.not_a_secret_value(value):
            continue  # ``S3 key: reports/2024/q1-summary.csv``, a timestamp
        if value.startswith("//"):
            # a scheme before its //host/path is no label (a path holding `+`, `clang+llvm-11.0.1…`, read as a
            # token): the path from its first segment that is a token to the end is redacted (a base64 token
            # holding `/`, as Slack's workflow URLs, is cut into segments a shorter tail of which reads as none)
            pos = m.start("value")
            for part in value.split("/") if _token_like(value) else ():
                if _token_like(part) and not _PURE_HEX_RE.fullmatch(part):
                    yield pos, m.start("value") + len(value), "url-token"
                    break
                pos += len(part) + 1
            continue
        if text.endswith("//", 0, m.start()) and _PORT_PATH_RE.match(value):
            # https://git.example.com:7990/scm/proj/repo.git: a host, its port and path, not label: value; only a
            # path segment that is itself a token is (https://hooks.slack.com:443/services/T0/B0/<token>: B25-1)
            pos = m.start("value")
            for part in value.split("/"):
                if _token_like(part) and not _PURE_HEX_RE.fullmatch(part):
                    yield pos, pos + len(part), "url-token"
                pos += len(part) + 1
        elif _token_like(value):
            yield m.start("value"), m.start("value") + len(value), _assigned_type(text, m)
    for m in _DEVICE_TOKEN_RE.finditer(text):
        yield m.start("value"), m.end("value"), "device-token"
    for m in _EXACT_RE.finditer(text):
        yield m.start("value"), m.end("value"), _exact_type(m.group("value"))
    for m in _PREFIX_RE.finditer(text):
        value = m.group("value").rstrip(".")
        if sum(c.isdigit() for c in value) >= 1 and entropy(value) >= 3.0 and not _WORDS_RE.fullmatch(value):
            yield m.start("value"), m.start("value") + len(value), vendor_type(value)
    for m in _TOKEN_RE.finditer(text):
        value = m.group(0).rstrip(".")
        if (_PURE_HEX_RE.fullmatch(value) and len(value) <= 64) or _UUID_RE.fullmatch(value):
            continue
        if (
            value.count("/") > 1
            or (value.count(".") > 2 and not (_MIXED_PART_RE.search(value) and not _TLD_END_RE.search(value)))
            or value.count("-") > 3
        ):
            continue  # a path, a host name or a slug (not a dotted token with a random part: ``pq.live.<run>.<run>``)
        digits = sum(c.isdigit() for c in value)
        letters = sum(c.isalpha() for c in value)
        if digits >= 2 and letters >= 8 and entropy(value) >= 4.2:
            yield m.start(), m.start() + len(value), "high-entropy"
