"""Whether a newer standing rule replaces an older one on the same subject (split from :mod:`.standing`).

:func:`same_rule`: "write all commit messages in German" replaces "Write all commit messages in English", "keep answers
under five lines" replaces "Keep answers under ten lines", "stop writing commit messages in English" replaces it too;
"always run the linter before committing" does not replace "Always run the tests before committing" (another object,
not another value). :data:`PROJECT_SCOPE_RE` tells a rule said for one project ("... for the shop repo", "here").
Pure text: no file.
"""

from __future__ import annotations

import re

_RULE_STOP = frozenset(
    [
        "always",
        "never",
        "all",
        "every",
        "any",
        "the",
        "a",
        "an",
        "in",
        "on",
        "at",
        "to",
        "of",
        "for",
        "with",
        "and",
        "or",
        "please",
        "do",
        "don't",
        "dont",
        "not",
        "no",
        "only",
        "be",
        "is",
        "are",
        "your",
        "my",
        "our",
        "you",
        "we",
        "i",
        "it",
        "them",
        "they",
        "their",
        "its",
        "this",
        "that",
        "ever",
        "again",
        "stop",
        "from",
        "now",
        "under",
        "over",
        "than",
        "instead",
        "unless",
        "when",
        "before",
        "after",
        "more",
        "less",
        # German, French, Spanish, Italian, Portuguese articles and "please" (sess19: a rule said in those languages)
        "der",
        "die",
        "das",
        "den",
        "bitte",
        "immer",
        "le",
        "la",
        "les",
        "de",
        "des",
        "du",
        "los",
        "las",
        "el",
        "il",
        "gli",
        "por",
        "favor",
        "sempre",
        "siempre",
        "toujours",
    ]
)
"""Words that say how a rule holds, not what it is about (:func:`same_rule`)."""
_NUMBER_WORDS = frozenset(
    [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "fifteen",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "hundred",
    ]
)
_VALUE_PREP = frozenset(
    ["in", "to", "with", "on", "under", "over", "at", "as", "via", "using", "than", "into", "auf", "en", "em"]
)
"""A word after one of these is a rule's value ("in English", "under ten lines", "auf Deutsch", "en español"), not
what the rule is about."""
LANGUAGES = frozenset(
    [
        "english",
        "german",
        "french",
        "spanish",
        "italian",
        "portuguese",
        "dutch",
        "swedish",
        "danish",
        "norwegian",
        "finnish",
        "polish",
        "czech",
        "russian",
        "ukrainian",
        "greek",
        "turkish",
        "arabic",
        "hebrew",
        "hindi",
        "chinese",
        "japanese",
        "korean",
        "vietnamese",
        "thai",
        "indonesian",
        # German's capitalised names (a word after "auf": "auf Englisch" -> "auf Deutsch"; sess19)
        "englisch",
        "deutsch",
        "französisch",
        "spanisch",
        "italienisch",
        "niederländisch",
        "polnisch",
        "japanisch",
        "chinesisch",
        "koreanisch",
    ]
)
"""Names a rule's value may be swapped for one another ("in English" -> "in German"); any other name ("in Markdown",
"in Vitest", "in JSON") is another attribute, not another value (breaker15 B15-10)."""
PROJECT_SCOPE_RE = re.compile(
    r"\b(?:for|in|on)\s+(?:the\s+|this\s+|our\s+)?(?!(?:every|all|each|any|other|new)\b)[\w.-]+\s+(?:repo|repository|project|app|service|codebase|site"
    r"|package|module|monorepo|frontend|backend)\b"
    r"|\bhere\b|\bin\s+this\s+(?:repo|repository|project|codebase|folder|workspace)\b|\(for\b"
    r"|\b(?:for|in|on)\s+(?:the|this|our|my)\s+[\w.-]+(?:\s+[\w.-]+){0,2}\s+only\s*(?:\)\s*)?$",
    re.IGNORECASE,
)
"""A rule said for one project or case ("... for the shop repo", "use pnpm here", "in this repo", "(for the German
client only)", "... for the blog only"): the project's rule, replacing no rule for all (breaker15 B15-13, B15-23).
"... only" alone is "exclusively" ("use squash merges only", "answer in English only"; corr11): a rule for all."""
_INSTEAD_RE = re.compile(
    r"\s+(?:instead\s+of|rather\s+than|statt|anstatt|au\s+lieu\s+de|en\s+lugar\s+de)\s+(.+)$", re.I
)
"""The value a rule says it replaces ("use npm instead of pnpm")."""
_NEGATION_RE = re.compile(r"\b(?:stop|never|don['’]?t|do\s+not|no\s+longer|not)\b", re.IGNORECASE)


