"""Codes, PINs and passwords said in the shapes :mod:`.speech` lacks (docs/architecture.md §3).

Issue 32 round 24: classes read on the tune half of a new source written blind (``speech4-tune``, passwords
in speech and on command lines in seventeen languages; its held half was run once, at the end). Each rule needs a
word that names a secret and a value in the shape that word promises:

- a numeric code after what it opens, in sixteen languages: a PIN (``PIN 3504``, ``ПИН-код карты — 8138``,
  ``ATM पिन 6016 है``, ``Mã PIN thẻ: 5754``), a door, gate, alarm or safe code (``digicode de l'immeuble est 3404``,
  ``Il codice del cancello è 0239``, ``Portkoden är 0677``, ``Код от домофона 9058``, ``현관 비밀번호 208958``,
  ``الرقم السري للبطاقة 2461``, ``panic code 9524``); 4 to 8 digits, one letter after them at most, never a
  length, a duration or an amount; a postal PIN code ("delivery address PIN code: 560102") is not one;
- a password word of the languages :mod:`.speech` does not know (Turkish ``şifre``/``parola``, Swedish ``lösenord``,
  Danish/Norwegian ``adgangskode``/``passord``, Finnish ``salasana``, Czech/Slovak ``heslo``, Hungarian ``jelszó``,
  Vietnamese ``mật khẩu``, Hindi ``पासवर्ड``, Arabic ``كلمة المرور``, Indonesian ``kata sandi``, Greek ``κωδικός``;
  round 26: Persian ``رمز عبور``, Bengali ``পাসওয়ার্ড``, Tamil ``கடவுச்சொல்``, Hebrew ``סיסמה``, Thai ``รหัสผ่าน``,
  Romanian ``parolă``, Malay ``kata laluan``),
  or a CJK one with only a space before its value (``密码 rhubarb-mango-copper``), then a value that reads as a
  credential or three dashed words;
- a password word or ``unseal``, then an arrow (``new pass -> quartz-cricket-monsoon``, ``password → toffee citrus
  panda 01``; round 26: ``=>``, ``⇒``, ``➜``);
- a list of passwords after ``Passwords:`` as ``name – value`` items (``Gmail – willow-biscuit-tornado; Steam – …``);
- a user and a password both in backticks, ``\\`grafana\\` / \\`zephyr-koala-wombat\\```, on a line naming a login;
- a TOTP secret in lower-case groups of four (``qx4c pdpt rdj7 v2lf``), backup codes and a seed phrase, each with
  a few words between its name and the colon ("2FA secret for Discord:", "backup codes for Google (each works
  once):", "recovery phrase (24 words, keep offline):"); round 26: backup, recovery, reset and revocation codes
  named in eleven languages, one code or a list (commas, spaces, lines, bullets), after a colon, an arrow or a space.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre, valueparts
from .rules import looks_like_credential

Span = tuple[int, int, str]

_CODE_WORD = (
    r"(?:(?<![\w-])(?<!GPIO )(?:PIN(?:[\s-]?(?:code|kod|kód|Code|Nummer|number|numero|número|код))?|PUK|"
    r"(?i:pin[\s-]?(?:code|kod(?:en)?|kód|nummer|number|numero|número)|pinkod(?:en)?|passcode|pass\s?code|"
    r"digicode|geheimzahl|geheimnummer|toegangscode|deurcode|alarmcode|portkod(?:en)?|dörrkod(?:en)?|"
    r"(?:tür|tor|haustür|zugangs|tresor|zahlen|schließfach|schliessfach|spind|garagen)[\s-]?code|"
    r"(?:karten|bank|sim|handy)-?pin|(?:tresor|zahlen|schloss|fahrrad)-?kombination|"
    r"(?:garage|door|gate|alarm|front)[ \t]+keypad(?=[ \t]*(?:[:=→➜⇒]|->))|"
    r"(?:unlock|screen\s?lock|lock\s?screen)\s+(?:code|pin)|"
    r"(?<=phone )unlock(?=[ \t]*[:=][ \t]*\d{4,10}[ \t]*(?:[,.;\n]|$))|"
    r"(?:door|gate|garage|alarm|safe|lockbox|lock\s?box|keypad|entry|intercom|buzzer|locker|panic|"
    r"duress|front\s+door|bike\s+lock|padlock)\s+(?:code|pin|combination|combo)|(?:room|hotel|wall|gun|home)\s+safe|(?:bank\s+)?card\s+pin|"
    r"arm/disarm|disarm|"
    r"code\s+(?:d['’]accès|d['’]entrée|de\s+la\s+porte|du\s+portail|secret|pin|de\s+l['’]alarme|de\s+la\s+carte)|"
    r"codice\s+(?:del\s+(?:cancello|portone|citofono|lucchetto|bancomat)|della\s+(?:porta|cassaforte|carta)|"
    r"dell['’]allarme|d['’]accesso|di\s+accesso|segreto|pin|bancomat)|"
    r"c[óo]digo\s+(?:de\s+acceso|de\s+la\s+(?:puerta|alarma|tarjeta)|del\s+(?:port[óo]n|garaje|candado)|"
    r"da\s+porta|do\s+(?:port[ãa]o|alarme|cart[ãa]o)|secreto|pin)|clave\s+(?:del\s+cajero|de\s+la\s+tarjeta)|"
    r"kod\s+(?:do\s+(?:drzwi|bramy|domofonu|sejfu)|dostępu|pin)|kód\s+(?:ke\s+dveřím|k\s+bráně|od\s+dveří|k\s+trezoru)|"
    r"пин(?:-код)?|код\s+(?:от\s+(?:домофона|двери|подъезда|замка|сейфа)|доступа|двери|домофона|замка|подъезда)|"
    r"şifre(?:si|sı|m|miz)?|parola(?:sı)?|mã\s+(?:pin|cửa|cổng|bảo\s+mật)|mật\s+khẩu)(?!\w))|"
    r"पिन|पासकोड|الرقم\s+السري|الرمز\s+السري|رمز\s+الدخول|暗証番号|パスコード|PIN码|密码|密碼|门禁码|"
    r"(?:현관|도어락|카드)?\s?비밀번호|비번)"
)
"""A word naming a secret code, in the sixteen languages (``PIN`` in capitals only: "pin numpy to 1.26" is a verb;
``codice``/``código``/``kod`` only with what they open: "codice del prodotto" is a product code)."""
_QUOTE = r"[\"'`*„«“‘»]{0,2}[ \t]?"
_CODE_RE = lazyre.compile(
    _CODE_WORD
    + r"(?P<filler>(?:[^\n\d:=.!?;,()\"'`*„«“]|(?<=\b[dlDL])['’](?=\w)){0,30}?)"
    + r"(?P<link>[ \t]*[:=：][ \t]*|[ \t]*,[ \t]*(?:I[ \t]+)?set\s+(?:it\s+)?to[ \t]+|[ \t]+c['’]est[ \t]+|[ \t]+[—–-][ \t]+|[ \t]*(?:→|->|➜|⇒)[ \t]*|[ \t]*[—–][ \t]*|[ \t]+(?:is(?:[ \t]+still)?|est|è|é|es|ist|lautet|är|er|jest|je|to|set\s+(?:it\s+)?to|"
    r"changed\s+to|now|(?:opens|unlocks)[ \t]+with)[ \t]+|[ \t]*(?:は|是|为|：)[ \t]*|[ \t]+|(?<=[^\x00-\x7f]))"
    + _QUOTE
    + r"(?P<value>\d{4,10}[A-Z#]?|\d{1,2}(?:-\d{1,2}){2,5}|\d{1,4}[A-Z]\d{1,4}(?<=\w{5}))(?![\w/-]|[.,:]\d|\s\d|\s*(?:digits?|chars?|characters?|ziffern|stellig|chiffres|cifre|"
    r"d[íi]gitos|hours?|h\b|min\b|minutes?|days?|%|€|\$|km\b|kg\b|ms\b|s\b|sec\w*|seconds?|bytes?|[kmg]b\b|lines?|"
    r"cycles?|presses?|threads?|rupees?|forint|px\b|mm\b|cm\b|times|attempts?|tries|users?|rows?|мс|года|год\b|"
    r"yıl\w*|năm\b|bit\b))"
)
_NOT_CODE_RE = lazyre.compile(
    r"(?i)\b(?:model|serial|size|type|version|series|part|item|order|lock\s+model|reset|ticket|unit|room|PR|"
    r"employee|helpline|line|hotline|valid|until|since|changed|in|at|for|on|of|from|by|before|after|seit|bis|im|"
    r"en|dal|desde|em|sedan|od|do|от|с|до)\b"
)
"""A word between a code's name and a number with no link before it that makes the number something else ("combination
lock model 7700", "gate code was changed in 2021", "lockbox code at 1600 Main St", "PIN reset ticket 48213")."""
_MODEL_RE = lazyre.compile(r"(?i)\b(?:model|serial|size)\b")
_POSTAL_RE = lazyre.compile(
    r"(?i)(?:address|postal|delivery|shipping|zip|post\s+code|office|lives\s+in|located|city|पता)\b[^\n]{0,60}$"
)
"""Before a "PIN code": India's postal code, not a secret."""
_LOCK_RE = lazyre.compile(r"(?i)lock|safe|tresor|schloss|locker|cadenas|lucchetto|candado|kłódk")
"""A lock's word: a dashed combination (``3-7-1-9``) is taken after one only."""
_PLACE_BEFORE_RE = lazyre.compile(r"[A-Z][a-z]+,?[ \t]+$")
"""A capitalised place name right before "PIN 560038" (six digits): a postal code."""

