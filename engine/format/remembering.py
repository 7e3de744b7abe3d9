"""The explicit "remember that X" rule: what the user asked to keep, in their own words (docs/architecture.md §7).

One rule for both places that read a conversation without a model: the
``rules`` checkpoint distillation (:mod:`memrepo.engine.checkpoints.distill`)
and the offline ``rules`` dream (:mod:`memrepo.engine.dreams.remembers`), which
reads the sessions whose checkpoint hooks never ran. Pure text: no file, no
repo.
"""

from __future__ import annotations

import re

_LEAD = r"(?:(?:also|and|oh|so|but|btw|by\s+the\s+way|please|pls|kindly|just|then|finally|ok|okay|plus)\b,?\s+)"
"""Words that may come before "remember that" in a request: "Also remember that", "Oh, and please remember that"."""
_SUBJECT = r"(?:we|we['’]re|our|my|i|i['’]m|it|it['’]s|its|they|their|you|your|this|these|us)\s+\w"
"""The start of a clause "remember" may take without "that": "remember we use X", "remember our CI ..."."""
_REMEMBER_RE = re.compile(
    rf"(?:(?:^|[.!?]\s+|[,;:]\s*|\s[-–—]\s+|\n)\s*{_LEAD}*|\s+and\s+{_LEAD}*)"
    rf"(?:remember|don['’]?t\s+forget)(?:\s+that\s+|(?:\s+this)?\s*:\s*|\s+(?={_SUBJECT}))(.+?)([.!?](?:\s|$)|\n|$)",
    re.IGNORECASE,
)
"""A request to keep X: "remember that X", "remember (this): X", "remember we/our/my ... X" (a clause of :data:`_SUBJECT`)
or "don't forget that X", at a sentence's or clause's start (after ``.``, ``,``, ``;``, a dash or "and"), after
words of :data:`_LEAD` only, so "I remember that ..." and "you also remember that ..." are no request. Group 1
is X, group 2 its end mark (a "?": a question, never kept)."""
_SECRET_MARK_RE = re.compile(r"\[REDACTED:[a-z0-9-]+\]")
"""Redaction's marker: the value it stands for is not in the text (docs/architecture.md §3)."""
_CLAUSE_CUT_RE = re.compile(
    r"\s*;\s*|,\s*(?:(?:and|but)\s+)?|\s+(?:and|but)\s+(?=(?:the|our|my|we|it|its|their|they|i|you|your|this|that)\b)",
    re.IGNORECASE,
)
"""Where one clause of a statement ends and the next begins: ``;``, a comma (with "and"/"but"), or "and"/"but"
before a word that starts a clause ("... Tuesdays only and the staging DB password is ...")."""
_SENTENCE_RE = re.compile(r"[^.!?\n]+(?:[.!?]+|\n|$)")
"""A sentence: text up to its end mark or the line's end."""
_REMEMBER_BEFORE_RE = re.compile(
    r"(?:please\s+)?(?:remember|note)\s+(?:that|this|it)(?:\s*,?\s*please)?\s*[.!]*", re.IGNORECASE
)
"""A sentence that only asks to keep what was said before it: "Remember that.", "Please remember this!"."""


def _sentences(text: str) -> list[str]:
    return [s for s in (m.group(0).strip() for m in _SENTENCE_RE.finditer(text)) if s]


def without_secrets(text: str) -> str:
    """A statement less its clauses about a secret redaction took out; "" when nothing else is left.

    "We ship on Tuesdays only and the staging DB password is [REDACTED:labelled-secret]" keeps "We ship
    on Tuesdays only". A clause whose value is a redaction marker says nothing an agent can use (the value
    was the content, and memrepo never keeps it): kept, it is a memory line about a secret that is not there.
    The other clauses are still what the user asked to keep, in their words. A statement that is nothing but
    such clauses, or whose marker sits in no clause of its own, or whose rest is under 3 words, is dropped
    whole (""): a shorter line the user never said is worse than none.

    Args:
        text: a statement to keep (the user's, or a distiller's operation text).

    Returns:
        str: the text unchanged when it holds no marker, the rest of it, or "".
    """
    if not _SECRET_MARK_RE.search(text):
        return text
    parts = _CLAUSE_CUT_RE.split(text)
    cuts = _CLAUSE_CUT_RE.findall(text)
    kept = [i for i, part in enumerate(parts) if not _SECRET_MARK_RE.search(part)]
    if not kept:
        return ""
    out = parts[kept[0]]
    for i in kept[1:]:
        out += (cuts[i - 1] if i - 1 == kept[kept.index(i) - 1] else ", ") + parts[i]
    out = out.strip().rstrip(",;").strip()
    return out if len(out.split()) >= 3 else ""


def user_statements(texts: list[str]) -> list[str]:
    """What the user asked to remember, in their own words, in order (duplicates kept).

    Two forms (docs/architecture.md §7, the ``rules`` distillation): "remember
    that X" gives X (also "remember: X", "remember this: X", "remember we ... X", "don't forget that X":
    :data:`_REMEMBER_RE`), at a sentence's or a clause's start ("Also remember that X",
    "..., and remember that X"; not "I remember that X", not a question); a sentence that only says "Remember that." / "Remember
    this." gives the sentence before it (in the same message, else the last
    one of the user's message before), unless that one is a question. A clause
    about a redacted secret is left out (:func:`without_secrets`).

    Args:
        texts: the user's messages, in order.

    Returns:
        list[str]: the statements, each stripped of its end mark.
    """
    facts: list[str] = []
    previous: list[str] = []
    for text in texts:
        sentences = _sentences(text)
        found: list[tuple[int, str]] = [
            (m.start(1), m.group(1)) for m in _REMEMBER_RE.finditer(text) if not m.group(2).startswith("?")
        ]
        pos = 0
        for i, sentence in enumerate(sentences):
            pos = text.find(sentence, pos)
            if not _REMEMBER_BEFORE_RE.fullmatch(sentence):
                continue
            before = sentences[i - 1] if i else (previous[-1] if previous else "")
            if before and not before.endswith("?") and not _REMEMBER_BEFORE_RE.fullmatch(before):
                found.append((pos, before))
        for _pos, fact in sorted(found):
            kept = without_secrets(fact.strip().rstrip(".!?").strip())
            if kept:
                facts.append(kept)
        previous = sentences or previous
    return facts


__all__ = ["user_statements", "without_secrets"]
