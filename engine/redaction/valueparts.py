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