_FOREIGN_PW = (
    r"(?:(?<![\w-])(?i:şifre(?:si|sı|m|miz|niz)?|parola(?:sı|m)?|lösenord(?:et)?|adgangskode(?:n)?|passord(?:et)?|"
    r"salasana|hesl[oa]|jelszó|jelszava|mật\s+khẩu|kata\s+(?:sandi|laluan)|κωδικός\s+πρόσβασης|parolă|"
    r"ה?סיסמ[הא]|(?:wlan|wifi|wi-fi)-?schlüssel|clé\s+(?:wpa2?|wep|wi-?fi|du\s+wi-?fi))(?!\w)|पासवर्ड|পাসওয়ার্ড|கடவுச்சொல்|รหัสผ่าน|"
    r"كلمة\s+(?:المرور|السر)|رمز\s+(?:عبور|ورود))"
)
_FOREIGN_RE = lazyre.compile(
    _FOREIGN_PW
    + r"(?:(?P<filler>[^\n:=：.!?;,]{0,30}?)"
    + r"(?:[ \t]*[:=：][ \t]*|[ \t]+[—–-][ \t]+|[ \t]*(?:→|->)[ \t]*|"
    r"[ \t]+(?:is|est|es|é|è|är|er|on|je|olarak|là|adalah|ialah|είναι|este|हे|है|هي|هو|است|הוא|היא|คือ)[ \t]+)|[ \t]+)"
    + r"[\"'`«]?(?P<value>[^\s\"'`»,;]{4,64})"
)
_ABOUT = frozenset(
    [
        "policy",
        "policies",
        "rule",
        "rules",
        "kuralı",
        "formatı",
        "format",
        "sıfırlama",
        "reset",
        "regel",
        "regler",
        "pravidla",
        "szabály",
        "szabályzat",
        "quy",
        "tắc",
        "aturan",
        "kebijakan",
        "kampaně",
        "kampanje",
        "strength",
        "manager",
        "management",
        "check",
        "enabled",
        "hint",
        "field",
        "form",
        "flow",
        "prompt",
        "change",
        "changed",
        "rotation",
        "expiry",
        "storage",
        "vault",
    ]
)
"""Words after a password word, or in its value, that make the line about passwords, not one (in the languages of
the foreign words: "Parola kuralı: harf-rakam-sembol", "password reset -> send-reset-email")."""
_POINTERS = frozenset(
    [
        "bitwarden",
        "1password",
        "lastpass",
        "keepass",
        "keepassxc",
        "keychain",
        "vault",
        "manager",
        "router",
        "routeren",
        "sticker",
        "wiki",
        "slack",
        "email",
        "sms",
        "sso",
        "okta",
        "google",
        "see",
        "lásd",
        "xem",
        "lihat",
        "se",
        "står",
        "via",
        "ask",
        "only",
        "team",
        "enabled",
    ]
)
"""A value piece that points at where the password is, not the password ("jelszó: lásd-a-jelszókezelőt")."""
_STOP = frozenset(
    [
        "in",
        "on",
        "the",
        "to",
        "of",
        "see",
        "stored",
        "via",
        "from",
        "with",
        "at",
        "is",
        "a",
        "an",
        "and",
        "or",
        "for",
        "each",
        "every",
    ]
)
_CJK_SPACE_RE = lazyre.compile(
    r"(?:密码|密碼|口令|비밀번호|비번|パスワード)[ \t]+[\"'`]?"
    r"(?P<value>[^\s\"'`，。、,;：:\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{4,64})(?=[\s\"'`，。、,;]|$|[^\x00-\x7f])"
)
_ARROW_RE = lazyre.compile(
    r"(?i)(?<![\w(.-])(?<!first )(?<!second )(?<!each )(?:pass\s?words?|passphrase|pass|pwd?|wi-?fi\s+(?:key|password)|"
    r"passwort|kennwort|contrase[ñn]a|senha|mot\s+de\s+passe|пароль|"
    r"unseal(?:\s+key)?)(?![\w-])(?![ \t]+\d)[^\n→>⇒➜➔⟶]{0,40}?[ \t]*(?:→|->|=>|⇒|➜|➔|⟶)[ \t]*"
    r"[\"'`]?(?P<value>[^\n\"'`,;]{4,48}?)[\"'`]?[ \t]*(?=[,;.)]?[ \t]*$|[,;]|\s[—–·-]\s|\s\()",
    re.M,
)
_ENGLISH_PW_RE = lazyre.compile(r"(?i)pass|pwd?\b|wi-?fi|unseal")
_NOT_LATIN_RE = lazyre.compile(r"[\u0590-\u06ff\u0e00-\u0e7f]")
"""Hebrew, Arabic and Thai letters inside a value: words of the sentence, not a password of Latin letters."""
_CODE_ARROW_RE = lazyre.compile(r"[A-Za-z_]\w*(?:\.\w+)+|\w\(")
"""A value that is code (a member read, a call): after ``=>`` it is a lambda's body."""
_ARROWS = ("->", "→", "=>", "⇒", "➜", "➔", "⟶")
_FOR_THING_RE = lazyre.compile(
    r"(?i)(?<![\w-])(?:pass\s?words?|passphrase|pw|pwd)[ \t]+(?:for|on|at|of)[ \t]+[^\n]{1,40}?(?:[ \t]+(?:is|was)|:)[ \t]+"
    r"[\"'`]?(?P<value>[^\s\"'`,;]{4,64})"
)
"""A password for a thing whose name holds dots or dashes, then its value ("the sudo password on jira.acme.net is
biscuit-salmon-dolphin-cricket"): :mod:`.speech` stops its qualifier at a dot."""
_EXPECT_SEND_RE = lazyre.compile(
    r"expect\s+(?:-\w+\s+)?[\"'][^\"'\n]{0,40}(?:assword|assphrase|asscode|PIN)[^\"'\n]{0,20}[\"']\s*[;\n{]\s*"
    r"(?:send|sendline)\s+(?:--\s+)?[\"'](?P<value>[^\"'\\\n]{4,64})(?:\\r|\\n)?[\"']"
)
"""An expect script answering a password prompt: the value ``send`` types (``; send``, a new line, or ``{ send``)."""
_LIST_HEAD_RE = lazyre.compile(r"(?i)(?<![\w-])(?:passwords|pws|pwds|logins|creds)[ \t]*:[ \t]*")
_ITEM_RE = lazyre.compile(
    r"[ \t]*(?P<name>[\w][\w .+'&/()-]{0,30}?)[ \t]+[—–-][ \t]+(?P<value>[^\s,;|]{4,64}?)[.]?[ \t]*(?:[;,|]|$)"
)
_TICKED_PAIR_RE = lazyre.compile(r"`(?P<user>[\w.@+-]{1,64})`[ \t]*[/:][ \t]*`(?P<value>[^`\n]{4,128})`")
_LOGIN_WORD_RE = lazyre.compile(
    r"(?i)\b(?:database|db|login|creds?|credentials?|account|admin|root|wi-?fi|ssh|server|host|box|user|vpn|nas|"
    r"router|portal|console|grafana|rabbitmq|postgres|mysql|redis|mongo)\b"
)
_NOT_LOGIN_RE = lazyre.compile(
    r"(?i)\b(?:folder|dir|directory|branch(?:es)?|files?|paths?|copy|compare|template|lives|migrations?|deploy)\b"
)
_TOTP_RE = lazyre.compile(
    r"(?i)\b(?:totp|otp|2fa|mfa|two-factor|authenticator)\b[^\n:=]{0,50}?(?:[:=]|\bis\b)[ \t]*"
    r"(?P<value>[a-z2-7]{4}(?:[ -][a-z2-7]{4}){3,15})(?![\w-])"
)
_CODES_WORD = (
    r"(?:(?<![^\W_])(?:(?:backup|recovery|scratch|emergency(?:[ \t]+kit)?|2fa|mfa|one-time|revocation)"
    r"[ \t-]+codes?|backup-codes?|codes?[ \t]+de[ \t]+(?:secours|récupération|sauvegarde|respaldo|recuperaci[óo]n)|"
    r"c[óo]digos?[ \t]+de[ \t]+(?:respaldo|recuperaci[óo]n|backup|seguran[çc]a)|codici[ \t]+di[ \t]+(?:backup|recupero)|"
    r"wiederherstellungs-?codes?|yedek[ \t]+kod(?:lar[ıi]?|u)?|kody?[ \t]+zapasow[yea])(?![\w-])|"
    r"バックアップコード|リカバリーコード|复原码|恢复码|备用码|備用碼|백업[ \t]?코드|복구[ \t]?코드)"
)
"""The name of 2FA backup, recovery or one-time codes in English, French, Spanish, Portuguese, Italian, German,
Turkish, Polish, Japanese, Chinese and Korean (round 26: breaker26)."""
_ONE_CODE = (
    r"(?:(?=[a-z]{0,4}\d)[a-z0-9]{4,5}(?:-(?=[a-z]{0,4}\d)[a-z0-9]{4,5}(?:-(?=[a-z]{0,4}\d)[a-z0-9]{4,5})?|"
    r"[ ](?=[a-z]{0,4}\d)[a-z0-9]{4,5}(?:[ ](?=[a-z]{0,4}\d)[a-z0-9]{4,5})?)|(?!0x)(?=[a-z]{0,11}\d)[a-z0-9]{6,12})"
)
"""One code: groups of four or five joined by ``-`` (``9hx2-kq7m-4tz8``) or by spaces (``ab12 cd34 ef56``), or a run."""
_CODES_RE = lazyre.compile(
    r"(?i)"
    + _CODES_WORD
    + r"(?:[^\n:→=]{0,60}?(?:[ \t]*[:=→][ \t]*|[ \t]*->[ \t]*|[ \t]*=>[ \t]*|(?=\n))|[ \t]+)\n?[ \t]*"
    r"(?:[-*•][ \t]+)?(?P<value>"
    + _ONE_CODE
    + r"(?:(?:[ \t]*[,;][ \t]*|[ \t]+|[ \t]*\n[ \t]*(?:[-*•][ \t]+)?)"
    + _ONE_CODE
    + r"){0,15})(?![\w-])"
)
_ONE_CODE_RE = lazyre.compile(
    r"(?i)(?=[a-z]{0,4}\d)[a-z0-9]{4,5}(?:-(?=[a-z]{0,4}\d)[a-z0-9]{4,5}(?:-(?=[a-z]{0,4}\d)[a-z0-9]{4,5})?|"
    r"[ ](?=[a-z]{0,4}\d)[a-z0-9]{4,5}(?:[ ](?=[a-z]{0,4}\d)[a-z0-9]{4,5})?)|(?!0x)(?=[a-z]{0,11}\d)[a-z0-9]{6,12}"
)
_NOT_CODES_RE = lazyre.compile(r"(?i)hotline|phone|support|number|telefon|build|issue|version|error|fehler|0x")
_SEED_RE = lazyre.compile(
    r"(?i)\b(?:seed|mnemonic|recovery|backup|wallet)[ \t]+(?:phrase|words)\b[ \t]*\([^)\n]{0,48}\)[ \t]*:?[ \t]*\n?"
    r"[ \t]*(?P<value>[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23})\b"
)
_KEYS = (
    "pin",
    "code",
    "kod",
    "codic",
    "códig",
    "codig",
    "geheim",
    "clave",
    "kód",
    "код",
    "пин",
    "şifre",
    "parola",
    "mã",
    "mật",
    "पिन",
    "पास",
    "الر",
    "رمز",
    "暗証",
    "パス",
    "密码",
    "密碼",
    "门禁",
    "비밀",
    "비번",
    "combination",
    "combo",
    " safe",
    "disarm",
    "lösen",
    "adgang",
    "passord",
    "salasana",
    "hesl",
    "jelsz",
    "sandi",
    "κωδικ",
    "كلمة",
    "口令",
    "パスワード",
    "parolă",
    "keypad",
    "schlüssel",
    "clé",
    "kombination",
    "unlock",
    "סיסמ",
    "পাসওয়ার্ড",
    "கடவுச்சொல்",
    "รหัสผ่าน",
    "laluan",
)
"""Substrings one of which every code or foreign-word rule's match holds (a cheap test before the regexes)."""
_CODES_KEYS = ("code", "kod", "コード", "码", "碼", "코드")
"""Substrings one of which :data:`_CODES_RE`'s match holds."""


