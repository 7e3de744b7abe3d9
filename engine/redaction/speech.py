"""Passwords said in prose and typed on command lines (docs/architecture.md §3).

Each rule finds a value by what surrounds it, then keeps it only when the value
reads as a credential (:func:`.rules.looks_like_credential`), so words,
placeholders (``$PASS``, ``<password>``) and numbers stay:

- a command's password flag: ``mysql -p<pw>``, ``--password[= ]<pw>``,
  ``sshpass -p <pw>``, ``docker login -p``, ``mongosh -p``, ``7z -p<pw>``,
  ``unzip -P``, ``ldapsearch -w``, ``redis-cli -a``, ``smbclient -U user%<pw>``,
  ``keytool -storepass``, openssl's ``pass:<pw>``, ``net use … /user:x <pw>``,
  ``htpasswd -b file user <pw>``, ``curl -u user:<pw>`` (quoted or not);
- an account and its password: ``admin / <pw>``, ``admin:<pw>`` (a known
  account name, or after "login"/"creds"), "login … with <pw>";
- "pw is <pw>", "pw <pw>" (the short label the labelled-secret rule lacks);
- "encrypted|protected|locked with <pw>", unless the value names an algorithm or a file;
- a seed phrase: 12 to 24 lowercase words after "seed phrase", "mnemonic",
  "recovery phrase" and the like.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from .rules import looks_like_credential

Span = tuple[int, int, str]

_V = r"(?P<q>['\"])?(?P<value>(?(q)[^'\"\n]{4,128}|(?:[^\s'\"`;|&]|&(?!&)){4,128}))(?(q)(?P=q))"
"""A flag's value: quoted (spaces allowed) or a run without spaces."""

_TOOL_FLAGS: tuple[tuple[str, str], ...] = (
    (r"mysql\w*|mariadb\w*|mysqladmin|mysqldump|mysqlimport|mysqlsh", r"-p(?!\s)|--password(?:=|\s+)"),
    (r"sshpass", r"-p\s*"),
    (r"docker|podman|buildah|nerdctl|helm|oras|crane|skopeo|regctl", r"(?:-p|--password)(?:=|\s+)"),
    (r"mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|mongostat|mongotop", r"(?:-p|--password)(?:=|\s+)"),
    (r"7z|7za|7zz|7zr|rar|unrar", r"-p(?!\s)"),
    (r"zip|unzip|zipcloak", r"-P\s*"),
    (r"ldap\w+", r"-w\s+"),
    (r"redis-cli|valkey-cli|keydb-cli", r"(?:-a|--pass)\s+"),
    (r"smbclient|rpcclient|smbget|smbcacls|crackmapexec|netexec|nxc", r"-U\s+['\"]?[^\s%'\"]{1,64}%"),
    (r"keytool|jarsigner", r"-(?:store|key|srcstore|deststore|srckey|destkey)pass\s+"),
    (r"openssl", r"\bpass:|-k\s+"),
    (r"sqlcmd|bcp|osql|isql", r"-P\s*"),
    (r"wget|curl|lftp|ncftp|rsync|svn|hg", r"--(?:http-|ftp-|proxy-)?password(?:=|\s+)"),
    (r"pg_\w+|psql|createdb|dropdb", r"--password=|password="),
    (r"ipmitool", r"-P\s*"),
    (r"xfreerdp|rdesktop", r"/p:|-p\s+"),
    (r"net", r"/user:\S+\s+(?!/)"),
)
_COMMAND_RE = re.compile(
    r"(?:^|[\s;|&(`$]|sudo\s|exec\s)(?P<tool>"
    + "|".join(f"(?:{t})" for t, _f in _TOOL_FLAGS)
    + r")(?=\s)(?P<args>[^\n;|&]{0,400})",
    re.M,
)
_FLAG_RES = [(re.compile(rf"^(?:{tool})$"), re.compile(rf"(?:(?<=\s)|^)(?:{flag}){_V}")) for tool, flag in _TOOL_FLAGS]
_GENERIC_FLAG_RE = re.compile(
    r"(?<![\w-])--?(?:[\w-]{0,20}(?:password|passwd|passphrase|pwd)|pass|pw)(?:=|\s+)" + _V, re.I
)
_HTPASSWD_RE = re.compile(r"\bhtpasswd\s+(?:-[a-zA-Z]*b[a-zA-Z]*\s+)(?:-\w+\s+)*\S+\s+[^\s-]\S*\s+" + _V)
_CURL_USER_RE = re.compile(
    r"\bcurl\b[^\n]{0,300}?\s(?:-u|--user)(?:=|\s{0,5})(?P<q>['\"])?[^:\s'\"]{0,64}:(?P<value>[^\s'\"]{3,128})(?(q)(?P=q))"
)
_ENV_PW_RE = re.compile(
    r"(?<![\w$])(?:PGPASSWORD|MYSQL_PWD|REDISCLI_AUTH|SSHPASS|RSYNC_PASSWORD|LFTP_PASSWORD|SMBPASS|ISC_PASSWORD)=" + _V
)