def _stem(word: str) -> str:
    word = word.casefold().replace("’", "'")
    for end in ("ing", "es", "ed", "s", "e"):
        if len(word) > len(end) + 2 and word.endswith(end):
            return word[: -len(end)]
    return word


def rule_words(text: str) -> list[tuple[str, str, str]]:
    """(stem, word, word before) of each word of a rule that says what it is about, its verb first (the words of
    :data:`_RULE_STOP` left out)."""
    return _content(text)


def _content(text: str) -> list[tuple[str, str, str]]:
    """(stem, word, word before) of each word of ``text`` that says what the rule is about."""
    words = re.findall(r"[\w'’-]+", text)
    return [
        (_stem(w), w, words[i - 1].casefold() if i else "")
        for i, w in enumerate(words)
        if w.casefold().replace("’", "'") not in _RULE_STOP
    ]


def _value(word: str, before: str) -> str:
    """The kind of value a word of a rule is: ``number``, ``name`` (capitalised), ``word`` (after "in", "under"...),
    or "" when it is what the rule is about."""
    if word.isdigit() or word.casefold() in _NUMBER_WORDS:
        return "number"
    if word[:1].isupper():
        return "name"
    return "word" if before in _VALUE_PREP else ""


_CLAUSE_RE = re.compile(
    r"\s*[,;]\s*|\s+(?:with|and|but|without|plus|mit|und|ohne|avec|et|sans|con|y|sin|e|senza|com|sem|met|zonder)\s+",
    re.IGNORECASE,
)
"""Where a rule's further clause may start: "Write commit messages in English | with a lowercase subject line",
"Answer in English | and keep it short" (and German, French, Spanish, Italian, Portuguese, Dutch "with"/"and")."""


def replaced_head(new: str, old: str) -> str:
    """The part of the stored rule ``old`` the newer rule ``new`` replaces when ``old`` says more besides (B29-9: a
    rule replaced in part): "write commit messages in German" replaces "Write commit messages in English" of "Write
    commit messages in English with a lowercase subject line"; the clause after it ("with a lowercase subject line")
    still holds. The head is ``old`` up to a clause start (:data:`_CLAUSE_RE`) that :func:`same_rule` says ``new``
    replaces whole, else a later clause between two clause starts ("Answer in English, and keep answers under ten
    lines": "keep answers under ten lines" for "keep answers under five lines"); the rest must hold a word of what a
    rule is about that ``new`` does not say (else ``new`` says it again and replaces ``old`` whole).
    docs/architecture.md §7, "A rule replaced in part".

    Args:
        new: the user's rule, less its lead-in.
        old: a stored rule's text.

    Returns:
        str: the replaced clause in ``old``'s own words, or "" when ``new`` replaces ``old`` whole or not at all.
    """
    if _same_whole(new, old):
        return ""
    said = {s for s, _w, _b in _content(new)}
    cuts = [(m.start(), m.end()) for m in _CLAUSE_RE.finditer(old)]
    for start, end in cuts:
        head, rest = old[:start].rstrip(), old[end:]
        if len(_content(head)) >= 2 and {s for s, _w, _b in _content(rest)} - said and _same_whole(new, head):
            return head
    for (start, end), after in zip(cuts, [*(c[0] for c in cuts[1:]), len(old)][: len(cuts)], strict=True):
        part = re.sub(r"^(?:and|but|und|aber|et|mais|y|pero|e|ma|en|maar)\s+", "", old[end:after].strip(), flags=re.I)
        rest = old[:start] + " " + old[after:]  # a later clause with its own verb
        if len(_content(part)) >= 2 and {s for s, _w, _b in _content(rest)} - said and _same_whole(new, part):
            return part
    return ""


