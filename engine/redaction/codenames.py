"""Names from code and build files that look like tokens, and DER public keys (issue 32 round 14).

:func:`spans` adds to :func:`.public.spans`. Found redacted in public
repositories' own files (``build_pubfiles.py``'s tuning half and
``build_idfiles.py``'s set), each recognised by its structure:

- a link to a comment on GitHub or GitLab, ``#issuecomment-<n>``,
  ``#discussion_r<n>``, ``#pullrequestreview-<n>``, ``#note_<n>`` ...: an anchor
  and a number, never a key;
- GitHub's no-reply e-mail address, ``<user id>+<login>@users.noreply.github.com`` (GitHub's docs);
- a name Kubernetes makes: a name of words, ``-``, then a ReplicaSet's pod-template hash (8-10 characters) and a
  pod's suffix (5), both from ``SafeEncodeString``'s alphabet, ``bcdfghjklmnpqrstvwxz2456789`` (no vowels, no ``0 1 3``);
- the name of a .NET setting, ``<add key="Name" value=…>`` (the value is read by the other rules as before);
- a name made of words: code identifiers (``KubeadmConfigPatchesJSON6902``,
  ``V1Alpha4ToInternal``), platform and target names (``x86_64-unknown-linux-gnu``,
  ``4.35.1-x86_64-linux-gnu``), model and package names (``Qwen/Qwen2.5-Coder-32B-Instruct``),
  slugs and paths (``temurin-25-lein-2.13.0-alpine``): every piece between
  separators and case changes is a word (a vowel, no long run of consonants), an
  acronym of two to five capitals, a number of at most eight digits, a short tech
  word (``pc``, ``msvc``, ``pkg`` ...) or one letter beside a number (``x86``,
  ``32B``, ``V1``); a random token splits into stray letters and consonant runs;
- a DER public key in base64 (a PEM block's body or its first line, a bare
  ``MFkwEwYH…``): it decodes to a ``SEQUENCE`` holding a ``SEQUENCE`` that opens
  with a public-key algorithm's object id (RSA, EC, Ed25519/448, X25519/448, DSA),
  as RFC 5280's SubjectPublicKeyInfo; a private key (PKCS #8 opens with a
  version ``INTEGER``; an encrypted one names PBES2) never decodes so.

A name is not kept where a credential's label, a password word (in the speech rules' languages too), a
config key (``wpa_psk:``, ``root_pw:``), a place one is typed (``wifi``, ``sudo``) or a credential slot (``-p'``,
``root /``, ``/user:x``) stands before it on its line, a password role after it (``as the password``,
``| sudo -S``), a label on the line above one it opens or a header row above a row of cells; nor one holding a
vendor key in its fixed shape (:func:`.public.public_spans` asks :func:`.placed.holds_key`). A name read by its
shape (:func:`name_spans`) only ever cancels a token's look (:data:`.public.NAME_CANCELS`), never a finding a
label, a slot or a sentence made (breaker18, B18-1 to B18-13).
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re
from collections.abc import Iterator
from functools import cache

from . import lazyre

Span = tuple[int, int]

_ANCHOR_RE = lazyre.compile(
    r"#(?:(?:issuecomment|discussioncomment|pullrequestreview|commitcomment|event|ref-commit)-|discussion_r|note_)"
    r"\d{1,12}(?![\w-])"
)
_NOREPLY_RE = lazyre.compile(
    r"(?<![\w.+-])\d{1,12}\+(?P<login>[A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))@users\.noreply\.github\.com\b"
)
_K8S_SAFE = "bcdfghjklmnpqrstvwxz2456789"
_K8S_NAME_RE = lazyre.compile(
    rf"(?<![\w.-])(?:[a-z]+(?:\.[a-z0-9]+)*/)?(?P<base>[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*){{0,8}})"
    rf"-[{_K8S_SAFE}]{{8,10}}(?:-[{_K8S_SAFE}]{{5}})?(?![\w.-])"
)
_SETTING_RE = lazyre.compile(r"<add\s+key=\"(?P<name>[A-Za-z][\w.:-]{0,127})\"\s+value=")
_NAME_RE = lazyre.compile(r"(?<![\w.+/=-])[A-Za-z0-9][A-Za-z0-9_./+-]{14,200}(?<![./+-])(?![\w+=#$%!&*^~-]|@(?!v?\d))")
_PIECE_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_SEP_RE = re.compile(r"[_./+-]+")
_CONSONANTS_RE = re.compile(r"[^aeiou]{5,}")
_TECH_WORDS = (
    "pc msvc gnu sd cpp js ts css scss html xml sql tcp udp dns http https ssh ssl tls pkg pkgs cmd src lib libs "
    "bin dll std fmt ctx cfg mgmt dpkg rpm npm gcc llvm wasm arm hf gnueabihf eabi eabihf darwin fs rc sdk cli "
    "gcr ghcr ecr kms rds vm vms cdn bff btf grpc rpc lts jdk jre svc ns db nixpkgs txt md py rs gz tgz xz zst png "
    "jpg svg pdf dylib exe"
)
_TECH = frozenset(_TECH_WORDS.split())
"""Short words of code and builds with no vowel or too short to read as words (``msvc``, ``pkg``)."""
_SHORT_WORDS = "to of by on in at is io os id ui ux api v"
_SHORT = frozenset(_SHORT_WORDS.split())
_AFTER_NUMBER_WORDS = "alpha beta rc dev mb gb kb px em ms st nd rd th le be"
_AFTER_NUMBER = frozenset(_AFTER_NUMBER_WORDS.split())
"""Lower-case words that follow a number in names (``v1alpha2``, ``utf8mb4``, ``16le``)."""
_CAMEL_RE = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_VERSION_RE = re.compile(
    r"(?<![\w.])v?\d{1,4}\.\d{1,4}(?![\w])|\d\.\d{1,4}\.\d|(?<=[A-Za-z])\d{1,2}\.\d{1,2}(?=[-_/]|$)"
)
_ARCH_RE = re.compile(r"(?i)x86|i[3-6]86|amd64|arm64|aarch64|armv\d|riscv\d|ppc64|s390x|wasm32")
_HEXRUN_RE = re.compile(r"(?=[0-9a-fA-F]{8})(?=[0-9a-fA-F]{0,7}[a-fA-F])(?=[0-9a-fA-F]{0,7}\d)[0-9a-fA-F]{8}")
_UUID_RE = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
_LABEL_RE = lazyre.compile(
    r"(?<![a-z])(?:pin|psk|otp|seed|salt|pepper|hmac|dsn|sudo|gpg|nas|ilo|ssid|wlan)(?![a-z])|pw(?![a-z])|pass|pwd|"
    r"secret|pre.?shared|parola|lösenord|losenord|salasana|heslo|jelsz|mật khẩu|mat khau|kata sandi|şifre|sifre|"
    r"adgangskode|passord|"
    r"token|cred|login|\bkey\b|auth|encrypt|unlock|senha|haslo|hasło|contrase|mot de passe|kennwort|mnemonic|"
    r"cookie|licen[cs]e|wi-?fi|prompt|typed|sticky|router|synology|unifi|pfsense|proxmox|idrac|gmail|netflix|bank"
)
"""Words naming a credential or where one is typed, matched on the lower-cased window (no ``(?i)``: it slows the
scan tenfold); with :data:`.speech._LABEL`'s password words in every language the speech rules read (B18-11) and the
words of the languages only the assignment rules read (``parola:``, ``lösenord:``, ``heslo:``, ``kata sandi:``)."""
_SLOT_RE = lazyre.compile(
    r"(?:[:%@]|(?<![\w-])-[A-Za-z]\s*['\"]?|/user:(?:\S+\s+)?|\buser\s|"
    r"(?<![\w-])(?:root|admin\w*|administrator|postgres|sa)\s*(?:/\s*)?)$"
)
"""A credential's slot right before the name: ``:``, ``-p'``, ``/user:corp\\bob ``, ``root / ``, ``admin/``."""
_AFTER_RE = lazyre.compile(
    r"(?i)^['\"]?\s*(?:\|\s*sudo\s+-S|\|.{0,40}--password-stdin|\s+as\s+(?:(?:the|my|our|your|a|an)\s+)?"
    r"(?:[\w'’.-]{1,30}\s+){0,3}?(?:pass|pw|pwd|pin|login|cred|secret)|.{0,40}\bprompt\b)"
)
"""What says the name just before it is a password: ``| sudo -S``, ``--password-stdin``, ``as the password``."""
_ROW_SEP_RE = lazyre.compile(r"[,|\t;]")
_B64_RE = lazyre.compile(r"(?<![A-Za-z0-9+/])M[A-Za-z0-9+/]{31,8192}={0,2}(?![A-Za-z0-9+/=])")
_PUBKEY_OIDS = (
    bytes.fromhex("2a864886f70d010101"),  # rsaEncryption
    bytes.fromhex("2a8648ce3d0201"),  # id-ecPublicKey
    bytes.fromhex("2b6570"),  # Ed25519
    bytes.fromhex("2b6571"),  # Ed448
    bytes.fromhex("2b656e"),  # X25519
    bytes.fromhex("2b656f"),  # X448
    bytes.fromhex("2a8648ce380401"),  # DSA
)


def _word(piece: str) -> bool:
    low = piece.lower()
    if low in _TECH or low in _SHORT:
        return True
    if piece.isupper():
        return 2 <= len(piece) <= 5
    return len(low) >= 3 and any(c in "aeiou" for c in low) and not _CONSONANTS_RE.search(low)


def _code_signal(value: str, pieces: list[str]) -> bool:
    """Whether a name shows it comes from code or a build: a case change, an acronym, a tech word, a version, an
    architecture.

    Words joined by ``-`` alone (``willow-maple-quartz-copper94``) are how passphrases are made: no signal.
    """
    return bool(
        _CAMEL_RE.search(value)
        or _VERSION_RE.search(value)
        or _ARCH_RE.search(value)
        or any(p.lower() in _TECH or (p.isupper() and len(p) >= 2) for p in pieces)
    )


def name_ok(value: str) -> bool:
    """Whether ``value`` reads as a name made of words, numbers and acronyms (see the module's docstring)."""
    return _read_as_words(value, loose=False)


_ENCODED_RE = re.compile(r"%[0-9A-Fa-f]{2}")


def words_ok(value: str, known: frozenset[str] = frozenset()) -> bool:
    """Whether ``value`` is a name of words, numbers, versions and model codes, for all a vendor's name before it.

    A vendor's name before such a value does not make it the vendor's key (issue 32 round 23): a package and its
    platform (``468.0.0-x86_64-linux-gnu``), a URL-encoded name (``CodeQL%20scan``), a hardware model
    (``asus-zephyrus-ga402x-nvidia``). Beyond :func:`name_ok` it takes up to three letters beside a number
    (``ga402x``), leaves a version's numbers out of the count of what must be words, and takes a word of ``known``
    (a vendor's name) or a URL escape for a sign of a name; a vendor's key is random and still splits into stray
    letters, consonant runs or a hex run (docs/architecture.md §3).

    Args:
        value: the value a vendor name stands before.
        known: lower-case words whose presence in ``value`` marks it a name (the vendor names of :mod:`.context`).

    Returns:
        bool: True when every piece reads as a word, an acronym, a number of at most eight digits or a model code,
        words make at least half its letters, those words hold vowels as English does, and a case change, an
        acronym, a tech word, a version, an architecture, a ``known`` word or a URL escape shows it is a name.
    """
    decoded = _ENCODED_RE.sub("-", value)
    return _read_as_words(decoded, loose=True, known=known, escaped=decoded != value)


def _read_as_words(value: str, *, loose: bool, known: frozenset[str] = frozenset(), escaped: bool = False) -> bool:
    """:func:`name_ok`, or with ``loose`` :func:`words_ok` (``known`` words and a URL escape count as a sign)."""
    if _HEXRUN_RE.search(value) or _UUID_RE.search(value):
        return False
    pieces: list[str] = []
    for segment in _SEP_RE.split(value):
        found = _PIECE_RE.findall(segment)
        if "".join(found) != segment:
            return False
        for before, piece in itertools.pairwise(found):
            if before.isdigit() and piece.islower() and len(piece) > 1 and piece not in _AFTER_NUMBER:
                return False  # ``v1alpha2``, ``utf8mb4``: a random run has letters after digits at random
        pieces.extend(found)
    named = escaped or any(p.lower() in known for p in pieces)
    loose = loose and not _CAMEL_RE.search(value)  # a case change: code's rules (random runs of both cases are common)
    if len(pieces) < 3 or not (named or _code_signal(value, pieces)):
        return False
    worded = vowels = tech = 0
    for i, piece in enumerate(pieces):
        if piece.isdigit():
            if len(piece) > 8:
                return False
            continue
        if len(piece) == 1 or (loose and len(piece) <= 3 and not _word(piece)):
            near = [pieces[j] for j in (i - 1, i + 1) if 0 <= j < len(pieces)]
            if not any(p.isdigit() for p in near):
                return False
            continue
        if not _word(piece):
            return False
        if piece.lower() in _TECH:
            tech += len(piece) if len(piece) >= 3 else 0
        elif len(piece) >= 3 and not piece.isupper():
            worded += len(piece)
            vowels += sum(c in "aeiouAEIOU" for c in piece)
    english = vowels >= worded * 0.28  # vowels in English words ~0.38 of letters, in random letters ~0.19
    counted = [p for p in pieces if not (loose and p.isdigit())]  # words_ok: a version's numbers are no random run
    return (worded + tech) * 2 >= sum(len(p) for p in counted) and (not loose or worded + tech >= 4) and english


def _der_len(raw: bytes, at: int) -> tuple[int, int] | None:
    """(length, offset of the content) of the DER length at ``raw[at]``."""
    if at >= len(raw):
        return None
    first = raw[at]
    if first < 0x80:
        return first, at + 1
    n = first & 0x7F
    if n == 0 or n > 3 or at + 1 + n > len(raw):
        return None
    return int.from_bytes(raw[at + 1 : at + 1 + n], "big"), at + 1 + n


def spki_ok(b64: str) -> bool:
    """Whether ``b64`` (whole or a first line) decodes to a SubjectPublicKeyInfo's start (see the module's docstring)."""
    head = b64[: len(b64) // 4 * 4][:64]
    try:
        raw = base64.b64decode(head, validate=True)
    except (binascii.Error, ValueError):
        return False
    if not raw or raw[0] != 0x30:
        return False
    outer = _der_len(raw, 1)
    if outer is None or outer[1] >= len(raw) or raw[outer[1]] != 0x30:
        return False
    inner = _der_len(raw, outer[1] + 1)
    if inner is None or inner[1] + 2 > len(raw) or raw[inner[1]] != 0x06:
        return False
    oid_len, at = raw[inner[1] + 1], inner[1] + 2
    return raw[at : at + oid_len] in _PUBKEY_OIDS


def _labelled(text: str, start: int, end: int, *, vendor: bool = True) -> bool:
    """Whether a credential's label, a password word or a credential's slot stands right before the name, a password
    role right after it, or a label on the line above one the name opens (``Password:`` then the value) or a header
    row above a row of cells (``host,user,password`` then ``db01,root,<pw>``); with ``vendor``, a vendor's name
    before it too (:func:`.notevalues._labelled`), without it only a secret word (:func:`.context.named_by_secret_word`:
    :func:`words_ok`'s names, issue 32 round 23)."""
    from . import slots
    from .context import named_by_secret_word
    from .notevalues import _labelled as note_labelled

    line_start = text.rfind("\n", max(0, start - 48), start) + 1
    window = text[max(line_start, start - 48) : start]
    if (
        _LABEL_RE.search(window.lower())
        or _SLOT_RE.search(window[-40:])
        or _said_label(window)
        or _AFTER_RE.search(text[end : end + 60].split("\n", 1)[0])
        or slots.credential_slot(text, start, end)
        or note_labelled(text, start, tail_only=not vendor)
        or (not vendor and named_by_secret_word(window))
    ):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    head = text[line_start:start]
    if line_start == 0 or (head.strip(" \t>-*#|[]") and not _ROW_SEP_RE.search(head)):
        return False
    above_end = line_start - 1
    while above_end > 0 and not text[text.rfind("\n", 0, above_end) + 1 : above_end].strip():
        above_end = text.rfind("\n", 0, above_end)  # a blank line between: "**Password**", "", the value
    above = text[max(text.rfind("\n", 0, max(above_end, 0)) + 1, above_end - 200) : max(above_end, 0)]
    return bool(above.strip() and (_LABEL_RE.search(above.lower()) or _said_label(above)))


@cache
def _said_re() -> re.Pattern[str]:
    from .speech import _LABEL

    return re.compile("(?i)" + _LABEL)


def _said_label(window: str) -> bool:
    """Whether ``window`` holds a password word the speech rules read, in any of their languages (B18-11)."""
    return bool(window) and _said_re().search(window) is not None


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every value of the kinds above in ``text``, in no particular order."""
    yield from structural_spans(text)
    yield from name_spans(text)


def structural_spans(text: str) -> Iterator[Span]:
    """The values kept by their structure alone: comment anchors, .NET setting names, DER public keys (checked whole:
    the outer length is the run's, the key's BIT STRING ends it; a 64-character PEM line by its head, unlabelled)."""
    if "#" in text:
        for m in _ANCHOR_RE.finditer(text):
            yield m.start() + 1, m.end()
    if "<add" in text:
        for m in _SETTING_RE.finditer(text):
            if _setting_ok(m.group("name")):
                yield m.start("name"), m.end("name")
    if "M" in text:
        for m in _B64_RE.finditer(text):
            run = m.group(0)
            if spki_ok(run) and (_spki_whole(run) or (len(run) <= 64 and not _labelled(text, *m.span()))):
                yield m.span()


def name_spans(text: str) -> Iterator[Span]:
    """The values kept by a name's shape: words of code, Kubernetes' names, GitHub's no-reply address; none under a
    label (:func:`_labelled`), and :func:`.public.drop_public` lets them cancel only a token's look."""
    if "-" in text:
        for m in _K8S_NAME_RE.finditer(text):
            pieces = re.split(r"[-.]", m.group("base"))
            if all(_word(p) or p.isdigit() for p in pieces) and not _labelled(text, m.start(), m.end()):
                yield m.span()
    if "noreply" in text:
        for m in _NOREPLY_RE.finditer(text):
            if _login_ok(m.group("login")) and not _labelled(text, m.start(), m.end()):
                yield m.span()
    for m in _NAME_RE.finditer(text):
        if name_ok(m.group(0)) and not _labelled(text, m.start(), m.end()):
            yield m.span()


def _setting_ok(name: str) -> bool:
    """Whether a .NET setting's name reads as words (``ClientValidationEnabled``, ``webpages:Version``), not a
    licence or a token registered as the key (``Ngo9BigBOggjHTQxAR8``, B18-13)."""
    pieces = [p for part in re.split(r"[:._-]+", name) for p in _PIECE_RE.findall(part)]
    if "".join(pieces) != re.sub(r"[:._-]+", "", name):
        return False
    return all((p.isdigit() and len(p) <= 4) or _word(p) for p in pieces)


def _login_ok(login: str) -> bool:
    """Whether a no-reply address's login reads as one: GitHub's rules (no ``--``, no ``-`` at the end) and not a
    random mixed run (a token of 20+ characters mixing cases and digits is not a login unless it is words, B18-5)."""
    if "--" in login or login.endswith("-"):
        return False
    mixed = any(c.isupper() for c in login) and any(c.islower() for c in login) and any(c.isdigit() for c in login)
    return not (len(login) >= 20 and mixed) or name_ok(login)


def _spki_whole(b64: str) -> bool:
    """Whether ``b64`` decodes to exactly one SubjectPublicKeyInfo: its outer length is the run's and a BIT STRING
    follows the algorithm and ends it (B18-12: a key glued to more bytes is not kept)."""
    try:
        raw = base64.b64decode(b64 + "=" * (-len(b64) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    outer = _der_len(raw, 1)
    if outer is None or outer[0] + outer[1] != len(raw) or outer[1] >= len(raw) or raw[outer[1]] != 0x30:
        return False
    algo = _der_len(raw, outer[1] + 1)
    if algo is None or algo[0] + algo[1] >= len(raw) or raw[algo[0] + algo[1]] != 0x03:
        return False
    bits = _der_len(raw, algo[0] + algo[1] + 1)
    return bits is not None and bits[0] + bits[1] == len(raw)
