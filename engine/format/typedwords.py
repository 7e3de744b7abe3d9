"""Typed or pasted, and does it instruct (docs/architecture.md §6, the provenance rule).

A dream may apply new text automatically only when it is words the user
typed. A user message counts as typed only when it is short and has none of
the shapes pasted material has (:func:`paste_reason`): a URL, a fence or
indented code, ``>`` quotes, a list, several paragraphs, a heading or a
table, an editor's paste marker. Text is read after :func:`fold`, the same
fold for every check: invisible characters removed (as on every write),
NFKC, then every letter that looks like a Latin one (Unicode's confusables
table, through the ``confusable-homoglyphs`` package) read as that letter, so
"Аlways" with a Cyrillic А or "al\\u200bways" is "always".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .cleantext import clean_in

TYPED_MAX_CHARS = 600
"""A user message longer than this (characters) is read as holding pasted material."""
TYPED_MAX_LINES = 4
"""A user message with more non-empty lines than this is read as holding pasted material."""


@lru_cache(maxsize=1)
def _latin_of() -> dict[str, str]:
    """Character -> the ASCII letter or digit it can pass for (Unicode's confusables table)."""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    out: dict[str, str] = {}
    for char, glyphs in confusables.confusables_data.items():
        if len(char) != 1 or ord(char) < 128:
            continue
        for glyph in glyphs:
            c = glyph.get("c", "")
            if len(c) == 1 and c.isascii() and c.isalnum():
                out[char] = c
                break
    for char, latin in list(out.items()):
        name = unicodedata.name(char, "")
        if latin == "l" and name.endswith((" I", " IOTA")):
            out[char] = "I"  # a capital I looks like l too; a word reads "ignore", not "lgnore"
        lower = char.lower()
        if lower != char and lower not in out and out[char].isalpha():
            out[lower] = out[char].lower()  # small letters the table maps to no ASCII (к, τ): as their capitals
    out.update(_SMALL_LOOKALIKES)
    return out


_SMALL_LOOKALIKES = {"η": "n", "п": "n", "κ": "k", "к": "k", "τ": "t", "т": "t", "м": "m", "г": "r", "ν": "v"}
"""Small Greek and Cyrillic letters that pass for Latin ones in running text but that Unicode's table maps to no
ASCII letter (it lists them against small capitals)."""


def fold(text: str) -> str:
    """``text`` as every provenance check reads it: invisible characters gone, NFKC, look-alike letters Latin.

    Args:
        text: any text (an entry, a quote, a user message).

    Returns:
        str: the folded text (for checks only; never written).
    """
    text = unicodedata.normalize("NFKC", clean_in(text))
    table = _latin_of()
    return "".join(table.get(c, c) for c in text)


_URL_RE = re.compile(r"\b(?:https?|ftp|file)://|\bwww\.[a-z0-9-]+\.[a-z]", re.I)
_LIST_RE = re.compile(r"^\s*(?:[-*+•·▪‣◦–—]\s+|\(?\d{1,3}[.)]\s+|\(?[a-z][.)]\s+)", re.I)
_CODE_RE = re.compile(r"```|~~~|^\s{4,}\S|^\s*\$ \S|[;{}]\s*$|\b(?:def|class|function|import|return)\b.*[:({]", re.M)
_HEADING_RE = re.compile(r"^\s*(?:#{1,6}\s|={3,}\s*$|-{3,}\s*$)", re.M)
_TABLE_RE = re.compile(r"^\s*\|.*\|\s*$", re.M)
_MARKER_RE = re.compile(
    r"\[pasted text|\[image #|<pasted|copied from|pasted from|from the (?:page|site|article|docs?|readme|email)\b|"
    r"the (?:page|site|article|readme|email) says|here(?:'s| is) (?:the|a|an) (?:page|text|article|excerpt|snippet|"
    r"write-?up|doc|readme|email|log|output|report)|^\s*(?:source|via|from):",
    re.I | re.M,
)


def paste_reason(message: str) -> str | None:
    """Why a user message reads as holding pasted material, or None when it reads as typed.

    Args:
        message: one user message as the transcript holds it.

    Returns:
        str | None: a few words ("it holds a URL", "it is over 600 characters"), or None.
    """
    text = fold(message)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(text) > TYPED_MAX_CHARS:
        return f"it is over {TYPED_MAX_CHARS} characters"
    if len(lines) > TYPED_MAX_LINES:
        return f"it has over {TYPED_MAX_LINES} lines"
    if _MARKER_RE.search(text):
        return "it says it holds pasted or quoted material"
    if _URL_RE.search(text):
        return "it holds a URL"
    if _CODE_RE.search(text) or "`" in text:
        return "it holds code"
    if any(ln.lstrip().startswith(">") for ln in lines):
        return "it holds quoted lines"
    if any(_LIST_RE.match(ln) for ln in lines):
        return "it holds a list"
    if _HEADING_RE.search(text) or _TABLE_RE.search(text):
        return "it holds a heading or a table"
    if "\n\n" in text.strip():
        return "it has several paragraphs"
    return None


def typed_message(message: str) -> str:
    """The message if it reads as typed, else "" (:func:`paste_reason`): all of it or nothing."""
    return message if paste_reason(message) is None else ""


_LEAD_RE = re.compile(r"^[\s\-*+•·▪‣◦–—=>#|~_:.,;!?'\"`()\[\]]*(?:\(?(?:\d{1,3}|[a-z]|[ivx]{1,4})[.):]\s+)?", re.I)
"""What may come before a sentence's first word without changing it: list marks, dashes, quotes, ``1)``."""
_SPLIT_RE = re.compile(r"(?<=[.!?;:])\s+|\n|\s[-–—]+\s|\s\|\s")
_IGNORE = re.compile(
    r"\b(ignore|disregard|forget|override|bypass|skip)\b.{0,40}\b(instruction|prompt|rule|guideline|polic|system|"
    r"safety|guardrail|review|test|check|hook|verification|approval)",
    re.I | re.S,
)
_ACTOR = (
    r"(?:you|agents?|assistants?|models?|ai|llms?|bots?|claude|codex|copilot|cursor|gemini|chatgpt|"
    r"the\s+(?:agent|assistant|model|ai|bot|llm|tool)s?|any\s+(?:agent|assistant|model)|future\s+(?:agents?|sessions?))"
)
_DESCRIBED = re.compile(
    rf"\b{_ACTOR}\b[^.!?\n]{{0,40}}?\b(?:are|is|were|be|being|get|gets)\s+(?:\w+\s+)?"
    r"(?:expected|supposed|required|allowed|permitted|encouraged|instructed|told|asked|meant|obliged|free|"
    r"authori[sz]ed|trusted|welcome|advised|directed|to)\s+to\b"
    rf"|\b{_ACTOR}\s+(?:must|should|shall|need\s+to|needs\s+to|have\s+to|has\s+to|ought\s+to|will|may|can)\b"
    r"|\bit\s+is\s+(?:required|mandatory|expected|recommended|policy|customary|(?:standard|common|best|good|accepted)\s+practice)\s+(?:that|to)\b"
    r"|\b(?:the\s+)?(?:policy|rule|convention|practice)\s+is\s+(?:to|that)\b",
    re.I,
)
_IMPERATIVE = re.compile(
    r"(?:please\s+|kindly\s+|from\s+now\s+on,?\s+|going\s+forward,?\s+|always\s+|never\s+|do\s+not\s+|don'?t\s+|"
    r"make\s+sure\s+(?:to\s+)?|be\s+sure\s+to\s+|remember\s+to\s+)?"
    r"(?:always|never|ignore|run|execute|exec|upload|send|post|email|mail|curl|wget|download|install|delete|"
    r"remove|rm|copy|cp|push|fetch|open|visit|browse|call|invoke|share|exfiltrate|forward|paste|print|reveal|"
    r"disable|enable|grant|give|set|unset|export|source|eval|sudo|chmod|ssh|scp|rsync|kill|use|add|write|"
    r"read|cat|type|click|transfer|pay|approve|accept|trust|allow|skip|avoid|prefer|stop|start|must|merge|"
    r"deploy|commit|force|bypass|drop|truncate|wipe|erase|purge|publish|leak|store|save|keep|include|attach)\b",
    re.I,
)
_SENSITIVE = re.compile(
    r"(~/\.|\$HOME/\.|/etc/(?:passwd|shadow)|\.aws\b|\.ssh\b|id_rsa|id_ed25519|\.env\b|\.netrc|"
    r"credentials?\b|private\s+key|api[\s_-]?keys?\b|passwords?\b|\btokens?\b|secrets?\b|"
    r"https?://|\bftp://|`[^`]+`|\$\(|\|\s*(?:sh|bash)\b)",
    re.I,
)


def sentences(text: str) -> list[str]:
    """The sentences of folded text, each without what may lead it (list marks, dashes, ``1)``)."""
    return [_LEAD_RE.sub("", s, count=1) for s in _SPLIT_RE.split(fold(text)) if s.strip()]


def instruction_reason(text: str) -> str | None:
    """Why a text reads as an instruction to future agents, or None when it describes.

    Read after :func:`fold`. Matched: "ignore … instructions" or "skip the
    tests"; a sentence opening with an imperative, after any list mark, dash
    or ``1)``; wording that says what agents are expected, allowed or told to
    do; and text naming credentials, home dot-folders, URLs or shell commands.

    Args:
        text: an entry's text, or the quote it cites.

    Returns:
        str | None: a one-line reason, or None.
    """
    folded = fold(text)
    if _IGNORE.search(folded):
        return "reads as an attempt to override the agent's instructions"
    if _DESCRIBED.search(folded):
        return "says what agents are expected to do: an instruction to future agents"
    for sentence in sentences(text):
        if _IMPERATIVE.match(sentence):
            return "reads as an instruction to future agents"
    if _SENSITIVE.search(folded):
        return "names credentials, a URL or a command an agent could act on"
    return None


def introduced_instruction(text: str, before: list[str]) -> str | None:
    """Why ``text`` adds an instruction that the lines it replaces did not hold, or None.

    Args:
        text: the new entry text.
        before: the texts of the lines it replaces.

    Returns:
        str | None: a one-line reason, or None.
    """
    old = "\n".join(fold(b) for b in before)
    new = fold(text)
    if _IGNORE.search(new) and not _IGNORE.search(old):
        return "reads as an attempt to override the agent's instructions"
    if _DESCRIBED.search(new) and not _DESCRIBED.search(old):
        return "says what agents are expected to do: an instruction to future agents"
    old_marks = {m.group(0).casefold() for m in _SENSITIVE.finditer(old)}
    if any(m.group(0).casefold() not in old_marks for m in _SENSITIVE.finditer(new)):
        return "names credentials, a URL or a command an agent could act on"
    old_orders = any(_IMPERATIVE.match(s) for b in before for s in sentences(b))
    if any(_IMPERATIVE.match(s) for s in sentences(text)) and not old_orders:
        return "reads as an instruction to future agents"
    return None


__all__ = [
    "TYPED_MAX_CHARS",
    "TYPED_MAX_LINES",
    "fold",
    "instruction_reason",
    "introduced_instruction",
    "paste_reason",
    "sentences",
    "typed_message",
]
