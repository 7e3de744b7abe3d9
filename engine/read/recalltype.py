"""Recall's expected answer types: a question asking for a quantity, a phone number, an e-mail address, a birthday, an
address, a version or a password is answered only by a line that holds one.

Of the 110 questions with no answer in the tuning splits of benchmarks/recall_quality (A, C, D, E, G, K, T;
docs/benchmarks.md), 47 got a confident lexical hit: a line naming the person, place or thing the question is
about and holding none of what it asks ("how many people work at Parcelwise" -> "I'm Tomás Okafor, a backend
developer at Parcelwise"; "what is Lars Østergaard's email address" -> "Lars Østergaard is their ML engineer ...").
The share of the question's term weight a line holds, its words no entry holds, the line's own cosine and the
cosines of the question's missing words all fail leave-one-repo-out (rec10's study, benchmarks/coverage_study.py):
a paraphrase holds as little of its question. What some questions ask for is plain from their words, though, and
so is whether a line holds it (the expected answer type of question answering):

- a **quantity** ("how many" or "how much" opening an English question or a clause of it; 多少, 几, 幾つ, いくつ,
  いくら, 何人 ..., 몇, 얼마) is held by a number: a digit of any script, a CJK numeral, an English number word;
- a **phone number** ("phone number", "mobile number", 手机号, 电话号, 電話番号, 전화번호) by seven digits or more
  (spaces, dashes, dots, brackets and a leading + between them) or a line naming the phone;
- an **e-mail address** ("email address", "X's email", "what is her email", 邮箱, メールアドレス, 이메일 주소)
  by an ``@`` or a line naming the e-mail;
- a **birthday** ("birthday", "date of birth", 生日, 誕生日, 생일) by a line naming the birthday or the birth (a date
  alone is not enough: most lines about a person hold some year);
- an **address** ("address", not "address the comments" nor an e-mail address; 地址, 住所, 주소) by a number, the
  address named, or a URL or host name ("the staging address for the gateway");
- a **version** ("which/what ... version", "version of", 버전, 版本, バージョン) by a number, a revision, or the latest,
  current, LTS, stable or nightly one named;
- a **password** (password, passphrase, PIN, 비밀번호, 密码, パスワード) by a line naming it, a vault or a secret.

When such a question's best hit holds none (:func:`answers_type`), and neither does any of the next hits that hold as
much of the question or more (a tie of the lexical ranking: "The api-gateway is a Node.js service" before "api-gateway
moved to Node 20 LTS"), nothing answers: lexical recall
(:func:`.recallrank.rank`) and hybrid recall (:meth:`.semantic_fuse.SemanticRecall.fuse`) give no hits, or the
nearest entries marked as not an answer, as for a question under the confidence minimum; the prompt hook adds
nothing. Any other question is unchanged.

Measured leave-one-repo-out on the tuning splits (rec10; hybrid's best hit): no answerable question lost on any split;
no-answer questions left empty: quantity +6, phone and e-mail +7, one counted by both. A count given as names ("how
many people are on the team" -> "the team is Ana, Bo and Cy") is not answered: the rule's known cost. No answerable
question of the tuning splits asks for a phone number or an e-mail address, so that half is checked by its tests only.
The birthday, address, version and password types (rec12) come from the 55 no-answer questions the prompt hook
answered on the tuning splits (benchmarks/answer_model_study.py): 17 ask for one of them, each type in two repos or
more (birthday C, D, E, K; address A, C, K; version A, C, D, E, G; password A, G, K), so each would be found with any
one repo held out; measured in docs/benchmarks.md (rec12).
"""

from __future__ import annotations

import re
from typing import Any

from .recallstrict import TOP as STRICT_TOP
from .recallstrict import answers_strict, strict_asked

ASKS_QUANTITY = re.compile(
    r"(?:^|[.?!;:,]\s*)(?:and\s+|so\s+)?how\s+(?:many|much)\b"  # an English question's own "how many/much"
    r"|多少|几(?!乎)|幾[つ個人]|いくつ|いくら|何[人個台本枚回件名]|몇|얼마",
    re.IGNORECASE,
)
"""Words that ask for a quantity (几乎, "almost", is no question)."""

