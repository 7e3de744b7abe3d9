"""Check digits and encodings of public identifiers, each from its specification (docs/architecture.md §3).

Pure functions, no state: :mod:`.identifiers` calls them to tell a public
identifier from a random token of the same look. Each says whether a value
is well formed; none raises on bad input.

- Bitcoin: base58check (version byte and a 4-byte double-SHA-256 checksum) and
  segwit addresses, bech32 (BIP-173, witness version 0) and bech32m (BIP-350,
  versions 1 to 16), with the programme lengths the BIPs allow;
- IPFS CIDs: v0 (base58btc of a 34-byte sha2-256 multihash) and v1 (multibase
  ``b`` base32 or ``z`` base58btc; version 1, a known codec, a multihash whose
  length byte matches what follows);
- IBAN (ISO 13616: the registry's length per country, mod 97 == 1);
- ISBN-10 (mod 11), ISBN-13 and EAN-13 (mod 10, weights 1 and 3);
- ORCID iD (ISO 7064 MOD 11-2);
- VIN (ISO 3779 with the North American check digit in position 9);
- bech32 of other public keys (NIP-19 ``npub``: hrp, checksum, 32 bytes);
- Tor v3 onion addresses (rend-spec-v3: key, SHA3-256 checksum, version 3);
- LEI (ISO 17442: mod 97 == 1), UPS tracking numbers (``1Z``, mod 10 with
  letters folded to digits), Salesforce 18-character record ids (a case
  suffix for each five characters).
"""

from __future__ import annotations

import base64
import binascii
import hashlib

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX = {c: i for i, c in enumerate(B58)}
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BECH32_INDEX = {c: i for i, c in enumerate(BECH32)}
_BECH32M = 0x2BC830A3


def b58decode(value: str) -> bytes | None:
    """The bytes of base58btc ``value``, or None when a character is not in the alphabet."""
    n = 0
    for c in value:
        i = _B58_INDEX.get(c)
        if i is None:
            return None
        n = n * 58 + i
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    return b"\0" * (len(value) - len(value.lstrip("1"))) + body


def base58check_version(value: str) -> int | None:
    """The version byte of a base58check value of 25 bytes (a Bitcoin-style address), or None if it fails."""
    raw = b58decode(value)
    if raw is None or len(raw) != 25:
        return None
    if hashlib.sha256(hashlib.sha256(raw[:21]).digest()).digest()[:4] != raw[21:]:
        return None
    return raw[0]


def _polymod(values: list[int]) -> int:
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= gen[i]
    return chk


def _regroup(data: list[int], frombits: int, tobits: int) -> bytes | None:
    """``data`` regrouped from 5-bit to 8-bit values, None when the padding is not zero (BIP-173)."""
    acc = bits = 0
    out = bytearray()
    for v in data:
        acc = (acc << frombits) | v
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append((acc >> bits) & ((1 << tobits) - 1))
    if bits >= frombits or (acc << (tobits - bits)) & ((1 << tobits) - 1):
        return None
    return bytes(out)


def segwit_ok(address: str) -> bool:
    """Whether ``address`` is a segwit address (``bc1``/``tb1``/``bcrt1``) whose bech32/bech32m checksum,
    witness version and programme length are what BIP-173 and BIP-350 require."""
    if address.lower() != address and address.upper() != address:
        return False
    addr = address.lower()
    hrp, sep, rest = addr.rpartition("1")
    if not sep or hrp not in ("bc", "tb", "bcrt") or len(rest) < 7 or len(addr) > 90:
        return False
    try:
        data = [_BECH32_INDEX[c] for c in rest]
    except KeyError:
        return False
    expand = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    const = _polymod(expand + data)
    version = data[0]
    if version > 16 or const != (1 if version == 0 else _BECH32M):
        return False
    program = _regroup(data[1:-6], 5, 8)
    if program is None or not 2 <= len(program) <= 40:
        return False
    return version != 0 or len(program) in (20, 32)


_CODECS = {0x55, 0x70, 0x71, 0x72, 0x0129, 0x0200, 0x0201, 0x0202, 0xB0, 0x78, 0x90, 0x97}
"""Multicodec codes a CID names in practice: raw, dag-pb, dag-cbor, libp2p-key, dag-json, json, cbor, ..."""
_HASHES = {0x12: 32, 0x13: 64, 0x1E: 32, 0x16: 32, 0xB220: 32, 0x00: -1}
"""Multihash codes and their digest length: sha2-256, sha2-512, blake3, sha3-256, blake2b-256, identity (any)."""


def _varint(raw: bytes, at: int) -> tuple[int, int] | None:
    n = shift = 0
    while at < len(raw) and shift < 63:
        b = raw[at]
        n |= (b & 0x7F) << shift
        at += 1
        if not b & 0x80:
            return n, at
        shift += 7
    return None


def cid_ok(value: str) -> bool:
    """Whether ``value`` is an IPFS CID: v0 (``Qm`` + 44 base58btc, a sha2-256 multihash) or v1 (``b`` base32 or
    ``z`` base58btc; version 1, a known codec, a known multihash whose length matches the bytes that follow)."""
    if value.startswith("Qm") and len(value) == 46:
        raw = b58decode(value)
        return raw is not None and len(raw) == 34 and raw[:2] == b"\x12\x20"
    if value[:1] == "b" and value[1:] == value[1:].lower():
        body = value[1:].upper()
        try:
            raw = base64.b32decode(body + "=" * (-len(body) % 8))
        except (binascii.Error, ValueError):
            return False
    elif value[:1] == "z":
        got = b58decode(value[1:])
        if got is None:
            return False
        raw = got
    else:
        return False
    head = _varint(raw, 0)
    if head is None or head[0] != 1:
        return False
    codec = _varint(raw, head[1])
    if codec is None or codec[0] not in _CODECS:
        return False
    code = _varint(raw, codec[1])
    if code is None or code[0] not in _HASHES:
        return False
    length = _varint(raw, code[1])
    if length is None:
        return False
    want = _HASHES[code[0]]
    return (want < 0 or length[0] == want) and len(raw) - length[1] == length[0]


IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
    "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
    "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
    "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29,
    "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}  # fmt: skip
"""IBAN length per country, from the ISO 13616 IBAN registry."""


def iban_ok(value: str) -> bool:
    """Whether ``value`` (spaces allowed) is an IBAN of its country's registered length with mod 97 == 1."""
    v = value.replace(" ", "").upper()
    if IBAN_LENGTHS.get(v[:2]) != len(v) or not v[2:4].isdigit() or not v.isalnum() or not v.isascii():
        return False
    moved = v[4:] + v[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def ean13_ok(digits: str) -> bool:
    """Whether 13 ``digits`` end in their EAN-13 check digit (also ISBN-13)."""
    if len(digits) != 13 or not digits.isdigit():
        return False
    return sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits)) % 10 == 0


def isbn10_ok(value: str) -> bool:
    """Whether ``value`` (9 digits and a digit or ``X``) passes ISBN-10's mod 11."""
    if len(value) != 10 or not value[:9].isdigit() or not (value[9].isdigit() or value[9] in "Xx"):
        return False
    total = sum((10 - i) * (10 if c in "Xx" else int(c)) for i, c in enumerate(value))
    return total % 11 == 0


def orcid_ok(value: str) -> bool:
    """Whether ``value`` (``0000-0002-1825-0097``) has its ISO 7064 MOD 11-2 check character."""
    v = value.replace("-", "")
    if len(v) != 16 or not v[:15].isdigit():
        return False
    total = 0
    for d in v[:15]:
        total = (total + int(d)) * 2
    r = (12 - total % 11) % 11
    return v[15] == ("X" if r == 10 else str(r))


_VIN_VALUE = {
    **{str(d): d for d in range(10)},
    **dict(zip("ABCDEFGH", range(1, 9), strict=True)),
    **dict(zip("JKLMN", range(1, 6), strict=True)),
    "P": 7,
    "R": 9,
    **dict(zip("STUVWXYZ", range(2, 10), strict=True)),
}
_VIN_WEIGHT = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def vin_ok(value: str) -> bool:
    """Whether ``value`` is a 17-character VIN (no I, O, Q) whose position 9 is its check digit."""
    if len(value) != 17 or any(c not in _VIN_VALUE for c in value):
        return False
    r = sum(_VIN_VALUE[c] * w for c, w in zip(value, _VIN_WEIGHT, strict=True)) % 11
    return value[8] == ("X" if r == 10 else str(r))


def bech32_data(value: str, hrp: str) -> bytes | None:
    """The 8-bit payload of bech32 ``value`` (BIP-173, constant 1) whose prefix is ``hrp``, or None."""
    v = value.lower()
    if v != value and value.upper() != value:
        return None
    got, sep, rest = v.rpartition("1")
    if not sep or got != hrp or len(rest) < 7 or len(v) > 120:
        return None
    try:
        data = [_BECH32_INDEX[c] for c in rest]
    except KeyError:
        return None
    expand = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    if _polymod(expand + data) != 1:
        return None
    return _regroup(data[:-6], 5, 8)


def onion_v3_ok(label: str) -> bool:
    """Whether the 56 characters before ``.onion`` are a v3 address: base32 of a 32-byte key, its
    2-byte SHA3-256 checksum and version 3 (Tor's rend-spec-v3, "Encoding onion addresses")."""
    if len(label) != 56:
        return False
    try:
        raw = base64.b32decode(label.upper())
    except (binascii.Error, ValueError):
        return False
    key, check, version = raw[:32], raw[32:34], raw[34:]
    return version == b"\x03" and hashlib.sha3_256(b".onion checksum" + key + version).digest()[:2] == check


def lei_ok(value: str) -> bool:
    """Whether ``value`` is a 20-character LEI (ISO 17442) whose last two digits make it mod 97 == 1."""
    if len(value) != 20 or not value.isascii() or not value.isalnum() or value.upper() != value:
        return False
    if not value[18:].isdigit():
        return False
    return int("".join(str(int(c, 36)) for c in value)) % 97 == 1


def ups_ok(value: str) -> bool:
    """Whether ``value`` is a UPS ``1Z`` tracking number whose last digit checks the 15 before it (letters
    folded to digits, even positions doubled, mod 10)."""
    if len(value) != 18 or not value.startswith("1Z") or not value.isascii() or not value.isalnum():
        return False
    body = value[2:17].upper()
    vals = [(ord(c) - 63) % 10 if c.isalpha() else int(c) for c in body]
    total = sum(v * (2 if i % 2 else 1) for i, v in enumerate(vals))
    return value[17] == str((10 - total % 10) % 10)


def salesforce_ok(value: str) -> bool:
    """Whether ``value`` is an 18-character Salesforce record id: 15 case-sensitive characters, then for
    each group of five a character of ``A-Z0-5`` whose bits say which of the five are capitals."""
    if len(value) != 18 or not value.isascii() or not value.isalnum():
        return False
    if not any(c.isdigit() for c in value[:15]):
        return False
    for chunk in range(3):
        bits = sum(1 << i for i, c in enumerate(value[chunk * 5 : chunk * 5 + 5]) if c.isupper())
        if value[15 + chunk] != "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"[bits]:
            return False
    return True
