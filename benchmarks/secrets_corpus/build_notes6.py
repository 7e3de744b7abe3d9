#!/usr/bin/env python3
# ruff: noqa: UP031, RUF005, E741, E101  (a blind helper's generator, kept as written: docs/benchmarks.md "Round 26")
"""notes6 -- blind benchmark generator for a secret-redaction engine.

Written without reading any rule, corpus, test or benchmark of the engine.
Imitates a long-term memory repository of markdown notes written by people and
AI coding agents, plus the snippets they paste.

Two kinds of templates, numbered separately from 1 in definition order:
  * secret templates (tNNN): each text holds one or more secrets
  * benign templates (bNNN): look-alikes that must survive byte-for-byte
Split rule (fixed before any value is drawn): odd template number -> "held",
even -> "tune".  Every value comes from random.Random seeded with the string
"notes6|<kind>|<template>|<instance>" so the output is reproducible.

Only stdlib, plus `mnemonic` for the BIP39 word list / checksum.

Run:  python3 make.py        -> writes notes6.json next to this file
"""

import base64
import hashlib
import hmac
import json
import os
import random
import re
import string
import struct
import sys
import textwrap
import urllib.parse
import zlib

DATE = "2026-12-07"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "notes6.json")

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
B62 = DIGITS + UPPER + LOWER  # GitHub / npm checksum alphabet
HEXL = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64C = ALNUM + "+/"
B64U = ALNUM + "-_"
B32U = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
LOWNUM = LOWER + DIGITS
UPNUM = UPPER + DIGITS

# ----------------------------------------------------------------------------
# small crypto / encoding helpers (all hand written)
# ----------------------------------------------------------------------------
P25519 = 2**255 - 19


def x25519(k, u):
    k = bytearray(k)
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    k = int.from_bytes(bytes(k), "little")
    u = int.from_bytes(u, "little") & ((1 << 255) - 1)
    p = P25519
    x1, x2, z2, x3, z3, swap = u, 1, 0, u, 1, 0
    for t in reversed(range(255)):
        kt = (k >> t) & 1
        swap ^= kt
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = kt
        a = (x2 + z2) % p
        aa = a * a % p
        b = (x2 - z2) % p
        bb = b * b % p
        e = (aa - bb) % p
        c = (x3 + z3) % p
        d = (x3 - z3) % p
        da = d * a % p
        cb = c * b % p
        x3 = (da + cb) ** 2 % p
        z3 = x1 * (da - cb) ** 2 % p
        x2 = aa * bb % p
        z2 = e * (aa + 121665 * e) % p
    if swap:
        x2, x3, z2, z3 = x3, x2, z3, z2
    return (x2 * pow(z2, p - 2, p) % p).to_bytes(32, "little")


def x25519_pub(priv):
    return x25519(priv, (9).to_bytes(32, "little"))


def _inv(x):
    return pow(x, P25519 - 2, P25519)


