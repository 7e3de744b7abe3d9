"""Which part of a labelled value is the secret: the account beside it stays (docs/architecture.md §3).

Issue 32 round 25, classes read on the tune halves of the blind sources (``speech4-tune``, ``vendorkeys-tune``):
a label rule took the whole value where only part of it is secret, and the user, host or id beside the secret
was lost from the memory:

- a label ending a command's word (``cmdkey``, ``-method=userpass``) before the command's next option
  (``/add:files.corp.local``, ``username=grafana``): the option is read where it stands, not as the label's value;
- ``wpa_passphrase "<SSID>" "<passphrase>"``: the tool's first argument is the network's name (wpa_passphrase(8));
- ``Authorization: <id>:<token>`` with no scheme (PlanetScale's service tokens): the id before the colon is public;
- a webhook URL's numeric id before its token (``/api/webhooks/<id>/<token>``, Discord's documented shape);
- ``curl -u <user>:<password>``: the user names the account (:func:`.context.user_is_key` says when not).

Round 26 (breaker26): a value that is code declaring the secret's field (:func:`not_a_secret_value`), not the secret.
"""

from __future__ import annotations

from . import lazyre

_OPTION_RE = lazyre.compile(
    r"(?:/[A-Za-z][A-Za-z-]{1,19}:|--?[A-Za-z][A-Za-z_-]{0,30}=|[A-Za-z_][A-Za-z_-]{2,30}=)(?=\S)"
)
"""A value that is a command's next option: ``/add:host``, ``--from-file=x``, ``username=x`` (letters before the
``:`` or ``=``: ``-pS3cret``, ``Summer2024=`` are passwords)."""

_SECRET_OPTION_RE = lazyre.compile(r"(?i)pass|pwd|secret|token|key|auth|cred")
"""An option whose own name names a secret (``api_key=``, ``--password=``)."""

_TOOL_FIRST_ARG = frozenset({"wpa_passphrase"})
"""Labels that are a tool's name whose first argument is no secret (``wpa_passphrase <ssid> [passphrase]``)."""

_ID_PAIR_RE = lazyre.compile(r"(?P<id>[A-Za-z0-9]{6,40}):(?P<token>[A-Za-z0-9._~+/=-]{16,4096})")
_WEBHOOK_ID_RE = lazyre.compile(r"\d{6,24}/(?=\S{16})")


def option_not_value(label: str, value: str, sep: str = " ") -> bool:
    """Whether a label rule's ``value`` is not the label's value: the command's next option, or a tool's first
    argument that names a thing (see the module's list).

    Args:
        label: the label as matched (``cmdkey``, ``userpass``, ``wpa_passphrase``).
        value: the value after it, quotes stripped.
        sep: what stands between them: a tool's argument follows a space (``wpa_passphrase=<pw>`` in hostapd.conf
            is the label's value, breaker B25R-2).

    Returns:
        bool: True when the value is to be left to the rules that read it where it stands.
    """
    option = _OPTION_RE.match(value)
    if option is not None and _SECRET_OPTION_RE.search(option.group(0)):
        return False  # ``creds … api_key=<key>``: the option names the secret the label speaks of, read as before
    return (label.lower() in _TOOL_FIRST_ARG and not sep.strip()) or option is not None


def authorization_token(value: str) -> int:
    """Where the secret starts in an ``Authorization:`` value with no scheme: after ``<id>:`` when the value is
    an id and a token (``qmpc42etu2vr:pscale_tkn_…``), else 0 (the whole value).

    Args:
        value: the header's value, scheme-less.

    Returns:
        int: the offset of the secret in ``value``.
    """
    m = _ID_PAIR_RE.fullmatch(value)
    if m is None or not m.group("id").islower() or user_is_key(m.group("id"), m.group("token")):
        return 0  # an id is lower-case letters and digits (``qmpc42etu2vr``); ``Hunter2Winter:`` may be a password
    return m.start("token")


def user_is_key(user: str, password: str) -> bool:
    """Whether the user half of ``curl -u <user>:<password>`` is a secret too (issue 32 round 25).

    The user names the account (``anystring``, ``postgres``, a Braintree public key of 16 lower-case characters)
    unless it is the key itself: a password of one or two characters (``-u <key>:X``, Freshdesk's docs), a user of
    16+ characters mixing capitals, lower case and digits (a Freshdesk key of 20, breaker B25R-5), or one of 24+
    with letters and digits (Mailjet's ``<api key>:<secret key>``).

    Args:
        user: the part before the colon, quotes stripped.
        password: the part after it.

    Returns:
        bool: True when the user is to be redacted with the password.
    """
    digits, letters = any(c.isdigit() for c in user), any(c.isalpha() for c in user)
    mixed = digits and any(c.isupper() for c in user) and any(c.islower() for c in user)
    return len(password) <= 2 or (len(user) >= 16 and mixed) or (len(user) >= 24 and digits and letters)


def webhook_token(value: str) -> int:
    """Where the secret starts in a webhook URL's value: after a numeric id segment (``<id>/<token>``), else 0."""
    m = _WEBHOOK_ID_RE.match(value)
    return m.end() if m else 0


