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
  "recovery phrase" and the like;
- said in any of nine languages: a password word, what it opens, a link, a
  value ("my password for the HR portal is <pw>", "Passwort für das WLAN: <pw>",
  "サーバーのパスワードは<pw>です", "数据库密码是<pw>");
- the same with no link when the value ends its clause ("пароль от вайфая <pw>", "새 비번 <pw>");
- a PIN or passcode of 4 to 8 digits after a link ("PIN is 4821"), not a length;
- 2FA backup or recovery codes holding two digits or more ("Recovery codes: 8f3k-2m9q, ..."), and a TOTP seed
  of 16+ base32 characters after its name ("TOTP seed <seed>");
- "use <pw> to log in|unlock|decrypt ...";
- ``export ANY_PASSWORD=<pw>`` (a name ending in ``_PASSWORD``, ``_PASS``, ``_PWD``);
- ``htpasswd -nb user <pw>`` and ``net use \\\\host\\share <pw> /user:x``;
- (:mod:`.said`, in :mod:`.structure`: "<pw> is the wifi key", "reset the password to <pw>", codes, seeds ...).

After a password word and a link, three or more dashed words
(``lichen-cobalt-walnut``) count as a passphrase; elsewhere they read as names.
Placeholders, vendor defaults (``changeme``) and pointers ("stored in
1Password", ``--password-stdin``, ``-passin env:VAR``) stay verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from .lazyre import lazy
from .rules import looks_like_credential
from .valueparts import not_a_secret_value

Span = tuple[int, int, str]

_SPACE = " \u00a0\u202f"
"""The spaces French puts inside guillemets (``« Soleil#2024 »``): a plain, a no-break and a narrow no-break space."""
_OPEN = rf"(?:(?P<q>['\"])|(?P<g>[«‹“„「『][{_SPACE}]?))?"
"""A value's opening quote: ``'`` or ``"`` (``q``, closed by the same), or one closed by another (``g``: guillemets,
curly and German quotes, CJK brackets)."""
_CLOSE = r"(?(q)(?P=q))(?(g)[»›”“」』])"
"""The closing quote a quoted value needs."""


def _quoted(unquoted: str) -> str:
    """A value: quoted, up to its matching closing quote (``'He said "hi"!'`` keeps ``"hi"!``), or ``unquoted``."""
    return rf"(?P<value>(?(q)(?:(?!(?P=q))[^\n]){{4,128}}|(?(g)[^\n«»‹›“”„「」『』]{{4,128}}|{unquoted})))"


_V = r"(?P<q>['\"])?(?P<value>(?(q)(?:(?!(?P=q))[^\n]){4,128}|(?:[^\s'\"`;|&]|&(?!&)){4,128}))(?(q)(?P=q))"
"""A flag's value: quoted (spaces allowed, up to the matching quote) or a run without spaces; no guillemets on a
command line (and ~30 rules use it: each alternative costs compile time at start-up)."""

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
    (r"psexec\w*|paexec|az", r"(?:-p|--password)(?:=|\s+)"),
    (r"cmdkey", r"/pass:"),
    (r"schtasks", r"/[rR][pP]\s+"),
    (r"ssh-keygen", r"-[NP]\s+"),
)
_COMMAND_RE = lazy(
    r"(?:^|[\s;|&(`$]|sudo\s|exec\s)(?P<tool>"
    + "|".join(f"(?:{t})" for t, _f in _TOOL_FLAGS)
    + r")(?=\s)(?P<args>[^\n;|&]*(?:&(?![\s&])[^\n;|&]*)*)",
    re.M,
)
_FLAG_RES = [(lazy(rf"^(?:{tool})$"), lazy(rf"(?:(?<=\s)|^)(?:{flag}){_V}")) for tool, flag in _TOOL_FLAGS]
_PUBLISHERS = ("docker", "podman", "nerdctl")
_PUBLISH_RE = lazy(  # run -p [ip:][host port:]container port[/protocol] publishes a port: no password
    r"(?:(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\]):)?(?:(?:\d{1,5}(?:-\d{1,5})?)?:)?\d{1,5}(?:-\d{1,5})?(?:/(?:tcp|udp|sctp))?"
)
_GENERIC_FLAG_RE = lazy(r"(?<![\w-])--?(?:[\w-]{0,20}(?:password|passwd|passphrase|pwd)|pass|pw)(?:=|\s+)" + _V, re.I)
_HTPASSWD_RE = lazy(
    r"\bhtpasswd\s+(?:-(?P<flags>[a-zA-Z]*b[a-zA-Z]*)\s+)(?:-\w+\s+)*(?P<pos>(?:[^\s-]\S*\s+){1,2})" + _V
)
"""``htpasswd -b[n] [file] user <pw>``: the password is the last operand (one before it with ``-n``, two without)."""
_POSITIONAL_RES = (
    lazy(r"(?i)\bnet\s+user\s+[^\s/]+\s+" + _V + r"(?=\s|$)"),
    lazy(r"\bwpa_passphrase\s+(?:['\"][^'\"\n]+['\"]|\S+)\s+" + _V),
    lazy(r"(?i)\bConvertTo-SecureString\s+(?:-String\s+)?" + _V),
    lazy(r"\becho\s+(?:-n\s+)?" + _V + r"\s*\|\s*sudo\b[^\n|]*?\s-[a-zA-Z]*S\b"),
    lazy(r"\becho\s+(?:-n\s+)?['\"]?[\w.-]{1,32}:" + _V + r"['\"]?\s*\|\s*(?:sudo\s+)?chpasswd\b"),
    lazy(r"\bnmcli\b[^\n]*?\s(?:password|wifi-sec\.psk|802-11-wireless-security\.psk)\s+" + _V),
    lazy(r"(?i)(?<!\S)-D[\w.-]{0,60}(?:password|passwd|passphrase)=" + _V),
    lazy(r"\bsqlplus\s+(?:-\w+\s+)*[\w$#]{1,30}/(?P<value>[^\s@/'\"]{4,128})(?=@|\s|$)"),
)
"""A password in a fixed operand: ``net user NAME <pw>``, ``wpa_passphrase SSID <pw>``, ``ConvertTo-SecureString '<pw>'``,
``echo <pw> | sudo -S``, ``echo user:<pw> | chpasswd``, ``nmcli ... password <pw>``, ``java -D...Password=<pw>``,
``sqlplus user/<pw>@db``."""
_POSITIONAL_KEYS: tuple[tuple[str, ...], ...] = (
    ("net", "user"),
    ("wpa_passphrase",),
    ("securestring",),
    ("echo", "sudo"),
    ("chpasswd",),
    ("nmcli",),
    ("-d", "pass"),
    ("sqlplus",),
)
"""Substrings each of :data:`_POSITIONAL_RES` needs in the lowered text (a cheap test before the regex)."""
_NET_USE_RE = lazy(r"(?i)\bnet\s+use\s+(?:[a-z]:\s+|\*\s+)?\\\\\S+\s+" + _V + r"(?=\s|$)")
"""``net use [drive] \\\\host\\share <pw> [/user:...]``: the password is the operand after the share."""
_CURL_USER_RE = lazy(
    r"\bcurl\b[^\n]{0,300}?\s(?:-u|--user)(?:=|\s{0,5})(?P<q>['\"])?[^:\s'\"]{0,64}:(?P<value>[^\s'\"]{3,128})(?(q)(?P=q))"
)
_ENV_PW_RE = lazy(
    r"(?<![\w$])(?:PGPASSWORD|MYSQL_PWD|REDISCLI_AUTH|SSHPASS|RSYNC_PASSWORD|LFTP_PASSWORD|SMBPASS|ISC_PASSWORD|"
    r"[A-Z][A-Z0-9_]{0,40}_(?:PASSWORD|PASSWD|PASS|PWD|PASSPHRASE))=" + _V
)