_ACCOUNTS = (
    r"admin|administrator|root|sa|postgres|ubuntu|pi|guest|ops|deploy|deployer|user|test|service|svc|backup|"
    r"operator|support|jenkins|git|ftp|ftpuser|oracle|mysql|elastic|kibana|grafana|rabbit|guest|dev|demo"
)
_SLASH_PAIR_RE = re.compile(
    r"(?:(?<=\s)|(?<=^)|(?<=[:(]))(?P<user>['\"]?[\w.@+-]{2,64}['\"]?)\s{0,3}/\s{0,3}" + _V + r"(?=[\s,;.)]|$)", re.M
)
_COLON_PAIR_RE = re.compile(r"(?<![\w/:@.$%-])(?P<user>[\w.+-]{2,40}):(?P<value>[^\s:@/'\"`,;()]{6,128})(?=[\s,;)]|$)")
_TAG_RE = re.compile(r"v?\d[\w.+-]*$|latest$|stable$|alpine$|slim$")
"""An image tag or version after ``name:`` (``16-alpine``, ``v2.4.1``): not a password."""
_ACCOUNT_RE = re.compile(rf"(?i)^['\"]?(?:{_ACCOUNTS})\d{{0,3}}['\"]?$")
_LOGIN_CONTEXT_RE = re.compile(
    r"(?i)\b(?:login|log[ -]?in|sign[ -]?in|creds?|credentials?|user\s*/\s*pass(?:word)?|username\s*/\s*password|"
    r"account|auth)\b[^\n]{0,48}$"
)
_LOGIN_WITH_RE = re.compile(
    r"(?i)\b(?:login|log[ -]?in|sign[ -]?in|creds?|credentials?)\b[^\n.]{0,60}?\bwith\s+(?:password\s+|pw\s+)?" + _V
)
_PW_RE = re.compile(
    r"(?i)(?<![\w-])(?:pw|pword|p/w|passwd|pass\s?word|pass|pwd)\b\s{0,3}(?:(?:is|was|=|:|now|becomes|->|=>)\s{0,3}){0,2}"
    + _V
)
_WITH_RE = re.compile(
    r"(?i)\b(?:encrypted|encrypt|protected|locked|secured|unlocks?|decrypts?|opens?)\s+(?:\w+\s+){0,2}?(?:with|by|using)\s+"
    r"(?:the\s+)?(?:(?:password|passphrase|passcode|pin|key)\s+)?" + _V
)
_NOT_A_PASSWORD_RE = re.compile(
    r"(?i)^(?:aes|rsa|des|3des|tdes|chacha|xchacha|blowfish|twofish|gpg|pgp|gnupg|age|tls|ssl|sha|md5|bcrypt|scrypt|"
    r"argon|pbkdf|luks|bitlocker|veracrypt|filevault|kms|hsm|ecdsa|ec|ed25519|x25519|curve25519|p-?\d{3}|salsa|"
    r"camellia|serpent|rc4|hmac|ssh|x509|yubikey|fido|smime|s/mime|openssl|sops|vault|keepass|1password|bitwarden)"
    r"[\w.+/-]*$|.*\.(?:pem|key|asc|gpg|pub|crt|p12|pfx|jks|kdbx|txt|json|ya?ml)$|.*/.*"
)
_SEED_RE = re.compile(
    r"(?i)\b(?:seed(?:\s+phrase|\s+words)?|mnemonic(?:\s+phrase)?|recovery\s+(?:phrase|words|seed)|backup\s+phrase|"
    r"secret\s+recovery\s+phrase|wallet\s+words|\d{2}\s+(?:seed\s+)?words)\b[^\n\w]{0,6}(?:(?:is|are|=)\s+)?[\"'`]?"
    r"(?P<value>[a-z]{3,8}(?:[ \t,]+[a-z]{3,8}){11,23})"
)


