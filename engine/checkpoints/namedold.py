"""A correction found by the old value it names, among every listed line (issue 30, corr17).

Users who correct a line in passing name the value that is no longer true and give the new one, in words of their
own for the subject: "The staging box isn't in Frankfurt, it's in Dublin" for "The walrus staging server is hosted
in Frankfurt", "We've left Render, walrus runs on Fly.io since this morning" for "walrus is deployed on Render", "De
klant kan niet op dinsdag, de demo wordt woensdag" for "De demo voor de klant van ember is op dinsdag". No frame is
said again and the subject words differ ("staging box" / "staging server"), so the wording rules relate nothing;
the old value is what names the line. The rule is the mechanism, not a wording:

- **the old value** (:func:`held`): a token of the line that names a thing, not a word of its frame: a value of a
  kind (:func:`.staleswap.values`: a time, a version, a number, an identifier's shape, a weekday), a dotted or
  slashed name, or a capitalised name not first in the line (a capitalised dotted one, "Fly.io", is a name);
- **named once**: the sentence holds that token, and exactly one listed line of the same subject (below) does (a
  chain's older links, which a listed line already supersedes, left out): among hundreds of lines, a value one line
  of that subject holds names that line;
- **disowned** (:func:`disowned`): the sentence's clause that names it denies or leaves it (a negation of a closed
  class in the languages the benchmarks hold, "isn't", "kan niet", "n'est pas", or a verb of leaving: "left",
  "dropped", "moved off", "verlassen", "quitté"), so the old value is not said as true;
- **the same subject**: the sentence shares a content word with the line beside the values (compared by their first
  five letters: "staging box" / "staging server", "klant" / "klant"), a project's name counting ("walrus runs on
  Fly.io" for "walrus is deployed on Render"), so "I was not in Frankfurt, I was in Dublin" names no server's city,
  and no other content word before the shared one in each (:func:`.staleswap._other_subject`: "The blog CDN is
  Akamai, not Cloudflare" names no "The shop CDN is Cloudflare");
- **a new value of its type**: another clause of the sentence gives a token of the same type the line does not hold
  (a value of the same kind; for a capitalised name, another capitalised name, no project's name).

Every other guard stays the caller's (:mod:`.corrections`: hearsay, a supposition, a question, a task, "still",
another owner). Pure functions of text: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from .staleswap import _MONTHS, _content, _other_subject, name_values, words

T = TypeVar("T")

_NEGATION = frozenset(
    {"not", "isn't", "aren't", "wasn't", "weren't", "doesn't", "don't", "no", "never", "nicht", "kein", "keine"}
    | {"keinen", "nie", "niet", "geen", "pas", "ne", "n'est", "non", "não", "nao", "inte", "ikke", "ej"}
)
"""Words that deny their clause (a closed class: English, German, Dutch, French, Spanish, Italian, Portuguese,
Polish, Swedish, Danish)."""
_NEGATION_CJK_RE = re.compile(r"不是|不在|不用|没有|不再|じゃない|ではない|아니")
"""Chinese, Japanese and Korean denials (no spaces to split a word at)."""
_LEAVE_RE = re.compile(
    r"\b(?:leave|leaves|left|leaving|dropped|ditched|abandoned|retired|moved\s+(?:off|away\s+from)|migrated\s+(?:off|away\s+from)"
    r"|got\s+rid\s+of|verlassen|abgelöst|quitté|abandonné|dejamos|dejado|abandonamos|lasciato|abbandonato|deixamos"
    r"|abandonámos|verlaten|porzuciliśmy|lämnat|forladt|(?:est|sont)\s+partie?s?|a\s+quitté|ist\s+weg|se\s+fue|è\s+andat[oa]"
    r"|foi\s+embora|is\s+vertrokken|has\s+left|moved\s+on)\b",
    re.IGNORECASE,
)
"""Verbs that say a thing was left: the old value their clause names is over."""
_CLAUSE_RE = re.compile(
    r"[,;，；。：]|:(?=\s)|\s[-–—]\s|\s(?:but|so|and|since|because|aber|mais|pero|ma|mas|maar|men)\s", re.I
)
"""Where a sentence's clauses part."""


def _caps(text: str) -> set[str]:
    """Capitalised names in ``text`` not first in it ("Frankfurt", "Fly.io"), folded, no month."""
    said = [w.strip(".,;:!?()\"'") for w in text.split()]
    return {w.casefold() for w in said[1:] if w[:1].isupper() and w.casefold() not in _MONTHS}


def held(line: str) -> dict[str, str]:
    """The tokens of ``line`` that name a thing, by type: its values by kind (:func:`.staleswap.name_values`) and
    its capitalised names (type ``"name"``)."""
    out = {t: f"value:{k}" for t, k in name_values(line).items()}
    for name in _caps(line):
        if out.get(name, "value:name:").startswith("value:name:"):
            out[name] = "name"  # "Fly.io": a capitalised name, of one type with "Hetzner"
    for short in initials(line):
        out.setdefault(short, "name")  # "FCM" names "Firebase Cloud Messaging" (sess19, heldout9)
    return out