_ACCOUNTS = (
    r"admin|administrator|root|sa|postgres|ubuntu|pi|guest|ops|deploy|deployer|user|test|service|svc|backup|"
    r"operator|support|jenkins|git|ftp|ftpuser|oracle|mysql|elastic|kibana|grafana|rabbit|guest|dev|demo"
)
_SLASH_PAIR_RE = lazy(
    r"(?:(?<=\s)|(?<=^)|(?<=[:(]))(?P<user>['\"]?[\w.@+-]{2,64}['\"]?)\s{0,3}/\s{0,3}" + _V + r"(?=[\s,;.)]|$)", re.M
)
_COLON_PAIR_RE = lazy(r"(?<![\w/:@.$%-])(?P<user>[\w.+-]{2,40}):(?P<value>[^\s:@/'\"`,;()]{6,128})(?=[\s,;)]|$)")
_TAG_RE = lazy(r"v?\d[\w.+-]*$|latest$|stable$|alpine$|slim$")
"""An image tag or version after ``name:`` (``16-alpine``, ``v2.4.1``): not a password."""
_ACCOUNT_RE = lazy(rf"(?i)^['\"]?(?:{_ACCOUNTS})\d{{0,3}}['\"]?$")
_LOGIN_CONTEXT_RE = lazy(
    r"(?i)\b(?:login|log[ -]?in|sign[ -]?in|creds?|credentials?|user\s*/\s*pass(?:word)?|username\s*/\s*password|"
    r"account|auth|wi-?fi|wlan|ssid)\b[^\n]{0,48}$"
)
_LOGIN_WITH_RE = lazy(
    r"(?i)\b(?:login|log(?:ged)?[ -]?in(?:to)?|sign(?:ed)?[ -]?in(?:to)?|creds?|credentials?)\b[^\n.]{0,60}?\bwith\s+(?:password\s+|pw\s+)?"
    + _V
)
_PW_RE = lazy(
    r"(?i)(?<![A-Za-z0-9-])(?:pw|pword|p/w|passwd|pass\s?word|pass|pwd)\b"
    r"(?:\s{0,3}(?:(?:is|was|=|:|now|becomes|->|=>)\s{0,3}){1,2}|[ \t]{1,3})"
    + _OPEN
    + _quoted(r"(?![|()\[\]{},;.\\/<>])[^\s'\"`]{4,128}")
    + _CLOSE
)
""""pw is <pw>", ``db_password: <pw>``: a said value runs to the next space (:func:`said_end` trims it)."""
_LABEL = (
    r"(?:(?<![\w-])(?:pass\s?words?|passwd|passphrase|pw|pwd|pass|passcode|master\s+key|unseal\s+key|mdp|"
    r"mot\s+de\s+passe|contrase[ñn]a|clave|senha|palavra[- ]passe|parola\s+d['’]ordine|chiave|has[łl][oaeu]\w{0,2}|"
    r"парол[ьяею]\w{0,2})|(?<![\w-])(?:[a-zäöüß]{1,20}-?)?(?:passwort|kennwort|wachtwoord)|パスワード|パスフレーズ|パスコード|暗証番号|"
    r"密码|密碼|口令|비밀번호|비번|암호)"
)
"""A password word in English, German (compounds too: ``Datenbankpasswort``, ``WLAN-Passwort``), French (``mdp``),
Spanish, Portuguese (``palavra-passe``), Italian (``parola d'ordine``, ``chiave``), Dutch (``wifi-wachtwoord``),
Polish (``hasło`` and its cases), Russian (its cases), Japanese, Chinese and Korean; CJK words need no boundary,
since CJK text has no spaces."""
_PREP = (
    r"for|of|on|to|at|in|from|für|fürs|vom|zum|zur|bei|beim|am|im|des|der|du|de|de\s+la|de\s+l'|à|au|aux|pour|"
    r"pour\s+(?:le|la|les)|del|de\s+los|para|para\s+(?:el|la|o|a)|en|do|da|dos|das|no|na|pro|pra|"
    r"di|della|dello|dell['’]|dei|degli|per|van|voor|bij|op|dla|od|для|от|к|ко|на|в|во|у|с|со"
)
"""What precedes the thing a password opens, in the twelve languages: "for", "für", "du", "del", "di", "van", "do",
"dla", "для" ..."""
_QUALIFIER = r"(?:\s+(?:" + _PREP + r")\s+[^\n:=：.;!?—]{1,40}?|\s+d['’][^\s:=：]{2,30})?"
"""What the password opens, between the word and its link: "for my bank account", "für das WLAN", "du serveur",
"do banco", "для сервера", "d'administration"."""
_ABOUT = (
    r"policy|policies|length|rules?|requirements?|reset|hint|expiry|expires|expiration|field|prompt|manager|change|"
    r"changed|rotation|strength|complexity|history|age|format|pattern|regex|hash|hashing|salt|file|min|max|minimum|"
    r"maximum|set|protected|required|optional|login|auth|authentication|less|only|flag|option|env|vault|stored|oublié|"
    r"perdu|olvidada|esquecida|забыл\w*"
)
"""Words after a password word that make the line about passwords, not one ("password policy: min-12-chars")."""
_BARE = r"(?:[ \t]+(?!(?:" + _ABOUT + r")\b)[\w'’-]{1,24}){1,3}?"
"""What the password opens, said as bare nouns (French "Mot de passe wifi", Russian "пароль администратора");
taken only before a colon or a dash."""
_COLON = r"(?:\s{0,3}[:=：]\s{0,3}|\s+[—–-]\s+(?:это\s+)?)"
_LINK = (
    r"(?:"
    + _COLON
    + r"|\s+(?:is\s+now|is\s+nu|ist\s+jetzt|est\s+maintenant|es\s+ahora|é\s+agora|é\s+a|è\s+ora|jest\s+teraz|is|was|"
    r"ist|lautet|est|es|é|era|c'est|è|to)\s+|\s*(?:は|是|为|為|：)\s*|"
    r"(?:는|은|이|가)\s*)"
)
"""The link between a password word and its value: "is", ":", "=", a dash, "ist", "est", "es", "é", "è", the Polish
"to" ("hasło do wifi to <pw>": :func:`_link_ok` keeps it to Polish), は, 是, and the Korean particles 는/은/이/가
("비밀번호는 <pw> 입니다")."""
_VA = _OPEN + _quoted(r"[^\s'\"`」』«»\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]{4,128}")
"""A said value: a run without spaces that stops at CJK text (パスワードは<pw>です), or quoted (« Soleil#2024 »,
a closing quote not needed); :func:`said_end` trims an unquoted one."""
_SAID_RE = lazy(
    r"(?i)(?P<label>"
    + _LABEL
    + r")(?!\s+(?:"
    + _ABOUT
    + r")\b)(?:"
    + _QUALIFIER
    + _LINK
    + "|"
    + _BARE
    + _COLON
    + "|"
    + _QUALIFIER
    + r"(?P<sp>[ \t]+))"
    + _VA
    + r"(?(sp)(?:(?<=[,;.])(?=\s|$)|(?=[ \t]*(?:\n|$))|(?=[ \t]+[—–][ \t])))"
)
"""A password word, what it opens, a link, a value (issue 32 round 4): "my password for the HR portal is <pw>".

With no link (``sp``: "пароль от вайфая <pw>", "새 비번 <pw>", round 5) the value must end its line or clause
(``,`` ``;`` ``.``), so "password for user admin2 expired" stays; there the short English words (``pw``, ``pass``)
are :data:`_PW_RE`'s."""
_CODES_RE = lazy(
    r"(?i)\b(?:backup|recovery|scratch|emergency)[ \t]+codes?\b(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|are|were)[ \t]+|[ \t]+)"
    r"(?P<value>(?:(?:\d{4} \d{4}|[A-Za-z0-9]{3,12}(?:-[A-Za-z0-9]{3,12}){0,3})"
    r"(?:[ \t]*[,;][ \t]*|[ \t]+)?){1,16})"
)
"""2FA backup or recovery codes after their name ("backup code 48213957", "Recovery codes: 8f3k-2m9q, 7h2k-9x4p");
:func:`_codes` keeps each that holds two digits or more, up to the first that does not."""
_CODE_RE = lazy(r"\d{4} \d{4}|[A-Za-z0-9]{3,12}(?:-[A-Za-z0-9]{3,12}){0,3}")
_TOTP_RE = lazy(
    r"(?i)\b(?:totp|otp|2fa|mfa|two-factor|authenticator)[ \t]+(?:(?:secret|setup)[ \t]+key|seed|secret|key)\b"
    r"(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+|[ \t]+)(?P<value>[A-Z2-7]{4}(?:[ -]?[A-Z2-7]{4}){3,15}=*)(?![\w-])"
)
"""A TOTP seed after its name ("TOTP seed JBSWY3DPEHPK3PXP"): 16 or more base32 characters (RFC 4648 §6), in groups
of four or not, holding a digit or all upper case (a word in lower case is not one)."""
_SAID_KEYS: tuple[str, ...] = (
    *("pass", "pw", "master", "unseal", "contrase", "clave", "senha", "kennwort", "парол", "パスワード", "mdp"),
    *("暗証番号", "密码", "密碼", "口令", "비밀번호", "비번", "암호", "wachtwoord", "hasł", "hasl", "parola", "chiave"),
    *("パスコード",),
)
"""Substrings one of which every :data:`_SAID_RE` match holds (a cheap test before the regex)."""
_PIN_KEYS = ("pin", "pass", "code", "暗証番号")
"""Ditto for :data:`_PIN_RE`."""
_CODE_KEYS = ("backup", "recovery", "scratch", "emergency")
"""Ditto for :data:`_CODES_RE`."""
_TOTP_KEYS = ("otp", "2fa", "mfa", "two-factor", "authenticator")
"""Ditto for :data:`_TOTP_RE`."""
_NEW_KEYS_RE = lazy(
    "|".join(
        re.escape(k)
        for k in sorted(
            {*_SAID_KEYS, *_PIN_KEYS, *_CODE_KEYS, *_TOTP_KEYS, *(k for keys in _POSITIONAL_KEYS for k in keys), "use "}
        )
    )
)
"""Any keyword of the round-4 rules (said passwords, PINs, fixed operands, "use ... to"): most lines hold none."""
_PIN_RE = lazy(
    r"(?i)(?:(?<![\w-])(?<!address )(?<!postal )(?:pin(?:\s?code|\s+number|\s*번호)?|passcode|pass\s+code|unlock\s+code|door\s+code|alarm\s+code|"
    r"access\s+code)|暗証番号|パスコード|PIN码)"
    + _QUALIFIER
    + _LINK
    + r"(?P<value>\d{4,8})(?![\d:/-]|[.,]\w|\s*(?:digits?|chars?|characters?|numbers?|hours?|minutes?|days?|%))"
)
"""A PIN said with a link ("PIN is 4821", "door PIN: 0815"): 4 to 8 digits, not a length or a duration."""
_USE_TO_RE = lazy(
    r"(?i)\buse\s+(?:the\s+)?(?:(?:password|passphrase|pw|pin|passcode|code)\s+)?" + _V + r"\s+(?:to|for)\s+"
    r"(?:log\s?in|sign\s?in|unlock|decrypt|open|access|authenticate|connect)\b"
)
""""use <pw> to log in", "use passphrase <pw> to unlock": the value between "use" and an access verb."""
_WITH_RE = lazy(
    r"(?i)\b(?:encrypted|encrypt|protected|locked|secured|unlocks?|decrypts?|opens?)\s+(?:\w+\s+){0,4}?(?:with|by|using)\s+"
    r"(?:the\s+)?(?:(?:password|passphrase|passcode|pin|key)\s+)?" + _V
)
_NOT_A_PASSWORD_RE = lazy(
    r"(?i)^(?:aes|rsa|des|3des|tdes|chacha|xchacha|blowfish|twofish|gpg|pgp|gnupg|age|tls|ssl|sha|md5|bcrypt|scrypt|"
    r"argon|pbkdf|luks|bitlocker|veracrypt|filevault|kms|hsm|ecdsa|ec|ed25519|x25519|curve25519|p-?\d{3}|salsa|"
    r"camellia|serpent|rc4|hmac|ssh|x509|yubikey|fido|smime|s/mime|openssl|sops|vault|keepass|1password|bitwarden)"
    r"[\w.+/-]*$|.*\.(?:pem|key|asc|gpg|pub|crt|p12|pfx|jks|kdbx|txt|json|ya?ml)$|.*/.*"
)
_SEED_RE = lazy(
    r"(?i)\b(?:seed(?:\s+phrase|\s+words)?|mnemonic(?:\s+phrase)?|recovery\s+(?:phrase|words|seed)|backup\s+phrase|"
    r"secret\s+recovery\s+phrase|wallet\s+words|\d{2}\s+(?:seed\s+)?words)\b[^\n\w]{0,6}(?:(?:is|are|=)\s+)?[\"'`]?"
    r"(?P<value>[a-z]{3,8}(?:[ \t,]+[a-z]{3,8}){11,23})"
)