_CODE_VALUE_RE = lazyre.compile(
    r"[A-Za-z_][\w.]{0,80}\((?:[A-Za-z_]\w{0,40}=(?!=)|[A-Za-z_][\w.]{0,80}\(|\)|[\"'`][A-Z][A-Z0-9_]{2,60}[\"'`]|$)"
    r"|[A-Za-z_]\w{0,60}(?:\.[A-Z][A-Z0-9]*_[A-Z0-9_]{1,60})+$"  # a constant read: ``BuildConfig.MAPS_API_KEY``
    r"|ENC\[AES256_GCM,data:"  # SOPS ciphertext, made to be committed
    r"|(?=[a-z0-9/_:-]*\b(?:kv|secrets?|data|vault|ssm|parameters?)/)(?:[a-z0-9_-]{2,40}/){2,8}[a-z0-9_-]{2,40}"
    r"(?::[a-z_-]{2,40})?$"  # a secret store's path: ``kv/data/smtp:password``
    r"|(?i:argon2(?:id|i|d)?|bcrypt|scrypt|pbkdf2(?:[-_]sha\d{1,3})?|sha-?(?:1|224|256|384|512)|aes-?(?:128|256)(?:-gcm)?|"
    r"wpa[23]?(?:-(?:psk|sae|aes|tkip|personal|enterprise|eap))*|wep|rsa-\d{3,5}|ed25519|ecdsa(?:-p\d{3})?)$"
    r"|(?:String|Int|Float|Boolean|ID)!$"  # a GraphQL field's non-null type
    r"|(?i:n?varchar|n?char|character\s+varying|varbinary|binary|bit|decimal|numeric)\(\d{1,5}(?:,\s?\d{1,3})?\)"
    r"|(?:json|yaml|xml|toml|db|bson|form|query|validate|binding|mapstructure|gorm|env)\s?:\s?\""  # a Go struct tag
    r"|(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=)+$"  # the next line of an env file, its value empty: ``DB_PASSWORD=``
    r"|\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:?\d\d)?)?$"  # a timestamp (ISO 8601)
    r"|(?:[\w.-]{1,64}/){1,10}[\w-]{1,64}\.[A-Za-z0-9]{2,5}$"  # an object's key or a path to a file
)


def not_a_secret_value(value: str) -> bool:
    """Whether a labelled value is no secret: code declaring the secret's field, a name, a time (issue 32 round 26).

    A model or schema declares a ``password`` or ``api_key`` field and its type, and an agent keeps such code in
    memory: ``password = models.CharField(max_length=128)``, ``api_key = db.Column(db.String(64))``,
    ``token = Token.objects.get(user=…)``, ``password: String!`` (GraphQL), ``password VARCHAR(255)`` (SQL),
    ``Password string `json:"password"``` (a Go struct tag). A call is code when its first argument is a keyword
    argument, another call, or nothing: ``Abc(123`` is still a password. An
    env file's next key with no value (``API_KEY=`` then ``DB_PASSWORD=``), an ISO 8601 timestamp (``token issued:
    2024-05-02T10:00:00Z``) and an object's key ending in a file's extension (``S3 key: reports/2024/q1.csv``) are no
    secret either; nor, from notes6's tune half, an environment read by name (``mustEnv("PARTNER_API_KEY")``), a
    constant read (``BuildConfig.MAPS_API_KEY``), SOPS ciphertext (``ENC[AES256_GCM,data:…``) or a hashing or cipher
    algorithm's name (``Password hashing: argon2id``), or a secret store's path in lower case (``secret=kv/data/smtp:password``,
    Vault's KV path and field).

    Args:
        value: the value a label rule read, quotes stripped.

    Returns:
        bool: True when the value is such code.
    """
    return _CODE_VALUE_RE.match(value) is not None


HEADER_NAME_RE = lazyre.compile(r"X-[A-Za-z]{2,}(?:-[A-Za-z]{2,}){0,4}")
"""A header's name under a label naming a header (``api_key_header: X-API-Key``): the header, not its value."""
_MIXED_TOKEN_RE = lazyre.compile(r"(?=[^)]*[a-z])(?=[^)]*[A-Z])(?=[^)]*\d)(?=[^)]*[!@#$%^&*+=?~])")
"""Both cases, a digit and a symbol: a password in brackets (``(Hx4!kQ9zL)``), never a note (``(1Password)``,
``(INFRA-2231)``, ``(FritzBox7590)``, ``(OAuth2.0)``)."""
_FILE_END_RE = lazyre.compile(r"\.[A-Za-z][A-Za-z0-9]{0,4}$")
"""A file's extension ending a value: ``API key (AuthKey_8C3POV2OWR.p8)`` names the key's file."""
KEY_LABELS = ("psk", "wpa-psk", "wpa_psk")
"""Labels naming a key whatever follows (``IPsec PSK Ip7#kQ2zLm``): a value after a bare space needs 8 characters, as
after ``:``, not 12 (round 26)."""
LISTED_WORDS_RE = lazyre.compile(r"[A-Za-z]{2,}(?:-[A-Za-z]{2,}){0,4}")
"""Letters alone, or words joined by ``-``: after a label and a comma, the next item of a list, not a value (notes5)."""


def bracketed_token(value: str, text: str, start: int) -> bool:
    """Whether a labelled value read as ``(`` and a run is a password alone in brackets (``password: (Hx4!kQ9zL)``,
    round 26): the bracket closes right after it and it mixes both cases, a digit and a symbol; a note (``(1Password)``, ``(INFRA-2231)``) or a file's name (``(AuthKey_8C3POV2OWR.p8)``) is not.

    Args:
        value: the value the label rule read, starting at ``text[start]``.
        text: the whole text.
        start: where ``value`` starts in ``text``.

    Returns:
        bool: True when ``value[1:]`` has a password's shape there (the caller asks whether it reads as a credential).
    """
    inner = value[1:]
    return (
        value.startswith("(")
        and _MIXED_TOKEN_RE.match(inner) is not None
        and not _FILE_END_RE.search(inner)
        and text.startswith(")", start + len(value))
    )
