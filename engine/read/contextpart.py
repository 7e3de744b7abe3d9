"""Lines a newer line replaces for ONE of their facts: the context block shows them marked (docs/architecture.md §4).

The replacement rule (:func:`.contextselect.replaced`) hides an older line whole. That is right when the line says
one thing ("Deploy window is Tuesday" -> "Deploy window is now Thursday"), but a line that says more loses its
other facts with it (issue 30: "route-planner is a Go 1.22 service that solves routes with OR-Tools through a C++
sidecar", then "route-planner moved to Go 1.23", and no block showed the OR-Tools fact again). The rule here
(:func:`partly_replaced`): a replaced line is kept, its replaced part struck and the line marked
"(replaced in part by L<n>)", when what replaced it is one named part and the line says more besides:

- **a version**: the newer line (or a later one of its chain) names a name of the older line with another number
  ("Go 1.23" after "Go 1.22"); the struck part is the older name and number;
- **a clause before or after ";"**: the newer lines share topic words with some of the older line's ";"-clauses
  (the struck ones) and none with another;

and the rest, the older line's topic words none of the newer lines holds (less the version's name), is at least
:data:`MIN_REST` words ("route-planner is a Go 1.22 service" says one thing: its rest is "service"). A line named
by ``supersedes:`` or of the same ``subject:`` (said on purpose) is replaced whole unless the correction restates
part of it and it says more than every later line of the file does (:func:`_says_more`): then it is kept, marked,
its replaced version or clause struck when one is named, else the old value the correction names ("..., not
Fly.io": :func:`_named`, breaker31 B31-4), else nothing (breaker27 B27-5). A rule a newer rule
replaces in its first clause only keeps the rest, the replaced clause struck (:func:`_rule_head`, breaker29 B29-9). The older line is ranked right after the line shown in its place, so the budget
shows the two together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memrepo.engine.format.samerule import replaced_head
from memrepo.engine.format.terms import fold

from .contextselect import Candidate
from .contexttopic import topic_terms

MIN_REST = 2
"""Topic words of the older line none of its newer lines holds, at or above which it says more than what changed."""

MARK = "replaced in part by"
"""The words of the mark after a kept line ("(replaced in part by L9)")."""


def partly_replaced(cands: Sequence[Candidate], gone: dict[int, int]) -> dict[int, tuple[int, tuple[str, ...]]]:
    """The replaced lines to show marked (module docstring): the line's number -> (the number of the line shown in its
    place, the parts of its text to strike).

    Args:
        cands: the file's entries (:func:`.contextselect.candidates`).
        gone: the lines a newer line replaces (:func:`.contextselect.replaced`): old -> new.
    """
    by_number = {c.number: c for c in cands}
    out: dict[int, tuple[int, tuple[str, ...]]] = {}
    for old, new in gone.items():
        chain = [new]
        while chain[-1] in gone and chain[-1] not in chain[:-1] and len(chain) < 50:
            chain.append(gone[chain[-1]])
        if chain[-1] in gone:
            continue  # a loop: leave it to the rule
        older = by_number.get(old)
        newer = [by_number[n] for n in chain if n in by_number]
        if older is None or not newer:
            continue
        head = _rule_head(older, newer[0])
        if head:
            out[old] = (chain[-1], (head,))
            continue
        if _on_purpose(older, newer[0]):
            later = [c.entry.text for c in cands if c.number > old]  # the correction's other lines too
            if _says_more(older.entry.text, newer[0].entry.text, later):
                texts = [c.entry.text for c in newer]
                out[old] = (chain[-1], _struck(older.entry.text, texts) or _named(older.entry.text, texts))
            continue
        struck = _struck(older.entry.text, [c.entry.text for c in newer])
        if struck:
            out[old] = (chain[-1], struck)
    return out


def _rule_head(old: Candidate, new: Candidate) -> str:
    """The first clause of an older rule a newer rule replaces while the rest still holds ("~~Write commit messages
    in English~~ with a lowercase subject line" for "Write commit messages in German": breaker29 B29-9), when the
    newer line is a rule (``kind: rule``) and names the older by ``supersedes:``
    (:func:`memrepo.engine.format.samerule.replaced_head`); else ""."""
    if new.entry.meta.get("kind", "").strip().casefold() != "rule" or not new.entry.meta.get("supersedes", "").strip():
        return ""
    return replaced_head(new.entry.text, old.entry.text)


def _says_more(old_text: str, new_text: str, later: list[str]) -> bool:
    """Whether a line a correction replaces on purpose says more than the correction: the correction names the old
    value it replaces ("..., not Fly.io": :data:`_NAMES_OLD`, a word of the older line), restates part of the line
    (more than :data:`MIN_REST` topic words in common), and :data:`MIN_REST` or more of the line's topic words are in
    no later line of the file (breaker27 B27-5: "Actually the api deploys to Render now, not Fly.io" replacing "The
    api deploys to Fly.io from the main branch and ...": "main branch" was in no shown line). A reworded line ("The
    test database is SQLite in memory" -> "... is a throwaway Postgres container") names no old value: replaced
    whole, as before."""
    old = topic_terms(old_text).words
    named: set[str] = set()
    for found in _NAMES_OLD.finditer(new_text):
        named |= topic_terms(found.group(1)).words
    if not named & old or len(old & topic_terms(new_text).words) <= MIN_REST:
        return False
    said: set[str] = set().union(*(topic_terms(text).words for text in later)) if later else set()
    return len(old - said) >= MIN_REST


_NAMES_OLD = re.compile(
    r"\b(?:not|no longer|instead of|rather than|ya no(?: en| es| usa(?:mos)?)?|en vez de|en lugar de)\s+([^,;.!?]+)",
    re.IGNORECASE,
)
"""How a correction names the value it replaces: the words after "not", "instead of", "ya no", "en vez de"."""


_NAMED_SPAN = re.compile(
    r"\b(?:not|no longer|instead of|rather than|ya no(?: en| es| usa(?:mos)?)?|en vez de|en lugar de)\s+"
    r"(.+?)(?=[,;:!?()]|\.(?:\s|$)|$)",
    re.IGNORECASE,
)
""":data:`_NAMES_OLD` with a dot inside a name ("not Fly.io"): the named value runs to a comma or a sentence's end."""

MAX_NAMED_WORDS = 4
"""The most words of a named old value struck (a longer phrase after "not" is a clause, not a value)."""


def _named(old_text: str, new_texts: list[str]) -> tuple[str, ...]:
    """The old values the newer lines name as replaced ("Actually the shop deploys to Render now, not Fly.io") in the
    older line's own words, to strike ("The shop deploys to ~~Fly.io~~ from the main branch": breaker31 B31-4).

    Args:
        old_text: the older line's text.
        new_texts: the texts of the lines shown in its place (the correction first).

    Returns:
        tuple[str, ...]: each named value found exactly once in ``old_text`` as whole words, the longest first words
        of the phrase after "not" / "instead of" / "ya no" that are (at most :data:`MAX_NAMED_WORDS` words, with a
        topic word); () when none is (docs/architecture.md §4).
    """
    parts: list[str] = []
    for text in new_texts:
        for found in _NAMED_SPAN.finditer(text):
            words = found.group(1).split()[:MAX_NAMED_WORDS]
            for k in range(len(words), 0, -1):
                phrase = " ".join(words[:k])
                if not topic_terms(phrase).words:
                    continue
                spans = re.findall(rf"(?<![\w.]){re.escape(phrase)}(?![\w])", old_text, re.IGNORECASE)
                if len(spans) == 1 and spans[0] not in parts and spans[0].strip() != old_text.strip():
                    parts.append(spans[0])
                    break
    return tuple(parts)


def _on_purpose(old: Candidate, new: Candidate) -> bool:
    """Whether the newer line names the older by ``supersedes:`` or shares its ``subject:``: replaced whole."""
    if new.entry.meta.get("supersedes", "").strip():
        return True
    subject = fold(old.entry.meta.get("subject", "")).strip()
    return bool(subject) and subject == fold(new.entry.meta.get("subject", "")).strip()


def _struck(old_text: str, new_texts: list[str]) -> tuple[str, ...]:
    """The parts of ``old_text`` the newer lines replace when it says more besides (module docstring), else ()."""
    old = topic_terms(old_text)
    said: set[str] = set()
    renamed: set[str] = set()  # version names the newer lines give another number
    olds = {name: num for name, num, _changed in old.versions}
    for text in new_texts:
        topic = topic_terms(text)
        said |= topic.words
        renamed |= {name for name, num, _c in topic.versions if name in olds and num != olds[name]}
    if renamed:
        rest = old.words - said - renamed
        if len(rest) < MIN_REST:
            return ()
        parts = tuple(p for name in sorted(renamed) if (p := _version_span(old_text, olds[name])))
        return parts if len(parts) == len(renamed) else ()
    clauses = [c.strip() for c in old_text.split(";") if c.strip()]
    if len(clauses) < 2:
        return ()
    kept = [c for c in clauses if not (topic_terms(c).words & said)]
    struck = tuple(c for c in clauses if c not in kept)
    kept_words: set[str] = set().union(*(topic_terms(c).words for c in kept)) if kept else set()
    return struck if struck and len(kept_words) >= MIN_REST else ()


def _version_span(text: str, number: str) -> str:
    """The name and number of a version in a line's own words ("Go 1.22"), or "" when not found once."""
    found = re.findall(rf"(?<![\w.])[^\W\d_][\w+#.-]*\s+v?{re.escape(number)}(?![\w.])", text)
    return found[0] if len(found) == 1 else ""


def marked(rendered: str, mark: tuple[int, tuple[str, ...]] | int | None) -> str:
    """A shown line with its mark: an agent's line since (a line number: "(an agent line since says: L9)"), or a
    line replaced in part (:func:`partly_replaced`'s value: its parts struck, "~~Go 1.22~~", and "(replaced in part
    by L9)"); unchanged for None."""
    if mark is None:
        return rendered
    if isinstance(mark, int):
        return f"{rendered} (an agent line since says: L{mark})"
    new, parts = mark
    for part in parts:
        rendered = rendered.replace(part, f"~~{part}~~", 1)
    return f"{rendered} ({MARK} L{new})"