def _mixed_case(value: str) -> bool:
    """A run of 8+ letters whose case flips three times or more (``jSfbtPBCGn``): random, not a word."""
    flips = sum(1 for a, b in pairwise(value) if a.islower() != b.islower())
    return len(value) >= 8 and value.isalpha() and flips >= 3


_PASSPHRASE_RE = lazy(r"[A-Za-z][a-z]{2,11}(?:[-_][A-Za-z][a-z]{2,11}){2,7}\d{0,4}")
"""Three or more words joined by ``-`` or ``_`` (``lichen-cobalt-walnut``): a passphrase, said right after a password word."""


_CALL_RE = lazy(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\(|[A-Za-z_]\w{2,}\((?:\)|[\"'$`]|$)")
"""Code that calls for a value (``os.Getenv(``, ``getpass.getpass()``, ``read_password()?``, ``mustEnv(``): a dotted
name and a bracket, or a name and an empty or quoted argument; ``Abc(123`` is still a password."""


def _ok(value: str, *, min_len: int = 6, phrase: bool = False) -> bool:
    """Whether ``value`` reads as a credential; ``phrase``: the context is a password word and a link, so dashed
    words count too (elsewhere they read as names: ``docker-compose-plugin``). A call in code is not one."""
    if value.startswith(("$", "%", "<", "{", "[", "(", "--")) or _CALL_RE.match(value) or not_a_secret_value(value):
        return False  # "--flag": an option; ``password: String!``, ``VARCHAR(255)``: a field's declaration
    if phrase and len(value) >= 12 and _PASSPHRASE_RE.fullmatch(value):
        return True
    return looks_like_credential(value, min_len=min_len) or _mixed_case(value)


def _phrase_ok(m: re.Match[str], label: str) -> bool:
    """Whether dashed words after this password word read as a passphrase: the word and a link must precede the value,
    and a bare "pass" not with a colon, since "lint pass: ruff-format-check" is a test result."""
    link = m.group(0)[: m.start("value") - m.start()].rstrip().rstrip("'\"「『«‹“„" + _SPACE).rstrip()
    if not link.endswith(
        ("is", "was", "=", ":", "：", "now", "ist", "est", "es", "は", "是", "é", "è", "to", "lautet")
    ):
        return False
    return not (label.lower().rstrip() == "pass" and link.endswith((":", "：")))


_NEXT_FIELD_RE = lazy(r"[;,&|][A-Za-z_][\w .-]{0,30}[=:]")
"""The next field of a connection string or a query (``;Database=``, ``&user=``): not the password's."""
_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


def said_end(value: str) -> str:
    """Where a said password ends (docs/architecture.md §3): ``value`` (a run up to the next space) trimmed.

    The rule: a password said in prose runs to the next space, closing quote or
    CJK character; punctuation inside it is its own (``x9k2;Qz``), and so is a
    final ``!`` or ``?`` (``Sommer2024!``: leaving it would leak a character,
    taking an exclamation mark costs nothing). A final ``.``, ``,``, ``;`` or
    ``:`` ends the sentence, a final bracket with no opening one in the value
    closes one opened before it, and a connection string's or query's next
    field (``;Database=``) is not the password's.

    Args:
        value: the unquoted run after the link.

    Returns:
        str: the password, a prefix of ``value``.
    """
    m = _NEXT_FIELD_RE.search(value)
    if m:
        value = value[: m.start()]
    while value:
        last = value[-1]
        if last in ".,;:" or (last in _CLOSERS and _CLOSERS[last] not in value):
            value = value[:-1]
        else:
            break
    return value


def _value(m: re.Match[str]) -> str:
    """The value a match took: a quoted one without the spaces before its closing quote, else :func:`said_end`'s."""
    groups = m.groupdict()
    if groups.get("q") or groups.get("g"):
        return m.group("value").rstrip(_SPACE)
    return said_end(m.group("value"))


def _codes(m: re.Match[str]) -> Iterator[Span]:
    """Each backup code of a :data:`_CODES_RE` match holding two digits or more, up to the first that does not."""
    base = m.start("value")
    for code in _CODE_RE.finditer(m.group(0), base - m.start()):
        value = code.group(0)
        if sum(c.isdigit() for c in value) < 2 or len(value) < 6 or (value.isdigit() and len(value) > 12):
            return
        yield m.start() + code.start(), m.start() + code.end(), "backup-code"


_UNIT_AFTER_RE = lazy(
    r"(?i)[ \t]*(?:digits?|chars?|characters?|numbers?|seconds?|minutes?|hours?|days?|weeks?|months?|years?|%|zeichen|"
    r"stellen|tage|caract|chiffres|jours|d[ií]gitos|caracteres|d[ií]as|cifre|caratteri|giorni|cijfers|tekens|dagen|"
    r"znak|cyfr|dni|桁|文字|日|位|天|자|일)"
)


def _digits_ok(m: re.Match[str], value: str) -> bool:
    """Whether ``value`` after a password word and a link is 4 to 8 digits with no unit after them (a length or a
    duration: "Passwort ist 12345 Zeichen"): a numeric password or PIN, "银行卡密码是304375"."""
    after = m.start("value") + len(value)
    return value.isdigit() and 4 <= len(value) <= 8 and not _UNIT_AFTER_RE.match(m.string, after)


def _link_ok(m: re.Match[str], label: str) -> bool:
    """Whether the link of a :data:`_SAID_RE` match suits its word: the Polish "to" follows a Polish word only."""
    link = m.string[m.start("label") + len(label) : m.start("value")].strip(" \t'\"«‹“„「『" + _SPACE)
    return (not link.endswith(" to") and link != "to") or label.lower().startswith(("hasł", "hasl"))


def _emit(
    m: re.Match[str], slug: str, *, min_len: int = 6, text: str = "", phrase: bool = False, digits: bool = False
) -> Iterator[Span]:
    """The value of ``m`` when it reads as a credential; ``digits``: 4 to 8 digits do too (:func:`_digits_ok`)."""
    value = _value(m)
    if _ok(value, min_len=min_len, phrase=phrase) or (digits and _digits_ok(m, value)):
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
                    port = tool in _PUBLISHERS and m.group(0)[:2] == "-p" and " login" not in cmd.group(0)
                    if (port and _PUBLISH_RE.fullmatch(value)) or value.startswith(("$", "<", "{", "%")):
                        continue
                    credential = m.group("q") or _ok(value, min_len=4, phrase=True) or not value.isalnum()
                    if credential and (m.group("q") or value[0] != "-"):
                        start = args_start + m.start("value")
                        yield start, start + len(value), "password"
    for regex in (_GENERIC_FLAG_RE, _CURL_USER_RE, _ENV_PW_RE):
        for m in regex.finditer(text):
            yield from _emit(m, "password", min_len=4, phrase=regex is not _CURL_USER_RE)
    if "htpasswd" in text:
        for m in _HTPASSWD_RE.finditer(text):
            if len(m.group("pos").split()) == (1 if "n" in m.group("flags") else 2):
                yield from _emit(m, "password", min_len=4, phrase=True)
    new = _NEW_KEYS_RE.search(low) is not None  # one test for every rule below that issue 32 round 4 added
    for keys, regex in zip(_POSITIONAL_KEYS, _POSITIONAL_RES, strict=True) if new else ():
        if all(k in low for k in keys):
            for m in regex.finditer(text):
                if not m.group("value").startswith(("/", "*")):
                    yield from _emit(m, "password", min_len=4, phrase=True)
    if new and "net" in low and "use" in low:
        for m in _NET_USE_RE.finditer(text):
            if not m.group("value").startswith(("/", "*")):
                yield from _emit(m, "password", min_len=4, phrase=True)
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
            head = text[m.start() : m.start("value")].rstrip()
            if text[m.start() - 1 : m.start()] == "_" and head.isalpha():
                continue  # a name's tail and no link: "-e POSTGRES_PASSWORD postgres:16" passes the variable through
            yield from _emit(m, "password", phrase=_phrase_ok(m, m.group(0)[:4]))
    if new and any(k in low for k in _SAID_KEYS):
        for m in _SAID_RE.finditer(text):
            label = m.group("label")
            if not (m.group("sp") and label.lower() in ("pw", "pass", "pwd")) and _link_ok(m, label):
                yield from _emit(m, "password", phrase=_phrase_ok(m, label), digits=not m.group("sp"))
    if new and any(k in low for k in _CODE_KEYS):
        for m in _CODES_RE.finditer(text):
            yield from _codes(m)
    if new and any(k in low for k in _TOTP_KEYS):
        for m in _TOTP_RE.finditer(text):
            value = m.group("value")
            if any(c.isdigit() for c in value) or value.replace(" ", "").replace("-", "").isupper():
                yield m.start("value"), m.end("value"), "totp-seed"
    if new and any(k in low for k in _PIN_KEYS) and any(c.isdigit() for c in text):
        for m in _PIN_RE.finditer(text):
            yield m.start("value"), m.end("value"), "pin"
    if new and "use " in low:
        for m in _USE_TO_RE.finditer(text):
            yield from _emit(m, "password")
    if any(w in low for w in ("seed", "mnemonic", "phrase", "words")):
        for m in _SEED_RE.finditer(text):
            yield m.start("value"), m.end("value"), "seed-phrase"