_ED_D = -121665 * _inv(121666) % P25519
_ED_I = pow(2, (P25519 - 1) // 4, P25519)


def _xrecover(y):
    p = P25519
    xx = (y * y - 1) * _inv(_ED_D * y * y + 1)
    x = pow(xx, (p + 3) // 8, p)
    if (x * x - xx) % p != 0:
        x = (x * _ED_I) % p
    if x % 2 != 0:
        x = p - x
    return x


_ED_BY = 4 * _inv(5) % P25519
_ED_B = (_xrecover(_ED_BY), _ED_BY)


def _edadd(P, Q):
    p = P25519
    x1, y1 = P
    x2, y2 = Q
    t = _ED_D * x1 * x2 * y1 * y2
    x3 = (x1 * y2 + x2 * y1) * _inv(1 + t)
    y3 = (y1 * y2 + x1 * x2) * _inv(1 - t)
    return (x3 % p, y3 % p)


def _edmul(P, e):
    R = (0, 1)
    while e:
        if e & 1:
            R = _edadd(R, P)
        P = _edadd(P, P)
        e >>= 1
    return R


def ed25519_pub(seed):
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    x, y = _edmul(_ED_B, a)
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values):
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        b = chk >> 25
        chk = ((chk & 0x1FFFFFF) << 5) ^ v
        for i in range(5):
            chk ^= gen[i] if ((b >> i) & 1) else 0
    return chk


def _hrp_expand(h):
    return [ord(x) >> 5 for x in h] + [0] + [ord(x) & 31 for x in h]


def _convertbits(data, frm, to, pad=True):
    acc = bits = 0
    out = []
    maxv = (1 << to) - 1
    for v in data:
        acc = (acc << frm) | v
        bits += frm
        while bits >= to:
            bits -= to
            out.append((acc >> bits) & maxv)
    if pad and bits:
        out.append((acc << (to - bits)) & maxv)
    return out


def bech32(hrp, data5):
    pm = _polymod(_hrp_expand(hrp) + data5 + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[d] for d in data5 + chk)


def b58(b):
    n = int.from_bytes(b, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(b) - len(b.lstrip(b"\0"))
    return "1" * pad + out


def b58check(b):
    c = hashlib.sha256(hashlib.sha256(b).digest()).digest()[:4]
    return b58(b + c)


def crc24(data):
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def base62(n, width):
    s = ""
    while n:
        n, r = divmod(n, 62)
        s = B62[r] + s
    return s.rjust(width, "0")


def b64u_nopad(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def der_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag, content):
    return bytes([tag]) + der_len(len(content)) + content


def sshstr(b):
    return struct.pack(">I", len(b)) + b


def wrap(s, w):
    return [s[i : i + w] for i in range(0, len(s), w)]


def pem(label, blob, width=64):
    body = "\n".join(wrap(base64.b64encode(blob).decode(), width))
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (label, body, label)


def pem_body_lines(p, minlen=16):
    """Body lines of a PEM/armor block that are long enough to be unique."""
    out = []
    for ln in p.splitlines():
        ln = ln.strip()
        if ln.startswith("-----") or ln.startswith("=") or ":" in ln:
            continue
        if ln == OPENSSH_ED25519_LINE1:  # identical for every unencrypted ed25519 key: not secret
            continue
        if len(ln) >= minlen:
            out.append(ln)
    return out


OPENSSH_ED25519_LINE1 = base64.b64encode(
    b"openssh-key-v1\0"
    + sshstr(b"none")
    + sshstr(b"none")
    + sshstr(b"")
    + struct.pack(">I", 1)
    + struct.pack(">I", 51)
    + sshstr(b"ssh-ed25519")
    + b"\0\0\0 "
    + b"\0" * 12
).decode()[:70]


def indent(s, n):
    pad = " " * n
    return "\n".join(pad + ln if ln else ln for ln in s.splitlines())


def R(tpl, **kw):
    """Dedent a template and fill <<name>> slots (no clash with {} or $)."""
    tpl = textwrap.dedent(tpl).strip("\n")

    def sub(m):
        return str(kw[m.group(1)])

    return re.sub(r"<<(\w+)>>", sub, tpl)


# ----------------------------------------------------------------------------
# word lists (own)
# ----------------------------------------------------------------------------
FIRST = [
    "maria",
    "jonas",
    "aiko",
    "wei",
    "priya",
    "tomasz",
    "ana",
    "kemal",
    "olu",
    "sofia",
    "dmitri",
    "lena",
    "raj",
    "yuki",
    "minh",
    "fatima",
    "lucas",
    "ingrid",
    "mateo",
    "hana",
    "omar",
    "chloe",
    "sven",
    "arjun",
    "elif",
    "nadia",
    "pedro",
    "mei",
    "kofi",
    "zofia",
    "ravi",
    "ines",
    "tariq",
    "greta",
    "joon",
    "amara",
    "bruno",
    "leila",
    "henrik",
    "thu",
]
LAST = [
    "kowalska",
    "berg",
    "tanaka",
    "zhang",
    "sharma",
    "nowak",
    "silva",
    "yilmaz",
    "adeyemi",
    "rossi",
    "volkov",
    "meyer",
    "patel",
    "sato",
    "nguyen",
    "haddad",
    "martins",
    "lund",
    "garcia",
    "kim",
    "farouk",
    "dubois",
    "eriksen",
    "iyer",
    "demir",
    "petrova",
    "costa",
    "chen",
    "mensah",
    "wisniewska",
    "okafor",
    "moreau",
]
COMPANY = [
    "kestrel",
    "tallowby",
    "brightfern",
    "quillon",
    "marrowby",
    "orbitfin",
    "lumenhaus",
    "parcelpine",
    "northwick",
    "saltmarsh",
    "copperleaf",
    "vantapay",
    "helioscale",
    "riverstone",
    "ferrodyne",
    "bluequay",
    "pinecrest",
    "aurumlab",
    "wavelet",
    "stonebridge",
]
TLD = ["io", "dev", "com", "net", "cloud", "app", "co"]
SVC = [
    "api",
    "billing",
    "auth",
    "search",
    "ledger",
    "notify",
    "ingest",
    "reports",
    "gateway",
    "scheduler",
    "media",
    "checkout",
    "profile",
    "catalog",
    "metrics",
]
ENVS = ["prod", "staging", "dev", "qa", "sandbox", "preprod"]
REGIONS = ["eu-west-1", "us-east-1", "us-west-2", "eu-central-1", "ap-southeast-1", "ap-northeast-1", "sa-east-1"]
WORDS = [
    "amber",
    "anchor",
    "apricot",
    "arcade",
    "aspen",
    "atlas",
    "badger",
    "bamboo",
    "banjo",
    "beacon",
    "birch",
    "biscuit",
    "blossom",
    "bonfire",
    "breeze",
    "bronze",
    "cactus",
    "canyon",
    "caramel",
    "cedar",
    "chalk",
    "cinder",
    "clover",
    "cobalt",
    "comet",
    "copper",
    "coral",
    "cricket",
    "crimson",
    "dahlia",
    "delta",
    "dune",
    "ember",
    "falcon",
    "fennel",
    "fern",
    "fjord",
    "flint",
    "galaxy",
    "garnet",
    "ginger",
    "glacier",
    "granite",
    "harbor",
    "hazel",
    "heron",
    "hickory",
    "indigo",
    "ivory",
    "jasmine",
    "juniper",
    "kayak",
    "kettle",
    "kiwi",
    "lagoon",
    "lantern",
    "lemon",
    "lilac",
    "lotus",
    "magnet",
    "mango",
    "maple",
    "marble",
    "meadow",
    "mercury",
    "mosaic",
    "nectar",
    "nickel",
    "nutmeg",
    "oasis",
    "olive",
    "onyx",
    "orbit",
    "orchid",
    "otter",
    "paprika",
    "pebble",
    "pepper",
    "pixel",
    "plume",
    "prairie",
    "quartz",
    "quill",
    "raven",
    "reef",
    "ripple",
    "saffron",
    "sage",
    "sequoia",
    "sierra",
    "slate",
    "sparrow",
    "spruce",
    "summit",
    "tamarind",
    "thistle",
    "thunder",
    "timber",
    "topaz",
    "tulip",
    "tundra",
    "velvet",
    "violet",
    "walnut",
    "willow",
    "zephyr",
    "zinnia",
    "walrus",
    "yonder",
    "gravel",
    "kelp",
]
HUMAN_BASE = [
    "Sommer",
    "Kaffee",
    "Lisboa",
    "Mariposa",
    "Sakura",
    "Bosphorus",
    "Wawel",
    "Saigon",
    "Moskva",
    "Tigris",
    "Fjordland",
    "Pumpkin",
    "Dragon",
    "Gardenia",
    "Vesuvio",
    "Hanami",
    "Jaipur",
    "Copacabana",
    "Kilimanjaro",
    "Baltika",
]


class G:
    """Value source for one sample: random.Random seeded by a string."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.drawn = []  # every secret value drawn (self-check)

    # --- primitives ---------------------------------------------------------
    def reg(self, v):
        self.drawn.append(v)
        return v

    def int(self, a, b):
        return self.r.randint(a, b)

    def pick(self, seq):
        return self.r.choice(seq)

    def sample(self, seq, k):
        return self.r.sample(seq, k)

    def chance(self, p=0.5):
        return self.r.random() < p

    def s(self, n, alpha=ALNUM):
        return "".join(self.r.choice(alpha) for _ in range(n))

    def hex(self, n):
        return self.s(n, HEXL)

    def raw(self, n):
        return bytes(self.r.getrandbits(8) for _ in range(n))

    def digits(self, n):
        return str(self.r.randint(1, 9)) + self.s(n - 1, DIGITS)

    def uuid(self):
        h = self.hex(32)
        h = h[:12] + "4" + h[13:16] + self.pick("89ab") + h[17:]
        return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    # --- people / places (not secret) ---------------------------------------
    def first(self):
        return self.pick(FIRST)

    def last(self):
        return self.pick(LAST)

    def user(self):
        f, l = self.first(), self.last()
        return self.pick([f + "." + l, f[0] + l, f + "_" + l[:3], f + l[:1], l + "." + f[0]])

    def company(self):
        return self.pick(COMPANY)

    def domain(self, company=None):
        return (company or self.company()) + "." + self.pick(TLD)

    def env(self):
        return self.pick(ENVS)

    def svc(self):
        return self.pick(SVC)

    def region(self):
        return self.pick(REGIONS)

    def host(self, kind=None, company=None):
        kind = kind or self.svc()
        c = company or self.company()
        return self.pick(
            [
                "%s-%s-%02d.%s.internal" % (kind, self.env(), self.int(1, 12), c),
                "%s.%s.%s" % (kind, self.env(), self.domain(c)),
                "%s%d.%s" % (kind, self.int(1, 9), self.domain(c)),
                "%s-%s.%s.lan" % (c[:4], kind, self.pick(["hq", "dc1", "fra", "ams", "sgp"])),
            ]
        )

    def email(self, user=None, company=None):
        return "%s@%s" % (user or self.user(), self.domain(company))

    def date(self):
        return "%04d-%02d-%02d" % (self.int(2024, 2026), self.int(1, 12), self.int(1, 28))

    def time(self):
        return "%02d:%02d" % (self.int(0, 23), self.int(0, 59))

    def ts(self):
        return "%sT%s:%02d.%03dZ" % (self.date(), self.time(), self.int(0, 59), self.int(0, 999))

    def ip(self):
        return self.pick(
            [
                "10.%d.%d.%d" % (self.int(0, 255), self.int(0, 255), self.int(2, 254)),
                "172.%d.%d.%d" % (self.int(16, 31), self.int(0, 255), self.int(2, 254)),
                "192.168.%d.%d" % (self.int(0, 255), self.int(2, 254)),
            ]
        )

    def port(self):
        return self.pick([5432, 3306, 6379, 5672, 27017, 8080, 8443, 9092, 9200, 1433])

    def ticket(self):
        return "%s-%d" % (self.pick(["OPS", "INFRA", "SEC", "PLAT", "DEV", "SRE", "DATA"]), self.int(100, 9999))

    def word(self):
        return self.pick(WORDS)

    def meta(self, kind=None):
        k = kind or self.pick(
            ["fact", "credential", "config", "gotcha", "decision", "runbook", "snippet", "context", "todo", "reference"]
        )
        return self.pick(
            [
                "- [kind: %s] " % k,
                "- [kind: %s] [scope: %s] " % (k, self.env()),
                "* [kind:%s] " % k,
                "- ",
                "- [%s] " % k,
                "- [kind: %s] [added: %s] " % (k, self.date()),
                "- [kind: %s] [source: agent-session] " % k,
                "- [kind: %s] [confidence: high] " % k,
                "- [kind: %s] [tags: %s, %s] " % (k, self.svc(), self.env()),
            ]
        )

    # --- passwords ----------------------------------------------------------
    def pw(self, n=None, symbols="!#%*+-=?@^_~."):
        n = n or self.int(12, 20)
        while True:
            cs = [self.pick(UPPER), self.pick(LOWER), self.pick(DIGITS), self.pick(symbols)]
            cs += [self.pick(ALNUM + symbols) for _ in range(n - 4)]
            self.r.shuffle(cs)
            v = "".join(cs)
            if v[0] not in "-=@":
                return self.reg(v)

    def pw_url(self, n=None):
        return self.pw(n, symbols="-_.~!*")

    def pw_alnum(self, n=None):
        return self.reg(self.s(n or self.int(14, 24)))

    def passphrase(self, k=None, sep=None):
        k = k or self.int(3, 5)
        sep = sep if sep is not None else self.pick(["-", ".", "_", " ", ""])
        ws = self.sample(WORDS, k)
        if sep == "" or self.chance(0.5):
            ws = [w.capitalize() for w in ws]
        if self.chance(0.6):
            ws.insert(self.int(0, k), str(self.int(10, 999)))
        return self.reg(sep.join(ws))

    def pw_human(self):
        base = self.pick(HUMAN_BASE)
        return self.reg(
            self.pick(
                [
                    "%s%d%s" % (base, self.int(1990, 2031), self.pick("!#?*$%")),
                    "%s%s%s%d" % (base, self.pick("!#?*$%@."), self.pick(WORDS).capitalize(), self.int(10, 99)),
                    "%s_%s%d" % (self.pick(WORDS), base.lower(), self.int(100, 9999)),
                ]
            )
        )

    def pin(self, n=6):
        while True:
            v = self.s(n, DIGITS)
            if len(set(v)) >= 3 and v[0] != "0":
                return self.reg(v)

    def wifi(self):
        return self.pick([self.passphrase, lambda: self.pw(self.int(10, 16), "!#%*-_.")])()

    # --- vendor formats -----------------------------------------------------
    def gh_classic(self, prefix="ghp_"):
        body = self.s(30, B62)
        return self.reg(prefix + body + base62(zlib.crc32(body.encode()) & 0xFFFFFFFF, 6))

    def npm_token(self):
        return self.gh_classic("npm_")

    def gh_fine(self):
        return self.reg("github_pat_" + self.s(22, ALNUM) + "_" + self.s(59, ALNUM))

    def glpat(self):
        return self.reg("glpat-" + self.s(20, B64U))

    def stripe_sk(self, mode="live", kind="sk"):
        return self.reg("%s_%s_51%s" % (kind, mode, self.s(97, ALNUM)))

    def stripe_pk(self, mode="live"):
        return "pk_%s_51%s" % (mode, self.s(97, ALNUM))

    def whsec(self):
        return self.reg("whsec_" + self.s(32, ALNUM))

    def slack_bot(self):
        return self.reg("xoxb-%s-%s-%s" % (self.digits(self.int(10, 13)), self.digits(13), self.s(24)))

    def slack_user(self):
        return self.reg("xoxp-%s-%s-%s-%s" % (self.digits(11), self.digits(12), self.digits(13), self.hex(32)))

    def slack_app(self):
        return self.reg("xapp-1-A%s-%s-%s" % (self.s(10, UPNUM), self.digits(13), self.hex(64)))

    def slack_hook(self):
        sec = self.reg(self.s(24))
        return "https://hooks.slack.com/services/T%s/B%s/%s" % (self.s(8, UPNUM), self.s(10, UPNUM), sec), sec

    def twilio_sid(self):
        return "AC" + self.hex(32)

    def hex_secret(self, n=32):
        return self.reg(self.hex(n))

    def sendgrid(self):
        return self.reg("SG.%s.%s" % (self.s(22, B64U), self.s(43, B64U)))

    def mailgun(self):
        return self.reg(self.pick(["key-" + self.hex(32), "%s-%s-%s" % (self.hex(32), self.hex(8), self.hex(8))]))

    def openai(self, kind="proj"):
        if kind == "legacy":
            return self.reg("sk-" + self.s(20) + "T3BlbkFJ" + self.s(20))
        pre = {"proj": "sk-proj-", "svc": "sk-svcacct-", "admin": "sk-admin-"}[kind]
        return self.reg(pre + self.s(74, B64U) + "T3BlbkFJ" + self.s(74, B64U))

    def anthropic(self, admin=False):
        pre = "sk-ant-admin01-" if admin else "sk-ant-api03-"
        return self.reg(pre + self.s(93, B64U) + "AA")

    def hf(self):
        return self.reg("hf_" + self.s(34, UPPER + LOWER))

    def cf_token(self):
        return self.reg(self.s(40, B64U))

    def do_token(self, kind="dop"):
        return self.reg("%s_v1_%s" % (kind, self.hex(64)))

    def linear(self):
        return self.reg("lin_api_" + self.s(40))

    def notion(self, legacy=False):
        return self.reg(("secret_" + self.s(43)) if legacy else ("ntn_" + self.s(46)))

    def airtable(self):
        return self.reg("pat%s.%s" % (self.s(14), self.hex(64)))

    def shopify(self, kind="shpat"):
        return self.reg("%s_%s" % (kind, self.hex(32)))

    def atlassian(self):
        return self.reg("ATATT3xFfGF0" + self.s(171, B64U) + "=" + self.s(8, HEXU))

    def newrelic_user(self):
        return self.reg("NRAK-" + self.s(27, UPNUM))

    def newrelic_license(self):
        return self.reg(self.hex(36) + "NRAL")

    def sentry_org(self, org):
        payload = json.dumps(
            {
                "iat": self.int(1700000000, 1790000000),
                "url": "https://sentry.io",
                "region_url": "https://de.sentry.io",
                "org": org,
            },
            separators=(",", ":"),
        )
        return self.reg("sntrys_" + base64.b64encode(payload.encode()).decode().rstrip("=") + "_" + self.s(43, B64U))

    def sentry_user(self):
        return self.reg("sntryu_" + self.hex(64))

    def doppler(self, kind="st", env=None):
        if kind == "st":
            return self.reg("dp.st.%s.%s" % (env or self.pick(["dev", "stg", "prd", "ci"]), self.s(43)))
        return self.reg("dp.%s.%s" % (kind, self.s(43)))

    def vault(self, kind="hvs"):
        if kind == "hvs":
            return self.reg("hvs.CAESI" + self.s(86, B64U))
        if kind == "hvb":
            return self.reg("hvb.AAAAAQ" + self.s(130, B64U))
        return self.reg("s." + self.s(24))

    def postman(self):
        return self.reg("PMAK-%s-%s" % (self.hex(24), self.hex(34)))

    def figma(self):
        return self.reg("figd_" + self.s(40, B64U))

    def okta(self):
        return self.reg("00" + self.s(40, B64U))

    def azure_storage_key(self):
        return self.reg(base64.b64encode(self.raw(64)).decode())

    def aws_akid(self, pre="AKIA"):
        return self.reg(pre + self.s(16, B32U))

    def aws_secret(self):
        return self.reg(self.s(40, B64C))

    def aws_session(self):
        return self.reg(
            "IQoJb3JpZ2luX2VjE" + self.s(1, "JKLMNOPQ") + self.s(self.int(560, 700), B64C) + self.pick(["", "=", "=="])
        )

    def jwt(self, payload, alg="HS256", kid=None):
        hdr = {"alg": alg, "typ": "JWT"}
        if kid:
            hdr["kid"] = kid
        h = b64u_nopad(json.dumps(hdr, separators=(",", ":")).encode())
        p = b64u_nopad(json.dumps(payload, separators=(",", ":")).encode())
        if alg.startswith("HS"):
            sig = hmac.new(self.raw(32), (h + "." + p).encode(), hashlib.sha256).digest()
        elif alg == "ES256":
            sig = self.raw(64)
        else:
            sig = self.raw(256)
        return self.reg(h + "." + p + "." + b64u_nopad(sig))

    def discord(self):
        uid = str(self.int(8 * 10**17, 13 * 10**17))
        return self.reg(b64u_nopad(uid.encode()) + "." + self.s(6, B64U) + "." + self.s(38, B64U))

    def telegram(self):
        return self.reg("%s:AA%s" % (self.digits(10), self.s(33, B64U)))

    def pypi(self):
        return self.reg("pypi-AgEIcHlwaS5vcmcCJ" + self.s(156, B64U))

    def rubygems(self):
        return self.reg("rubygems_" + self.hex(48))

    def nuget(self):
        return self.reg("oy2" + self.s(43, LOWNUM))

    def crates(self):
        return self.reg("cio" + self.s(32))

    def dockerhub(self):
        return self.reg("dckr_pat_" + self.s(27, B64U))

    def tfc(self):
        return self.reg("%s.atlasv1.%s" % (self.s(14), self.s(67)))

    def grafana_sa(self):
        return self.reg("glsa_%s_%s" % (self.s(32), self.hex(8)))

    def supabase(self):
        return self.reg("sbp_" + self.hex(40))

    def mapbox(self, user, public=False):
        body = b64u_nopad(json.dumps({"u": user, "a": self.s(25, LOWNUM)}, separators=(",", ":")).encode())
        v = ("pk." if public else "sk.") + body + "." + self.s(22, B64U)
        return v if public else self.reg(v)

    def google_api_key(self):
        return self.reg("AIza" + self.s(35, B64U))

    def google_client_id(self):
        return "%s-%s.apps.googleusercontent.com" % (self.digits(12), self.s(32, LOWNUM))

    def google_client_secret(self):
        return self.reg("GOCSPX-" + self.s(28, B64U))

    def azure_ad_secret(self):
        return self.reg(self.s(3) + "8Q~" + self.s(34, ALNUM + "~_.-"))

    def b64_secret(self, n=32):
        return self.reg(base64.b64encode(self.raw(n)).decode())

    def b64u_secret(self, n=32):
        return self.reg(base64.urlsafe_b64encode(self.raw(n)).decode())

    def totp(self, nbytes=20):
        return self.reg(base64.b32encode(self.raw(nbytes)).decode().rstrip("="))

    def apple_asp(self):
        return self.reg("-".join(self.s(4, LOWER) for _ in range(4)))

    # --- keys ---------------------------------------------------------------
    def _int(self, n):
        b = bytearray(self.raw(n))
        b[0] |= 0x80
        return der(0x02, b"\0" + bytes(b))

    def rsa_der(self, bits=2048):
        n = bits // 8
        h = n // 2
        parts = [der(0x02, b"\0"), self._int(n), der(0x02, b"\x01\x00\x01"), self._int(n)]
        parts += [self._int(h) for _ in range(5)]
        return der(0x30, b"".join(parts))

    def rsa_pem(self, pkcs8=True, bits=2048):
        inner = self.rsa_der(bits)
        if pkcs8:
            alg = der(0x30, der(0x06, bytes.fromhex("2a864886f70d010101")) + b"\x05\x00")
            p = pem("PRIVATE KEY", der(0x30, der(0x02, b"\0") + alg + der(0x04, inner)))
        else:
            p = pem("RSA PRIVATE KEY", inner)
        for ln in pem_body_lines(p):
            self.reg(ln)
        return p

    def ec_pem(self, pkcs8=False):
        oid_p256 = der(0x06, bytes.fromhex("2a8648ce3d030107"))
        priv, pub = self.raw(32), b"\x00\x04" + self.raw(64)
        if pkcs8:
            alg = der(0x30, der(0x06, bytes.fromhex("2a8648ce3d0201")) + oid_p256)
            inner = der(0x30, der(0x02, b"\x01") + der(0x04, priv) + der(0xA1, der(0x03, pub)))
            p = pem("PRIVATE KEY", der(0x30, der(0x02, b"\0") + alg + der(0x04, inner)))
        else:
            p = pem(
                "EC PRIVATE KEY",
                der(0x30, der(0x02, b"\x01") + der(0x04, priv) + der(0xA0, oid_p256) + der(0xA1, der(0x03, pub))),
            )
        for ln in pem_body_lines(p):
            self.reg(ln)
        return p

    def openssh_ed25519(self, comment):
        seed = self.raw(32)
        pub = ed25519_pub(seed)
        pubblob = sshstr(b"ssh-ed25519") + sshstr(pub)
        chk = self.raw(4)
        priv = chk + chk + sshstr(b"ssh-ed25519") + sshstr(pub) + sshstr(seed + pub) + sshstr(comment.encode())
        i = 1
        while len(priv) % 8:
            priv += bytes([i])
            i += 1
        blob = (
            b"openssh-key-v1\0"
            + sshstr(b"none")
            + sshstr(b"none")
            + sshstr(b"")
            + struct.pack(">I", 1)
            + sshstr(pubblob)
            + sshstr(priv)
        )
        body = wrap(base64.b64encode(blob).decode(), 70)
        p = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END OPENSSH PRIVATE KEY-----"
        for ln in pem_body_lines(p):
            self.reg(ln)
        publine = "ssh-ed25519 " + base64.b64encode(pubblob).decode() + " " + comment
        return p, publine, seed

    def wg_keypair(self):
        k = bytearray(self.raw(32))
        k[0] &= 248
        k[31] &= 127
        k[31] |= 64
        k = bytes(k)
        return self.reg(base64.b64encode(k).decode()), base64.b64encode(x25519_pub(k)).decode()

    def age_keypair(self):
        k = self.raw(32)
        sec = bech32("age-secret-key-", _convertbits(k, 8, 5)).upper()
        pub = bech32("age", _convertbits(x25519_pub(k), 8, 5))
        return self.reg(sec), pub

    def pgp_private(self, name, email):
        t = struct.pack(">I", self.int(1650000000, 1780000000))
        oid = bytes.fromhex("2b06010401da470f01")
        seckey = b"\x04" + t + b"\x16" + bytes([len(oid)]) + oid + b"\x01\x07\x40" + self.raw(32)
        seckey += b"\x00" + b"\x00\xff" + self.raw(32) + self.raw(2)
        uid = ("%s <%s>" % (name, email)).encode()
        pkts = b"\x94" + bytes([len(seckey)]) + seckey
        pkts += b"\xb4" + bytes([len(uid)]) + uid
        sig = b"\x04\x13\x16\x0a" + self.raw(140)
        pkts += b"\x88" + bytes([len(sig)]) + sig
        sub = (
            b"\x04"
            + t
            + b"\x12\x0a\x2b\x06\x01\x04\x01\x97\x55\x01\x05\x01\x01\x07\x40"
            + self.raw(32)
            + b"\x03\x01\x08\x07\x00\x00\xff"
            + self.raw(34)
        )
        pkts += b"\x9c" + bytes([len(sub)]) + sub
        sig2 = b"\x04\x18\x16\x0a" + self.raw(110)
        pkts += b"\x88" + bytes([len(sig2)]) + sig2
        body = "\n".join(wrap(base64.b64encode(pkts).decode(), 64))
        c = base64.b64encode(crc24(pkts).to_bytes(3, "big")).decode()
        p = "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n%s\n=%s\n-----END PGP PRIVATE KEY BLOCK-----" % (body, c)
        for ln in pem_body_lines(p):
            self.reg(ln)
        return p

    # --- crypto wallets -----------------------------------------------------
    def bip39(self, words=12):
        from mnemonic import Mnemonic

        ent = self.raw(16 if words == 12 else 32)
        return self.reg(Mnemonic("english").to_mnemonic(ent))

    def eth_priv(self):
        return self.reg("0x" + self.hex(64))

    def eth_addr(self):
        return "0x" + self.hex(40)

    def wif(self):
        return self.reg(b58check(b"\x80" + self.raw(32) + b"\x01"))

    def xprv(self):
        return self.reg(
            b58check(bytes.fromhex("0488ade4") + b"\0" + b"\0" * 4 + b"\0" * 4 + self.raw(32) + b"\0" + self.raw(32))
        )

    def solana(self):
        seed = self.raw(32)
        pub = ed25519_pub(seed)
        return list(seed + pub), b58(pub)


def phrase_chunks(ph, k):
    w = ph.split()
    n = len(w)
    step = (n + k - 1) // k
    return [" ".join(w[i : i + step]) for i in range(0, n, step)]


# ----------------------------------------------------------------------------
# registries
# ----------------------------------------------------------------------------
SECRET_T = []
BENIGN_T = []


def S(fn):
    SECRET_T.append(fn)
    return fn


def B(fn):
    BENIGN_T.append(fn)
    return fn


# ============================================================================
# SECRET TEMPLATES  (numbered t001.. in definition order)
# ============================================================================


@S
def s_gh_classic_bullet(g):
    tok, user = g.gh_classic(), g.user()
    repo = "%s/%s" % (g.company(), g.svc())
    return (
        R(
            """
        <<m>>The release bot for <<repo>> authenticates as `<<user>>` with the classic PAT <<tok>> (scopes: repo, workflow); it expires <<d>> and nobody has a calendar reminder yet.
        """,
            m=g.meta("credential"),
            repo=repo,
            user=user,
            tok=tok,
            d=g.date(),
        ),
        [tok],
        [user, repo],
    )


@S
def s_gh_shell_history(g):
    tok, user = g.gh_classic(), g.user()
    return (
        R(
            """
        ## shell history from the laptop rebuild (<<d>>)
        ```
          501  brew install gh jq
          502  export GITHUB_TOKEN=<<tok>>
          503  gh auth status
          504  gh repo clone <<org>>/infra-live
          505  history | tail -n 5
        ```
        - [kind: gotcha] gh picked up the env var instead of the keychain entry for <<user>>.
        """,
            d=g.date(),
            tok=tok,
            org=g.company(),
            user=user,
        ),
        [tok],
        [user, "infra-live"],
    )


@S
def s_gh_fine_table(g):
    t1, t2 = g.gh_fine(), g.gh_fine()
    org = g.company()
    return (
        R(
            """
        ### Tokens handed to the agents

        | agent | repo scope | token | expires |
        |-------|-----------|-------|---------|
        | triage-bot | <<org>>/issues-* (read) | `<<t1>>` | <<d1>> |
        | docs-sync | <<org>>/handbook (contents:write) | `<<t2>>` | <<d2>> |

        Both are fine-grained; revoke from the org settings page, not from the bot account.
        """,
            org=org,
            t1=t1,
            t2=t2,
            d1=g.date(),
            d2=g.date(),
        ),
        [t1, t2],
        ["triage-bot", "docs-sync", org + "/handbook"],
    )


@S
def s_git_credentials(g):
    user, tok = g.user(), g.gh_classic(g.pick(["ghp_", "gho_"]))
    host = g.pick(["github.com", "github.%s.com" % g.company()])
    return (
        R(
            """
        <<m>>~/.git-credentials on the build VM still has a line from the old setup:
        https://<<user>>:<<tok>>@<<host>>
        (credential.helper=store, so it is plain text on disk; switch to the gh helper)
        """,
            m=g.meta("gotcha"),
            user=user,
            tok=tok,
            host=host,
        ),
        [tok],
        [user, host],
    )


@S
def s_gha_npm_hardcoded(g):
    tok = g.npm_token()
    scope = "@" + g.company()
    return (
        R(
            """
        pasted the publish workflow so the next agent sees why it broke:
        ```yaml
        name: publish
        on:
          push:
            tags: ["v*"]
        jobs:
          npm:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v4
              - uses: actions/setup-node@v4
                with:
                  node-version: 20
                  registry-url: https://registry.npmjs.org
              - run: npm ci && npm publish --access public
                env:
                  NODE_AUTH_TOKEN: <<tok>>   # TODO move to secrets.NPM_TOKEN
        ```
        package scope is <<scope>>.
        """,
            tok=tok,
            scope=scope,
        ),
        [tok],
        [scope, "actions/setup-node@v4"],
    )


@S
def s_npmrc(g):
    tok = g.npm_token()
    scope = "@" + g.company()
    return (
        R(
            """
        - [kind: config] project .npmrc (committed by accident in <<sha>>, removed next commit):
          ```ini
          <<scope>>:registry=https://registry.npmjs.org/
          //registry.npmjs.org/:_authToken=<<tok>>
          save-exact=true
          ```
        """,
            sha=g.hex(7),
            scope=scope,
            tok=tok,
        ),
        [tok],
        [scope + ":registry=https://registry.npmjs.org/", "save-exact=true"],
    )


@S
def s_stripe_python(g):
    sk, pk = g.stripe_sk(), g.stripe_pk()
    return (
        R(
            """
        billing/settings.py before the refactor:

        ```python
        import stripe

        STRIPE_PUBLISHABLE_KEY = "<<pk>>"
        stripe.api_key = "<<sk>>"
        stripe.max_network_retries = 2
        ```
        <<m>>the publishable key can stay in the template, the other one moves to the secret store.
        """,
            pk=pk,
            sk=sk,
            m=g.meta("decision"),
        ),
        [sk],
        [pk],
    )


@S
def s_stripe_env(g):
    rk, wh = g.stripe_sk(kind="rk"), g.whsec()
    return (
        R(
            """
        .env.<<e>> for the payments worker
        ```
        STRIPE_API_VERSION=2024-06-20
        STRIPE_RESTRICTED_KEY=<<rk>>
        STRIPE_WEBHOOK_SECRET=<<wh>>
        WEBHOOK_PATH=/hooks/stripe
        ```
        """,
            e=g.env(),
            rk=rk,
            wh=wh,
        ),
        [rk, wh],
        ["STRIPE_API_VERSION=2024-06-20", "WEBHOOK_PATH=/hooks/stripe"],
    )


@S
def s_slack_chat_bot(g):
    tok = g.slack_bot()
    a, b = g.first(), g.first()
    return (
        R(
            """
        [<<t1>>] <<a>>: hey @<<b>> the deploy notifier needs a bot token, I made one → <<tok>>
        [<<t2>>] <<b>>: thanks!! pinning it here for now, will move it to vault tmrw
        [<<t3>>] <<a>>: pls don't pin it 🙃
        """,
            t1=g.time(),
            t2=g.time(),
            t3=g.time(),
            a=a,
            b=b,
            tok=tok,
        ),
        [tok],
        ["deploy notifier"],
    )


@S
def s_slack_webhook_curl(g):
    url, sec = g.slack_hook()
    ch = "#" + g.pick(["alerts-prod", "deploys", "oncall", "billing-alerts"])
    return (
        R(
            """
        <<m>>Quick way to test the alert route to <<ch>>:
        ```bash
        curl -sS -X POST -H 'Content-type: application/json' \\
          --data '{"text":"canary: disk > 90% on <<h>>"}' \\
          <<url>>
        ```
        """,
            m=g.meta("runbook"),
            ch=ch,
            h=g.host(),
            url=url,
        ),
        [sec],
        [ch],
    )


@S
def s_twilio_node(g):
    sid, tok = g.twilio_sid(), g.hex_secret(32)
    return (
        R(
            """
        ```js
        // sms/otp.js
        const twilio = require('twilio');
        const client = twilio('<<sid>>', '<<tok>>');
        module.exports = (to, body) => client.messages.create({ from: '+15005550006', to, body });
        ```
        Account SID is fine to log; the auth token is not.
        """,
            sid=sid,
            tok=tok,
        ),
        [tok],
        [sid, "+15005550006"],
    )


@S
def s_sendgrid_compose(g):
    key = g.sendgrid()
    return (
        R(
            """
        docker-compose.override.yml that <<u>> uses locally
        ```yaml
        services:
          mailer:
            image: ghcr.io/<<c>>/mailer:1.14.2
            environment:
              MAIL_PROVIDER: sendgrid
              SENDGRID_API_KEY: "<<key>>"
              MAIL_FROM: noreply@<<dom>>
            ports: ["8025:8025"]
        ```
        """,
            u=g.user(),
            c=g.company(),
            key=key,
            dom=g.domain(),
        ),
        [key],
        ["MAIL_PROVIDER: sendgrid", "ghcr.io/"],
    )


@S
def s_mailgun_php(g):
    key = g.mailgun()
    dom = "mg." + g.domain()
    return (
        R(
            """
        <?php
        // config/services.php (legacy branch)
        return [
            'mailgun' => [
                'domain'   => '<<dom>>',
                'secret'   => '<<key>>',
                'endpoint' => 'api.eu.mailgun.net',
            ],
        ];
        """,
            dom=dom,
            key=key,
        ),
        [key],
        [dom, "api.eu.mailgun.net"],
    )


@S
def s_openai_emdash(g):
    key = g.openai("proj")
    return (
        R(
            """
        <<m>>OpenAI key for the summarizer experiment — <<key>> — billed to the research project, cap set at $50/month.
        """,
            m=g.meta("credential"),
            key=key,
        ),
        [key],
        ["summarizer experiment"],
    )


@S
def s_anthropic_python(g):
    key = g.anthropic()
    return (
        R(
            """
        repro for the streaming bug:
        ```python
        from anthropic import Anthropic

        client = Anthropic(api_key="<<key>>")
        with client.messages.stream(model="<<model>>", max_tokens=512,
                                    messages=[{"role": "user", "content": "ping"}]) as s:
            for text in s.text_stream:
                print(text, end="")
        ```
        """,
            key=key,
            model=g.pick(["claude-sonnet-4-5", "claude-3-5-haiku-latest", "claude-opus-4-1"]),
        ),
        [key],
        ["messages.stream"],
    )


@S
def s_hf_cli(g):
    tok = g.hf()
    user = g.user()
    return (
        R(
            """
        ```console
        (venv) <<user>>@gpu-box:~$ huggingface-cli login --token <<tok>> --add-to-git-credential
        Token is valid (permission: write).
        Your token has been saved to /home/<<user>>/.cache/huggingface/token
        Login successful
        ```
        """,
            user=user,
            tok=tok,
        ),
        [tok],
        ["/home/%s/.cache/huggingface/token" % user],
    )


@S
def s_cloudflare_tf(g):
    tok = g.cf_token()
    zone = g.domain()
    return (
        R(
            """
        terraform/dns/provider.tf (yes, inline, fixing in <<t>>):
        ```hcl
        provider "cloudflare" {
          api_token = "<<tok>>"
        }

        resource "cloudflare_record" "apex" {
          zone_id = var.zone_id
          name    = "<<zone>>"
          type    = "A"
          value   = "203.0.113.10"
          proxied = true
        }
        ```
        """,
            t=g.ticket(),
            tok=tok,
            zone=zone,
        ),
        [tok],
        [zone, "203.0.113.10"],
    )


@S
def s_digitalocean_doctl(g):
    tok = g.do_token()
    return (
        R(
            """
        - [kind: runbook] re-auth doctl on the jump host: `doctl auth init --context <<ctx>> -t <<tok>>` then `doctl kubernetes cluster kubeconfig save <<cl>>`.
        """,
            ctx=g.company(),
            tok=tok,
            cl="k8s-" + g.region(),
        ),
        [tok],
        ["doctl kubernetes cluster kubeconfig save"],
    )


@S
def s_linear_pt(g):
    key = g.linear()
    who = g.first().capitalize()
    return (
        R(
            """
        - [kind: onboarding] Para integrar o Linear com o bot de triagem, usa a chave pessoal da equipa: <<key>> (pede à <<who>> se der erro 401). Não a coloques no README.
        """,
            key=key,
            who=who,
        ),
        [key],
        ["bot de triagem"],
    )


@S
def s_notion_ts(g):
    tok = g.notion(legacy=g.chance(0.3))
    db = g.hex(32)
    return (
        R(
            """
        ```ts
        // scripts/sync-roadmap.ts
        import { Client } from "@notionhq/client";

        const notion = new Client({ auth: "<<tok>>" });
        const ROADMAP_DB = "<<db>>";

        export async function rows() {
          return notion.databases.query({ database_id: ROADMAP_DB });
        }
        ```
        """,
            tok=tok,
            db=db,
        ),
        [tok],
        [db],
    )


@S
def s_airtable_json(g):
    pat = g.airtable()
    base = "app" + g.s(14)
    return (
        R(
            """
        {
          "source": "airtable",
          "baseId": "<<base>>",
          "table": "Leads",
          "auth": { "type": "pat", "token": "<<pat>>" },
          "syncEveryMinutes": 15
        }
        """,
            base=base,
            pat=pat,
        ),
        [pat],
        [base],
    )


@S
def s_shopify_ruby(g):
    tok = g.shopify("shpat")
    shop = "%s-%s.myshopify.com" % (g.company(), g.pick(["store", "shop", "eu"]))
    return (
        R(
            """
        ```ruby
        # lib/tasks/inventory.rake
        session = ShopifyAPI::Auth::Session.new(
          shop: "<<shop>>",
          access_token: "<<tok>>"
        )
        client = ShopifyAPI::Clients::Graphql::Admin.new(session: session)
        ```
        """,
            shop=shop,
            tok=tok,
        ),
        [tok],
        [shop],
    )


@S
def s_atlassian_curl(g):
    tok = g.atlassian()
    em = g.email()
    site = "%s.atlassian.net" % g.company()
    return (
        R(
            """
        <<m>>Jira REST from a script: basic auth with email + API token.
        curl -s -u <<em>>:<<tok>> -H "Accept: application/json" "https://<<site>>/rest/api/3/search?jql=project=<<p>>"
        """,
            m=g.meta("snippet"),
            em=em,
            tok=tok,
            site=site,
            p=g.pick(["OPS", "PLAT", "WEB"]),
        ),
        [tok],
        [em, site],
    )


@S
def s_datadog_helm(g):
    api, app = g.hex_secret(32), g.hex_secret(40)
    return (
        R(
            """
        values-<<e>>.yaml for the datadog chart:
        ```yaml
        datadog:
          site: datadoghq.eu
          apiKey: <<api>>
          appKey: <<app>>
          clusterName: <<cl>>
          logs:
            enabled: true
            containerCollectAll: true
        ```
        """,
            e=g.env(),
            api=api,
            app=app,
            cl="%s-%s" % (g.company(), g.env()),
        ),
        [api, app],
        ["datadoghq.eu"],
    )


@S
def s_newrelic_yml(g):
    lic = g.newrelic_license()
    user = g.newrelic_user()
    return (
        R(
            """
        # newrelic.yml (agent) + the user key used by the deploy-marker script
        common: &default_settings
          license_key: '<<lic>>'
          app_name: <<app>>
          distributed_tracing:
            enabled: true
        # deploy marker: NEW_RELIC_API_KEY=<<user>>
        """,
            lic=lic,
            app="%s-%s" % (g.svc(), g.env()),
            user=user,
        ),
        [lic, user],
        ["distributed_tracing"],
    )


@S
def s_sentry_clirc(g):
    org = g.company()
    tok = g.sentry_org(org)
    return (
        R(
            """
        - [kind: config] ~/.sentryclirc on the CI image (source maps upload):
          [auth]
          token=<<tok>>
          [defaults]
          org=<<org>>
          project=web-frontend
        """,
            tok=tok,
            org=org,
        ),
        [tok],
        ["org=" + org, "project=web-frontend"],
    )


@S
def s_pagerduty_alertmanager(g):
    key = g.hex_secret(32)
    return (
        R(
            """
        ```yaml
        receivers:
          - name: pd-critical
            pagerduty_configs:
              - routing_key: <<key>>
                severity: critical
                send_resolved: true
        route:
          receiver: pd-critical
          group_by: [alertname, cluster]
        ```
        """,
            key=key,
        ),
        [key],
        ["pd-critical"],
    )


@S
def s_doppler_circleci(g):
    tok = g.doppler("st", env="ci")
    return (
        R(
            """
        .circleci/config.yml (the part that matters):
        ```yaml
        jobs:
          test:
            docker:
              - image: cimg/python:3.12
            environment:
              DOPPLER_TOKEN: <<tok>>
            steps:
              - checkout
              - run: curl -Ls https://cli.doppler.com/install.sh | sh
              - run: doppler run -- pytest -q
        ```
        """,
            tok=tok,
        ),
        [tok],
        ["cimg/python:3.12", "doppler run -- pytest -q"],
    )


@S
def s_vault_shell(g):
    tok = g.vault(g.pick(["hvs", "hvs", "legacy"]))
    addr = "https://vault.%s:8200" % g.domain()
    return (
        R(
            """
        ```
        $ export VAULT_ADDR=<<addr>>
        $ export VAULT_TOKEN=<<tok>>
        $ vault kv get -field=url secret/<<svc>>/database
        ```
        note to self: that token is the root-ish one from the unseal ceremony, revoke after migration.
        """,
            addr=addr,
            tok=tok,
            svc=g.svc(),
        ),
        [tok],
        [addr],
    )


@S
def s_postman_incident(g):
    key = g.postman()
    return (
        R(
            """
        ## Incident <<t>> — Postman collection shared publicly

        Timeline (UTC)
        - <<t1>> collection "Partner API v2" made public by mistake
        - <<t2>> found that the collection variables included `x-api-key: <<key>>`
        - <<t3>> key revoked, workspace set to team-only
        """,
            t=g.ticket(),
            t1=g.time(),
            t2=g.time(),
            t3=g.time(),
            key=key,
        ),
        [key],
        ["Partner API v2"],
    )


@S
def s_figma_zh(g):
    tok = g.figma()
    return (
        R(
            """
        - [kind: fact] 设计稿同步脚本用的是 Figma 个人访问令牌：<<tok>>，权限只读，<<d>> 过期。过期后请在 Figma 设置里重新生成。
        """,
            tok=tok,
            d=g.date(),
        ),
        [tok],
        ["Figma"],
    )


@S
def s_okta_ssws(g):
    tok = g.okta()
    org = "https://%s.okta.com" % g.company()
    return (
        R(
            """
        List deactivated users (admin token, scoped to Read-only Admin):
            curl -H "Authorization: SSWS <<tok>>" "<<org>>/api/v1/users?filter=status+eq+%22DEPROVISIONED%22"
        """,
            tok=tok,
            org=org,
        ),
        [tok],
        [org],
    )


@S
def s_auth0_appsettings(g):
    cid = g.s(32)
    sec = g.reg(g.s(64, B64U))
    dom = "%s.eu.auth0.com" % g.company()
    return (
        R(
            """
        appsettings.Development.json
        ```json
        {
          "Auth0": {
            "Domain": "<<dom>>",
            "ClientId": "<<cid>>",
            "ClientSecret": "<<sec>>",
            "Audience": "https://api.<<dom2>>"
          }
        }
        ```
        """,
            dom=dom,
            cid=cid,
            sec=sec,
            dom2=g.domain(),
        ),
        [sec],
        [dom, cid],
    )


@S
def s_azure_conn_string(g):
    acct = g.company()[:10] + g.s(4, LOWNUM)
    key = g.azure_storage_key()
    return (
        R(
            """
        local.settings.json for the Functions app:
        {
          "IsEncrypted": false,
          "Values": {
            "AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName=<<acct>>;AccountKey=<<key>>;EndpointSuffix=core.windows.net",
            "FUNCTIONS_WORKER_RUNTIME": "dotnet-isolated"
          }
        }
        """,
            acct=acct,
            key=key,
        ),
        [key],
        ["AccountName=" + acct, "dotnet-isolated"],
    )


@S
def s_azure_sas_ticket(g):
    acct = g.company()[:10] + g.s(3, LOWNUM)
    sig = g.reg(urllib.parse.quote(base64.b64encode(g.raw(32)).decode(), safe=""))
    url = (
        "https://%s.blob.core.windows.net/exports/report-%s.csv?sv=2022-11-02&ss=b&srt=o&sp=r"
        "&se=%sT23:59:00Z&st=%sT08:00:00Z&spr=https&sig=%s"
    ) % (acct, g.date(), g.date(), g.date(), sig)
    return (
        R(
            """
        **<<t>>** Customer can't open the export link
        > Hi, the link you sent (<<url>>) says AuthenticationFailed.
        Reply: the SAS expired; generate a new one with 7 days lifetime.
        """,
            t=g.ticket(),
            url=url,
        ),
        [sig],
        ["%s.blob.core.windows.net" % acct],
    )


@S
def s_gcp_sa_json(g):
    proj = "%s-%s-%d" % (g.company(), g.env(), g.int(100, 999))
    em = "%s@%s.iam.gserviceaccount.com" % (g.pick(["ci-deployer", "bq-loader", "terraform"]), proj)
    kid = g.hex(40)
    g.reg(kid)
    pk = g.rsa_pem()
    doc = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": kid,
        "private_key": pk + "\n",
        "client_email": em,
        "client_id": g.digits(21),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    body = json.dumps(doc, indent=2)
    return (
        R(
            """
        <<m>>key file the agent found in ~/Downloads (already disabled in IAM):
        ```json
        <<body>>
        ```
        """,
            m=g.meta("gotcha"),
            body=body,
        ),
        [kid] + pem_body_lines(pk),
        [em, proj],
    )


@S
def s_aws_credentials_ini(g):
    ak, sk = g.aws_akid(), g.aws_secret()
    prof = g.pick(["deploy", "billing-ro", "sandbox-admin"])
    return (
        R(
            """
        ~/.aws/credentials
        ```ini
        [default]
        region = <<reg>>

        [<<prof>>]
        aws_access_key_id = <<ak>>
        aws_secret_access_key = <<sk>>
        ```
        """,
            reg=g.region(),
            prof=prof,
            ak=ak,
            sk=sk,
        ),
        [ak, sk],
        ["[%s]" % prof],
    )


@S
def s_aws_session_env(g):
    ak, sk, st = g.aws_akid("ASIA"), g.aws_secret(), g.aws_session()
    acct = g.digits(12)
    return (
        R(
            """
        output of `aws sts assume-role ... | jq` pasted as env for the debugging session (role arn:aws:iam::<<acct>>:role/BreakGlass):
        export AWS_ACCESS_KEY_ID=<<ak>>
        export AWS_SECRET_ACCESS_KEY=<<sk>>
        export AWS_SESSION_TOKEN=<<st>>
        """,
            acct=acct,
            ak=ak,
            sk=sk,
            st=st,
        ),
        [ak, sk, st],
        ["arn:aws:iam::%s:role/BreakGlass" % acct],
    )


@S
def s_jwt_http_dump(g):
    sub = g.uuid()
    tok = g.jwt(
        {
            "sub": sub,
            "iss": "https://auth.%s" % g.domain(),
            "aud": "api",
            "iat": 1760000000 + g.int(0, 9999999),
            "exp": 1790000000 + g.int(0, 9999999),
            "scope": "read:orders",
        }
    )
    return (
        R(
            """
        request that reproduces the 403:
        ```http
        GET /v1/orders?limit=20 HTTP/1.1
        Host: <<h>>
        Authorization: Bearer <<tok>>
        Accept: application/json
        ```
        """,
            h=g.host("api"),
            tok=tok,
        ),
        [tok],
        ["GET /v1/orders?limit=20 HTTP/1.1"],
    )


@S
def s_jwt_cookie_rs256(g):
    kid = g.hex(16)
    tok = g.jwt(
        {
            "sub": g.digits(9),
            "name": g.first().capitalize(),
            "role": "admin",
            "iat": 1765000000 + g.int(0, 999999),
            "exp": 1765000000 + g.int(1000000, 2999999),
        },
        alg="RS256",
        kid=kid,
    )
    return (
        R(
            """
        From devtools → Application → Cookies (<<h>>):
        Name	Value	Domain	Path	HttpOnly
        __Host-session	<<tok>>	<<h>>	/	✓
        theme	dark	<<h>>	/
        """,
            h=g.host("app"),
            tok=tok,
        ),
        [tok],
        ["__Host-session", "theme\tdark"],
    )


@S
def s_pem_helm_block(g):
    p = g.rsa_pem(pkcs8=g.chance())
    host = g.host("ingress")
    return (
        R(
            """
        values.yaml for the legacy ingress (cert is from the internal CA):
        ```yaml
        ingress:
          host: <<host>>
          tls:
            enabled: true
            key: |
        <<p>>
        ```
        """,
            host=host,
            p=indent(p, 6),
        ),
        pem_body_lines(p),
        [host],
    )


@S
def s_ec_k8s_secret(g):
    p = g.ec_pem()
    ns = g.pick(["payments", "edge", "identity"])
    return (
        R(
            """
        ```yaml
        apiVersion: v1
        kind: Secret
        metadata:
          name: jwt-signing-key
          namespace: <<ns>>
        type: Opaque
        stringData:
          signing.pem: |
        <<p>>
        ```
        """,
            ns=ns,
            p=indent(p, 4),
        ),
        pem_body_lines(p),
        ["jwt-signing-key", "namespace: " + ns],
    )


@S
def s_openssh_key_note(g):
    user = g.user()
    p, pub, _ = g.openssh_ed25519("%s@%s" % (user, g.pick(["thinkpad", "mbp", "buildbox", "wsl"])))
    return (
        R(
            """
        <<m>>Deploy key pair for the docs mirror. Public half is registered on the repo; private half below (yes, I know).
        public: <<pub>>
        private:
        <<p>>
        """,
            m=g.meta("credential"),
            pub=pub,
            p=p,
        ),
        pem_body_lines(p),
        [pub],
    )


@S
def s_age_keyfile(g):
    sec, pub = g.age_keypair()
    return (
        R(
            """
        contents of ~/.config/sops/age/keys.txt on <<h>>:
        # created: <<d>>T<<t>>:11+01:00
        # public key: <<pub>>
        <<sec>>
        The public key is what goes into .sops.yaml `age:` recipients.
        """,
            h=g.host("bastion"),
            d=g.date(),
            t=g.time(),
            pub=pub,
            sec=sec,
        ),
        [sec],
        [pub],
    )


@S
def s_wireguard_conf(g):
    priv, mypub = g.wg_keypair()
    _, peerpub = g.wg_keypair()  # peer private half is never shown
    ep = "%s:51820" % g.pick(["vpn.%s" % g.domain(), "198.51.100.%d" % g.int(2, 250)])
    return (
        R(
            """
        /etc/wireguard/wg0.conf on the laptop (my pubkey = <<mypub>>)
        [Interface]
        Address = 10.44.0.<<n>>/32
        PrivateKey = <<priv>>
        DNS = 10.44.0.1

        [Peer]
        PublicKey = <<peerpub>>
        AllowedIPs = 10.44.0.0/16, 10.20.0.0/16
        Endpoint = <<ep>>
        PersistentKeepalive = 25
        """,
            mypub=mypub,
            n=g.int(2, 200),
            priv=priv,
            peerpub=peerpub,
            ep=ep,
        ),
        [priv],
        [mypub, peerpub, ep],
    )


@S
def s_telegram_python(g):
    tok = g.telegram()
    bot = "@%s_%s_bot" % (g.company(), g.pick(["alerts", "ops", "notify"]))
    return (
        R(
            """
        ```python
        # bot.py  (<<bot>>)
        from telegram.ext import ApplicationBuilder, CommandHandler

        app = ApplicationBuilder().token("<<tok>>").build()
        app.add_handler(CommandHandler("status", status))
        app.run_polling()
        ```
        """,
            bot=bot,
            tok=tok,
        ),
        [tok],
        [bot],
    )


@S
def s_discord_js(g):
    tok = g.discord()
    return (
        R(
            """
        ```js
        import { Client, GatewayIntentBits } from 'discord.js';
        const client = new Client({ intents: [GatewayIntentBits.Guilds] });
        client.once('ready', () => console.log(`logged in as ${client.user.tag}`));
        client.login('<<tok>>');
        ```
        - [kind: gotcha] Reset Token in the dev portal invalidates this immediately; tell <<u>> first.
        """,
            tok=tok,
            u=g.user(),
        ),
        [tok],
        ["GatewayIntentBits.Guilds"],
    )


@S
def s_pypirc(g):
    tok = g.pypi()
    return (
        R(
            """
        ~/.pypirc
        [distutils]
        index-servers =
            pypi
            testpypi

        [pypi]
        username = __token__
        password = <<tok>>

        [testpypi]
        repository = https://test.pypi.org/legacy/
        username = __token__
        """,
            tok=tok,
        ),
        [tok],
        ["username = __token__", "https://test.pypi.org/legacy/"],
    )


@S
def s_rubygems_creds(g):
    key = g.rubygems()
    return (
        R(
            """
        - [kind: config] ~/.gem/credentials (chmod 600 or gem refuses):
          ---
          :rubygems_api_key: <<key>>
        """,
            key=key,
        ),
        [key],
        [":rubygems_api_key:"],
    )


@S
def s_nuget_push(g):
    key = g.nuget()
    pkg = "%s.%s" % (g.company().capitalize(), g.pick(["Client", "Core", "Abstractions"]))
    ver = "%d.%d.%d" % (g.int(1, 5), g.int(0, 20), g.int(0, 9))
    return (
        R(
            """
        PS C:\\src\\<<pkg>>> dotnet pack -c Release
        PS C:\\src\\<<pkg>>> dotnet nuget push .\\bin\\Release\\<<pkg>>.<<ver>>.nupkg --api-key <<key>> --source https://api.nuget.org/v3/index.json
        Pushing <<pkg>>.<<ver>>.nupkg to 'https://www.nuget.org/api/v2/package'...
          Created https://www.nuget.org/api/v2/package/ 1843ms
        """,
            pkg=pkg,
            ver=ver,
            key=key,
        ),
        [key],
        [pkg + "." + ver + ".nupkg"],
    )


@S
def s_crates_credentials(g):
    tok = g.crates()
    return (
        R(
            """
        ~/.cargo/credentials.toml
        ```toml
        [registry]
        token = "<<tok>>"
        ```
        (cargo login writes it there; `cargo logout` removes it)
        """,
            tok=tok,
        ),
        [tok],
        ["cargo logout"],
    )


@S
def s_dockerhub_login(g):
    user, pat = g.user().replace(".", ""), g.dockerhub()
    return (
        R(
            """
        ```
        $ echo "<<pat>>" | docker login -u <<user>> --password-stdin
        WARNING! Your password will be stored unencrypted in /home/<<user>>/.docker/config.json.
        Login Succeeded
        ```
        """,
            pat=pat,
            user=user,
        ),
        [pat],
        ["docker login -u " + user],
    )


@S
def s_terraformrc(g):
    tok = g.tfc()
    org = g.company()
    return (
        R(
            """
        ~/.terraformrc
        credentials "app.terraform.io" {
          token = "<<tok>>"
        }
        workspace: <<org>>/network-<<e>>
        """,
            tok=tok,
            org=org,
            e=g.env(),
        ),
        [tok],
        ['credentials "app.terraform.io"'],
    )


@S
def s_postgres_env(g):
    user, pw, host = g.pick(["app", "svc_" + g.svc(), "readonly"]), g.pw_url(), g.host("pg")
    db = g.svc() + "_" + g.env()
    return (
        R(
            """
        .env (staging box)
        DATABASE_URL=postgresql://<<user>>:<<pw>>@<<host>>:5432/<<db>>?sslmode=require
        POOL_SIZE=10
        """,
            user=user,
            pw=pw,
            host=host,
            db=db,
        ),
        [pw],
        [host, db],
    )


@S
def s_mysql_go_dsn(g):
    user, pw, host = "orders_rw", g.pw_url(), g.host("mysql")
    return (
        R(
            """
        ```go
        // TODO(<<who>>): read from env, this is only for the local repro
        dsn := "<<user>>:<<pw>>@tcp(<<host>>:3306)/orders?parseTime=true&tls=preferred"
        db, err := sql.Open("mysql", dsn)
        if err != nil {
            log.Fatal(err)
        }
        ```
        """,
            who=g.first(),
            user=user,
            pw=pw,
            host=host,
        ),
        [pw],
        [host, user],
    )


@S
def s_mongo_slack(g):
    user, pw = g.user().split(".")[0], g.pw_url()
    cl = "cluster0.%s.mongodb.net" % g.s(5, LOWNUM)
    return (
        R(
            """
        <<a>> 10:42
        can someone check why the nightly export fails? it uses mongodb+srv://<<user>>:<<pw>>@<<cl>>/analytics?retryWrites=true&w=majority
        <<b>> 10:44
        atlas IP allowlist changed yesterday, I'll add the runner's egress IP
        """,
            a=g.first(),
            b=g.first(),
            user=user,
            pw=pw,
            cl=cl,
        ),
        [pw],
        [cl],
    )


@S
def s_redis_helm(g):
    pw = g.pw_alnum()
    host = "redis-master.%s.svc.cluster.local" % g.pick(["cache", "data", "platform"])
    return (
        R(
            """
        ```yaml
        cache:
          url: "rediss://default:<<pw>>@<<host>>:6380/0"
          ttlSeconds: 300
        ```
        """,
            pw=pw,
            host=host,
        ),
        [pw],
        [host],
    )


@S
def s_amqp_celery(g):
    user, pw, host = "celery", g.pw_url(), g.host("rabbit")
    return (
        R(
            """
        ```python
        # celeryconfig.py
        broker_url = "amqps://<<user>>:<<pw>>@<<host>>:5671/<<vh>>"
        result_backend = "rpc://"
        task_acks_late = True
        ```
        """,
            user=user,
            pw=pw,
            host=host,
            vh=g.pick(["jobs", "etl", "%2F"]),
        ),
        [pw],
        [host],
    )


@S
def s_spring_jdbc(g):
    pw, host = g.pw(symbols="!#%*-_"), g.host("db")
    return (
        R(
            """
        src/main/resources/application-<<e>>.properties
        spring.datasource.url=jdbc:postgresql://<<host>>:5432/inventory?user=inventory_app&password=<<pw>>&ssl=true
        spring.jpa.hibernate.ddl-auto=validate
        management.endpoints.web.exposure.include=health,info
        """,
            e=g.env(),
            host=host,
            pw=pw,
        ),
        [pw],
        [host, "inventory_app"],
    )


@S
def s_sqlserver_conn(g):
    pw, host = g.pw(symbols="!#%*-_@"), g.host("sql")
    return (
        R(
            """
        "ConnectionStrings": {
          "Default": "Server=tcp:<<host>>,1433;Initial Catalog=Ledger;Persist Security Info=False;User ID=ledger_svc;Password=<<pw>>;Encrypt=True;TrustServerCertificate=False;Connection Timeout=30;"
        }
        """,
            host=host,
            pw=pw,
        ),
        [pw],
        [host, "User ID=ledger_svc"],
    )


@S
def s_basic_auth_nginx(g):
    user, pw = g.pick(["metrics", "scraper", "grafana"]), g.pw(symbols="!#%*-_.")
    b = base64.b64encode(("%s:%s" % (user, pw)).encode()).decode()
    g.reg(b)
    up = g.host("prometheus")
    return (
        R(
            """
        nginx snippet that proxies to the protected Prometheus:
        ```nginx
        location /prom/ {
            proxy_pass https://<<up>>:9090/;
            proxy_set_header Authorization "Basic <<b>>";
            proxy_set_header Host $host;
        }
        ```
        """,
            up=up,
            b=b,
        ),
        [b],
        [up],
    )


@S
def s_curl_jenkins(g):
    user, tok = g.user(), g.reg(g.hex(34))
    jk = "https://ci.%s" % g.domain()
    return (
        R(
            """
        trigger the nightly manually:
        curl -X POST -u <<user>>:<<tok>> "<<jk>>/job/nightly-e2e/buildWithParameters?BRANCH=main"
        (API token from Jenkins user config, not the SSO password)
        """,
            user=user,
            tok=tok,
            jk=jk,
        ),
        [tok],
        [user, jk + "/job/nightly-e2e"],
    )


@S
def s_netrc(g):
    user, pw = g.user(), g.pw()
    host = g.pick(["artifacts.%s" % g.domain(), "nexus.%s" % g.domain()])
    return (
        R(
            """
        ~/.netrc (used by pip and curl --netrc)
        machine <<host>>
          login <<user>>
          password <<pw>>
        """,
            host=host,
            user=user,
            pw=pw,
        ),
        [pw],
        [host, user],
    )


@S
def s_docker_config_auth(g):
    user, pw = g.user(), g.pw()
    b = base64.b64encode(("%s:%s" % (user, pw)).encode()).decode()
    g.reg(b)
    reg = "registry.%s" % g.domain()
    return (
        R(
            """
        ~/.docker/config.json on the runner (no credsStore configured):
        {
          "auths": {
            "<<reg>>": {
              "auth": "<<b>>"
            }
          },
          "currentContext": "default"
        }
        """,
            reg=reg,
            b=b,
        ),
        [b],
        [reg],
    )


@S
def s_k8s_secret_data(g):
    pw, key = g.pw(), g.reg(g.s(40))
    bpw = base64.b64encode(pw.encode()).decode()
    bkey = base64.b64encode(key.encode()).decode()
    g.reg(bpw)
    g.reg(bkey)
    return (
        R(
            """
        kubectl get secret app-env -o yaml (trimmed):
        ```yaml
        apiVersion: v1
        data:
          DB_PASSWORD: <<bpw>>
          PARTNER_API_KEY: <<bkey>>
          LOG_LEVEL: aW5mbw==
        kind: Secret
        metadata:
          name: app-env
        ```
        """,
            bpw=bpw,
            bkey=bkey,
        ),
        [bpw, bkey],
        ["LOG_LEVEL: aW5mbw==", "name: app-env"],
    )


@S
def s_totp_ja(g):
    sec = g.totp()
    acct = g.email()
    iss = g.pick(["GitLab", "AWS", "Okta", "Cloudflare"])
    uri = "otpauth://totp/%s:%s?secret=%s&issuer=%s&digits=6&period=30" % (iss, urllib.parse.quote(acct), sec, iss)
    return (
        R(
            """
        - [kind: fact] 共有アカウント（<<acct>>）の二要素認証のシード。QRコードの代わりにこちらを登録してください：<<uri>>
        """,
            acct=acct,
            uri=uri,
        ),
        [sec],
        [acct],
    )


@S
def s_totp_spaced(g):
    raw = g.totp(20)
    spaced = " ".join(wrap(raw.lower(), 4))
    half = len(spaced) // 2
    cut = spaced.rfind(" ", 0, half)
    p1, p2 = spaced[:cut], spaced[cut + 1 :]
    return (
        R(
            """
        <<m>>Backup of the 2FA setup key for the registrar account (type it into the authenticator app manually):
            <<spaced>>
        """,
            m=g.meta("credential"),
            spaced=spaced,
        ),
        [p1, p2],
        ["registrar account"],
    )


@S
def s_github_recovery_codes(g):
    codes = [g.reg("%s-%s" % (g.hex(5), g.hex(5))) for _ in range(16)]
    user = g.user()
    body = "\n".join(codes)
    return (
        R(
            """
        github-recovery-codes.txt for the org owner account <<user>> (store offline!)
        <<body>>
        """,
            user=user,
            body=body,
        ),
        codes,
        [user],
    )


@S
def s_google_backup_ko(g):
    codes = [g.reg("%s %s" % (g.s(4, DIGITS), g.s(4, DIGITS))) for _ in range(10)]
    acct = g.email()
    lst = "\n".join("%d. %s" % (i + 1, c) for i, c in enumerate(codes))
    return (
        R(
            """
        ## 공용 구글 계정 백업 코드
        계정: <<acct>>
        <<lst>>
        사용한 코드는 줄을 그어 주세요.
        """,
            acct=acct,
            lst=lst,
        ),
        codes,
        [acct],
    )


@S
def s_bip39_vi(g):
    ph = g.bip39(12)
    return (
        R(
            """
        - [kind: fact] Ví thử nghiệm cho testnet (Sepolia) – cụm từ khôi phục: "<<ph>>". Không dùng cho mainnet.
        """,
            ph=ph,
        ),
        phrase_chunks(ph, 3),
        ["Sepolia"],
    )


@S
def s_bip39_24_list(g):
    ph = g.bip39(24)
    ws = ph.split()
    rows = "\n".join("%2d. %-10s %2d. %s" % (i + 1, ws[i], i + 13, ws[i + 12]) for i in range(12))
    chunks = ["%2d. %-10s %2d. %s" % (i + 1, ws[i], i + 13, ws[i + 12]) for i in range(12)]
    for c in chunks:
        g.reg(c)
    return (
        R(
            """
        Ledger seed written down for the treasury multisig signer #<<n>>:
        ```
        <<rows>>
        ```
        """,
            n=g.int(1, 3),
            rows=rows,
        ),
        chunks,
        ["treasury multisig"],
    )


@S
def s_hardhat_eth(g):
    pk = g.eth_priv()
    url = "https://sepolia.infura.io/v3/" + g.hex(32)
    g.reg(url.split("/")[-1])
    return (
        R(
            """
        ```js
        // hardhat.config.js
        module.exports = {
          solidity: "0.8.24",
          networks: {
            sepolia: {
              url: "<<url>>",
              accounts: ["<<pk>>"],
            },
          },
        };
        ```
        """,
            url=url,
            pk=pk,
        ),
        [pk, url.split("/")[-1]],
        ['solidity: "0.8.24"'],
    )


@S
def s_btc_wif(g):
    w = g.wif()
    return (
        R(
            """
        <<m>>Paper wallet from the 2019 hackathon, still has ~0.004 BTC. WIF: <<w>> — sweep it into the company wallet and delete this line.
        """,
            m=g.meta("todo"),
            w=w,
        ),
        [w],
        ["2019 hackathon"],
    )


@S
def s_solana_keypair(g):
    arr, pub = g.solana()
    s = "[" + ",".join(str(b) for b in arr) + "]"
    mid = s.index(",", len(s) // 2)
    p1, p2 = s[:mid], s[mid + 1 :]
    g.reg(p1)
    g.reg(p2)
    return (
        R(
            """
        devnet deployer keypair (~/.config/solana/devnet.json), pubkey <<pub>>:
        <<s>>
        """,
            pub=pub,
            s=s,
        ),
        [p1, p2],
        [pub],
    )


@S
def s_xprv(g):
    x = g.xprv()
    return (
        R(
            """
        - [kind: credential] Watch-only setup needs the xpub; the signer box uses the master xprv: <<x>> (derivation m/84'/0'/0').
        """,
            x=x,
        ),
        [x],
        ["m/84'/0'/0'"],
    )


@S
def s_wifi_ar(g):
    pw = g.wifi()
    ssid = "%s-%s" % (g.company().capitalize(), g.pick(["Guest", "Office", "5G", "Lab"]))
    return (
        R(
            """
        - ملاحظة: شبكة الواي فاي في المكتب الجديد اسمها <<ssid>> وكلمة المرور هي «<<pw>>». الرجاء عدم مشاركتها مع الزوار.
        """,
            ssid=ssid,
            pw=pw,
        ),
        [pw],
        [ssid],
    )


@S
def s_wpa_supplicant(g):
    ssid = "%s_%s" % (g.company(), g.pick(["iot", "warehouse", "floor3"]))
    raw = g.chance()
    psk = g.reg(g.hex(64)) if raw else g.wifi()
    line = ("psk=%s" % psk) if raw else ('psk="%s"' % psk)
    return (
        R(
            """
        /etc/wpa_supplicant/wpa_supplicant.conf on the kiosk Pis:
        ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev
        update_config=1
        country=DE

        network={
            ssid="<<ssid>>"
            <<line>>
            key_mgmt=WPA-PSK
        }
        """,
            ssid=ssid,
            line=line,
        ),
        [psk],
        ['ssid="%s"' % ssid],
    )


@S
def s_router_tr(g):
    pw = g.pw_human()
    ip = "192.168.%d.1" % g.int(0, 10)
    return (
        R(
            """
        - [kind: fact] Ofisteki modemin yönetim paneli: http://<<ip>> — kullanıcı adı admin, şifre <<pw>>. Fabrika ayarına dönerse şifre etiketteki olur, bunu tekrar ayarlayın.
        """,
            ip=ip,
            pw=pw,
        ),
        [pw],
        ["http://" + ip],
    )


@S
def s_alarm_pl(g):
    pin = g.pin(g.pick([6, 7, 8]))
    return (
        R(
            """
        - Kod do alarmu w serwerowni (drzwi od strony parkingu): <<pin>>#. Po wejściu masz 30 sekund na rozbrojenie. Zmieniony <<d>>.
        """,
            pin=pin,
            d=g.date(),
        ),
        [pin],
        ["serwerowni"],
    )


@S
def s_ru_chat_password(g):
    pw = g.pw()
    user = g.user()
    return (
        R(
            """
        <<a>>: Дима, какой пароль от тестового стенда?
        <<b>>: логин <<user>>, пароль <<pw>> — только не свети его в общем чате
        <<a>>: ок, спасибо 👍
        """,
            a=g.first().capitalize(),
            b="Дмитрий",
            user=user,
            pw=pw,
        ),
        [pw],
        [user],
    )


@S
def s_hi_passphrase(g):
    pw = g.passphrase(sep=g.pick(["-", " "]))
    return (
        R(
            """
        - [kind: fact] बिल्ड सर्वर के लिए नया पासवर्ड: "<<pw>>" (<<d>> से लागू)। इसे पासवर्ड मैनेजर में भी अपडेट कर दिया है।
        """,
            pw=pw,
            d=g.date(),
        ),
        [pw],
        ["पासवर्ड मैनेजर"],
    )


@S
def s_password_table(g):
    rows, secs, keeps = [], [], []
    for svc in g.sample(["grafana", "minio", "rabbitmq-ui", "pgadmin", "keycloak-admin", "argocd"], 3):
        u = g.pick(["admin", "ops", "root", svc.split("-")[0]])
        p = g.pick([g.pw, g.pw_alnum, g.pw_human])()
        rows.append("| %s | https://%s.%s | %s | %s |" % (svc, svc, g.domain(), u, p))
        secs.append(p)
        keeps.append("https://%s." % svc)
    return (
        R(
            """
        ## Local admin logins (break-glass only)

        | service | url | user | password |
        |---|---|---|---|
        <<rows>>
        """,
            rows="\n".join(rows),
        ),
        secs,
        keeps,
    )


@S
def s_ansible_vars(g):
    bp, dp = g.pw(), g.pw_alnum()
    return (
        R(
            """
        group_vars/<<grp>>/main.yml (before ansible-vault encrypt_string was adopted):
        ```yaml
        ansible_user: deploy
        ansible_become: true
        ansible_become_password: "<<bp>>"
        postgres_version: 16
        app_db_password: <<dp>>
        ```
        """,
            grp=g.pick(["webservers", "dbservers", "workers"]),
            bp=bp,
            dp=dp,
        ),
        [bp, dp],
        ["ansible_user: deploy", "postgres_version: 16"],
    )


@S
def s_tfvars(g):
    dp, ak = g.pw(symbols="!#%*-_"), g.reg(g.s(32, LOWNUM))
    return (
        R(
            """
        terraform.tfvars (gitignored? no, it was committed):
        ```hcl
        region          = "<<reg>>"
        instance_class  = "db.r6g.large"
        db_username     = "ledger_admin"
        db_password     = "<<dp>>"
        monitoring_key  = "<<ak>>"
        tags = {
          team = "payments"
        }
        ```
        """,
            reg=g.region(),
            dp=dp,
            ak=ak,
        ),
        [dp, ak],
        ['db_username     = "ledger_admin"', 'instance_class  = "db.r6g.large"'],
    )


@S
def s_helm_values_passwords(g):
    pp, rp = g.pw_alnum(), g.pw_alnum()
    return (
        R(
            """
        helm upgrade --install core ./charts/core -f values-<<e>>.yaml, where values-<<e>>.yaml has:
        ```yaml
        postgresql:
          auth:
            username: core
            password: <<pp>>
            database: core
        redis:
          auth:
            enabled: true
            password: "<<rp>>"
        ```
        """,
            e=g.env(),
            pp=pp,
            rp=rp,
        ),
        [pp, rp],
        ["username: core"],
    )


@S
def s_compose_passwords(g):
    pg, mn = g.pw_alnum(), g.pw()
    return (
        R(
            """
        ```yaml
        services:
          db:
            image: postgres:16-alpine
            environment:
              POSTGRES_USER: analytics
              POSTGRES_PASSWORD: <<pg>>
          minio:
            image: minio/minio:RELEASE.2024-10-13T13-34-11Z
            command: server /data --console-address ":9001"
            environment:
              MINIO_ROOT_USER: minioadmin-<<c>>
              MINIO_ROOT_PASSWORD: '<<mn>>'
        ```
        """,
            pg=pg,
            c=g.company(),
            mn=mn,
        ),
        [pg, mn],
        ["POSTGRES_USER: analytics", "postgres:16-alpine"],
    )


@S
def s_gitlab_ci_glpat(g):
    tok = g.glpat()
    return (
        R(
            """
        .gitlab-ci.yml
        ```yaml
        stages: [build, release]
        release:
          stage: release
          image: registry.gitlab.com/gitlab-org/release-cli:latest
          script:
            - git remote set-url origin "https://oauth2:<<tok>>@gitlab.<<d>>/<<grp>>/app.git"
            - git push origin HEAD:refs/tags/$CI_COMMIT_TAG
          rules:
            - if: $CI_COMMIT_TAG
        ```
        """,
            tok=tok,
            d=g.domain(),
            grp=g.company(),
        ),
        [tok],
        ["registry.gitlab.com/gitlab-org/release-cli:latest"],
    )


@S
def s_gitlab_runner_register(g):
    tok = g.reg("glrt-" + g.s(20, B64U))
    url = "https://gitlab.%s" % g.domain()
    return (
        R(
            """
        history on the new runner host:
          sudo gitlab-runner register --non-interactive --url <<url>> --token <<tok>> --executor docker --docker-image alpine:3.20 --description "<<d>>"
          sudo systemctl restart gitlab-runner
        """,
            url=url,
            tok=tok,
            d="docker-%s-%02d" % (g.region(), g.int(1, 9)),
        ),
        [tok],
        [url],
    )


@S
def s_circleci_aws(g):
    ak, sk = g.aws_akid(), g.aws_secret()
    return (
        R(
            """
        ```yaml
        version: 2.1
        orbs:
          aws-cli: circleci/aws-cli@4.1
        jobs:
          deploy:
            executor: aws-cli/default
            environment:
              AWS_ACCESS_KEY_ID: <<ak>>
              AWS_SECRET_ACCESS_KEY: <<sk>>
              AWS_DEFAULT_REGION: <<reg>>
            steps:
              - checkout
              - run: aws s3 sync ./dist s3://<<b>> --delete
        ```
        """,
            ak=ak,
            sk=sk,
            reg=g.region(),
            b="%s-static-%s" % (g.company(), g.env()),
        ),
        [ak, sk],
        ["circleci/aws-cli@4.1"],
    )


@S
def s_gha_slack_webhook(g):
    url, sec = g.slack_hook()
    return (
        R(
            """
              - name: notify
                if: failure()
                run: |
                  curl -X POST -H 'Content-type: application/json' \\
                    --data "{\\"text\\":\\"nightly failed on ${GITHUB_REF_NAME}\\"}" \\
                    <<url>>
        """,
            url=url,
        ),
        [sec],
        ["if: failure()"],
    )


@S
def s_sshpass_history(g):
    pw, user, host = g.pw(symbols="!#%*-_.+="), g.pick(["pi", "ubuntu", "deploy", "root"]), g.host("edge")
    return (
        R(
            """
        ```
        for h in <<host>> <<host2>>; do
          sshpass -p '<<pw>>' ssh -o StrictHostKeyChecking=no <<user>>@$h 'sudo systemctl restart collector'
        done
        ```
        """,
            host=host,
            host2=g.host("edge"),
            pw=pw,
            user=user,
        ),
        [pw],
        [host, "sudo systemctl restart collector"],
    )


@S
def s_django_secret(g):
    sk = g.reg(g.s(50, LOWER + DIGITS + "!@#%^&*(-_=+)"))
    return (
        R(
            """
        ```python
        # settings/production.py
        DEBUG = False
        SECRET_KEY = '<<sk>>'
        ALLOWED_HOSTS = ["<<h>>"]
        ```
        """,
            sk=sk,
            h=g.host("www"),
        ),
        [sk],
        ["DEBUG = False"],
    )


@S
def s_rails_secret(g):
    kb = g.reg(g.hex(128))
    mk = g.reg(g.hex(32))
    return (
        R(
            """
        - [kind: gotcha] `bin/rails credentials:show` on prod printed:
          secret_key_base: <<kb>>
          and config/master.key is <<mk>> — both need rotating since they were in the terminal recording.
        """,
            kb=kb,
            mk=mk,
        ),
        [kb, mk],
        ["config/master.key"],
    )


@S
def s_laravel_env(g):
    ak = g.reg("base64:" + base64.b64encode(g.raw(32)).decode())
    dp = g.pw(symbols="!#%*-_.")
    return (
        R(
            """
        APP_NAME=Portal
        APP_ENV=production
        APP_KEY=<<ak>>
        APP_DEBUG=false
        DB_CONNECTION=mysql
        DB_HOST=<<h>>
        DB_USERNAME=portal
        DB_PASSWORD=<<dp>>
        """,
            ak=ak,
            h=g.host("mysql"),
            dp=dp,
        ),
        [ak, dp],
        ["APP_NAME=Portal", "DB_USERNAME=portal"],
    )


@S
def s_fastapi_jwt(g):
    sec = g.reg(g.hex(64))
    return (
        R(
            """
        ```python
        # app/core/security.py
        from datetime import timedelta

        JWT_SECRET = "<<sec>>"  # generated with openssl rand -hex 32
        JWT_ALGORITHM = "HS256"
        ACCESS_TOKEN_TTL = timedelta(minutes=30)
        ```
        """,
            sec=sec,
        ),
        [sec],
        ['JWT_ALGORITHM = "HS256"'],
    )


@S
def s_nextauth_env(g):
    ns = g.b64_secret(32)
    cid = "Ov23li" + g.s(14)
    cs = g.reg(g.hex(40))
    return (
        R(
            """
        .env.local (Next.js)
        NEXTAUTH_URL=http://localhost:3000
        NEXTAUTH_SECRET=<<ns>>
        GITHUB_ID=<<cid>>
        GITHUB_SECRET=<<cs>>
        """,
            ns=ns,
            cid=cid,
            cs=cs,
        ),
        [ns, cs],
        [cid, "NEXTAUTH_URL=http://localhost:3000"],
    )


@S
def s_google_client_secret_json(g):
    cid, cs = g.google_client_id(), g.google_client_secret()
    proj = "%s-%s" % (g.company(), g.pick(["web", "mobile", "internal"]))
    return (
        R(
            """
        client_secret.json downloaded from the console:
        {"web":{"client_id":"<<cid>>","project_id":"<<proj>>","auth_uri":"https://accounts.google.com/o/oauth2/auth","token_uri":"https://oauth2.googleapis.com/token","client_secret":"<<cs>>","redirect_uris":["http://localhost:8080/callback"]}}
        """,
            cid=cid,
            proj=proj,
            cs=cs,
        ),
        [cs],
        [cid, proj],
    )


@S
def s_gemini_curl(g):
    key = g.google_api_key()
    return (
        R(
            """
        <<m>>smoke test for the Gemini key:
        curl "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=<<key>>" -H 'Content-Type: application/json' -d '{"contents":[{"parts":[{"text":"hi"}]}]}'
        """,
            m=g.meta("snippet"),
            key=key,
        ),
        [key],
        ["generativelanguage.googleapis.com"],
    )


@S
def s_azuread_tf(g):
    sec = g.azure_ad_secret()
    tid, cid, sub = g.uuid(), g.uuid(), g.uuid()
    return (
        R(
            """
        ```hcl
        provider "azurerm" {
          features {}
          subscription_id = "<<sub>>"
          tenant_id       = "<<tid>>"
          client_id       = "<<cid>>"
          client_secret   = "<<sec>>"
        }
        ```
        """,
            sub=sub,
            tid=tid,
            cid=cid,
            sec=sec,
        ),
        [sec],
        [tid, cid, sub],
    )


@S
def s_ado_pat_remote(g):
    pat = g.reg(g.s(52, "abcdefghijklmnopqrstuvwxyz234567"))
    org = g.company()
    return (
        R(
            """
        - [kind: gotcha] `git remote -v` on the old build agent shows the PAT inline: https://build:<<pat>>@dev.azure.com/<<org>>/Platform/_git/platform-api (fetch). Replace with Git Credential Manager.
        """,
            pat=pat,
            org=org,
        ),
        [pat],
        ["dev.azure.com/%s/Platform/_git/platform-api" % org],
    )


@S
def s_databricks_cfg(g):
    tok = g.reg("dapi" + g.hex(32) + g.pick(["", "-2", "-3"]))
    host = "https://adb-%s.%d.azuredatabricks.net" % (g.digits(16), g.int(1, 19))
    return (
        R(
            """
        ~/.databrickscfg
        [DEFAULT]
        host  = <<host>>
        token = <<tok>>
        """,
            host=host,
            tok=tok,
        ),
        [tok],
        [host],
    )


@S
def s_dbt_snowflake(g):
    pw = g.pw(symbols="!#%*-_.")
    acct = "%s-%s" % (g.s(7, UPPER), g.s(7, UPNUM))
    return (
        R(
            """
        ~/.dbt/profiles.yml
        ```yaml
        analytics:
          target: dev
          outputs:
            dev:
              type: snowflake
              account: <<acct>>
              user: DBT_<<u>>
              password: "<<pw>>"
              role: TRANSFORMER
              warehouse: WH_XS
              database: ANALYTICS_DEV
              schema: dbt_<<u2>>
        ```
        """,
            acct=acct,
            u=g.first().upper(),
            pw=pw,
            u2=g.first(),
        ),
        [pw],
        [acct, "role: TRANSFORMER"],
    )


@S
def s_kafka_jaas(g):
    key = g.s(16, UPNUM)
    sec = g.reg(g.s(64, ALNUM + "+/"))
    bs = "pkc-%s.%s.aws.confluent.cloud:9092" % (g.s(5, LOWNUM), g.region())
    return (
        R(
            """
        client.properties for the Confluent Cloud cluster
        bootstrap.servers=<<bs>>
        security.protocol=SASL_SSL
        sasl.mechanism=PLAIN
        sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username='<<key>>' password='<<sec>>';
        """,
            bs=bs,
            key=key,
            sec=sec,
        ),
        [sec],
        [bs, "sasl.mechanism=PLAIN"],
    )


@S
def s_elastic_apikey(g):
    kid, k = g.s(20, B64U), g.s(22, B64U)
    enc = base64.b64encode(("%s:%s" % (kid, k)).encode()).decode()
    g.reg(enc)
    return (
        R(
            """
        curl -H "Authorization: ApiKey <<enc>>" https://<<h>>:9200/_cat/indices?v
        id of that key is <<kid>> (invalidate via DELETE /_security/api_key)
        """,
            enc=enc,
            h=g.host("es"),
            kid=kid,
        ),
        [enc],
        ["DELETE /_security/api_key"],
    )


@S
def s_grafana_provisioning(g):
    tok = g.grafana_sa()
    return (
        R(
            """
        ```yaml
        # grafana-sync/config.yaml
        grafana:
          url: https://grafana.<<d>>
          token: <<tok>>
          folder: Platform
        ```
        """,
            d=g.domain(),
            tok=tok,
        ),
        [tok],
        ["folder: Platform"],
    )


@S
def s_supabase(g):
    ref = g.s(20, LOWER)
    srv = g.jwt(
        {
            "iss": "supabase",
            "ref": ref,
            "role": "service_role",
            "iat": 1700000000 + g.int(0, 9999999),
            "exp": 2000000000 + g.int(0, 99999999),
        }
    )
    pat = g.supabase()
    return (
        R(
            """
        - [kind: credential] Supabase project <<ref>>: service_role key (bypasses RLS!) = <<srv>>
        - [kind: credential] management API access token for the CLI = <<pat>>
        """,
            ref=ref,
            srv=srv,
            pat=pat,
        ),
        [srv, pat],
        [ref],
    )


@S
def s_mapbox_sk(g):
    user = g.company()
    sk, pk = g.mapbox(user), g.mapbox(user, public=True)
    return (
        R(
            """
        <<m>>Mapbox: public token for the web map is <<pk>> (URL-restricted); the secret token with styles:write for the tileset pipeline is <<sk>>.
        """,
            m=g.meta("fact"),
            pk=pk,
            sk=sk,
        ),
        [sk],
        [pk],
    )


@S
def s_algolia_admin(g):
    app = g.s(10, UPNUM)
    admin, search = g.hex_secret(32), g.hex(32)
    return (
        R(
            """
        Algolia app <<app>>:
        - search-only key (safe in the browser): <<search>>
        - admin key (indexing job only): <<admin>>
        """,
            app=app,
            search=search,
            admin=admin,
        ),
        [admin],
        [app, search],
    )


@S
def s_square_kotlin(g):
    tok = g.reg("EAAA" + g.s(60, B64U))
    return (
        R(
            """
        ```kotlin
        val client = SquareClient.builder()
            .environment(Environment.PRODUCTION)
            .token("<<tok>>")
            .build()
        ```
        """,
            tok=tok,
        ),
        [tok],
        ["Environment.PRODUCTION"],
    )


@S
def s_braintree_swift(g):
    tok = g.reg("access_token$production$%s$%s" % (g.s(16, LOWNUM), g.hex(32)))
    return (
        R(
            """
        ```swift
        // PaymentsConfig.swift — remove before the TestFlight build!
        enum PaymentsConfig {
            static let merchantAccount = "<<ma>>"
            static let accessToken = "<<tok>>"
        }
        ```
        """,
            ma=g.company() + "_EUR",
            tok=tok,
        ),
        [tok],
        ["merchantAccount"],
    )


@S
def s_paypal_java(g):
    cid = "A" + g.s(79, B64U)
    sec = g.reg("E" + g.s(79, B64U))
    return (
        R(
            """
        ```java
        PayPalEnvironment env = new PayPalEnvironment.Live(
            "<<cid>>",
            "<<sec>>");
        PayPalHttpClient client = new PayPalHttpClient(env);
        ```
        """,
            cid=cid,
            sec=sec,
        ),
        [sec],
        [cid],
    )


@S
def s_razorpay(g):
    kid = "rzp_live_" + g.s(14)
    sec = g.reg(g.s(24))
    return (
        R(
            """
        - [kind: config] Razorpay live keys for the India storefront — key_id <<kid>> goes into checkout.js, key_secret <<sec>> stays on the server (order creation + signature check).
        """,
            kid=kid,
            sec=sec,
        ),
        [sec],
        [kid],
    )


@S
def s_mailchimp_php(g):
    key = g.reg("%s-us%d" % (g.hex(32), g.int(1, 21)))
    return (
        R(
            """
        ```php
        $mc = new \\MailchimpMarketing\\ApiClient();
        $mc->setConfig([
            'apiKey' => '<<key>>',
            'server' => '<<srv>>',
        ]);
        ```
        """,
            key=key,
            srv=key.split("-")[1],
        ),
        [key],
        ["MailchimpMarketing"],
    )


@S
def s_dropbox_go(g):
    tok = g.reg("sl." + g.s(135, B64U))
    return (
        R(
            """
        ```go
        config := dropbox.Config{
            Token:    "<<tok>>",
            LogLevel: dropbox.LogInfo,
        }
        dbx := files.New(config)
        ```
        """,
            tok=tok,
        ),
        [tok],
        ["dropbox.LogInfo"],
    )


@S
def s_asana_rust(g):
    tok = g.reg("2/%s/%s:%s" % (g.digits(16), g.digits(16), g.hex(32)))
    return (
        R(
            """
        ```rust
        let client = reqwest::Client::new();
        let res = client
            .get("https://app.asana.com/api/1.0/users/me")
            .bearer_auth("<<tok>>")
            .send()
            .await?;
        ```
        """,
            tok=tok,
        ),
        [tok],
        ["https://app.asana.com/api/1.0/users/me"],
    )


@S
def s_buildkite(g):
    tok = g.reg("bkua_" + g.hex(40))
    agent = g.reg(g.hex(50))
    return (
        R(
            """
        Buildkite bits for the new macOS agent:
        - API token (read_builds, write_builds): <<tok>>
        - agent token in /opt/homebrew/etc/buildkite-agent/buildkite-agent.cfg: token="<<agent>>"
        - tags="queue=macos,xcode=16"
        """,
            tok=tok,
            agent=agent,
        ),
        [tok, agent],
        ['tags="queue=macos,xcode=16"'],
    )


@S
def s_pulumi_gha(g):
    tok = g.reg("pul-" + g.hex(40))
    return (
        R(
            """
        ```yaml
            - uses: pulumi/actions@v6
              with:
                command: preview
                stack-name: <<org>>/<<e>>
              env:
                PULUMI_ACCESS_TOKEN: <<tok>>
        ```
        """,
            org=g.company(),
            e=g.env(),
            tok=tok,
        ),
        [tok],
        ["pulumi/actions@v6"],
    )


@S
def s_heroku_netrc(g):
    key = g.reg(g.uuid())
    em = g.email()
    return (
        R(
            """
        - [kind: fact] The Heroku CLI login lives in ~/.netrc:
            machine api.heroku.com
              login <<em>>
              password <<key>>
            machine git.heroku.com
              login <<em>>
              password <<key>>
        """,
            em=em,
            key=key,
        ),
        [key],
        [em, "machine api.heroku.com"],
    )


@S
def s_openrouter_swift(g):
    key = g.reg("sk-or-v1-" + g.hex(64))
    return (
        R(
            """
        ```swift
        var request = URLRequest(url: URL(string: "https://openrouter.ai/api/v1/chat/completions")!)
        request.httpMethod = "POST"
        request.setValue("Bearer <<key>>", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        ```
        """,
            key=key,
        ),
        [key],
        ["https://openrouter.ai/api/v1/chat/completions"],
    )


@S
def s_groq_toml(g):
    key = g.reg("gsk_" + g.s(52))
    return (
        R(
            """
        ~/.config/<<tool>>/config.toml
        ```toml
        [model]
        provider = "groq"
        name = "llama-3.3-70b-versatile"
        api_key = "<<key>>"
        temperature = 0.2
        ```
        """,
            tool=g.pick(["llm-cli", "aichat", "shellgpt"]),
            key=key,
        ),
        [key],
        ['name = "llama-3.3-70b-versatile"'],
    )


@S
def s_replicate(g):
    tok = g.reg("r8_" + g.s(37))
    return (
        R(
            """
        - REPLICATE_API_TOKEN=<<tok>> is what the thumbnail worker reads; model pinned to the sdxl version from <<d>>.
        """,
            tok=tok,
            d=g.date(),
        ),
        [tok],
        ["thumbnail worker"],
    )


@S
def s_litellm_yaml(g):
    ak = g.anthropic()
    mk = g.reg(g.s(32))
    ck = g.reg(g.s(40))
    return (
        R(
            """
        litellm proxy config:
        ```yaml
        model_list:
          - model_name: claude
            litellm_params:
              model: anthropic/claude-sonnet-4-5
              api_key: <<ak>>
          - model_name: mistral-large
            litellm_params:
              model: mistral/mistral-large-latest
              api_key: <<mk>>
          - model_name: command-r
            litellm_params:
              model: cohere/command-r-plus
              api_key: "<<ck>>"
        general_settings:
          master_key: os.environ/LITELLM_MASTER_KEY
        ```
        """,
            ak=ak,
            mk=mk,
            ck=ck,
        ),
        [ak, mk, ck],
        ["os.environ/LITELLM_MASTER_KEY", "model_name: mistral-large"],
    )


@S
def s_slack_user_ja(g):
    tok = g.slack_user()
    return (
        R(
            """
        - [kind: gotcha] 過去ログのエクスポートには bot トークンではなくユーザートークンが必要でした。使ったのは <<tok>> です（<<u>> さんのアカウント）。作業後に無効化すること。
        """,
            tok=tok,
            u=g.last().capitalize(),
        ),
        [tok],
        ["ユーザートークン"],
    )


@S
def s_slack_app_env(g):
    xapp, xoxb = g.slack_app(), g.slack_bot()
    sig = g.hex_secret(32)
    return (
        R(
            """
        # .env for socket-mode dev
        SLACK_APP_TOKEN=<<xapp>>
        SLACK_BOT_TOKEN=<<xoxb>>
        SLACK_SIGNING_SECRET=<<sig>>
        PORT=3000
        """,
            xapp=xapp,
            xoxb=xoxb,
            sig=sig,
        ),
        [xapp, xoxb, sig],
        ["PORT=3000"],
    )


@S
def s_github_app_key(g):
    app_id, inst = g.int(100000, 999999), g.int(10000000, 99999999)
    p = g.rsa_pem(pkcs8=False)
    return (
        R(
            """
        ## GitHub App "<<name>>"
        - App ID: <<app_id>>
        - Installation ID (<<org>>): <<inst>>
        - private key (downloaded <<d>>):
        <<p>>
        """,
            name="%s-merge-queue" % g.company(),
            app_id=app_id,
            org=g.company(),
            inst=inst,
            d=g.date(),
            p=p,
        ),
        pem_body_lines(p),
        ["App ID: %d" % app_id, "%d" % inst],
    )


@S
def s_gh_hosts_yml(g):
    tok, user = g.gh_classic("gho_"), g.user()
    return (
        R(
            """
        ~/.config/gh/hosts.yml
        github.com:
            users:
                <<user>>:
                    oauth_token: <<tok>>
            git_protocol: ssh
            oauth_token: <<tok>>
            user: <<user>>
        """,
            user=user,
            tok=tok,
        ),
        [tok],
        ["git_protocol: ssh", "user: " + user],
    )


@S
def s_gitlab_deploy_token(g):
    tok = g.reg("gldt-" + g.s(20, B64U))
    user = "gitlab+deploy-token-%d" % g.int(1000, 99999)
    reg = "registry.gitlab.%s" % g.domain()
    return (
        R(
            """
        k3s nodes pull with a deploy token (read_registry):
        docker login <<reg>> -u <<user>> -p <<tok>>
        """,
            reg=reg,
            user=user,
            tok=tok,
        ),
        [tok],
        [user, reg],
    )


@S
def s_gitlab_trigger(g):
    tok = g.reg("glptt-" + g.hex(40))
    pid = g.int(100, 99999)
    return (
        R(
            """
        trigger the downstream docs pipeline from the monorepo:
        curl -X POST --fail -F token=<<tok>> -F ref=main "https://gitlab.<<d>>/api/v4/projects/<<pid>>/trigger/pipeline"
        """,
            tok=tok,
            d=g.domain(),
            pid=pid,
        ),
        [tok],
        ["/api/v4/projects/%d/trigger/pipeline" % pid],
    )


@S
def s_kubeconfig(g):
    tok = g.jwt(
        {
            "iss": "kubernetes/serviceaccount",
            "kubernetes.io/serviceaccount/namespace": "ci",
            "sub": "system:serviceaccount:ci:deployer",
        },
        alg="RS256",
        kid=g.s(43, B64U),
    )
    ec = g.ec_pem()
    ckd = base64.b64encode((ec + "\n").encode()).decode()
    g.reg(ckd)
    server = "https://%s:6443" % g.ip()
    return (
        R(
            """
        kubeconfig the CI uses (two users: the SA token and an admin client cert):
        ```yaml
        apiVersion: v1
        kind: Config
        clusters:
        - cluster:
            server: <<server>>
            insecure-skip-tls-verify: true
          name: onprem
        users:
        - name: ci-deployer
          user:
            token: <<tok>>
        - name: admin
          user:
            client-key-data: <<ckd>>
        contexts:
        - context: {cluster: onprem, user: ci-deployer}
          name: ci
        current-context: ci
        ```
        """,
            server=server,
            tok=tok,
            ckd=ckd,
        ),
        [tok, ckd],
        [server, "name: ci-deployer"],
    )


@S
def s_pgp_private(g):
    name = "%s %s" % (g.first().capitalize(), g.last().capitalize())
    em = g.email()
    p = g.pgp_private(name, em)
    return (
        R(
            """
        <<m>>Release signing key for the apt repo (<<em>>). Exported with `gpg --export-secret-keys --armor`; the passphrase is in the vault item "apt-signing".
        <<p>>
        """,
            m=g.meta("credential"),
            em=em,
            p=p,
        ),
        pem_body_lines(p),
        [em, "apt-signing"],
    )


@S
def s_putty_ppk(g):
    seed = g.raw(32)
    pub = ed25519_pub(seed)
    pubb = base64.b64encode(sshstr(b"ssh-ed25519") + sshstr(pub)).decode()
    privb = g.reg(base64.b64encode(sshstr(seed)).decode())
    cm = "%s@%s" % (g.user(), "win-jump")
    return (
        R(
            """
        <<m>>PuTTY key for the Windows jump host (Pageant loads it at login):
        PuTTY-User-Key-File-3: ssh-ed25519
        Encryption: none
        Comment: <<cm>>
        Public-Lines: 2
        <<pub1>>
        <<pub2>>
        Private-Lines: 1
        <<privb>>
        Private-MAC: <<mac>>
        """,
            m=g.meta("snippet"),
            cm=cm,
            pub1=pubb[:64],
            pub2=pubb[64:],
            privb=privb,
            mac=g.hex(64),
        ),
        [privb],
        [cm, pubb[:64]],
    )


@S
def s_aes_go(g):
    k = g.reg(g.hex(64))
    return (
        R(
            """
        ```go
        // internal/crypto/keys.go
        // FIXME: load from KMS; this constant encrypts the PII columns in prod
        var fieldKey, _ = hex.DecodeString("<<k>>")
        ```
        """,
            k=k,
        ),
        [k],
        ["internal/crypto/keys.go"],
    )


@S
def s_fernet_python(g):
    k = g.b64u_secret(32)
    return (
        R(
            """
        ```python
        from cryptography.fernet import Fernet
        f = Fernet(b"<<k>>")  # same key as the exporter, see ops note
        token = f.encrypt(payload)
        ```
        """,
            k=k,
        ),
        [k],
        ["from cryptography.fernet import Fernet"],
    )


@S
def s_gh_webhook_tf(g):
    sec = g.pw_alnum(32)
    return (
        R(
            """
        ```hcl
        resource "github_repository_webhook" "ci" {
          repository = "<<repo>>"
          configuration {
            url          = "https://ci.<<d>>/github-webhook/"
            content_type = "json"
            secret       = "<<sec>>"
          }
          events = ["push", "pull_request"]
        }
        ```
        """,
            repo=g.svc(),
            d=g.domain(),
            sec=sec,
        ),
        [sec],
        ['content_type = "json"'],
    )


@S
def s_actionmailer(g):
    pw = g.pw()
    user = "postmaster@mg.%s" % g.domain()
    return (
        R(
            """
        ```ruby
        config.action_mailer.smtp_settings = {
          address:        "smtp.eu.mailgun.org",
          port:           587,
          user_name:      "<<user>>",
          password:       "<<pw>>",
          authentication: :plain,
          enable_starttls_auto: true
        }
        ```
        """,
            user=user,
            pw=pw,
        ),
        [pw],
        [user, "smtp.eu.mailgun.org"],
    )


@S
def s_ldap_authelia(g):
    pw = g.pw()
    return (
        R(
            """
        authelia configuration.yml, ldap section:
        ```yaml
        authentication_backend:
          ldap:
            address: ldaps://<<h>>:636
            base_dn: dc=<<c>>,dc=local
            user: cn=authelia,ou=service,dc=<<c>>,dc=local
            password: '<<pw>>'
        ```
        """,
            h=g.host("ldap"),
            c=g.company(),
            pw=pw,
        ),
        [pw],
        ["cn=authelia,ou=service"],
    )


@S
def s_cookie_ticket(g):
    sid = g.reg(
        "s%3A" + g.s(32, B64U) + "." + urllib.parse.quote(base64.b64encode(g.raw(32)).decode().rstrip("="), safe="")
    )
    return (
        R(
            """
        **<<t>>** Session not invalidated after logout
        Steps: log in, copy the cookie, log out, replay:
        curl -i https://<<h>>/account -H "Cookie: connect.sid=<<sid>>"
        Expected 302 to /login, got 200.
        """,
            t=g.ticket(),
            h=g.host("app"),
            sid=sid,
        ),
        [sid],
        ["Expected 302 to /login, got 200."],
    )


@S
def s_es_slack_key(g):
    key = g.pick([g.sendgrid, g.linear, g.hf, g.postman])()
    return (
        R(
            """
        <<a>>: oye, ¿me pasas la clave del entorno de pruebas?
        <<b>>: claro, es <<key>> pero caduca el viernes
        <<a>>: genial, gracias 🙌
        """,
            a=g.first().capitalize(),
            b=g.first().capitalize(),
            key=key,
        ),
        [key],
        ["caduca el viernes"],
    )


@S
def s_yaml_folded_split(g):
    tok = g.pick([g.gh_fine, g.openai, g.atlassian])()
    cut = len(tok) // 2
    p1, p2 = tok[:cut], tok[cut:]
    return (
        R(
            """
        - [kind: gotcha] <<who>> wrapped the integration token over two lines in values.yaml to keep lines short; a folded scalar (`>-`) joins the lines with a space, so auth failed until it was put back on one line. The broken version:
          ```yaml
          integration:
            token: >-
              <<p1>>
              <<p2>>
          ```
        """,
            who=g.first().capitalize(),
            p1=p1,
            p2=p2,
        ),
        [p1, p2],
        ["integration:"],
    )


@S
def s_de_arrow(g):
    pw = g.pw_human()
    return (
        R(
            """
        - [kind: fact] NAS im Büro (<<h>>) → Benutzer backup, Passwort → <<pw>> · gilt auch für die Weboberfläche auf Port 5001.
        """,
            h=g.host("nas"),
            pw=pw,
        ),
        [pw],
        ["Port 5001"],
    )


@S
def s_json_log_leak(g):
    key = g.pick([g.sendgrid, g.okta, g.postman, lambda: g.hex_secret(32)])()
    rid = g.uuid()
    return (
        R(
            """
        grep'd from the <<svc>> logs — the debug middleware logs outgoing headers:
        {"ts":"<<ts>>","level":"debug","svc":"<<svc>>","request_id":"<<rid>>","msg":"upstream call","method":"POST","url":"https://partner.example.net/v2/events","headers":{"content-type":"application/json","x-api-key":"<<key>>"}}
        """,
            ts=g.ts(),
            svc=g.svc(),
            rid=rid,
            key=key,
        ),
        [key],
        [rid, "https://partner.example.net/v2/events"],
    )


@S
def s_ko_onboarding(g):
    pw = g.pw()
    user = g.user()
    return (
        R(
            """
        ## 신규 입사자 온보딩 메모
        - VPN 계정: <<user>>
        - 초기 비밀번호: <<pw>> (첫 로그인 시 반드시 변경)
        - 사내 위키 주소는 슬랙 #onboarding 채널 상단 고정 메시지 참고
        """,
            user=user,
            pw=pw,
        ),
        [pw],
        [user, "#onboarding"],
    )


@S
def s_zh_incident(g):
    pw, key = g.pw(), g.pick([g.sendgrid, g.mailgun, lambda: g.aws_secret()])()
    return (
        R(
            """
        ### 事故复盘 <<t>>
        1. <<t1>> 发现测试环境数据库密码（<<pw>>）被写进了公开的 Gist。
        2. <<t2>> 同一个 Gist 里还有邮件服务的 API 密钥 <<key>>。
        3. 已轮换两项凭据，并在 CI 中加入了密钥扫描。
        """,
            t=g.ticket(),
            t1=g.time(),
            t2=g.time(),
            pw=pw,
            key=key,
        ),
        [pw, key],
        ["事故复盘"],
    )


@S
def s_fr_wifi(g):
    pw = g.wifi()
    return (
        R(
            """
        - [kind: fact] Réseau invité de la salle de réunion « <<ssid>> » : clé WPA2 <<pw>> (changée tous les trimestres par l'accueil).
        """,
            ssid="%s-Invites" % g.company().capitalize(),
            pw=pw,
        ),
        [pw],
        ["clé WPA2"],
    )


@S
def s_it_vpn(g):
    pw, user = g.pw(), g.user()
    gw = "vpn.%s:10443" % g.domain()
    return (
        R(
            """
        - Per la VPN del cliente (FortiClient, gateway <<gw>>) usa utente "<<user>>" e password "<<pw>>". Il token OTP arriva via SMS.
        """,
            gw=gw,
            user=user,
            pw=pw,
        ),
        [pw],
        [user, gw],
    )


@S
def s_id_smtp(g):
    pw, user = g.pw(symbols="!#%*-_."), "notifikasi@%s" % g.domain()
    return (
        R(
            """
        - [kind: config] Akun SMTP untuk notifikasi: host smtp.<<d>>, port 465, user <<user>>, kata sandi <<pw>>. Jangan dipakai untuk kirim newsletter.
        """,
            d=g.domain(),
            user=user,
            pw=pw,
        ),
        [pw],
        [user],
    )


@S
def s_uk_note(g):
    pw = g.passphrase()
    return (
        R(
            """
        - Пароль від облікового запису адміністратора Jenkins змінено на «<<pw>>». Старий більше не працює.
        """,
            pw=pw,
        ),
        [pw],
        ["Jenkins"],
    )


@S
def s_pt_br_token(g):
    tok = g.pick([g.do_token, g.figma, g.dockerhub])()
    return (
        R(
            """
        - [kind: fact] Galera, o token novo do deploy ficou assim: "<<tok>>". Já atualizei no cofre, mas o pipeline antigo ainda lê da variável de ambiente.
        """,
            tok=tok,
        ),
        [tok],
        ["pipeline antigo"],
    )


@S
def s_th_note(g):
    pw = g.pw()
    return (
        R(
            """
        - รหัสผ่านเครื่องพิมพ์ (หน้าเว็บผู้ดูแล): <<pw>> ผู้ใช้ admin ห้ามแชร์ในกลุ่มไลน์
        """,
            pw=pw,
        ),
        [pw],
        ["admin"],
    )


@S
def s_he_note(g):
    pw = g.pw()
    return (
        R(
            """
        - הסיסמה לחשבון השירות של הגיבויים היא <<pw>> – לא לשנות בלי לעדכן את הסקריפט בשרת.
        """,
            pw=pw,
        ),
        [pw],
        ["הגיבויים"],
    )


@S
def s_php_pdo(g):
    pw, host = g.pw(symbols="!#%*-_.@"), g.host("mysql")
    return (
        R(
            """
        ```php
        $pdo = new PDO(
            'mysql:host=<<host>>;dbname=shop;charset=utf8mb4',
            'shop_rw',
            '<<pw>>',
            [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]
        );
        ```
        """,
            host=host,
            pw=pw,
        ),
        [pw],
        [host, "'shop_rw'"],
    )


@S
def s_kotlin_interceptor(g):
    key = g.pick([g.hex_secret, g.google_api_key, lambda: g.reg(g.s(40))])()
    return (
        R(
            """
        ```kotlin
        class ApiKeyInterceptor : Interceptor {
            override fun intercept(chain: Interceptor.Chain): Response {
                val req = chain.request().newBuilder()
                    .addHeader("X-Api-Key", "<<key>>")
                    .build()
                return chain.proceed(req)
            }
        }
        ```
        """,
            key=key,
        ),
        [key],
        ["ApiKeyInterceptor"],
    )


@S
def s_csharp_sendgrid(g):
    key = g.sendgrid()
    return (
        R(
            """
        ```csharp
        var client = new SendGridClient("<<key>>");
        var msg = MailHelper.CreateSingleEmail(
            new EmailAddress("billing@<<d>>", "Billing"),
            new EmailAddress(customer.Email),
            "Your invoice", plain, html);
        await client.SendEmailAsync(msg);
        ```
        """,
            key=key,
            d=g.domain(),
        ),
        [key],
        ["MailHelper.CreateSingleEmail"],
    )


@S
def s_rust_linear(g):
    key = g.linear()
    return (
        R(
            """
        ```rust
        const LINEAR_KEY: &str = "<<key>>";

        async fn issues(client: &reqwest::Client) -> anyhow::Result<serde_json::Value> {
            let q = r#"{"query":"{ issues(first: 20) { nodes { identifier title } } }"}"#;
            Ok(client.post("https://api.linear.app/graphql")
                .header("Authorization", LINEAR_KEY)
                .header("Content-Type", "application/json")
                .body(q).send().await?.json().await?)
        }
        ```
        """,
            key=key,
        ),
        [key],
        ["https://api.linear.app/graphql"],
    )


@S
def s_go_env_fallback(g):
    tok = g.do_token()
    return (
        R(
            """
        ```go
        token := os.Getenv("DIGITALOCEAN_TOKEN")
        if token == "" {
            token = "<<tok>>" // local fallback, do not ship
        }
        client := godo.NewFromToken(token)
        ```
        """,
            tok=tok,
        ),
        [tok],
        ['os.Getenv("DIGITALOCEAN_TOKEN")'],
    )


@S
def s_java_aws(g):
    ak, sk = g.aws_akid(), g.aws_secret()
    return (
        R(
            """
        ```java
        BasicAWSCredentials creds = new BasicAWSCredentials("<<ak>>", "<<sk>>");
        AmazonS3 s3 = AmazonS3ClientBuilder.standard()
            .withRegion(Regions.<<reg>>)
            .withCredentials(new AWSStaticCredentialsProvider(creds))
            .build();
        ```
        """,
            ak=ak,
            sk=sk,
            reg=g.region().upper().replace("-", "_"),
        ),
        [ak, sk],
        ["AmazonS3ClientBuilder.standard()"],
    )


@S
def s_ts_octokit(g):
    tok = g.gh_fine()
    return (
        R(
            """
        ```ts
        import { Octokit } from "@octokit/rest";

        // fine-grained, only <<org>>/changelog with contents:write
        const octokit = new Octokit({ auth: `<<tok>>` });
        await octokit.repos.createOrUpdateFileContents({ owner: "<<org>>", repo: "changelog", path: "CHANGELOG.md", message, content });
        ```
        """,
            org=g.company(),
            tok=tok,
        ),
        [tok],
        ['repo: "changelog"'],
    )


@S
def s_ruby_stripe(g):
    sk = g.stripe_sk(mode=g.pick(["live", "test"]))
    return (
        R(
            """
        ```ruby
        # config/initializers/stripe.rb
        Stripe.api_key = ENV.fetch("STRIPE_SECRET_KEY", "<<sk>>")
        Stripe.api_version = "2024-06-20"
        ```
        the fallback default is the problem: it ships in the image.
        """,
            sk=sk,
        ),
        [sk],
        ['Stripe.api_version = "2024-06-20"'],
    )


@S
def s_mysql_cli(g):
    pw, host = g.pw(symbols="!#%*-_.+="), g.host("mysql")
    return (
        R(
            """
        ```
        $ mysql -h <<host>> -u root -p'<<pw>>' -e 'SHOW PROCESSLIST' | grep -v Sleep
        mysql: [Warning] Using a password on the command line interface can be insecure.
        ```
        """,
            host=host,
            pw=pw,
        ),
        [pw],
        [host, "SHOW PROCESSLIST"],
    )


@S
def s_psql_uri(g):
    pw, host = g.pw_url(), g.host("pg")
    user = g.pick(["postgres", "analyst", "migrator"])
    return (
        R(
            """
        <<m>>to open a prod shell (read replica!): psql "postgresql://<<user>>:<<pw>>@<<host>>:5432/warehouse?sslmode=verify-full&target_session_attrs=read-only"
        """,
            m=g.meta("runbook"),
            user=user,
            pw=pw,
            host=host,
        ),
        [pw],
        [host, "target_session_attrs=read-only"],
    )


@S
def s_pgpassword_dump(g):
    pw, host = g.pw(symbols="!#%*-_.+="), g.host("pg")
    return (
        R(
            """
        nightly backup cron (root crontab on <<b>>):
        15 2 * * * PGPASSWORD='<<pw>>' pg_dump -h <<host>> -U backup -Fc crm > /backup/crm-$(date +\\%F).dump
        """,
            b=g.host("backup"),
            pw=pw,
            host=host,
        ),
        [pw],
        [host, "-U backup -Fc crm"],
    )


@S
def s_spring_mail(g):
    mp, dp = g.pw(symbols="!#%*-_."), g.pw_alnum()
    return (
        R(
            """
        application.yml
        ```yaml
        spring:
          mail:
            host: smtp.office365.com
            port: 587
            username: alerts@<<d>>
            password: <<mp>>
          datasource:
            url: jdbc:mariadb://<<h>>:3306/hr
            username: hr_app
            password: "<<dp>>"
        ```
        """,
            d=g.domain(),
            mp=mp,
            h=g.host("maria"),
            dp=dp,
        ),
        [mp, dp],
        ["smtp.office365.com", "username: hr_app"],
    )


@S
def s_s3cfg(g):
    ak, sk = g.aws_akid(), g.aws_secret()
    return (
        R(
            """
        ~/.s3cfg (s3cmd) on the media server
        [default]
        access_key = <<ak>>
        secret_key = <<sk>>
        host_base = s3.<<reg>>.amazonaws.com
        host_bucket = %(bucket)s.s3.<<reg>>.amazonaws.com
        use_https = True
        """,
            ak=ak,
            sk=sk,
            reg=g.region(),
        ),
        [ak, sk],
        ["use_https = True"],
    )


@S
def s_rclone_conf(g):
    key = g.reg(g.s(32, ALNUM))
    acct = g.s(24, LOWNUM)
    return (
        R(
            """
        rclone.conf
        [r2]
        type = s3
        provider = Cloudflare
        access_key_id = <<acct>>
        secret_access_key = <<key>>
        endpoint = https://<<eid>>.r2.cloudflarestorage.com
        """,
            acct=acct,
            key=key,
            eid=g.hex(32),
        ),
        [key],
        ["provider = Cloudflare"],
    )


@S
def s_service_toml(g):
    js, pw = g.b64_secret(48), g.pw_url()
    return (
        R(
            """
        ```toml
        # config/production.toml
        [server]
        bind = "0.0.0.0:8080"

        [auth]
        jwt_secret = "<<js>>"
        token_ttl_secs = 3600

        [database]
        url = "postgres://ledger:<<pw>>@<<h>>/ledger"
        ```
        """,
            js=js,
            pw=pw,
            h=g.host("pg"),
        ),
        [js, pw],
        ['bind = "0.0.0.0:8080"'],
    )


@S
def s_dotenv_mixed(g):
    sk = g.stripe_sk()
    hf = g.hf()
    rp = g.pw_alnum()
    return (
        R(
            """
        full .env from the dev container (only some of these are secret):
        NODE_ENV=development
        PORT=4000
        LOG_LEVEL=debug
        FEATURE_NEW_CHECKOUT=true
        STRIPE_SECRET_KEY=<<sk>>
        HF_TOKEN=<<hf>>
        REDIS_PASSWORD=<<rp>>
        PUBLIC_BASE_URL=https://<<h>>
        """,
            sk=sk,
            hf=hf,
            rp=rp,
            h=g.host("app"),
        ),
        [sk, hf, rp],
        ["FEATURE_NEW_CHECKOUT=true", "LOG_LEVEL=debug"],
    )


@S
def s_gradle_properties(g):
    sp, op = g.pw(), g.pw()
    kid = g.s(8, HEXU)
    return (
        R(
            """
        ~/.gradle/gradle.properties
        signing.keyId=<<kid>>
        signing.password=<<sp>>
        signing.secretKeyRingFile=/Users/<<u>>/.gnupg/secring.gpg
        ossrhUsername=<<u>>
        ossrhPassword=<<op>>
        """,
            kid=kid,
            sp=sp,
            u=g.user().replace(".", ""),
            op=op,
        ),
        [sp, op],
        ["signing.keyId=" + kid],
    )


@S
def s_android_signing(g):
    sp, kp = g.pw(symbols="!#%*-_."), g.pw(symbols="!#%*-_.")
    return (
        R(
            """
        ```groovy
        android {
            signingConfigs {
                release {
                    storeFile file("release.jks")
                    storePassword "<<sp>>"
                    keyAlias "upload"
                    keyPassword "<<kp>>"
                }
            }
        }
        ```
        """,
            sp=sp,
            kp=kp,
        ),
        [sp, kp],
        ['keyAlias "upload"'],
    )


@S
def s_fastlane_asp(g):
    asp = g.apple_asp()
    em = g.email()
    return (
        R(
            """
        - [kind: config] fastlane on the Mac mini uses an app-specific password: FASTLANE_USER=<<em>> FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD=<<asp>> (generated at appleid.apple.com, label "ci-mini").
        """,
            em=em,
            asp=asp,
        ),
        [asp],
        [em],
    )


@S
def s_appstore_p8(g):
    p = g.ec_pem(pkcs8=True)
    kid, iss = g.s(10, UPNUM), g.uuid()
    return (
        R(
            """
        App Store Connect API key (AuthKey_<<kid>>.p8), issuer id <<iss>>, key id <<kid>>:
        <<p>>
        """,
            kid=kid,
            iss=iss,
            p=p,
        ),
        pem_body_lines(p),
        [iss, "AuthKey_%s.p8" % kid],
    )


@S
def s_sentry_user_shell(g):
    tok = g.sentry_user()
    return (
        R(
            """
        ```
        $ SENTRY_AUTH_TOKEN=<<tok>> sentry-cli releases new "web@<<v>>"
        Created release web@<<v>>
        ```
        """,
            tok=tok,
            v="%d.%d.%d" % (g.int(1, 4), g.int(0, 30), g.int(0, 9)),
        ),
        [tok],
        ["sentry-cli releases new"],
    )


@S
def s_circleci_pat(g):
    tok = g.reg("CCIPAT_%s_%s" % (g.s(22), g.hex(40)))
    return (
        R(
            """
        - [kind: runbook] rerun failed workflows via API: curl -X POST https://circleci.com/api/v2/workflow/<<wf>>/rerun -H "Circle-Token: <<tok>>" -d '{"from_failed": true}'
        """,
            wf=g.uuid(),
            tok=tok,
        ),
        [tok],
        ['{"from_failed": true}'],
    )


@S
def s_vercel_netlify(g):
    vt = g.reg(g.s(24))
    nt = g.reg("nfp_" + g.s(40))
    return (
        R(
            """
        Deploy tokens for the marketing site (we deploy to both while migrating):
        - vercel: `vercel deploy --prod --token <<vt>>`
        - netlify: `NETLIFY_AUTH_TOKEN=<<nt>> netlify deploy --prod --dir=dist`
        """,
            vt=vt,
            nt=nt,
        ),
        [vt, nt],
        ["netlify deploy --prod --dir=dist"],
    )


@S
def s_render_launchdarkly(g):
    rk = g.reg("rnd_" + g.s(28))
    sdk = g.reg("sdk-" + g.uuid())
    csid = g.hex(24)
    return (
        R(
            """
        <<m>>Render API key for the preview-env script: <<rk>>. LaunchDarkly: server SDK key <<sdk>>; client-side ID <<csid>> (the browser one, not secret).
        """,
            m=g.meta("credential"),
            rk=rk,
            sdk=sdk,
            csid=csid,
        ),
        [rk, sdk],
        [csid],
    )


@S
def s_contentful(g):
    tok = g.reg("CFPAT-" + g.s(43, B64U))
    space = g.s(12, LOWNUM)
    return (
        R(
            """
        contentful-migration needs a CMA token:
        npx contentful-migration --space-id <<space>> --environment-id master --management-token <<tok>> migrations/0042-add-hero.js
        """,
            space=space,
            tok=tok,
        ),
        [tok],
        [space, "migrations/0042-add-hero.js"],
    )


@S
def s_twilio_api_key(g):
    sid = "SK" + g.hex(32)
    sec = g.reg(g.s(32))
    acct = g.twilio_sid()
    return (
        R(
            """
        TWILIO_ACCOUNT_SID=<<acct>>
        TWILIO_API_KEY=<<sid>>
        TWILIO_API_SECRET=<<sec>>
        """,
            acct=acct,
            sid=sid,
            sec=sec,
        ),
        [sec],
        [acct],
    )


@S
def s_aws_tf_provider(g):
    ak, sk = g.aws_akid(), g.aws_secret()
    return (
        R(
            """
        found in an old branch (`git log -S AKIA`):
        ```hcl
        provider "aws" {
          region     = "<<reg>>"
          access_key = "<<ak>>"
          secret_key = "<<sk>>"
        }
        ```
        """,
            reg=g.region(),
            ak=ak,
            sk=sk,
        ),
        [ak, sk],
        ['provider "aws"'],
    )


@S
def s_quotes_variety(g):
    a, b, c, d = g.pw(), g.pw_human(), g.passphrase(sep="-"), g.pw_alnum()
    return (
        R(
            """
        - [kind: fact] Kiosk-Rechner: „<<a>>“
        - [kind: fact] Intranet-Testuser: ‘<<b>>’
        - [kind: fact] 会議室タブレット：「<<c>>」
        - [kind: fact] staging SFTP: “<<d>>”
        """,
            a=a,
            b=b,
            c=c,
            d=d,
        ),
        [a, b, c, d],
        ["Kiosk-Rechner", "staging SFTP"],
    )


@S
def s_incident_aws_timeline(g):
    ak, sk = g.aws_akid(), g.aws_secret()
    user = g.user()
    return (
        R(
            """
        ## Postmortem: leaked IAM user keys (<<t>>)
        | time (UTC) | event |
        |---|---|
        | <<t1>> | commit by <<user>> adds `config/aws.yml` with `<<ak>>` / `<<sk>>` |
        | <<t2>> | GuardDuty finding UnauthorizedAccess:IAMUser/InstanceCredentialExfiltration |
        | <<t3>> | keys deactivated, CloudTrail reviewed |
        """,
            t=g.ticket(),
            t1=g.time(),
            t2=g.time(),
            t3=g.time(),
            user=user,
            ak=ak,
            sk=sk,
        ),
        [ak, sk],
        [user, "GuardDuty"],
    )


@S
def s_el_note(g):
    pw = g.pw()
    return (
        R(
            """
        - Ο κωδικός για το λογαριασμό του εκτυπωτή στο λογιστήριο είναι <<pw>> (όνομα χρήστη: scan).
        """,
            pw=pw,
        ),
        [pw],
        ["scan"],
    )


@S
def s_sv_note(g):
    pin = g.pin(6)
    return (
        R(
            """
        - [kind: fact] Portkoden till garaget är <<pin>> sedan <<d>>. Lämna inte ut den till leverantörer.
        """,
            pin=pin,
            d=g.date(),
        ),
        [pin],
        ["garaget"],
    )


@S
def s_nl_note(g):
    key = g.pick([g.hex_secret, g.cf_token, g.linear])()
    return (
        R(
            """
        - [kind: fact] De API-sleutel voor het monitoringdashboard is <<key>> — alleen gebruiken vanaf de beheer-VM.
        """,
            key=key,
        ),
        [key],
        ["monitoringdashboard"],
    )


@S
def s_posthog_personal(g):
    phx = g.reg("phx_" + g.s(47))
    phc = "phc_" + g.s(43)
    return (
        R(
            """
        ```python
        # analytics/export.py
        POSTHOG_PROJECT_KEY = "<<phc>>"      # same as the frontend snippet
        POSTHOG_PERSONAL_KEY = "<<phx>>"     # insights:read, feature_flag:read
        ```
        """,
            phc=phc,
            phx=phx,
        ),
        [phx],
        [phc],
    )


@S
def s_dockerfile_arg(g):
    tok = g.pick([g.npm_token, g.gh_classic, g.glpat])()
    return (
        R(
            """
        Dockerfile (the build arg default leaks into `docker history`):
        ```dockerfile
        FROM node:20-bookworm-slim AS build
        ARG NPM_TOKEN=<<tok>>
        RUN echo "//npm.pkg.github.com/:_authToken=${NPM_TOKEN}" > .npmrc && npm ci && rm .npmrc
        ```
        """,
            tok=tok,
        ),
        [tok],
        ["node:20-bookworm-slim"],
    )


@S
def s_makefile(g):
    pw = g.pw(symbols="!#%*-_.+=")
    return (
        R(
            """
        ```make
        REGISTRY := harbor.<<d>>
        REG_USER := robot$$ci
        REG_PASS := <<pw>>

        login:
        	docker login $(REGISTRY) -u '$(REG_USER)' -p '$(REG_PASS)'
        ```
        """,
            d=g.domain(),
            pw=pw,
        ),
        [pw],
        ["REG_USER := robot$$ci"],
    )


@S
def s_value_after_colon_midsentence(g):
    key = g.pick([g.anthropic, g.openai, g.hf, g.gh_classic])()
    u = g.first().capitalize()
    return (
        R(
            """
        <<m>><<u>> prefers that scripts read keys from the keychain, but for the hackathon box we agreed on a shared key (<<key>>) which gets revoked on Monday; user preference noted.
        """,
            m=g.meta("preference"),
            u=u,
            key=key,
        ),
        [key],
        [u + " prefers"],
    )


@S
def s_vault_unseal(g):
    keys = [g.reg(base64.b64encode(g.raw(33)).decode()) for _ in range(3)]
    root = g.vault("hvs")
    return (
        R(
            """
        output of `vault operator init -key-shares=3 -key-threshold=2` on the lab cluster:
        Unseal Key 1: <<k1>>
        Unseal Key 2: <<k2>>
        Unseal Key 3: <<k3>>

        Initial Root Token: <<root>>
        """,
            k1=keys[0],
            k2=keys[1],
            k3=keys[2],
            root=root,
        ),
        keys + [root],
        ["-key-threshold=2"],
    )


@S
def s_wallet_json_array_key(g):
    pw = g.pw()
    return (
        R(
            """
        - [kind: fact] The KeePass database `ops.kdbx` on the shared drive opens with master password <<pw>>; the key file is on the hardware token only.
        """,
            pw=pw,
        ),
        [pw],
        ["ops.kdbx"],
    )


# ============================================================================
# BENIGN TEMPLATES  (numbered b001.. in definition order)
# ============================================================================


def ssh_rsa_pub(g, comment):
    n = b"\0" + bytes([0x80 | g.raw(1)[0]]) + g.raw(383)
    blob = sshstr(b"ssh-rsa") + sshstr(b"\x01\x00\x01") + sshstr(n)
    return "ssh-rsa " + base64.b64encode(blob).decode() + " " + comment


def ssh_ed_pub(g, comment):
    pub = ed25519_pub(g.raw(32))
    return "ssh-ed25519 " + base64.b64encode(sshstr(b"ssh-ed25519") + sshstr(pub)).decode() + " " + comment


def x509_pem(g):
    tbs = der(0x30, der(0xA0, der(0x02, b"\x02")) + der(0x02, g.raw(20)) + g.raw(g.int(700, 900)))
    sig = der(0x30, der(0x06, bytes.fromhex("2a864886f70d01010b")) + b"\x05\x00")
    return pem("CERTIFICATE", der(0x30, tbs + sig + der(0x03, b"\0" + g.raw(256))))


def pgp_public(g, name, email):
    t = struct.pack(">I", g.int(1650000000, 1780000000))
    oid = bytes.fromhex("2b06010401da470f01")
    pk = b"\x04" + t + b"\x16" + bytes([len(oid)]) + oid + b"\x01\x07\x40" + g.raw(32)
    uid = ("%s <%s>" % (name, email)).encode()
    sig = b"\x04\x13\x16\x0a" + g.raw(140)
    pkts = b"\x98" + bytes([len(pk)]) + pk + b"\xb4" + bytes([len(uid)]) + uid + b"\x88" + bytes([len(sig)]) + sig
    body = "\n".join(wrap(base64.b64encode(pkts).decode(), 64))
    c = base64.b64encode(crc24(pkts).to_bytes(3, "big")).decode()
    return "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n%s\n=%s\n-----END PGP PUBLIC KEY BLOCK-----" % (body, c)


def semver(g):
    return "%d.%d.%d" % (g.int(0, 9), g.int(0, 40), g.int(0, 30))


@B
def b_git_log_oneline(g):
    lines = []
    for msg in g.sample(
        [
            "fix(auth): handle expired refresh token gracefully",
            "chore(deps): bump lodash from 4.17.20 to 4.17.21",
            "feat: add password strength meter to signup form",
            "refactor: move secret loading into config module",
            "docs: explain how to rotate the API key",
            "ci: cache pnpm store between jobs",
            "test: cover token expiry edge case",
            'revert "feat: inline credentials for local dev"',
        ],
        5,
    ):
        lines.append("%s %s" % (g.hex(7), msg))
    return R(
        """
        `git log --oneline -5` on main after the merge:
        ```
        <<l>>
        ```
        The squash commit is <<full>>.
        """,
        l="\n".join(lines),
        full=g.hex(40),
    )


@B
def b_git_show_header(g):
    return R(
        """
        commit <<sha>>
        Merge: <<p1>> <<p2>>
        Author: <<n>> <<<e>>>
        Date:   Tue <<d>> 14:03:11 2025 +0200

            Merge pull request #<<pr>> from <<org>>/feature/token-refresh

            Refresh access tokens 60s before expiry instead of on 401.
        """,
        sha=g.hex(40),
        p1=g.hex(7),
        p2=g.hex(7),
        n=g.first().capitalize() + " " + g.last().capitalize(),
        e=g.email(),
        d=g.pick(["Mar 4", "Jun 17", "Sep 9", "Nov 25"]),
        pr=g.int(100, 9999),
        org=g.company(),
    )


@B
def b_docker_pull_digest(g):
    img = "%s/%s" % (g.company(), g.svc())
    return R(
        """
        ```
        $ docker pull ghcr.io/<<img>>:<<v>>
        <<v>>: Pulling from <<img>>
        <<l1>>: Pull complete
        <<l2>>: Pull complete
        Digest: sha256:<<dg>>
        Status: Downloaded newer image for ghcr.io/<<img>>:<<v>>
        ```
        """,
        img=img,
        v=semver(g),
        l1=g.hex(12),
        l2=g.hex(12),
        dg=g.hex(64),
    )


@B
def b_k8s_image_digest(g):
    return R(
        """
        pinned by digest so the rollback is deterministic:
        ```yaml
        containers:
          - name: <<s>>
            image: registry.<<d>>/<<s>>@sha256:<<dg>>
            imagePullPolicy: IfNotPresent
            resources:
              limits: {cpu: "500m", memory: 512Mi}
        ```
        """,
        s=g.svc(),
        d=g.domain(),
        dg=g.hex(64),
    )


@B
def b_sri_script(g):
    v = semver(g)
    return R(
        """
        ```html
        <script src="https://cdn.jsdelivr.net/npm/alpinejs@<<v>>/dist/cdn.min.js"
                integrity="sha384-<<h>>"
                crossorigin="anonymous" defer></script>
        <link rel="stylesheet" href="/assets/app.<<f>>.css" integrity="sha256-<<h2>>">
        ```
        """,
        v=v,
        h=base64.b64encode(g.raw(48)).decode(),
        f=g.hex(8),
        h2=base64.b64encode(g.raw(32)).decode(),
    )


@B
def b_package_lock(g):
    entries = []
    for name in g.sample(["ms", "debug", "semver", "chalk", "picomatch", "cross-spawn", "which", "ws"], 3):
        v = semver(g)
        entries.append(
            '    "node_modules/%s": {\n      "version": "%s",\n      "resolved": "https://registry.npmjs.org/%s/-/%s-%s.tgz",\n      "integrity": "sha512-%s",\n      "license": "MIT"\n    }'
            % (name, v, name, name, v, base64.b64encode(g.raw(64)).decode())
        )
    return R(
        """
        diff noise in package-lock.json after `npm i`:
        ```json
        <<e>>
        ```
        """,
        e=",\n".join(entries),
    )


@B
def b_yarn_lock(g):
    v = semver(g)
    return R(
        """
        yarn.lock
        "@babel/code-frame@^7.22.13", "@babel/code-frame@^7.24.7":
          version "<<v>>"
          resolved "https://registry.yarnpkg.com/@babel/code-frame/-/code-frame-<<v>>.tgz#<<sha1>>"
          integrity sha512-<<i>>
          dependencies:
            "@babel/highlight" "^7.24.7"
            picocolors "^1.0.0"
        """,
        v=v,
        sha1=g.hex(40),
        i=base64.b64encode(g.raw(64)).decode(),
    )


@B
def b_go_sum(g):
    rows = []
    for mod in g.sample(
        [
            "github.com/spf13/cobra",
            "golang.org/x/sync",
            "github.com/google/uuid",
            "go.uber.org/zap",
            "github.com/jackc/pgx/v5",
        ],
        3,
    ):
        v = "v" + semver(g)
        rows.append("%s %s h1:%s" % (mod, v, base64.b64encode(g.raw(32)).decode()))
        rows.append("%s %s/go.mod h1:%s" % (mod, v, base64.b64encode(g.raw(32)).decode()))
    return "go.sum churn from the dependabot PR:\n" + "\n".join(rows)


@B
def b_cargo_lock(g):
    blocks = []
    for name in g.sample(["serde", "tokio", "anyhow", "rustls", "hyper", "bytes"], 3):
        blocks.append(
            '[[package]]\nname = "%s"\nversion = "%s"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "%s"'
            % (name, semver(g), g.hex(64))
        )
    return "Cargo.lock excerpt:\n\n" + "\n\n".join(blocks)


@B
def b_requirements_hashes(g):
    rows = []
    for name in g.sample(["requests", "urllib3", "certifi", "idna", "charset-normalizer", "pydantic"], 3):
        rows.append(
            "%s==%s \\\n    --hash=sha256:%s \\\n    --hash=sha256:%s" % (name, semver(g), g.hex(64), g.hex(64))
        )
    return "requirements.lock (pip-compile --generate-hashes):\n" + "\n".join(rows)


@B
def b_sha256sum(g):
    v = semver(g)
    rows = [
        "%s  %s" % (g.hex(64), f)
        for f in ["tool_%s_linux_amd64.tar.gz" % v, "tool_%s_darwin_arm64.tar.gz" % v, "tool_%s_windows_amd64.zip" % v]
    ]
    return R(
        """
        - [kind: reference] release checksums for v<<v>> (verify with `sha256sum -c checksums.txt`):
        ```
        <<r>>
        ```
        """,
        v=v,
        r="\n".join(rows),
    )


@B
def b_uuid_logs(g):
    lines = []
    for _ in range(4):
        lines.append(
            "%s INFO  [%s] request_id=%s user_id=%s path=/api/v1/%s status=%d dur_ms=%d"
            % (
                g.ts(),
                g.svc(),
                g.uuid(),
                g.uuid(),
                g.pick(["orders", "carts", "tokens/refresh", "sessions"]),
                g.pick([200, 201, 204, 401, 404]),
                g.int(2, 900),
            )
        )
    return "log excerpt around the spike:\n" + "\n".join(lines)


@B
def b_traceparent(g):
    tid, sid = g.hex(32), g.hex(16)
    return R(
        """
        <<m>>To follow one request across services, grep for the trace id. Example from the gateway:
        traceparent: 00-<<tid>>-<<sid>>-01
        tracestate: dd=s:1;t.dm:-4
        x-datadog-trace-id: <<dd>>
        """,
        m=g.meta("runbook"),
        tid=tid,
        sid=sid,
        dd=g.digits(19),
    )


@B
def b_aws_cli_output(g):
    acct = g.digits(12)
    return R(
        """
        ```json
        {
            "UserId": "AROA<<rid>>:<<u>>",
            "Account": "<<acct>>",
            "Arn": "arn:aws:sts::<<acct>>:assumed-role/ReadOnly/<<u>>"
        }
        ```
        ResponseMetadata.RequestId was <<req>>.
        """,
        rid=g.s(17, B32U),
        u=g.user(),
        acct=acct,
        req=g.uuid(),
    )


@B
def b_authorized_keys(g):
    return R(
        """
        ~/.ssh/authorized_keys on the bastion (public keys only):
        <<k1>>
        <<k2>>
        """,
        k1=ssh_ed_pub(g, g.user() + "@laptop"),
        k2=ssh_rsa_pub(g, g.user() + "@workstation"),
    )


@B
def b_known_hosts_hashed(g):
    rows = []
    for _ in range(2):
        salt = base64.b64encode(g.raw(20)).decode()
        h = base64.b64encode(g.raw(20)).decode()
        rows.append("|1|%s|%s %s" % (salt, h, ssh_ed_pub(g, "").strip()))
    return "~/.ssh/known_hosts (HashKnownHosts yes):\n" + "\n".join(rows)


@B
def b_ssh_fingerprint_prompt(g):
    host = g.host("git")
    fp = base64.b64encode(g.raw(32)).decode().rstrip("=")
    return R(
        """
        first connection to the new git host asks:
        The authenticity of host '<<h>> (<<ip>>)' can't be established.
        ED25519 key fingerprint is SHA256:<<fp>>.
        This key is not known by any other names.
        Compare against the fingerprint published on the internal wiki before typing yes.
        """,
        h=host,
        ip=g.ip(),
        fp=fp,
    )


@B
def b_pgp_fingerprint(g):
    fp = g.s(40, HEXU)
    spaced = " ".join(wrap(fp, 4))
    return R(
        """
        - [kind: reference] Security team PGP key: <<sp>> (long id <<lid>>), published on keys.openpgp.org. Encrypt vulnerability reports to it.
        """,
        sp=spaced[:24] + " " + spaced[25:],
        lid=fp[-16:],
    )


@B
def b_pgp_public_block(g):
    name = g.first().capitalize() + " " + g.last().capitalize()
    return R(
        """
        Public key for verifying the release tarballs:
        <<k>>
        """,
        k=pgp_public(g, name, g.email()),
    )


@B
def b_sops_age_recipients(g):
    pubs = []
    for _ in range(3):
        pubs.append(bech32("age", _convertbits(x25519_pub(g.raw(32)), 8, 5)))
    return R(
        """
        .sops.yaml
        ```yaml
        creation_rules:
          - path_regex: secrets/<<e>>/.*\\.yaml$
            age: >-
              <<a>>,
              <<b>>,
              <<c>>
        ```
        recipients are public keys; adding a person = adding their age1... line.
        """,
        e=g.env(),
        a=pubs[0],
        b=pubs[1],
        c=pubs[2],
    )


@B
def b_wireguard_public_only(g):
    peers = []
    for i in range(2):
        pk = base64.b64encode(x25519_pub(g.raw(32))).decode()
        peers.append("[Peer]\n# %s\nPublicKey = %s\nAllowedIPs = 10.44.0.%d/32" % (g.first(), pk, i + 10))
    return R(
        """
        server side peers section (private key is read from a file, never inline):
        [Interface]
        ListenPort = 51820
        PostUp = wg set %i private-key /etc/wireguard/private.key

        <<p>>
        """,
        p="\n\n".join(peers),
    )


@B
def b_x509_cert(g):
    return R(
        """
        <<m>>The internal root CA certificate (public, safe to distribute to laptops):
        <<c>>
        """,
        m=g.meta("reference"),
        c=x509_pem(g),
    )


@B
def b_stripe_pk_frontend(g):
    return R(
        """
        ```js
        // web/src/payments.js
        import { loadStripe } from '@stripe/stripe-js';
        export const stripePromise = loadStripe('<<pk>>');
        ```
        publishable keys are meant for the browser.
        """,
        pk=g.stripe_pk(g.pick(["live", "test"])),
    )


@B
def b_mapbox_pk(g):
    return R(
        """
        ```js
        mapboxgl.accessToken = '<<pk>>';
        const map = new mapboxgl.Map({ container: 'map', style: 'mapbox://styles/mapbox/light-v11', center: [<<lon>>, <<lat>>], zoom: 11 });
        ```
        """,
        pk=g.mapbox(g.company(), public=True),
        lon="%.4f" % (g.r.uniform(-10, 30)),
        lat="%.4f" % (g.r.uniform(35, 60)),
    )


@B
def b_algolia_search_only(g):
    return R(
        """
        ```ts
        const searchClient = algoliasearch('<<app>>', '<<k>>'); // search-only API key, fine to expose
        ```
        """,
        app=g.s(10, UPNUM),
        k=g.hex(32),
    )


@B
def b_sentry_dsn_browser(g):
    return R(
        """
        ```js
        Sentry.init({
          dsn: "https://<<k>>@o<<o>>.ingest.de.sentry.io/<<p>>",
          tracesSampleRate: 0.1,
          environment: "<<e>>",
        });
        ```
        (DSN is public by design — it only allows sending events.)
        """,
        k=g.hex(32),
        o=g.digits(7),
        p=g.digits(7),
        e=g.env(),
    )


@B
def b_recaptcha_sitekey(g):
    return R(
        """
        ```html
        <div class="g-recaptcha" data-sitekey="6L<<k>>"></div>
        <div class="h-captcha" data-sitekey="<<u>>"></div>
        ```
        """,
        k=g.s(38, B64U),
        u=g.uuid(),
    )


@B
def b_vapid_public(g):
    key = b64u_nopad(b"\x04" + g.raw(64))
    return R(
        """
        ```js
        const reg = await navigator.serviceWorker.ready;
        await reg.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: '<<k>>', // VAPID public key
        });
        ```
        """,
        k=key,
    )


@B
def b_google_client_id_only(g):
    return R(
        """
        - [kind: config] Google Sign-In button uses client ID <<cid>> (public; the secret is only on the server and not in this repo).
        """,
        cid=g.google_client_id(),
    )


@B
def b_github_app_ids(g):
    return R(
        """
        GitHub App "<<c>>-ci": App ID <<aid>>, client ID Iv23li<<cid>>, installation <<inst>>. Webhook URL https://ci.<<d>>/gh/events.
        """,
        c=g.company(),
        aid=g.int(100000, 999999),
        cid=g.s(14),
        inst=g.int(10000000, 99999999),
        d=g.domain(),
    )


@B
def b_changelog_versions(g):
    vs = [semver(g) for _ in range(3)]
    return R(
        """
        ## Changelog
        ### <<v1>> (<<d1>>)
        - Token refresh no longer races with logout (#<<n1>>)
        - Bump `jsonwebtoken` to 9.0.2
        ### <<v2>> (<<d2>>)
        - Password reset emails are localised
        ### <<v3>>
        - Initial release
        """,
        v1=vs[0],
        v2=vs[1],
        v3=vs[2],
        d1=g.date(),
        d2=g.date(),
        n1=g.int(100, 999),
    )


@B
def b_dockerfile_versions(g):
    return R(
        """
        ```dockerfile
        FROM python:3.12.<<p>>-slim@sha256:<<dg>>
        ARG APP_VERSION
        ARG GIT_SHA
        ENV PIP_NO_CACHE_DIR=1 \\
            APP_VERSION=${APP_VERSION}
        RUN --mount=type=secret,id=pip_conf,target=/etc/pip.conf pip install -r requirements.txt
        LABEL org.opencontainers.image.revision=${GIT_SHA}
        ```
        """,
        p=g.int(1, 9),
        dg=g.hex(64),
    )


@B
def b_base64_ordinary(g):
    payload = json.dumps(
        {"theme": g.pick(["dark", "light"]), "lang": g.pick(["en", "de", "ja", "pt-BR"]), "sidebar": g.chance()},
        separators=(",", ":"),
    )
    return R(
        """
        The `prefs` cookie is just base64 of JSON, not a secret:
        prefs=<<b>>
        decodes to <<p>>
        """,
        b=base64.b64encode(payload.encode()).decode(),
        p=payload,
    )


@B
def b_data_uri_svg(g):
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="%d" fill="#%s"/></svg>'
        % (g.int(3, 7), g.hex(6))
    )
    return R(
        """
        ```css
        .status-dot {
          background-image: url("data:image/svg+xml;base64,<<b>>");
          width: 16px; height: 16px;
        }
        ```
        """,
        b=base64.b64encode(svg.encode()).decode(),
    )


@B
def b_css_colors(g):
    cols = ["#" + g.hex(6) for _ in range(5)]
    return R(
        """
        ```css
        :root {
          --brand-primary: <<c0>>;
          --brand-secondary: <<c1>>;
          --surface: <<c2>>;
          --text-muted: <<c3>>cc;
          --danger: <<c4>>;
        }
        .btn-primary:hover { background: color-mix(in srgb, var(--brand-primary) 85%, black); }
        ```
        """,
        c0=cols[0],
        c1=cols[1],
        c2=cols[2],
        c3=cols[3],
        c4=cols[4],
    )


@B
def b_tailwind_theme(g):
    shades = {str(k): "#" + g.hex(6) for k in (50, 100, 500, 900)}
    return R(
        """
        tailwind.config.js theme extension agreed with design:
        ```js
        colors: { brand: <<s>> }
        ```
        """,
        s=json.dumps(shades),
    )


@B
def b_file_hashes_release(g):
    return R(
        """
        - [kind: reference] installer checksums published on the download page: MD5 <<md5>>, SHA-1 <<sha1>>, SHA-256 <<sha256>>.
        """,
        md5=g.hex(32),
        sha1=g.hex(40),
        sha256=g.hex(64),
    )


@B
def b_order_numbers(g):
    return R(
        """
        **<<t>>** Customer asks about a double charge
        - order #<<o1>> and #<<o2>>, invoice INV-<<y>>-<<inv>>
        - payment intent pi_<<pi>>, charge ch_<<ch>>
        - refund issued for the second one; customer id cus_<<cus>>
        """,
        t=g.ticket(),
        o1=g.digits(8),
        o2=g.digits(8),
        y=g.int(2024, 2026),
        inv=g.digits(6),
        pi=g.s(24),
        ch=g.s(24),
        cus=g.s(14),
    )


@B
def b_tracking_numbers(g):
    return R(
        """
        - Laptop for the new hire shipped: UPS 1Z<<ups>>, the monitor via DHL <<dhl>>. Delivery expected <<d>>.
        """,
        ups=g.s(6, UPNUM) + g.s(10, DIGITS),
        dhl=g.digits(10),
        d=g.date(),
    )


@B
def b_iban_test_values(g):
    return R(
        """
        - [kind: reference] For SEPA form tests use the documented example IBANs: DE89 3704 0044 0532 0130 00 and GB82 WEST 1234 5698 7654 32 (both pass the mod-97 check, neither is a real account). Card tests: 4242 4242 4242 4242, any future expiry, any CVC. (checked <<d>> for <<t>>)
        """,
        d=g.date(),
        t=g.ticket(),
    )


@B
def b_password_policy_en(g):
    n = g.pick([12, 14, 16])
    return R(
        """
        - [kind: decision] Password policy for the admin portal: minimum <<n>> characters, no composition rules, check against the breached-password list, lockout after <<k>> failed attempts for 15 minutes. Rotation only on suspicion of compromise.
        """,
        n=n,
        k=g.pick([5, 8, 10]),
    )


@B
def b_rotation_zh(g):
    return R(
        """
        - [kind: decision] 所有第三方 API 密钥每 <<n>> 天轮换一次；轮换前先在密钥管理系统里创建新版本，确认服务正常后再吊销旧密钥。不要把密钥贴到聊天群里。
        """,
        n=g.pick([30, 60, 90]),
    )


@B
def b_password_ja(g):
    return R(
        """
        - パスワードを忘れた場合は、ログイン画面の「パスワードをお忘れですか？」から再設定してください。管理者がパスワードを直接教えることはありません。（<<d>> 更新、担当: <<u>>）
        """,
        d=g.date(),
        u=g.last().capitalize(),
    )


@B
def b_apikey_ko(g):
    return R(
        """
        - [kind: gotcha] API 키는 환경 변수로만 주입합니다. 코드나 설정 파일에 키를 적지 말고, 로그에 헤더 전체를 출력하지 않도록 주의하세요. 키가 노출되면 즉시 보안팀(#sec-incident)에 알려 주세요. (<<d>> 기준)
        """,
        d=g.date(),
    )


@B
def b_password_ar(g):
    return R(
        """
        - تذكير: يجب أن تتكون كلمة المرور من <<n>> حرفًا على الأقل، ولا تُرسل كلمات المرور عبر البريد الإلكتروني أبدًا. استخدم مدير كلمات المرور المعتمد في الشركة. (تحديث <<d>>)
        """,
        n=g.pick([12, 14]),
        d=g.date(),
    )


@B
def b_token_ru(g):
    return R(
        """
        - [kind: runbook] Если токен доступа истёк, бот отвечает 401. Новый токен выпускает дежурный через панель администратора; срок жизни — <<n>> дней. Сам токен в заметки не копируем. См. <<t>>.
        """,
        n=g.pick([7, 30, 90]),
        t=g.ticket(),
    )


@B
def b_password_hi(g):
    return R(
        """
        - पासवर्ड कभी भी चैट या ईमेल में साझा न करें। अगर किसी को एक्सेस चाहिए, तो उसे पासवर्ड मैनेजर के साझा फ़ोल्डर में जोड़ें। (अपडेट: <<d>>)
        """,
        d=g.date(),
    )


@B
def b_token_tr(g):
    return R(
        """
        - [kind: gotcha] CI'daki erişim belirteci <<d>> tarihinde süresi dolacak. Yenisini oluştururken kapsamı sadece "read_api" ile sınırlayın ve değeri bu notlara yazmayın.
        """,
        d=g.date(),
    )


@B
def b_password_pl(g):
    return R(
        """
        - Hasło do konta serwisowego jest w sejfie KeePass w folderze „Infrastruktura”. Nie wpisujcie go do skryptów — używajcie zmiennej środowiskowej. Pytania do: <<u>>.
        """,
        u=g.user(),
    )


@B
def b_secret_pt(g):
    return R(
        """
        - [kind: decision] Segredos de produção ficam só no cofre (Vault). Para acesso temporário, peça um token com validade de <<h>> horas no canal #infra; nunca cole a senha no ticket.
        """,
        h=g.pick([4, 8, 12]),
    )


@B
def b_password_vi(g):
    return R(
        """
        - Mật khẩu Wi-Fi của văn phòng được dán ở quầy lễ tân; không ghi vào tài liệu nội bộ. Mật khẩu sẽ được đổi vào đầu mỗi quý. (cập nhật <<d>>)
        """,
        d=g.date(),
    )


@B
def b_env_refs_shell(g):
    return R(
        """
        ```bash
        export DB_PASSWORD="$(cat /run/secrets/db_password)"
        export API_TOKEN="${API_TOKEN:?API_TOKEN must be set}"
        psql "postgresql://app:${DB_PASSWORD}@<<h>>:5432/app" -c 'select 1'
        curl -H "Authorization: Bearer $API_TOKEN" https://<<h2>>/healthz
        ```
        """,
        h=g.host("pg"),
        h2=g.host("api"),
    )


@B
def b_gha_secrets_refs(g):
    return R(
        """
        ```yaml
            - name: Publish
              run: npm publish --provenance
              env:
                NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}
            - name: Deploy
              uses: <<org>>/deploy-action@v<<v>>
              with:
                api-key: ${{ secrets.DEPLOY_API_KEY }}
                github-token: ${{ github.token }}
        ```
        """,
        org=g.company(),
        v=g.int(1, 4),
    )


@B
def b_gitlab_ci_vars(g):
    return R(
        """
        ```yaml
        deploy:
          stage: deploy
          image: alpine:3.20
          script:
            - apk add --no-cache curl
            - 'curl --header "JOB-TOKEN: $CI_JOB_TOKEN" --upload-file dist.tgz "${CI_API_V4_URL}/projects/${CI_PROJECT_ID}/packages/generic/app/<<v>>/dist.tgz"'
          variables:
            DEPLOY_ENV: <<e>>
        # DEPLOY_KEY and REGISTRY_PASSWORD are masked+protected CI/CD variables
        ```
        """,
        v=semver(g),
        e=g.env(),
    )


@B
def b_circleci_context(g):
    return R(
        """
        ```yaml
        workflows:
          release:
            jobs:
              - publish:
                  context:
                    - <<c>>-npm-publish
                    - aws-oidc-<<e>>
                  filters:
                    tags: { only: /^v.*/ }
        ```
        The context holds NPM_TOKEN; nothing secret lives in the repo.
        """,
        c=g.company(),
        e=g.env(),
    )


@B
def b_k8s_secretkeyref(g):
    return R(
        """
        ```yaml
        env:
          - name: DATABASE_PASSWORD
            valueFrom:
              secretKeyRef:
                name: <<s>>-db
                key: password
          - name: STRIPE_SECRET_KEY
            valueFrom:
              secretKeyRef: {name: <<s>>-stripe, key: secret_key}
          - name: LOG_LEVEL
            value: <<lv>>
        ```
        """,
        s=g.svc(),
        lv=g.pick(["info", "debug", "warn"]) + "  # replicas: %d" % g.int(2, 9),
    )


@B
def b_helm_existing_secret(g):
    return R(
        """
        ```yaml
        postgresql:
          auth:
            existingSecret: <<s>>-pg-credentials
            secretKeys:
              adminPasswordKey: postgres-password
              userPasswordKey: password
        redis:
          auth:
            enabled: true
            existingSecret: <<s>>-redis
            existingSecretPasswordKey: redis-password
        ```
        """,
        s=g.svc(),
    )


@B
def b_compose_env_file(g):
    return R(
        """
        ```yaml
        services:
          api:
            image: <<c>>/api:<<v>>
            env_file: .env
            environment:
              DATABASE_URL: postgres://api:${POSTGRES_PASSWORD:?set it in .env}@db:5432/api
              JWT_SECRET: ${JWT_SECRET}
            secrets:
              - stripe_key
        secrets:
          stripe_key:
            file: ./secrets/stripe_key.txt
        ```
        """,
        c=g.company(),
        v=semver(g),
    )


@B
def b_tf_sensitive_var(g):
    return R(
        """
        ```hcl
        variable "db_password" {
          type      = string
          sensitive = true
        }

        resource "random_password" "app" {
          length  = <<n>>
          special = true
        }

        output "db_endpoint" {
          value = aws_db_instance.main.endpoint
        }
        ```
        """,
        n=g.pick([24, 32, 40]),
    )


@B
def b_ansible_vault_lookup(g):
    return R(
        """
        ```yaml
        # group_vars/<<grp>>/vars.yml
        app_db_user: <<s>>
        app_db_password: "{{ vault_app_db_password }}"
        smtp_password: "{{ lookup('community.hashi_vault.hashi_vault', 'secret=kv/data/smtp:password') }}"
        ```
        """,
        grp=g.pick(["web", "db", "workers"]),
        s=g.svc(),
    )


@B
def b_placeholders(g):
    return R(
        """
        ## Quick start
        1. Copy `.env.example` to `.env`.
        2. Set `API_KEY=<your-api-key>` and `API_SECRET=<your-api-secret>`.
        3. Run `make dev` and open http://localhost:<<p>>.
        > Replace `YOUR_TOKEN_HERE` in `config/local.yml` as well.
        """,
        p=g.pick([3000, 5173, 8000, 8080]),
    )


@B
def b_xxx_placeholders(g):
    return R(
        """
        Example request from the partner docs (<<d>>):
        curl https://api.<<dom>>/v1/charges \\
          -u sk_test_xxxxxxxxxxxxxxxxxxxxxxxx: \\
          -d amount=<<a>> -d currency=eur
        The key in the example is a placeholder; use your own test key.
        """,
        d=g.date(),
        dom=g.domain(),
        a=g.int(100, 9999),
    )


@B
def b_changeme_docs(g):
    return R(
        """
        - [kind: reference] The <<p>> container starts with user `admin` / password `changeme` by default; the entrypoint refuses to start in production mode until you set ADMIN_PASSWORD. UI on port <<port>>.
        """,
        p=g.pick(["wiki", "registry-ui", "keycloak-dev", "grafana-sandbox"]),
        port=g.int(3000, 9999),
    )


@B
def b_env_example_empty(g):
    return R(
        """
        .env.example
        ```
        DATABASE_URL=
        REDIS_URL=redis://localhost:6379/0
        STRIPE_SECRET_KEY=
        STRIPE_WEBHOOK_SECRET=
        OPENAI_API_KEY=
        SESSION_SECRET=
        PORT=<<p>>
        APP_NAME=<<a>>
        ```
        """,
        p=g.pick([3000, 4000, 8080]),
        a=g.svc() + "-" + g.env(),
    )


@B
def b_yaml_keys_no_value(g):
    return R(
        """
        ```yaml
        smtp:
          host: smtp.<<d>>
          port: 587
          username:
          password:
        oauth:
          client_id: ""
          client_secret: ""
        ```
        Fill these from the vault at deploy time.
        """,
        d=g.domain(),
    )


@B
def b_commit_messages(g):
    return R(
        """
        <<a>> security: stop logging Authorization headers
        <<b>> fix(config): fail fast when SECRET_KEY is missing
        <<c>> chore: remove hard-coded test password from fixtures
        <<d>> feat(auth): support passkeys alongside passwords
        """,
        a=g.hex(7),
        b=g.hex(7),
        c=g.hex(7),
        d=g.hex(7),
    )


@B
def b_math_latex(g):
    a, b = g.int(2, 9), g.int(2, 9)
    return R(
        """
        Entropy estimate for the passphrase generator: with a word list of size $N=<<n>>$ and $k=<<k>>$ words,
        $$H = k \\log_2 N \\approx <<h>>\\ \\text{bits}$$
        versus $<<a>>^{<<b>>}$ combinations for a short PIN.
        """,
        n=g.pick([2048, 7776]),
        k=g.pick([4, 5, 6]),
        h=g.int(40, 80),
        a=a,
        b=b,
    )


@B
def b_regex_validation(g):
    return R(
        """
        ```ts
        // password rule used by the signup form (length only; strength is checked by zxcvbn)
        export const PASSWORD_RE = /^.{<<n>>,128}$/;
        export const USERNAME_RE = /^[a-z0-9_.-]{3,32}$/;
        ```
        """,
        n=g.pick([10, 12, 15]),
    )


@B
def b_jwks_public(g):
    n = b64u_nopad(b"\xc1" + g.raw(255))
    return R(
        """
        GET https://auth.<<d>>/.well-known/jwks.json
        {"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"<<kid>>","n":"<<n>>","e":"AQAB"}]}
        """,
        d=g.domain(),
        kid=g.hex(16),
        n=n,
    )


@B
def b_jwt_header_discussion(g):
    kid = g.hex(16)
    return R(
        """
        - [kind: gotcha] Tokens from the new IdP have header {"alg":"RS256","typ":"JWT","kid":"<<kid>>"}; our verifier only accepted HS256, hence the 401s. Fixed by reading the JWKS.
        """,
        kid=kid,
    )


@B
def b_cert_fingerprint(g):
    fp = ":".join(wrap(g.s(64, HEXU), 2))
    return R(
        """
        Pin for the mobile app (leaf cert of api.<<d>>, valid until <<dt>>):
        SHA256 Fingerprint=<<fp>>
        """,
        d=g.domain(),
        dt=g.date(),
        fp=fp,
    )


@B
def b_eth_tx(g):
    return R(
        """
        - [kind: fact] Testnet faucet payout went through: tx 0x<<tx>> from 0x<<a>> to 0x<<b>>, block <<blk>>.
        """,
        tx=g.hex(64),
        a=g.hex(40),
        b=g.hex(40),
        blk=g.int(5000000, 9000000),
    )


@B
def b_btc_addresses(g):
    addr = bech32("bc", [0] + _convertbits(g.raw(20), 8, 5))
    return R(
        """
        Donation address on the website: <<addr>>
        Last block seen by the indexer: 00000000000000000<<bh>> (height <<h>>)
        """,
        addr=addr,
        bh=g.hex(47),
        h=g.int(850000, 950000),
    )


@B
def b_ipfs_cids(g):
    cid = "bafybei" + g.s(52, "abcdefghijklmnopqrstuvwxyz234567")
    v0 = "Qm" + g.s(44, B58)
    return R(
        """
        Static docs pinned to IPFS: ipfs://<<cid>> (old build: <<v0>>)
        """,
        cid=cid,
        v0=v0,
    )


@B
def b_onion_address(g):
    return R(
        """
        - [kind: reference] Our SecureDrop-style tip line is reachable at http://<<o>>.onion/ (v3 address, public on the contact page).
        """,
        o=g.s(55, "abcdefghijklmnopqrstuvwxyz234567") + "d",
    )


@B
def b_stripe_object_ids(g):
    return R(
        """
        webhook event evt_<<e>> (type invoice.payment_failed) for customer cus_<<c>>, subscription sub_<<s>>, price price_<<p>>, product prod_<<pr>>.
        """,
        e=g.s(24),
        c=g.s(14),
        s=g.s(24),
        p=g.s(24),
        pr=g.s(14),
    )


@B
def b_llm_ids(g):
    return R(
        """
        <<m>>Support asked for identifiers, not keys: OpenAI org org-<<o>>, project proj_<<p>>, request id req_<<r>>; Anthropic message msg_01<<msg>>, request-id req_011C<<ar>>.
        """,
        m=g.meta("reference"),
        o=g.s(24),
        p=g.s(24),
        r=g.hex(32),
        msg=g.s(22),
        ar=g.s(20),
    )


@B
def b_slack_ids(g):
    return R(
        """
        - [kind: reference] Alerts post to channel C0<<c>> (#alerts-<<e>>); the on-call user group is S0<<s>>; thread ts <<ts>>.
        """,
        c=g.s(9, UPNUM),
        e=g.env(),
        s=g.s(9, UPNUM),
        ts="%d.%06d" % (g.int(1700000000, 1790000000), g.int(0, 999999)),
    )


@B
def b_discord_ids(g):
    return R(
        """
        Guild id <<gid>>, #releases channel id <<cid>>, bot application id <<aid>> (ids are public snowflakes).
        """,
        gid=g.int(8 * 10**17, 13 * 10**17),
        cid=g.int(8 * 10**17, 13 * 10**17),
        aid=g.int(8 * 10**17, 13 * 10**17),
    )


@B
def b_k8s_pod_names(g):
    s = g.svc()
    rs = g.s(10, "bcdfghjklmnpqrstvwxz2456789")
    rows = [
        "%s-%s-%s   1/1   Running   0   %dh" % (s, rs, g.s(5, "bcdfghjklmnpqrstvwxz2456789"), g.int(1, 48))
        for _ in range(3)
    ]
    return R(
        """
        ```
        NAME                              READY   STATUS    RESTARTS   AGE
        <<r>>
        ```
        resourceVersion of the deployment was <<rv>>.
        """,
        r="\n".join(rows),
        rv=g.digits(8),
    )


@B
def b_aws_resource_ids(g):
    return R(
        """
        - [kind: fact] The NAT instance is i-0<<i>> in vpc-0<<v>> (subnet-0<<sn>>), AMI ami-0<<ami>>, SG sg-0<<sg>>. KMS key arn:aws:kms:<<r>>:<<a>>:key/<<k>>.
        """,
        i=g.hex(16),
        v=g.hex(16),
        sn=g.hex(16),
        ami=g.hex(16),
        sg=g.hex(16),
        r=g.region(),
        a=g.digits(12),
        k=g.uuid(),
    )


@B
def b_azure_ids(g):
    return R(
        """
        ```
        $ az account show -o table
        EnvironmentName    HomeTenantId                          IsDefault    Name             State    TenantId
        -----------------  ------------------------------------  -----------  ---------------  -------  ------------------------------------
        AzureCloud         <<t>>  True         <<n>>  Enabled  <<t>>
        ```
        subscription id <<s>>
        """,
        t=g.uuid(),
        n=("%s-%s" % (g.company(), g.env()))[:15].ljust(15),
        s=g.uuid(),
    )


@B
def b_gcp_ids(g):
    p = "%s-%s-%d" % (g.company(), g.env(), g.int(100, 999))
    return R(
        """
        - project id `<<p>>`, project number <<n>>, default compute SA <<n>>-compute@developer.gserviceaccount.com, bucket gs://<<p>>-artifacts.
        """,
        p=p,
        n=g.digits(12),
    )


@B
def b_tf_plan_sensitive(g):
    return R(
        """
        ```
          # aws_db_instance.main will be updated in-place
          ~ resource "aws_db_instance" "main" {
                id                 = "<<id>>"
              ~ password           = (sensitive value)
              ~ instance_class     = "db.t3.medium" -> "db.r6g.large"
                # (41 unchanged attributes hidden)
            }

        Plan: 0 to add, 1 to change, 0 to destroy.
        ```
        """,
        id="%s-%s" % (g.svc(), g.env()),
    )


@B
def b_already_redacted(g):
    return R(
        """
        config dump from the support bundle (values redacted by the tool):
        database.password: ********
        api.key: [REDACTED]
        smtp.pass: •••••••••
        webhook.secret: <redacted:<<n>> chars>
        """,
        n=g.int(20, 64),
    )


@B
def b_image_tags_charts(g):
    return R(
        """
        - [kind: fact] prod runs chart <<c>>-<<v1>> with image tag <<v2>>-<<sha>> (built from main@<<sha>>).
        """,
        c=g.svc(),
        v1=semver(g),
        v2=semver(g),
        sha=g.hex(7),
    )


@B
def b_etag_cache(g):
    return R(
        """
        ```
        HTTP/2 200
        etag: W/"<<e>>"
        cache-control: public, max-age=31536000, immutable
        x-cache: Hit from cloudfront
        x-amz-cf-id: <<cf>>==
        ```
        """,
        e=g.hex(32),
        cf=g.s(54, ALNUM + "_-"),
    )


@B
def b_stack_trace_addresses(g):
    return R(
        """
        ```
        panic: runtime error: invalid memory address or nil pointer dereference
        [signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x<<pc>>]
        goroutine <<n>> [running]:
        main.(*TokenCache).Get(0x0, {0xc000<<a>>, 0x24})
                /src/cache.go:42 +0x<<o>>
        ```
        """,
        pc=g.hex(6),
        n=g.int(1, 400),
        a=g.hex(6),
        o=g.hex(2),
    )


@B
def b_sha256_test_vector(g):
    return R(
        """
        - [kind: reference] Known-answer test for our hashing wrapper: SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad; SHA-1("abc") = a9993e364706816aba3e25717850c26c9cd0d89d. Test id <<t>>.
        """,
        t=g.ticket(),
    )


@B
def b_nix_flake_lock(g):
    return R(
        """
        flake.lock
        "nixpkgs": {
          "locked": {
            "lastModified": <<lm>>,
            "narHash": "sha256-<<h>>",
            "owner": "NixOS",
            "repo": "nixpkgs",
            "rev": "<<rev>>",
            "type": "github"
          }
        }
        """,
        lm=g.int(1700000000, 1790000000),
        h=base64.b64encode(g.raw(32)).decode(),
        rev=g.hex(40),
    )


@B
def b_homebrew_formula(g):
    v = semver(g)
    return R(
        """
        ```ruby
        class <<c>>Cli < Formula
          desc "Command-line client for the <<c>> API"
          url "https://github.com/<<l>>/cli/archive/refs/tags/v<<v>>.tar.gz"
          sha256 "<<h>>"
          license "Apache-2.0"
        end
        ```
        """,
        c=g.company().capitalize(),
        l=g.company(),
        v=v,
        h=g.hex(64),
    )


@B
def b_maven_coords(g):
    return R(
        """
        <dependency>
          <groupId>io.<<c>></groupId>
          <artifactId>client-sdk</artifactId>
          <version><<v>></version>
        </dependency>
        <!-- client-sdk-<<v>>.jar sha1: <<h>> -->
        """,
        c=g.company(),
        v=semver(g),
        h=g.hex(40),
    )


@B
def b_poetry_lock(g):
    return R(
        """
        [[package]]
        name = "cryptography"
        version = "<<v>>"
        files = [
            {file = "cryptography-<<v>>-cp39-abi3-manylinux_2_28_x86_64.whl", hash = "sha256:<<h1>>"},
            {file = "cryptography-<<v>>.tar.gz", hash = "sha256:<<h2>>"},
        ]
        """,
        v=semver(g),
        h1=g.hex(64),
        h2=g.hex(64),
    )


@B
def b_citations(g):
    return R(
        """
        - [kind: reference] Paper on password-composition rules: doi:10.<<a>>/<<b>>, ISBN 978-<<i1>>-<<i2>>-<<i3>>-<<i4>>, arXiv:<<ax>>.
        """,
        a=g.int(1000, 9999),
        b=g.s(8, LOWNUM),
        i1=g.int(0, 9),
        i2=g.digits(3),
        i3=g.digits(5),
        i4=g.int(0, 9),
        ax="%d.%05d" % (g.int(2001, 2612), g.int(0, 99999)),
    )


@B
def b_jira_talk(g):
    return R(
        """
        **<<t>>** Rotate the Jenkins API token
        Acceptance: old token revoked, new token stored in Vault at kv/ci/jenkins, pipelines green. Owner: <<u>>. Do not paste the token into this ticket.
        """,
        t=g.ticket(),
        u=g.user(),
    )


@B
def b_last4_mention(g):
    return R(
        """
        - [kind: fact] The key that leaked was the one ending in …<<l4>>; it was disabled at <<tm>> UTC and its replacement lives in Secrets Manager (<<p>>).
        """,
        l4=g.s(4, UPNUM),
        tm=g.time(),
        p="prod/%s/api-key" % g.svc(),
    )


@B
def b_auth_error_logs(g):
    return R(
        """
        ```
        <<ts>> WARN  auth: invalid_grant: refresh token expired (client_id=<<cid>>)
        <<ts2>> ERROR api: 401 Unauthorized — missing Authorization header on POST /v2/<<p>>
        <<ts3>> INFO  auth: password reset requested for user_id=<<uid>>
        ```
        """,
        ts=g.ts(),
        cid=g.pick(["web", "ios", "android", "cli"]),
        ts2=g.ts(),
        p=g.pick(["events", "uploads"]),
        ts3=g.ts(),
        uid=g.digits(7),
    )


@B
def b_bearer_placeholder(g):
    return R(
        """
        API docs, section Authentication:
        ```http
        GET /v1/me HTTP/1.1
        Host: api.<<d>>
        Authorization: Bearer <ACCESS_TOKEN>
        ```
        Tokens are issued by POST /oauth/token and expire after <<n>> minutes.
        """,
        d=g.domain(),
        n=g.pick([15, 30, 60]),
    )


@B
def b_curl_env_token(g):
    return R(
        """
        <<m>>list open PRs without leaving the terminal:
        curl -s -H "Authorization: Bearer $GITHUB_TOKEN" "https://api.github.com/repos/<<o>>/<<r>>/pulls?state=open" | jq '.[].title'
        """,
        m=g.meta("snippet"),
        o=g.company(),
        r=g.svc(),
    )


@B
def b_python_environ(g):
    return R(
        """
        ```python
        import os

        OPENAI_API_KEY = os.environ["OPENAI_API_KEY"]
        DB_URL = os.getenv("DATABASE_URL", "sqlite:///./<<s>>.db")
        TIMEOUT = float(os.getenv("HTTP_TIMEOUT", "<<t>>"))
        ```
        """,
        s=g.svc(),
        t=g.pick(["5", "10", "30"]),
    )


@B
def b_js_process_env(g):
    return R(
        """
        ```js
        const stripe = require('stripe')(process.env.STRIPE_SECRET_KEY);
        const port = Number(process.env.PORT ?? <<p>>);
        if (!process.env.SESSION_SECRET) throw new Error('SESSION_SECRET is required');
        ```
        (<<s>> service, <<d>>)
        """,
        p=g.pick([3000, 8080]),
        s=g.svc(),
        d=g.date(),
    )


@B
def b_go_getenv(g):
    return R(
        """
        ```go
        cfg := Config{
            DSN:       os.Getenv("<<e>>_DATABASE_DSN"),
            APIKey:    mustEnv("PARTNER_API_KEY"),
            Timeout:   <<t>> * time.Second,
        }
        ```
        """,
        e=g.svc().upper(),
        t=g.pick([5, 10, 30]),
    )


@B
def b_rust_env_var(g):
    return R(
        """
        ```rust
        let token = std::env::var("GITHUB_TOKEN").expect("GITHUB_TOKEN not set");
        let client = octocrab::Octocrab::builder().personal_token(token).build()?;
        let repo = client.repos("<<o>>", "<<r>>").get().await?;
        ```
        """,
        o=g.company(),
        r=g.svc(),
    )


@B
def b_java_value(g):
    return R(
        """
        ```java
        @Value("${spring.datasource.password}")
        private String dbPassword;

        @Value("${<<s>>.api-key:}")
        private String apiKey; // empty default on purpose, startup check fails fast
        ```
        """,
        s=g.svc(),
    )


@B
def b_csharp_user_secrets(g):
    return R(
        """
        ```
        dotnet user-secrets init --project src/<<p>>.Api
        dotnet user-secrets set "Stripe:SecretKey" "<value from the dashboard>" --project src/<<p>>.Api
        ```
        and in code: `builder.Configuration["Stripe:SecretKey"]`.
        """,
        p=g.company().capitalize(),
    )


@B
def b_php_env(g):
    return R(
        """
        ```php
        'mysql' => [
            'host' => env('DB_HOST', '127.0.0.1'),
            'port' => env('DB_PORT', '3306'),
            'database' => env('DB_DATABASE', '<<d>>'),
            'username' => env('DB_USERNAME', 'forge'),
            'password' => env('DB_PASSWORD', ''),
        ],
        ```
        """,
        d=g.svc(),
    )


@B
def b_ruby_credentials(g):
    return R(
        """
        ```ruby
        Stripe.api_key = Rails.application.credentials.dig(:stripe, :secret_key)
        Sentry.init { |c| c.dsn = ENV.fetch("SENTRY_DSN", nil); c.traces_sample_rate = 0.<<n>> }
        ```
        """,
        n=g.int(1, 5),
    )


@B
def b_kotlin_buildconfig(g):
    return R(
        """
        ```kotlin
        buildConfigField("String", "MAPS_API_KEY", "\\"${project.findProperty("MAPS_API_KEY") ?: ""}\\"")
        // usage
        val key = BuildConfig.MAPS_API_KEY
        ```
        versionName "<<v>>"
        """,
        v=semver(g),
    )


@B
def b_swift_keychain(g):
    return R(
        """
        ```swift
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.<<c>>.api",
            kSecAttrAccount as String: account,
            kSecReturnData as String: true
        ]
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        ```
        """,
        c=g.company(),
    )


@B
def b_shell_read_password(g):
    return R(
        """
        ```bash
        read -r -s -p "Password for <<u>>: " PASS; echo
        mysql -u "<<u>>" --password="$PASS" -h <<h>> -e 'select version()'
        unset PASS
        ```
        """,
        u=g.pick(["report_ro", "admin"]),
        h=g.host("mysql"),
    )


@B
def b_ssh_config(g):
    return R(
        """
        ~/.ssh/config
        ```
        Host bastion
          HostName <<h>>
          User <<u>>
          IdentityFile ~/.ssh/id_ed25519
          IdentitiesOnly yes
        Host *.internal
          ProxyJump bastion
          ForwardAgent no
        ```
        """,
        h=g.host("bastion"),
        u=g.user(),
    )


@B
def b_npmrc_env_ref(g):
    return R(
        """
        .npmrc (committed, token comes from CI env):
        @<<c>>:registry=https://npm.pkg.github.com
        //npm.pkg.github.com/:_authToken=${NODE_AUTH_TOKEN}
        engine-strict=true
        """,
        c=g.company(),
    )


@B
def b_pypirc_keyring(g):
    return R(
        """
        ~/.pypirc
        [distutils]
        index-servers = <<c>>

        [<<c>>]
        repository = https://pypi.<<d>>/simple/
        username = __token__
        # password comes from keyring: `keyring set https://pypi.<<d>>/simple/ __token__`
        """,
        c=g.company(),
        d=g.domain(),
    )


@B
def b_git_credential_helper(g):
    return R(
        """
        - [kind: decision] Use `git config --global credential.helper osxkeychain` (mac) or `manager` (Windows); never `store`. For https remotes use `url."git@github.com:".insteadOf "https://github.com/"`. Checked by <<u>>.
        """,
        u=g.user(),
    )


@B
def b_kubeconfig_exec(g):
    return R(
        """
        ```yaml
        users:
        - name: eks-<<e>>
          user:
            exec:
              apiVersion: client.authentication.k8s.io/v1beta1
              command: aws
              args: ["eks", "get-token", "--cluster-name", "<<c>>-<<e>>", "--region", "<<r>>"]
        ```
        no static token in the kubeconfig anymore.
        """,
        e=g.env(),
        c=g.company(),
        r=g.region(),
    )


@B
def b_vault_commands(g):
    return R(
        """
        ```
        vault login -method=oidc role=<<r>>
        vault kv get -mount=secret <<s>>/<<e>>
        vault kv metadata get secret/<<s>>/<<e>>
        ```
        The values never leave Vault; the app uses the agent sidecar.
        """,
        r=g.pick(["dev", "ops", "readonly"]),
        s=g.svc(),
        e=g.env(),
    )


@B
def b_doppler_cli(g):
    return R(
        """
        - [kind: runbook] Local dev: `doppler setup --project <<p>> --config dev_<<u>>` once, then `doppler run -- npm run dev`. Never `doppler secrets download` into the repo folder.
        """,
        p=g.svc(),
        u=g.first(),
    )


@B
def b_1password_refs(g):
    return R(
        """
        ```
        # .env.tpl  (rendered with `op inject -i .env.tpl -o .env`)
        DATABASE_URL=op://<<v>>/<<s>>-db/connection-string
        STRIPE_SECRET_KEY=op://<<v>>/stripe/secret-key
        ```
        """,
        v=g.pick(["Engineering", "Platform", "Shared"]),
        s=g.svc(),
    )


@B
def b_aws_secret_arns(g):
    a, r = g.digits(12), g.region()
    return R(
        """
        task definition secrets (references, resolved by ECS at start):
        "secrets": [
          {"name": "DB_PASSWORD", "valueFrom": "arn:aws:secretsmanager:<<r>>:<<a>>:secret:<<s>>/db-<<x>>"},
          {"name": "API_KEY", "valueFrom": "arn:aws:ssm:<<r>>:<<a>>:parameter/<<s>>/api-key"}
        ]
        """,
        r=r,
        a=a,
        s=g.svc(),
        x=g.s(6),
    )


@B
def b_sops_encrypted(g):
    def enc(n):
        return "ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]" % (
            base64.b64encode(g.raw(n)).decode(),
            base64.b64encode(g.raw(32)).decode(),
            base64.b64encode(g.raw(16)).decode(),
        )

    return R(
        """
        secrets/<<e>>/app.yaml as committed (SOPS-encrypted with age; safe in git):
        ```yaml
        db_password: <<a>>
        api_key: <<b>>
        sops:
            age:
                - recipient: <<rc>>
            lastmodified: "<<ts>>"
            version: 3.9.1
        ```
        """,
        e=g.env(),
        a=enc(18),
        b=enc(32),
        rc=bech32("age", _convertbits(g.raw(32), 8, 5)),
        ts=g.ts(),
    )


@B
def b_design_palette(g):
    return R(
        """
        - [kind: preference] <<u>> wants the dashboard charts to use the palette <<a>>, <<b>>, <<c>>, <<d>> (colour-blind safe), background <<e>>.
        """,
        u=g.first().capitalize(),
        a="#" + g.hex(6),
        b="#" + g.hex(6),
        c="#" + g.hex(6),
        d="#" + g.hex(6),
        e="#" + g.hex(6),
    )


@B
def b_pnpm_lock(g):
    v = semver(g)
    return R(
        """
        pnpm-lock.yaml
          /zod@<<v>>:
            resolution: {integrity: sha512-<<i>>}
            dev: false
        """,
        v=v,
        i=base64.b64encode(g.raw(64)).decode(),
    )


@B
def b_composer_lock(g):
    return R(
        """
        "name": "guzzlehttp/guzzle",
        "version": "<<v>>",
        "source": {
            "type": "git",
            "url": "https://github.com/guzzle/guzzle.git",
            "reference": "<<r>>"
        },
        "dist": {"type": "zip", "shasum": ""}
        """,
        v=semver(g),
        r=g.hex(40),
    )


@B
def b_gemfile_lock(g):
    return R(
        """
        Gemfile.lock
        CHECKSUMS
          rack (<<v1>>) sha256=<<h1>>
          rails (<<v2>>) sha256=<<h2>>
        BUNDLED WITH
           2.5.<<n>>
        """,
        v1=semver(g),
        h1=g.hex(64),
        v2=semver(g),
        h2=g.hex(64),
        n=g.int(1, 22),
    )


@B
def b_ulids(g):
    c = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    return R(
        """
        job ids are ULIDs now: 01J<<a>> (queued), 01J<<b>> (running), 01J<<c>> (failed: upstream timeout)
        """,
        a=g.s(23, c),
        b=g.s(23, c),
        c=g.s(23, c),
    )


@B
def b_firestore_ids(g):
    return R(
        """
        - [kind: fact] Test fixtures reference Firestore docs users/<<a>> and orders/<<b>>; those are auto-generated document ids, not credentials.
        """,
        a=g.s(20),
        b=g.s(20),
    )


@B
def b_mongo_objectids(g):
    return R(
        """
        db.orders.find({ _id: ObjectId("<<a>>") }) returned nothing; the record was merged into ObjectId("<<b>>") on <<d>>.
        """,
        a=g.hex(24),
        b=g.hex(24),
        d=g.date(),
    )


@B
def b_format_description(g):
    return R(
        """
        - [kind: reference] How to recognise our tokens in logs: they start with `<<p>>_`, followed by 32 base62 characters and a 6-character checksum. Anything without that prefix is not one of ours. Doc owner <<u>>.
        """,
        p=g.pick(["kst", "tlb", "qln"]),
        u=g.user(),
    )


@B
def b_es_no_paste(g):
    return R(
        """
        - Recordatorio del equipo de seguridad: nunca peguéis tokens ni contraseñas en Slack o en los tickets. Si alguien necesita acceso, que lo solicite en #acceso-<<e>> y se le asignará por el gestor de secretos.
        """,
        e=g.env(),
    )


@B
def b_onboarding_ask(g):
    return R(
        """
        ## Onboarding: staging access
        - Ask @<<u>> to add you to the "Staging DB" item in 1Password.
        - The VPN profile is downloaded from https://vpn.<<d>>/profile after SSO.
        - Your first login forces a password change.
        """,
        u=g.first(),
        d=g.domain(),
    )


@B
def b_secret_location_table(g):
    rows = "\n".join("| %s | vault kv/%s/%s | %s |" % (s, s, g.env(), g.user()) for s in g.sample(SVC, 3))
    return R(
        """
        | service | where the secret lives | owner |
        |---|---|---|
        <<rows>>
        """,
        rows=rows,
    )


@B
def b_hashing_params(g):
    return R(
        """
        - [kind: decision] Password hashing: argon2id with m=<<m>>, t=<<t>>, p=1; bcrypt cost 12 kept only for legacy rows until next login. Pepper lives in KMS.
        """,
        m=g.pick([19456, 47104, 65536]),
        t=g.pick([2, 3, 4]),
    )


@B
def b_crontab(g):
    return R(
        """
        ```
        # m h dom mon dow command
        */5 * * * * /usr/local/bin/<<s>>-healthcheck >> /var/log/<<s>>-hc.log 2>&1
        30 3 * * 0 /usr/local/bin/rotate-logs --keep <<k>>
        ```
        """,
        s=g.svc(),
        k=g.int(3, 14),
    )


@B
def b_nginx_tls_paths(g):
    return R(
        """
        ```nginx
        server {
            listen 443 ssl http2;
            server_name <<h>>;
            ssl_certificate     /etc/letsencrypt/live/<<h>>/fullchain.pem;
            ssl_certificate_key /etc/letsencrypt/live/<<h>>/privkey.pem;
            add_header Strict-Transport-Security "max-age=63072000" always;
        }
        ```
        """,
        h=g.host("www"),
    )


@B
def b_systemd_envfile(g):
    return R(
        """
        ```ini
        [Service]
        User=<<s>>
        EnvironmentFile=/etc/<<s>>/env
        LoadCredential=db-password:/etc/credstore/<<s>>-db
        ExecStart=/usr/local/bin/<<s>> --config /etc/<<s>>/config.toml
        ```
        """,
        s=g.svc(),
    )


@B
def b_prometheus_metrics(g):
    return R(
        """
        ```
        http_requests_total{route="/api/tokens",method="POST",code="201"} <<a>>
        build_info{version="<<v>>",revision="<<r>>",goversion="go1.23.<<g>>"} 1
        cache_key_hits{key="<<k>>"} <<b>>
        ```
        """,
        a=g.int(100, 99999),
        v=semver(g),
        r=g.hex(40),
        g=g.int(0, 9),
        k=g.hex(16),
        b=g.int(0, 9999),
    )


@B
def b_json_schema(g):
    return R(
        """
        ```json
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": "<<s>> config",
          "type": "object",
          "properties": {
            "password": {"type": "string", "minLength": <<n>>, "writeOnly": true},
            "apiKey": {"type": "string", "description": "Provided via env, never stored"}
          }
        }
        ```
        """,
        s=g.svc(),
        n=g.pick([8, 12, 16]),
    )


@B
def b_openapi_security(g):
    return R(
        """
        ```yaml
        components:
          securitySchemes:
            ApiKeyAuth:
              type: apiKey
              in: header
              name: X-API-Key
            bearerAuth:
              type: http
              scheme: bearer
              bearerFormat: JWT
        security:
          - ApiKeyAuth: []
        info:
          version: <<v>>
        ```
        """,
        v=semver(g),
    )


@B
def b_sql_ddl(g):
    return R(
        """
        ```sql
        CREATE TABLE <<t>> (
          id            BIGSERIAL PRIMARY KEY,
          email         CITEXT UNIQUE NOT NULL,
          password_hash TEXT NOT NULL,
          api_key_hash  BYTEA,
          created_at    TIMESTAMPTZ DEFAULT now()
        );
        ```
        """,
        t=g.pick(["users", "accounts", "members"]),
    )


@B
def b_wifi_no_value(g):
    return R(
        """
        - [kind: fact] Office Wi-Fi: network "<<n>>" (WPA2-Enterprise, log in with your SSO account). Guest network "<<n>>-Guest" password is printed on the card at reception.
        """,
        n=g.company().capitalize(),
    )


@B
def b_open_guest_wifi(g):
    return R(
        """
        - The conference venue guest network "<<n>>" is open (no password); use the VPN before touching anything internal.
        """,
        n=g.pick(["Hotel-Lobby", "Venue-Free", "CoWork-Guest"]) + "-" + str(g.int(1, 9)),
    )


@B
def b_semver_build_meta(g):
    return R(
        """
        - <<s>> reports version <<v>>+sha.<<h>>.build.<<b>> in /healthz; compare with the release page.
        """,
        s=g.svc(),
        v=semver(g),
        h=g.hex(7),
        b=g.int(100, 9999),
    )


@B
def b_mime_encoded_subject(g):
    subj = g.pick(["Passwort zurücksetzen", "パスワードの再設定", "Redefinição de senha", "Đặt lại mật khẩu"])
    return R(
        """
        raw header from the bounce:
        Subject: =?UTF-8?B?<<b>>?=
        Message-ID: <<<id>>@mail.<<d>>>
        """,
        b=base64.b64encode(subj.encode()).decode(),
        id=g.hex(24),
        d=g.domain(),
    )


@B
def b_mac_addresses(g):
    macs = [":".join(wrap(g.hex(12), 2)) for _ in range(3)]
    return R(
        """
        DHCP reservations for the lab printers: <<a>> → .21, <<b>> → .22, <<c>> → .23 (serial SN<<sn>>).
        """,
        a=macs[0],
        b=macs[1],
        c=macs[2],
        sn=g.s(10, UPNUM),
    )


@B
def b_launchdarkly_client_id(g):
    return R(
        """
        ```js
        const ldClient = LDClient.initialize('<<cid>>', { kind: 'user', key: userId });
        ```
        That is the client-side ID (public). The SDK key stays on the server.
        """,
        cid=g.hex(24),
    )


@B
def b_posthog_project_key(g):
    return R(
        """
        ```js
        posthog.init('phc_<<k>>', { api_host: 'https://eu.i.posthog.com', person_profiles: 'identified_only' })
        ```
        """,
        k=g.s(43),
    )


@B
def b_analytics_ids(g):
    return R(
        """
        - [kind: reference] Web analytics: GA4 measurement id G-<<ga>>, Plausible domain <<d>>, Intercom app id <<ic>>, Stripe account acct_<<acct>>.
        """,
        ga=g.s(10, UPNUM),
        d=g.domain(),
        ic=g.s(8, LOWNUM),
        acct=g.s(16),
    )


@B
def b_minisign_pubkey(g):
    return R(
        """
        Verify downloads with minisign:
        minisign -Vm <<f>> -P RWS<<k>>
        """,
        f="tool-%s.tar.gz" % semver(g),
        k=base64.b64encode(g.raw(39)).decode()[:53],
    )


@B
def b_cosign_public_key(g):
    blob = der(
        0x30,
        der(0x30, der(0x06, bytes.fromhex("2a8648ce3d0201")) + der(0x06, bytes.fromhex("2a8648ce3d030107")))
        + der(0x03, b"\x00\x04" + g.raw(64)),
    )
    return R(
        """
        cosign.pub (commit it, it is the verification key):
        <<p>>
        """,
        p=pem("PUBLIC KEY", blob),
    )


@B
def b_tf_lock_hcl(g):
    return R(
        """
        .terraform.lock.hcl
        provider "registry.terraform.io/hashicorp/aws" {
          version     = "<<v>>"
          constraints = "~> 5.0"
          hashes = [
            "h1:<<h1>>",
            "zh:<<z1>>",
            "zh:<<z2>>",
          ]
        }
        """,
        v="5.%d.%d" % (g.int(0, 80), g.int(0, 9)),
        h1=base64.b64encode(g.raw(32)).decode(),
        z1=g.hex(64),
        z2=g.hex(64),
    )


@B
def b_helm_chart_lock(g):
    return R(
        """
        Chart.lock
        dependencies:
        - name: postgresql
          repository: oci://registry-1.docker.io/bitnamicharts
          version: <<v>>
        digest: sha256:<<d>>
        generated: "<<ts>>"
        """,
        v=semver(g),
        d=g.hex(64),
        ts=g.ts(),
    )


@B
def b_npm_audit(g):
    return R(
        """
        npm audit summary: 2 moderate
        - GHSA-<<a>>-<<b>>-<<c>> in semver <7.5.2 (ReDoS), fixed by upgrade
        - CVE-<<y>>-<<n>> in ws, dev dependency only
        """,
        a=g.s(4, "23456789cfghjmpqrvwx"),
        b=g.s(4, "23456789cfghjmpqrvwx"),
        c=g.s(4, "23456789cfghjmpqrvwx"),
        y=g.int(2023, 2026),
        n=g.int(10000, 59999),
    )


@B
def b_youtube_links(g):
    return R(
        """
        - Recording of the security training: https://www.youtube.com/watch?v=<<v>> (chapter about phishing at 12:40), slides https://docs.<<d>>/d/<<s>>/present
        """,
        v=g.s(11, B64U),
        d=g.domain(),
        s=g.s(20, B64U),
    )


@B
def b_gpg_key_id_talk(g):
    return R(
        """
        - [kind: gotcha] Commits show "Unverified" because the signing subkey <<k>> expired on <<d>>; extend it with `gpg --quick-set-expire <<fp>> 1y '*'`.
        """,
        k=g.s(16, HEXU),
        d=g.date(),
        fp=g.s(40, HEXU),
    )


@B
def b_public_dashboard_uuid(g):
    return R(
        """
        Grafana dashboard uid <<u>>, panel 12, snapshot key <<s>> (snapshot already deleted). Datasource uid P<<p>>.
        """,
        u=g.s(14, LOWNUM),
        s=g.s(32),
        p=g.s(15, UPNUM),
    )


@B
def b_ansible_playbook_no_secret(g):
    return R(
        """
        ```yaml
        - hosts: <<grp>>
          become: true
          vars_files:
            - vars/secrets.yml   # encrypted with ansible-vault
          tasks:
            - name: install agent
              ansible.builtin.apt:
                name: <<p>>=<<v>>
                state: present
        ```
        """,
        grp=g.pick(["web", "db", "all"]),
        p=g.pick(["datadog-agent", "node-exporter", "filebeat"]),
        v=semver(g),
    )


@B
def b_incident_no_values(g):
    return R(
        """
        ## Incident <<t>> summary
        A developer pushed an `.env` file to a public fork. Secret scanning alerted within 4 minutes; all three credentials in it were revoked by <<tm>> UTC. No evidence of use in CloudTrail or the Stripe dashboard. Follow-ups: pre-commit hook, push protection on all repos.
        """,
        t=g.ticket(),
        tm=g.time(),
    )


@B
def b_base64_hello_test(g):
    word = g.pick(["hello world", "lorem ipsum dolor", "the quick brown fox", "ping"]) + " %d" % g.int(1, 999)
    return R(
        """
        ```python
        def test_b64_roundtrip():
            assert base64.b64encode(b"<<w>>") == b"<<b>>"
            assert base64.b64decode("<<b>>") == b"<<w>>"
        ```
        """,
        w=word,
        b=base64.b64encode(word.encode()).decode(),
    )


@B
def b_hex_dump(g):
    rows = []
    off = 0
    for _ in range(3):
        bs = g.raw(16)
        rows.append(
            "%08x  %s  |%s|"
            % (off, " ".join("%02x" % b for b in bs), "".join(chr(b) if 32 <= b < 127 else "." for b in bs))
        )
        off += 16
    return "xxd of the corrupted upload header:\n```\n" + "\n".join(rows) + "\n```"


# ============================================================================
# build + validate
# ============================================================================


def part_of(n):
    return "held" if n % 2 else "tune"


def dedupe(xs):
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out


def build():
    # the split is a pure function of the template numbering; fixed before drawing
    split = {
        "rule": "template number odd -> held, even -> tune (secret and benign numbered separately from 1 in definition order)",
        "secret_templates": {
            "held": [n for n in range(1, len(SECRET_T) + 1) if n % 2],
            "tune": [n for n in range(1, len(SECRET_T) + 1) if not n % 2],
        },
        "benign_templates": {
            "held": [n for n in range(1, len(BENIGN_T) + 1) if n % 2],
            "tune": [n for n in range(1, len(BENIGN_T) + 1) if not n % 2],
        },
    }
    errors = []
    parts = {"notes6-tune": [], "notes6-held": [], "notes6-benign-tune": [], "notes6-benign-held": []}
    all_secrets = []

    for n, fn in enumerate(SECRET_T, 1):
        seen = {}
        for inst in "ab":
            sid = "t%03d-%s" % (n, inst)
            g = G("notes6|secret|%d|%s" % (n, inst))
            text, secrets, keep = fn(g)
            secrets, keep = dedupe(secrets), dedupe(keep)
            if not secrets:
                errors.append("%s (%s): no secrets" % (sid, fn.__name__))
            if "<<" in text and re.search(r"<<\w+>>", text):
                errors.append("%s: unfilled slot" % sid)
            for s in secrets:
                if s not in text:
                    errors.append("%s (%s): secret not in text: %r" % (sid, fn.__name__, s[:40]))
                if len(s) < 6:
                    errors.append("%s: secret too short %r" % (sid, s))
            for k in keep:
                if k not in text:
                    errors.append("%s (%s): keep not in text: %r" % (sid, fn.__name__, k[:60]))
                for s in secrets:
                    if k in s or s in k:
                        errors.append("%s (%s): keep/secret overlap %r / %r" % (sid, fn.__name__, k[:40], s[:40]))
                for v in g.drawn:
                    if v in k:
                        errors.append("%s (%s): keep contains drawn secret %r" % (sid, fn.__name__, k[:40]))
            for v in g.drawn:
                if v in text and not any(v == s or v in s or s in v for s in secrets):
                    errors.append("%s (%s): drawn secret in text but not listed: %r" % (sid, fn.__name__, v[:40]))
            seen[inst] = (text, set(secrets))
            all_secrets.extend((s, sid) for s in secrets)
            parts["notes6-" + part_of(n)].append(
                {"id": sid, "template": n, "text": text, "secrets": secrets, "keep": keep}
            )
        if seen["a"][0] == seen["b"][0]:
            errors.append("t%03d: instances a and b identical" % n)
        if seen["a"][1] & seen["b"][1]:
            errors.append("t%03d: instances share a secret value" % n)

    for n, fn in enumerate(BENIGN_T, 1):
        texts = []
        for inst in "ab":
            bid = "b%03d-%s" % (n, inst)
            g = G("notes6|benign|%d|%s" % (n, inst))
            text = fn(g)
            if g.drawn:
                errors.append("%s (%s): benign template drew a secret value" % (bid, fn.__name__))
            if re.search(r"<<\w+>>", text):
                errors.append("%s: unfilled slot" % bid)
            texts.append(text)
            parts["notes6-benign-" + part_of(n)].append({"id": bid, "template": n, "text": text})
        if texts[0] == texts[1]:
            errors.append("b%03d (%s): instances a and b identical" % (n, fn.__name__))

    # no benign text may contain any secret sample's value
    for part in ("notes6-benign-tune", "notes6-benign-held"):
        for smp in parts[part]:
            for s, sid in all_secrets:
                if s in smp["text"]:
                    errors.append("%s contains secret of %s: %r" % (smp["id"], sid, s[:40]))

    ids = [x["id"] for p in parts.values() for x in p]
    if len(ids) != len(set(ids)):
        errors.append("duplicate ids")
    if len(SECRET_T) < 160:
        errors.append("only %d secret templates" % len(SECRET_T))
    if len(BENIGN_T) < 150:
        errors.append("only %d benign templates" % len(BENIGN_T))

    doc = {
        "source": "notes6: written blind on %s by a helper that read no rule, corpus or test; "
        "templates numbered and split odd=held / even=tune before values were drawn" % DATE,
        "split": split,
    }
    doc.update(parts)
    return doc, errors


def main():
    doc, errors = build()
    if errors:
        for e in errors:
            print("ERROR:", e, file=sys.stderr)
        sys.exit(1)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(
        "wrote %s: secret templates=%d benign templates=%d | tune=%d held=%d benign-tune=%d benign-held=%d"
        % (
            OUT,
            len(SECRET_T),
            len(BENIGN_T),
            len(doc["notes6-tune"]),
            len(doc["notes6-held"]),
            len(doc["notes6-benign-tune"]),
            len(doc["notes6-benign-held"]),
        )
    )


if __name__ == "__main__":
    main()