NUMBER = re.compile(
    r"\d|[〇零一二三四五六七八九十百千万萬億亿两兩半]"
    r"|\b(?:zero|none|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
    r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?"
    r"|thousands?|millions?|billions?|dozens?|half|once|twice|single|couple|few|several|both)\b",
    re.IGNORECASE,
)
"""What holds a quantity: a digit of any script, a CJK numeral, an English number word."""

ASKS_PHONE = re.compile(
    r"\b(?:tele)?phone\s+number|\bmobile\s+number|手机号|电话号|電話番号|전화\s*번호|휴대폰\s*번호", re.I
)
"""Words that ask for a phone number ("phone battery" asks for none)."""

PHONE = re.compile(r"\+?\d(?:[\d .()-]{5,}\d)|\b(?:tele)?phones?\b|手机|电话|電話|전화|휴대폰", re.IGNORECASE)
"""What holds a phone number: seven digits or more with separators, or the phone named."""

ASKS_EMAIL = re.compile(
    r"\be-?mail\s+address|\be-?mail\s+of\b|'s\s+e-?mail\b|\bwhat(?:'s|\s+is)\s+(?:the\s+|his\s+|her\s+|their\s+)?e-?mail\b"
    r"|邮箱|メールアドレス|이메일\s*주소|메일\s*주소",
    re.IGNORECASE,
)
"""Words that ask for an e-mail address ("draft an email to the client" asks for none)."""

EMAIL = re.compile(r"@|\be-?mails?\b|邮箱|邮件|メール|이메일|메일", re.IGNORECASE)
"""What holds an e-mail address: an ``@``, or the e-mail named."""

ASKS_BIRTHDAY = re.compile(r"\bbirthday|\bbirth\s*date\b|\bdate\s+of\s+birth\b|生日|誕生日|생일|생신", re.IGNORECASE)
"""Words that ask for a birthday."""

BIRTHDAY = re.compile(
    r"birthday|\bborn\b|\bbirth|\bb-?day\b|\bDOB\b|\bturns\s+\d+|生日|誕生|생일|생신|태어", re.IGNORECASE
)
"""What holds a birthday: the birthday or the birth named, a DOB, or an age reached ("turns 40 on March 14"); a date
alone is any line's "2019"."""

ASKS_ADDRESS = re.compile(
    r"(?<!e-mail )(?<!email )(?<!\bI )(?<!\bwe )(?<!\byou )(?<!\bto )(?<!\bplease )"
    r"\baddress\b(?!\s+(?:the|this|that|it|them|his|her|their)\b)|(?<!邮箱)(?<!郵箱)地址|住所|(?<!메일 )(?<!메일)주소",
    re.I,
)
"""Words that ask for a postal address ("address the review comments", "how should I address review comments" ask for
none: the verb; an e-mail address is :data:`ASKS_EMAIL`'s)."""

ADDRESS = re.compile(
    r"\d|\baddress|://|\b[\w-]+\.[\w-]+\.[a-z]{2,}\b|\b(?:street|road|avenue|boulevard|lane|rue|straße|strasse|"
    r"platz|calle|via|plaza|piazza)\b|\blives\s+(?:on|at)\b|地址|住所|주소",
    re.IGNORECASE,
)
"""What holds an address: a house or postal number, a street named ("on Rue de la Paix", "on Baker Street"), the
address named, or a web one ("the staging address" asks for a URL or a host name)."""

ASKS_VERSION = re.compile(
    r"\b(?:which|what)\s+(?:[\w.+#-]+\s+){0,3}versions?\b(?!\s+control)|\bversion\s+of\b|버전|版本|バージョン", re.I
)
"""Words that ask for a version ("which Kotlin version", "what version of BirdNET"; not "what version control")."""