def _passphrase(value: str) -> bool:
    """Three or more words joined by dashes or spaces, or a value that reads as a credential; never a value whose
    pieces point at where the password is or talk about it (:data:`_POINTERS`, :data:`_ABOUT`)."""
    parts = [p for p in re.split(r"[-\s]", value) if p]
    if any(p.lower() in _POINTERS or p.lower() in _ABOUT for p in parts):
        return False
    return looks_like_credential(value, min_len=6) or (len(parts) >= 3 and all(p.isalnum() for p in parts))


def _codes(text: str) -> Iterator[Span]:
    for m in _CODE_RE.finditer(text):
        filler, link = m.group("filler"), m.group("link")
        bare = not link.strip()
        if bare and (len(filler.split()) > 1 or _NOT_CODE_RE.search(filler)):
            continue  # "gate code was changed in 2021", "lockbox code at 1600 Main St": no link, no code
        if _MODEL_RE.search(filler):
            continue  # "combination lock model: 7700"
        value = m.group("value")
        if "-" in value and not _LOCK_RE.search(m.group(0)):
            continue  # "Kombination 4-3-3", "alarm code 3-1-1": dashed numbers are a lock's combination only
        if bare and filler.strip() and len(value) == 4 and value[:2] in ("19", "20"):
            continue  # "Die PIN wurde 2023 geändert": a year
        before = text[max(0, m.start() - 80) : m.start()]
        if _POSTAL_RE.search(before) or (len(value) == 6 and _PLACE_BEFORE_RE.search(before)):
            continue  # "Bengaluru, Karnataka PIN 560038": India's postal code
        yield m.start("value"), m.end("value"), "pin"