def initials(line: str) -> set[str]:
    """The initials of each run of two to four capitalised words of ``line`` not first in it, folded: the
    abbreviation a user says for the name ("fcm" for "Firebase Cloud Messaging", "aws" for "Amazon Web Services")."""
    said = [w.strip(".,;:!?()\"'") for w in line.split()]
    out: set[str] = set()
    run: list[str] = []
    for word in [*said[1:], ""]:
        if word[:1].isupper() and word.isalpha():
            run.append(word)
            continue
        if 2 <= len(run) <= 4:
            out.add("".join(w[0] for w in run).casefold())
        run = []
    return out


def _clauses(text: str) -> list[str]:
    return [c for c in _CLAUSE_RE.split(text) if c and c.strip()]


def disowned(text: str, value: str) -> bool:
    """Whether the clause of ``text`` that names ``value`` denies it or says it was left (the module docstring)."""
    for clause in _clauses(text):
        said = words(clause)
        if value not in said:
            continue
        folded = {w.casefold().replace("’", "'") for w in clause.split()}
        denied = bool(folded & _NEGATION or "n't" in clause.replace("’", "'") or _NEGATION_CJK_RE.search(clause))
        if denied != bool(_LEAVE_RE.search(clause)):
            return True  # denied, or left; not "we are not leaving X"
    return False


def _stems(text: str, skip: set[str]) -> set[str]:
    """Content words of ``text`` (no value, no word of ``skip``) by their first five letters, a hyphenated word's
    parts each ("Kiwi-Retro": "kiwi", "retro")."""
    return {part[:5] for w in _content(text, skip) for part in w.split("-") if len(part) >= 3}


def beside_old(text: str, line: str) -> str:
    """The clauses of ``text`` that name none of ``line``'s values (:func:`held`): what it says beside the old value
    it disowns. "Fly.io didn't work out for us, so walrus lives on a Hetzner box": "didn't" is the old value's, not a
    change that did not happen ("we almost moved to Hetzner" still says one)."""
    mine = set(held(line))
    return ", ".join(c.strip() for c in _clauses(text) if not mine & set(words(c)))


def _fresh(text: str, value: str, kind: str, line: str, skip: set[str]) -> bool:
    """Whether a clause of ``text`` other than the one naming ``value`` gives a new token of ``kind``."""
    mine = held(line)
    for i, clause in enumerate(_clauses(text)):
        if value in words(clause):
            continue
        inside = (
            f"x {clause}" if i else clause
        )  # a later clause's first word is no sentence's first: "..., Vitest runs"
        new = held(clause) if kind != "name" else {n: "name" for n in _caps(inside)}
        if any(k == kind and t not in mine and t not in skip for t, k in new.items()):
            return True
    return False


def named_line(
    text: str,
    lines: Iterable[T],
    key: Callable[[T], str] = str,
    project: str = "",
    superseded: frozenset[str] = frozenset(),
) -> T | None:
    """The one listed line whose old value ``text`` names, disowns and replaces by one of its type (the module
    docstring), or None.

    Args:
        text: the user's statement (less its lead-in).
        lines: every listed line.
        key: the text of a line.
        project: project names (space-separated): never a new value.
        superseded: the first characters of lines a listed line already supersedes (a chain's older links).

    Returns:
        the line, or None when no line or more than one is named so.
    """
    said = set(words(text))
    skip = {w.casefold() for w in project.split()}
    live = [line for line in lines if not any(key(line).startswith(old) for old in superseded if old)]
    holders: dict[str, list[T]] = {}
    for line in live:
        for token in held(key(line)):
            if token not in said or token in skip:
                continue
            shared = _content(text, skip | {token}) & _content(key(line), skip | {token})
            if _other_subject(text, key(line), shared, skip | {token}):
                continue  # "The blog CDN is Akamai, not Cloudflare" for "The shop CDN is Cloudflare"
            if _stems(text, {token}) & _stems(key(line), {token}):  # not "I was not in Frankfurt"
                holders.setdefault(token, []).append(line)
    found: list[T] = []
    for token, have in holders.items():
        if len({key(line).casefold() for line in have}) != 1:
            continue  # a value several lines of that subject hold names none of them
        line = have[0]
        kind = held(key(line))[token]
        if disowned(text, token) and _fresh(text, token, kind, key(line), skip | {token}):
            found.append(line)
    picked = {key(line).casefold(): line for line in found}
    return next(iter(picked.values())) if len(picked) == 1 else None


__all__ = ["beside_old", "disowned", "held", "named_line"]