def same_rule(new: str, old: str) -> bool:
    """Whether the rule ``new`` replaces the stored rule ``old``: the same verb and what it acts on, and either
    another value of it (one word of the older rule's, a name, a number or a word after "in", "under", "to", "auf",
    "en"...: the language, the limit, replaced by a value of the same kind: "in German" for "in English", never "in
    lowercase") or the older rule's words said with "stop", "never", "not"; or it replaces the older rule's first
    clause, the rest still holding (:func:`replaced_head`).

    Args:
        new: the user's rule, less its lead-in.
        old: a stored rule's text.

    Returns:
        bool: True when ``new`` replaces ``old`` (whole or in part).
    """
    return _same_whole(new, old) or bool(replaced_head(new, old))


def _same_whole(new: str, old: str) -> bool:
    """:func:`same_rule` for the whole of ``old``."""
    n, o = _content(new), _content(old)
    if n and o and new.split()[0].casefold() == "do" and n[0][0] != o[0][0]:
        o = o[1:]  # "do commit messages in German" for "Write commit messages in English": the older verb's object
    if not n or not o or n[0][0] != o[0][0]:
        return False
    instead = _INSTEAD_RE.search(new)
    if instead:  # "use npm instead of pnpm" for "Use pnpm": the rule names the value it replaces (B23-12)
        head, gone = {s for s, _w, _b in _content(new[: instead.start()])}, {s for s, _w, _b in _content(instead[1])}
        o_all = {s for s, _w, _b in o}
        if gone and gone <= o_all and o_all - head <= gone:
            return True
    n_stems, o_stems = {s for s, _w, _b in n}, {s for s, _w, _b in o}
    if n_stems == o_stems:  # "Please stop adding emojis to commit messages" for "Add emojis to commit messages"
        return len(n_stems) >= 2 and bool(_NEGATION_RE.search(new)) != bool(_NEGATION_RE.search(old))
    if len(n_stems & o_stems) < 2 and not (len(n) == len(o) == 2 and n[0][0] == o[0][0]):
        return False  # "Answer in German" for "Answer in English": a verb and a value each (breaker15 B15-35)
    old_only = [(w, b) for s, w, b in o if s not in n_stems]
    if not old_only:
        return bool(_NEGATION_RE.search(new)) and not _NEGATION_RE.search(old)
    if len(old_only) != 1 or bool(PROJECT_SCOPE_RE.search(new)) != bool(PROJECT_SCOPE_RE.search(old)):
        return False  # two values changed, or a rule for one project beside one for all (breaker15 B15-13)
    new_only = [(i, w, b) for i, (s, w, b) in enumerate(n) if s not in o_stems]
    at = next(i for i, (s, _w, _b) in enumerate(o) if s not in n_stems)
    kind = _value(*old_only[0])
    after = o[at + 1][0] if at + 1 < len(o) else ""
    if not kind or not 1 <= len(new_only) <= 3 or (kind == "name" and old_only[0][0].casefold() not in LANGUAGES):
        return False
    for i, w, b in new_only:
        follows = n[i + 1][0] if i + 1 < len(n) else ""
        same_kind = _value(w, b) == kind and (kind != "name" or w.casefold() in LANGUAGES)
        if same_kind and follows in (after, "") and (kind != "word" or b == old_only[0][1]):
            return (
                True  # "in English" -> "in German", "ten lines" -> "five lines"; never "in Markdown", "80 characters"
            )
    return False


__all__ = ["LANGUAGES", "PROJECT_SCOPE_RE", "replaced_head", "rule_words", "same_rule"]