def _value(m: re.Match[str]) -> str:
    """A said value, less a sentence's closing ``.`` or ``)`` (a password's own ``!`` or ``?`` stays with it)."""
    return m.group("value").rstrip(".)")


def spans(text: str) -> Iterator[Span]:
    """Every span of ``text`` that a code, a PIN or a password of the module's shapes takes."""
    low = text.lower()
    keyed = any(k in low for k in _KEYS)
    if keyed and any(c.isdigit() for c in text):
        yield from _codes(text)
    if keyed:
        for regex in (_FOREIGN_RE, _CJK_SPACE_RE):
            for m in regex.finditer(text):
                value = _value(m)
                filler = (m.groupdict().get("filler") or "").lower().split()
                if any(w.strip("-") in _ABOUT for w in filler):
                    continue
                if valueparts.not_a_secret_value(value) or _NOT_LATIN_RE.search(value):
                    continue  # "WLAN-Schlüssel: WPA3-SAE" (a mode), "הסיסמה ב-Bitwarden2" (where it is kept)
                if not value.isdigit() and _passphrase(value):
                    yield m.start("value"), m.start("value") + len(value), "password"
    if any(a in text for a in _ARROWS):
        for m in _ARROW_RE.finditer(text):
            value = m.group("value").strip()
            words = value.lower().split()
            about = text[m.start() : m.start("value")].lower().split()
            if len(words) > 1 and (not any(c.isdigit() for c in value) or _STOP & set(words)):
                continue  # "first pass -> parse every file", "wifi key -> on the router sticker"
            if "(" in text[m.start() : m.start("value")] or _CODE_ARROW_RE.search(value):
                continue  # ``passwords.filter(pwd => pwd.length >= 12)``: a function's parameter
            line_before = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
            step = max((line_before.rfind(a) for a in _ARROWS), default=-1)
            menu = step >= 0 and "," not in line_before[step:] and len(line_before[step:].split()) <= 3
            if menu or (len(words) > 1 and not _ENGLISH_PW_RE.match(m.group(0))):
                continue  # a menu's path ("Settings ➜ Passwords ➜ Checkup2"), words after a word of another language
            if any(w in _ABOUT for w in about) or value.startswith(("<", "{", "/")):
                continue  # "password reset -> send-reset-email"
            if _passphrase(value):
                start = text.index(value, m.start("value"))
                yield start, start + len(value), "password"
    if " is " in low or " was " in low or ":" in text:
        for m in _FOR_THING_RE.finditer(text):
            value = _value(m)
            if _passphrase(value) and not value.startswith(("<", "{{", "%(", "${")):
                yield m.start("value"), m.start("value") + len(value), "password"
    if "send" in low and "expect" in low:
        for m in _EXPECT_SEND_RE.finditer(text):
            if not m.group("value").startswith(("$", "[")):
                yield m.start("value"), m.end("value"), "password"
    if ":" in text:
        for head in _LIST_HEAD_RE.finditer(text):
            pos = head.end()
            while (item := _ITEM_RE.match(text, pos)) is not None and item.end() > pos:
                if item.group("name").strip().lower() not in _ABOUT and _passphrase(item.group("value")):
                    yield item.start("value"), item.end("value"), "password"
                pos = item.end()
    if "`" in text:
        for m in _TICKED_PAIR_RE.finditer(text):
            before = text[max(0, m.start() - 60) : m.start()]
            value, user = m.group("value"), m.group("user").lower()
            if value.lower().startswith(user) or _NOT_LOGIN_RE.search(before):
                continue  # `admin` / `admin-dashboard-v2`, `migrations` / `seed-data-dev`: names
            if _LOGIN_WORD_RE.search(before) and _passphrase(value):
                yield m.start("value"), m.end("value"), "password"
    if any(k in low for k in ("otp", "2fa", "mfa", "two-factor", "authenticator")):
        for m in _TOTP_RE.finditer(text):
            if any(c.isdigit() for c in m.group("value")):
                yield m.start("value"), m.end("value"), "totp-seed"
    if any(w in low for w in _CODES_KEYS):
        for m in _CODES_RE.finditer(text):
            if _NOT_CODES_RE.search(text, m.start(), m.start("value")):
                continue  # "recovery code hotline: 0800 …", "reset code 0x8007…": a number about codes
            for code in _ONE_CODE_RE.finditer(m.group("value")):
                if sum(c.isdigit() for c in code.group(0)) >= 2:
                    yield m.start("value") + code.start(), m.start("value") + code.end(), "backup-code"
    if "(" in text:
        for m in _SEED_RE.finditer(text):
            yield m.start("value"), m.end("value"), "seed-phrase"
