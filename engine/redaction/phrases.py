"""Passwords of several words said without quotes, in the nine languages :mod:`.speech` reads (docs/architecture.md §3).

:mod:`.speech` takes a said password up to the next space; a passphrase of
words ("my password is correct horse battery staple", "a senha do wifi é cafe
com leite 42", "비밀번호는 blue river 77 입니다") then leaks all but its first
word, or all of it when that word alone is not credential-like. This rule takes
a password word, what it opens and a link (:mod:`.speech`'s grammar: "is",
"é", "es", "ist", "est", ":", は, 是, 는/은 ...), then two to six words that
end the line, the sentence, or a Korean or Japanese copula (입니다, 이야, です ...):

- with a digit or a symbol in one of the words: two words or more ("cafe com
  leite 42", "blue river 77");
- all letters: four words or more, none a function word ("correct horse battery
  staple"), so "is on the fridge", "is under the keyboard", "está no cofre" stay;
  three after a colon or English "is"/"was" ("my wifi password is apple banana
  cherry", B24-2) when none says how a password is ("pretty much random",
  "available upon request", "twelve characters long"), none is an adverb in ``-ly``
  and the first is no participle ("printed inside lid").

Not taken: phrases that start with a function word or a word about where a
password is ("in", "stored", "on", "see", "ask", "no", "na" ...), that go on
as a sentence ("hunter2 and the user is bob": :mod:`.speech` takes "hunter2"),
that hold a number and its unit ("12 characters", "3600 seconds", "90 Tage",
"3 mois", "16-stellig"), two function words or more ("identique à celui de
2023", "dasselbe wie bei Server-02"), a word for "the same" or a clause's first
word ("seit Version 2.4"), a count (``142/142 tests``), or that are written in a
CJK script (a Korean description such as "팀장에게 문의"); nor after a bare "pass"
and a colon, a test run's result ("pass: 142/142 tests").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from itertools import pairwise

from . import lazyre
from .speech import _BARE, _COLON, _LABEL, _LINK, _QUALIFIER

Span = tuple[int, int, str]

_WORD = r"[^\s\u3000-\u9fff\uac00-\ud7af\uff00-\uffef'\"`«»“”]{1,32}"
_END = r"(?=[.!?;,]?[ \t]*(?:\r?\n|$)|[.!?;][ \t]|[ \t]*(?:입니다|이에요|예요|이야|야|임|요|です|だ|。))"
_PHRASE = (
    r"(?i)(?P<label>" + _LABEL + r")(?:" + _QUALIFIER + _LINK + "|" + _BARE + _COLON + r")"
    r"(?P<value>" + _WORD + r"(?:[ \t]+" + _WORD + r"){1,5}?)[.!?;,]?" + _END
)
"""A password word, what it opens, a link and two to six words up to an end (compiled on first use: ~30 ms); what
it opens may be bare words before a colon ("the passphrase we agreed on: <words>")."""
_FUNCTION_TEXT = """
    a an the is are was be been it its this that these those there here my our your his her their of in on at to
    for from with by under over behind inside into onto near next not no none never only just also and or but if
    as so very too same still now then than see ask stored saved kept written taped set changed reset expired
    required needed unknown empty blank missing lost forgot forgotten somewhere where what which who how when
    le la les un une des du de et ou est sur sous dans avec pour pas voir demander
    el los las unos es en con sin para por del al y o ver preguntar
    o os um uma uns umas é em no na nos nas do da dos das com sem para por e ou está ver perguntar cofre
    der die das ein eine ist im am auf unter mit ohne für und oder nicht siehe fragen
    в во на у с со к от для по под это не нет см смотри спроси спросите лежит
    via per every each all any both across through throughout except between within without everywhere
    pelo pela pelos pelas todo toda todos todas cada ao aos à às entre según se sus bei beim vom zum zur pro
    jeden jede jedes jeweils wird werden worden par chaque tous toutes partout sauf désormais été через при
    каждый каждую каждые везде кроме
    wie als ab seit jetzt immer noch schon sofort bis les au aux celui celle ceux comme depuis après avant déjà
    lo una unas como desde ya los il lo gli di della è come già het een van voor bij op naar nog als jest na do
    od przez jak już
    """
_FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split())
"""Words a passphrase rarely holds but a sentence about a password does ("is on the fridge", "está no cofre")."""
_CLAUSE_TEXT = "is are was were and but the user username login ist und est et es y é e 1password bitwarden keepass"
_CLAUSE_WORDS = frozenset(_CLAUSE_TEXT.split())
"""Words that carry a sentence on past the password (its verbs, "and", "the"), or name a password manager."""
_HOW_TEXT = """
    via per every each across through throughout except between within everywhere pelo pela pelos pelas cada
    según jeweils chaque partout sauf через при каждый каждую каждые везде кроме
    same dasselbe dieselbe derselbe gleiche gleich identique identiques même pareil mismo misma igual mesmo mesma
    stesso stessa uguale zelfde hetzelfde dezelfde taki takie samo
    """
_HOW_WORDS = frozenset(_HOW_TEXT.split())
"""Words that say how or how often a password is handled ("rotated monthly via Vault", "trocada todo mês pelo
Vault", "synced via agent v1.15"), or that it is the same as another ("identique à celui de 2023"): a sentence
about a password, even beside a number."""
_STATE_TEXT = """
    wrong incorrect invalid correct valid weak strong secure insecure unsafe safe random unique complex complicated
    simple easy hard difficult generated temporary default shared personal private public new old current pretty
    quite rather much many more less most least super way again today tomorrow yesterday anymore please thanks
    though fine okay good bad great upon unless until available elsewhere inside outside something anything
    nothing everything somebody someone nobody everyone hidden encrypted hashed masked known unknown different
    similar identical obvious standard usual normal special same also even ever again forever sometimes always
    seguro segura fuerte débil nuevo nueva viejo vieja sicher neu alt fort faible nouveau nouvelle ancien
    """
_STATE_WORDS = frozenset(_STATE_TEXT.split())
"""Words that say how a password is ("pretty much random", "available upon request"): three of them are a remark."""
_CUT_TEXT = "since until till because unless while during after before seit bis desde depuis"
_CUT_WORDS = frozenset(_CUT_TEXT.split())
"""Words that start a clause after the password ("hunter2x! since june", "blue river 77 until friday"): the
phrase ends before them."""
_CUT_RE = lazyre.compile(r"(?i)(?<![ \t])[ \t]+(?:" + "|".join(sorted(_CUT_WORDS)) + r")\b")
_NAME_RE = lazyre.compile(r"[^\W\d_]+(?:_[^\W\d_]+)+(?:\.[a-z]{1,5})?|[^\W\d_]+\.[a-z]{1,5}")
"""A snake_case name or a file name of letters ("random_password", "rotate_db_creds.yml"): it marks no passphrase."""
_UNITS_RE = lazyre.compile(
    r"(?i)^(?:char(?:acter)?s?|digits?|letters?|symbols?|words?|seconds?|minutes?|hours?|days?|weeks?|months?|"
    r"years?|times?|long|caract[eè]res|caracteres|zeichen|d[ií]gitos|chiffres|자|자리|文字|位|"
    r"tage?n?|wochen?|monate?n?|jahren?|stunden?|minuten?|sekunden?|stellen|jours?|mois|semaines?|ans|années?|"
    r"heures?|secondes?|d[ií]as?|meses|semanas?|años|anos|horas?|giorni|mesi|settimane|anni|ore|caratteri|cifre|"
    r"dagen|maanden|weken|jaar|uur|tekens|cijfers|dni|miesi[eę]cy|tygodni|lat|godzin|znak(?:i|ów)|cyfr)$"
)
_COUNT_RE = lazyre.compile(r"(?i)\d+[-+]?(?:stellig|digits?|chars?|zeichen|stellen|tekens|cijfers|znak\w*)|\d+/\d+")
"""A word that is a length or a count by itself ("16-stellig", "12+", ``142/142``)."""
_KEYS: tuple[str, ...] = ("pass", "pw", "mdp", "senha", "clave", "contrase", "kennwort", "парол", "パスワード")
_KEYS += (
    "暗証番号",
    "密",
    "口令",
    "비밀번호",
    "비번",
    "암호",
    "wachtwoord",
    "hasł",
    "hasl",
    "parola",
    "chiave",
    "パスコード",
)
"""Substrings one of which every password word holds, lower case: a cheap test on a line before the regex (a
case-blind regex alternation over them cost ~28 µs a line; this one, on the lowered text, under 2 µs)."""
_KEYS_RE = lazyre.compile("|".join(_KEYS))


def _passphrase(words: list[str], *, three: bool = False) -> bool:
    """Whether these said words read as a passphrase, not a sentence about a password; ``three``: after a colon or
    English "is"/"was", three plain words will do (other languages' sentences are not screened word by word)."""
    first = words[0].lower().rstrip(".:")
    if first in _FUNCTION_WORDS or any(w.startswith(("$", "<", "{", "[", "(", "@", "#", "%")) for w in words):
        return False  # a placeholder, a variable or a remark: "$DB_PASS", "******** (masked)"
    if not all(any(c.isalnum() for c in w) for w in words):
        return False
    if any(a.rstrip("+").isdigit() and _UNITS_RE.match(b) for a, b in pairwise(words)):
        return False  # a length or a duration: "12 characters", "every 3600 seconds", "12+ Zeichen"
    if any(_COUNT_RE.fullmatch(w) for w in words) or first in _CUT_WORDS:
        return False  # "jetzt 16-stellig", "142/142 tests", "seit Version 2.4 Pflicht"
    if sum(w.lower() in _FUNCTION_WORDS for w in words) >= 2:
        return False  # a sentence: "identique à celui de 2023", "changé tous les 3 mois"
    if any(w.lower() in _CLAUSE_WORDS for w in words[1:]) or any(w.lower() in _HOW_WORDS for w in words):
        return False  # a sentence goes on: "hunter2 and the user is bob" (speech.py takes "hunter2")
    marked = any(any(not c.isalpha() for c in w) and not _NAME_RE.fullmatch(w) for w in words)
    if marked:
        return sum(len(w) for w in words) >= 6
    if any(w.lower() in _FUNCTION_WORDS or _UNITS_RE.match(w) for w in words) or not all(len(w) >= 3 for w in words):
        return False
    return len(words) >= 4 or (three and len(words) == 3 and _three_words(words))


def _three_words(words: list[str]) -> bool:
    """Whether three plain words read as a spoken passphrase ("apple banana cherry", "purple monkey dishwasher", B24-2),
    not a remark about the password: none says how it is ("pretty much random", "really long"), none an adverb in
    ``-ly``, and the first no participle ("printed", "working")."""
    first = words[0].lower()
    if len(first) >= 5 and (first.endswith("ing") or (first.endswith("ed") and not first.endswith("eed"))):
        return False
    return not any(w.lower() in _STATE_WORDS or w.lower().endswith("ly") for w in words)


def spans(text: str) -> Iterator[Span]:
    """``(start, end, "password")`` of each unquoted passphrase of two to six words said in ``text``.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the words' span, from the first to the last (the spaces between are redacted too).
    """
    low = text.lower()
    if not _KEYS_RE.search(low):
        return
    start = 0
    for line in low.split("\n"):
        end = start + len(line)
        if _KEYS_RE.search(line):
            yield from _line_spans(text, start, end)
        start = end + 1


@cache
def _phrase_re() -> re.Pattern[str]:
    """:data:`_PHRASE` compiled, once, when a text first holds a password word (prose never pays for it)."""
    return re.compile(_PHRASE)


def _line_spans(text: str, start: int, end: int) -> Iterator[Span]:
    """:func:`spans` on the line ``text[start:end]`` (one holding a password word)."""
    for m in _phrase_re().finditer(text, start, end):
        link = text[m.end("label") : m.start("value")].strip()
        if m.group("label").lower() == "pass" and link.startswith((":", "：")):
            continue  # "pass: 142/142 tests" is a test run's result (as in :func:`.speech._phrase_ok`)
        value = m.group("value")
        cut = re.search(r"[.,;:!?](?=[ \t])", value)  # a clause ends inside: "Sommer2024. Then log in"
        value = (value[: cut.start()] if cut else value).rstrip(".!?;,")
        clause = _CUT_RE.search(value)
        value = value[: clause.start()] if clause else value  # "Tr0ub4dor&3xQ since june": the value is one word
        words = value.split()
        three = link.endswith((":", "：", "=")) or link.lower().rsplit(None, 1)[-1] in ("is", "was")
        if len(words) >= 2 and _passphrase(words, three=three):
            start = m.start("value")
            yield start, start + len(value), "password"
