"""A correction said in another language than the stored line, proposed (breaker29 B29-13, sess19).

A bilingual user corrects an English line in German or Spanish: "Die Staging-Datenbank heißt jetzt juniper." for
"The shop's staging database is called olive", "El deploy window ahora es el miércoles." for "The deploy window is
Tuesday". No wording rule relates them (the frames are in two languages) and without the meaning model nothing did:
the correction was dropped with nothing proposed. The rule here (:func:`other_language_line`) reads the one value
slot both say, each in its own language:

- **a name after a naming verb** ("is called olive" / "heißt jetzt juniper", "se llama", "s'appelle", "si chiama",
  "chama-se", "heet", "heter", "nazywa się"), or **a weekday** (:data:`.staleswap._WEEKDAYS`, by its day);
- **said now**: the sentence holds a word of "now" in its language ("jetzt", "ahora", "maintenant", "adesso",
  "agora", "nu", "teraz", "now");
- **in two languages**: the slot's word (the naming verb, the weekday's name) is of another language in each;
- **another value**, and **the same subject**: a content word of the line (five letters or more, or a part of a
  hyphenated word) said again in the sentence ("staging", "deploy window");
- exactly one listed line so.

Such a sentence is a proposal: it waits in the inbox naming the line (``corrects:``), never replaces it at once
(docs/architecture.md §7). Pure functions of text: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .claims import ExistingEntry

_NAMING: dict[str, str] = {
    r"(?:is|are|was)\s+(?:now\s+)?(?:called|named)": "en",
    r"hei(?:ß|ss)(?:t|en)": "de",
    r"se\s+llama[n]?": "es",
    r"s['’]appelle(?:nt)?": "fr",
    r"si\s+chiama(?:no)?": "it",
    r"chama(?:m)?-se|se\s+chama": "pt",
    r"heet|heten": "nl",
    r"heter": "sv",
    r"nazywa\s+się": "pl",
}
_NAMING_RE = re.compile(
    "(?:"
    + "|".join(f"(?P<n{i}>\\b{p}\\b)" for i, p in enumerate(_NAMING))
    + ")"
    + r"(?:\s+(?:jetzt|nun|ahora|maintenant|désormais|adesso|ora|agora|nu|teraz|nå|now))?\s+(?P<value>[\w.-]+)",
    re.IGNORECASE,
)
_LANGS = list(_NAMING.values())
_NOW_RE = re.compile(
    r"\b(?:now|jetzt|nun|ahora|maintenant|désormais|adesso|ora|agora|nu|teraz|nå|nyní)\b", re.IGNORECASE
)
_DAYS = (
    ("monday", "montag", "lunes", "lundi", "lunedì", "segunda", "maandag", "måndag", "poniedziałek"),
    ("tuesday", "dienstag", "martes", "mardi", "martedì", "terça", "dinsdag", "tisdag", "wtorek"),
    ("wednesday", "mittwoch", "miércoles", "mercredi", "mercoledì", "quarta", "woensdag", "onsdag", "środa"),
    ("thursday", "donnerstag", "jueves", "jeudi", "giovedì", "quinta", "donderdag", "torsdag", "czwartek"),
    ("friday", "freitag", "viernes", "vendredi", "venerdì", "sexta", "vrijdag", "fredag", "piątek"),
    ("saturday", "samstag", "sábado", "samedi", "sabato", "sábado", "zaterdag", "lördag", "sobota"),
    ("sunday", "sonntag", "domingo", "dimanche", "domenica", "domingo", "zondag", "söndag", "niedziela"),
)
_DAY_LANGS = ("en", "de", "es", "fr", "it", "pt", "nl", "sv", "pl")
_DAY = {name: (i, _DAY_LANGS[j]) for i, names in enumerate(_DAYS) for j, name in enumerate(names)}


def _slot(text: str) -> tuple[str, str, str] | None:
    """(kind, value, language) of the one value slot ``text`` says: a name after a naming verb, else one weekday."""
    named = list(_NAMING_RE.finditer(text))
    if len(named) == 1:
        found = named[0]
        lang = next(_LANGS[i] for i in range(len(_LANGS)) if found.group(f"n{i}"))
        return "name", found.group("value").casefold().strip(".-"), lang
    days = {_DAY[w] for w in re.findall(r"[^\W\d_]+", text.casefold()) if w in _DAY}
    if len(days) == 1:
        day, lang = next(iter(days))
        return "day", str(day), lang
    return None


def _subject(text: str, value: str) -> set[str]:
    """Content words of ``text`` (five letters or more, a hyphenated word's parts each) by their first five letters."""
    out = set()
    for word in re.findall(r"[^\W\d_][\w-]*", text.casefold()):
        for part in word.split("-"):
            if len(part) >= 5 and part != value and part not in _DAY:
                out.add(part[:5])
    return out


def other_language_line(text: str, lines: Iterable[ExistingEntry]) -> ExistingEntry | None:
    """The one listed line ``text`` gives a new value in another language (the module docstring), or None.

    Args:
        text: the user's statement.
        lines: the listed lines.

    Returns:
        ExistingEntry | None: the line, or None when none or more than one.
    """
    said = _slot(text)
    if said is None or not _NOW_RE.search(text):
        return None
    kind, value, lang = said
    found = []
    for line in lines:
        old = _slot(line.text)
        if old is None or old[0] != kind or old[2] == lang or old[1] == value:
            continue
        if _subject(line.text, old[1]) & _subject(text, value):
            found.append(line)
    return found[0] if len(found) == 1 else None


__all__ = ["other_language_line"]