VERSION = re.compile(
    r"\d|\blatest\b|\bcurrent\b|\bLTS\b|\bnightly\b|\bstable\b|\brev(?:ision)?\b|\bv-?next\b|"
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen|eighteen|nineteen|twenty)\b|最新|최신|현재"
    r"|\b(?:trusty|xenial|bionic|focal|jammy|kinetic|lunar|mantic|noble|oracular|plucky|questing|jessie|buster|"
    r"bullseye|bookworm|trixie|forky|mojave|catalina|big\s+sur|monterey|ventura|sonoma|sequoia|tahoe|melodic|"
    r"noetic|foxy|galactic|humble|jazzy|kilted)\b",
    re.IGNORECASE,
)
"""What holds a version: a number (in figures or words: "Postgres sixteen"), or the latest, current, LTS, stable,
nightly or next one or a revision named ("Rev C is the current motor board"), or a release codename of Ubuntu
("Ubuntu Noble"), Debian ("Bookworm"), macOS ("Sonoma") or ROS ("Humble")."""

ASKS_PASSWORD = re.compile(
    r"\bpassword|\bpasscode|\bpassphrase|\bpasswort|\bPIN\b|비밀번호|비번|密码|暗証番号|パスワード"
)
"""Words that ask for a password (case kept for "PIN", not the verb "pin")."""

PASSWORD = re.compile(
    r"password|passcode|passphrase|passwort|\bPIN\b|\bpw\b|\b(?:wi-?fi|network|wlan|door|alarm)\s+(?:key|code)\b|"
    r"credentials|vault|secret|bitwarden|keepass|lastpass|1password|dashlane|keychain|비밀번호|비번|密码|暗証番号|パスワード",
    re.I,
)
"""What holds a password: the password named (a wifi key, a door code), or where passwords are kept (credentials, a
vault, a secret, a password manager)."""

TIED = 5
"""How deep :func:`typed` looks for hits holding as much of the query as the best one or more."""

TYPES = (
    (ASKS_QUANTITY, NUMBER),
    (ASKS_PHONE, PHONE),
    (ASKS_EMAIL, EMAIL),
    (ASKS_BIRTHDAY, BIRTHDAY),
    (ASKS_ADDRESS, ADDRESS),
    (ASKS_VERSION, VERSION),
    (ASKS_PASSWORD, PASSWORD),
)
"""Each expected answer type: what asks for it, what holds it."""


def asks_quantity(query: str) -> bool:
    """Whether ``query`` asks for a quantity (:data:`ASKS_QUANTITY`)."""
    return ASKS_QUANTITY.search(query) is not None


def holds_number(text: str) -> bool:
    """Whether ``text`` holds a number (:data:`NUMBER`)."""
    return NUMBER.search(text) is not None


def answers_type(query: str, best: str | None, *tied: str) -> bool:
    """Whether ``best``, a query's best hit (None: none), can answer it: False only when the query asks for a type of
    :data:`TYPES` that neither ``best`` nor any of ``tied`` (the next hits holding as much of the query as ``best`` or more:
    "what node version does the gateway use" ties "The api-gateway is a Node.js service" with "api-gateway moved to
    Node 20 LTS") holds (module docstring)."""
    asked = [holds for asks, holds in TYPES if asks.search(query)]
    return best is None or any(all(holds.search(text) for holds in asked) for text in (best, *tied))


def typed(index: Any, query: str, out: list[tuple[int, tuple]], info: Any, related: bool) -> list[tuple[int, tuple]]:
    """Hybrid recall's fused list ``out`` if it answers ``query`` by :func:`answers_type` (its best hit's text from
    ``index``) and by :func:`.recallstrict.answers_strict` (its first three hits' texts); else ``info.answered`` is
    set False and the list is ``out`` for ``related`` (the nearest entries, :mod:`.recallnear`), else empty."""
    if not out or not info.answered:
        return out
    row, share = index.row(out[0][0]), out[0][1][1]  # a lexical key's confidence (0.0: matched semantically only)
    tied = [index.row(iid) for iid, key in out[1:TIED] if share and key[1] >= share]
    if answers_type(query, row[3] if row is not None else None, *(tie[3] for tie in tied if tie is not None)):
        if not strict_asked(query):
            return out
        firsts = (index.row(iid) for iid, _key in out[:STRICT_TOP])
        if answers_strict(query, (first[3] for first in firsts if first is not None)):
            return out
    info.answered = False
    return out if related else []