def _mixed_case(value: str) -> bool:
    """A run of 8+ letters whose case flips three times or more (``jSfbtPBCGn``): random, not a word."""
    flips = sum(1 for a, b in pairwise(value) if a.islower() != b.islower())
    return len(value) >= 8 and value.isalpha() and flips >= 3


def _ok(value: str, *, min_len: int = 6) -> bool:
    if value.startswith(("$", "%", "<", "{", "[", "(")):
        return False
    return looks_like_credential(value, min_len=min_len) or _mixed_case(value)


def _emit(m: re.Match[str], slug: str, *, min_len: int = 6, text: str = "") -> Iterator[Span]:
    value = m.group("value").rstrip(".,;:!?)") if not m.groupdict().get("q") else m.group("value")
    if _ok(value, min_len=min_len):
        start = m.start("value")
        yield start, start + len(value), slug


def spans(text: str) -> Iterator[Span]:
    """Every span of ``text`` that a password in prose or on a command line takes."""
    low = text.lower()
    flags = any(c in text for c in "-/%:=")  # every password flag holds one of these
    for cmd in _COMMAND_RE.finditer(text) if flags else ():
        tool = cmd.group("tool")
        args_start = cmd.start("args")
        for tool_re, flag_re in _FLAG_RES:
            if tool_re.match(tool):
                for m in flag_re.finditer(cmd.group("args")):
                    value = m.group("value")
                    credential = m.group("q") or _ok(value, min_len=4) or any(not c.isalnum() for c in value)
                    if credential and not value.startswith(("$", "<", "{", "%")):
                        start = args_start + m.start("value")
                        yield start, start + len(value), "password"
    for regex in (_GENERIC_FLAG_RE, _HTPASSWD_RE, _CURL_USER_RE, _ENV_PW_RE):
        for m in regex.finditer(text):
            yield from _emit(m, "password", min_len=4)
    if "/" in text:
        for m in _SLASH_PAIR_RE.finditer(text):
            user = m.group("user")
            before = text[max(0, m.start() - 60) : m.start()]
            if _ACCOUNT_RE.match(user) or _LOGIN_CONTEXT_RE.search(before):
                yield from _emit(m, "password")
    if ":" in text:
        for m in _COLON_PAIR_RE.finditer(text):
            before = text[max(0, m.start() - 60) : m.start()]
            if _LOGIN_CONTEXT_RE.search(before):
                yield from _emit(m, "password")
            elif (
                _ACCOUNT_RE.match(m.group("user"))
                and len(m.group("value")) >= 8
                and not _TAG_RE.match(m.group("value"))
            ):
                yield from _emit(m, "password")  # an account alone: not an image tag (postgres:16-alpine)
    if "with" in low:
        for m in _LOGIN_WITH_RE.finditer(text):
            yield from _emit(m, "password")
        for m in _WITH_RE.finditer(text):
            if not _NOT_A_PASSWORD_RE.match(m.group("value")):
                yield from _emit(m, "password", min_len=8)
    if "p" in low:
        for m in _PW_RE.finditer(text):
            yield from _emit(m, "password")
    if any(w in low for w in ("seed", "mnemonic", "phrase", "words")):
        for m in _SEED_RE.finditer(text):
            yield m.start("value"), m.end("value"), "seed-phrase"
