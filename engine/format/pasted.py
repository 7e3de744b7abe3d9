"""Which parts of a user's message are their own words: code, quotes and pasted text are not
(docs/architecture.md §7).

Shared by the "remember that X" rule (:mod:`.remembering`), the rules a user states (:mod:`.standing`) and the
checkpoint's corrections and forget requests: a request inside a code span, a quote or a pasted page is none.
"""

from __future__ import annotations

import re

_CODE_RE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.DOTALL)
"""Code: fenced blocks and inline spans (a comment "# remember that ..." in code is no request)."""
_QUOTED_RE = re.compile(r"^\s*>.*$|\"[^\"\n]*\"|“[^”\n]*”|(?<!\w)'[^'\n]*'(?!\w)", re.MULTILINE)
"""Quoted text: a ``>`` line (a pasted email), and words in double or single quotes."""
_INTRO_LINE_RE = re.compile(
    r"\b(?:here|here['’]s|from|forward\w*|fwd|fw|pasted?|below|following|output|log|logs|readme|page|wiki|mail|e-?mail"
    r"|emailed|docs?|document|message|text|file|ticket|issue|thread|chat|slack|says|said|wrote|writes|reads|quote)\b"
    r"[^\n]*:\s*$",
    re.IGNORECASE,
)
"""A line that introduces pasted text below it ("From the ops wiki page:", "Forwarding from ops:", "Here is the
README:"); a list's own heading ("Tasks:") is not one."""


_TASK_RE = re.compile(
    r"\b(?:translat\w*|summari[sz]\w*|sum\s+up|tl;?\s?dr|explain\w*|paraphras\w*|rephras\w*|rewrit\w*|re-?word\w*"
    r"|proof-?read\w*|(?:turn|make|convert|format|reformat)\s+(?:this|these|it|the\s+(?:\w+\s+){0,3}?\w+)\s+(?:into|as|to)\b"
    r"|condense\w*|shorten\w*|(?:reply|respond)\s+to|draft\s+a\s+reply|clean\s+up"
    r"|(?:fix|check|correct)\s+the\s+(?:grammar|spelling|typos)|[üu]bersetz\w*|traduis\w*|tradu[cz]\w*"
    r"|what\s+(?:does|do|did)\s+(?:this|that|these|those|it|the)\b[^\n:?]{0,60}?\bmean"
    r"|what\s+(?:is|['’]s)\s+(?:this|that)\s+(?:\w+\s+)?(?:saying|about))\b",
    re.IGNORECASE,
)
"""A request to do something with text the user hands over: translate, summarise, explain, rephrase, proofread it,
turn it into a post, reply to it, or "what does this ... mean" (breaker30 B30-25, breaker31 B31-1)."""
_MATERIAL_RE = re.compile(
    r"\b(?:this|these|the\s+following|below|above|the\s+(?:\w+\s+){0,3}?(?:text|section|page|readme"
    r"|e-?mail|mail|message|comment|log|paragraph|passage|doc|docs|document|file|snippet|note|notes|thread|article|post"
    r"|output|error|trace|changelog|review|reply|letter|chat|transcript))\b",
    re.IGNORECASE,
)
"""What the task is done on: "this", "the following", "the README section", "above"."""
_AHEAD_RE = re.compile(r"\b(?:the\s+following|below)\b", re.IGNORECASE)
"""A pointer to text after the request: the request's sentence ends at its full stop, the material follows."""
_BACK_RE = re.compile(r"\babove\b|\b(?:this|these)(?:\s+(?:for\s+me|please|for\s+the\s+team))?\s*[.!?]*\s*$", re.I)
"""A last line's pointer back to the text above it: "Summarize the above.", "tl;dr this", "Translate this please."
("Now explain this error." after the user's own lines names something else: those lines stay theirs)."""
_OWN_LAST_RE = re.compile(r"\s*(?:also|and\s+also|btw|by\s+the\s+way|p\.?s\.?|unrelated|separately)\b", re.IGNORECASE)
"""A last line back in the user's own voice after the material: "Also, remember that we ship on Fridays"."""
_OWN_KEEP_RE = re.compile(
    r"\s*(?:remember\s+that|from\s+now\s+on|keep\s+in\s+mind\s+that|don['’]?t\s+forget\s+that)\b", re.IGNORECASE
)
"""A last paragraph of one line after the material that asks to keep something: the user's own too ("Remember that we
target Python 3.12 only.", breaker33); a pasted page's last paragraph runs longer than a line."""
_ASKS_TO_KEEP_RE = re.compile(
    r"\b(?:remember|keep\s+in\s+mind|note\s+that|don['’]?t\s+forget|from\s+now\s+on|going\s+forward)\b", re.I
)
"""Words before a task word that make the line the user's own: a request to keep ("Remember that I translate the
docs") or a standing rule ("From now on, explain this kind of error in plain English", breaker33)."""
PREAMBLE_CHARS = 80
"""A line above the task line is a greeting, a short lead-in or a short line of the user's own ("Morning!", "Quick
one.", "Remember that we deploy with make ship."): at most this many characters (it stays the user's; under a longer
one, a task line is taken for the user's own words too, as before round 22)."""


TASK_LINE_FROM_TOP = 3
"""The task line is one of a message's first three lines: a greeting or a line of the user's own may come first
("Morning!\nCan you translate this README section to German?\n...", breaker32 B32-4); the lines above it stay
the user's."""
_HEADING_RE = re.compile(r"\s*#{1,6}\s")
"""A markdown heading: never a request."""
_PLEASANTRY_RE = re.compile(r"\s*(?:thanks?(?:\s+you)?|thx|ty|cheers|please|pls|ok(?:ay)?)\W*$", re.IGNORECASE)
"""A line that says nothing to keep: "Thanks", "cheers"."""


_COMING_RE = re.compile(
    r"\b(?:i['’]?ll|i\s+will|i\s+am\s+(?:going|about)\s+to|i['’]?m\s+(?:going|about)\s+to|let\s+me|gonna)"
    r"\s+(?:\w+\s+)?paste\b|\b(?:in\s+)?my\s+next\s+message\b|\bwhat\s+i\s+(?:paste|send)\s+next\b"
    r"|\b(?:send|give)\s+(?:it|this|them)\s+(?:to\s+you\s+)?(?:next|in\s+a\s+(?:sec|second|moment|minute))\b",
    re.IGNORECASE,
)
"""A message saying the text to work on comes in the next one: "I'll paste it next", "in my next message", "I'll send
it in a sec"; not "I'll send you the logs later" or "I'll share it with the team" (breaker33: the next message was the
user's own)."""
PASTE_CHARS = 160
"""A next message that is a paste: two lines or more, or this many characters (a one-line "Actually, never mind.
From now on, ..." is the user's own)."""


def task_material(text: str) -> tuple[int, int] | None:
    """The span of a message that is material handed over for a task, not the user's statements (breaker30 B30-25):
    after a line among the first three (:data:`TASK_LINE_FROM_TOP`; the lines above it stay the user's) that asks to
    translate, summarise or explain something it points at ("Can you translate this README section to German?", "What
    does this comment in the PR mean?", "Translate this to French: ..."), the rest of the message (on the same line
    only after a colon); before a last line that asks it of what came above
    ("Summarize the above.", under at least two lines or 160 characters of it), the lines above.

    Args:
        text: a user's message.

    Returns:
        tuple[int, int] | None: (start, end) character span of the material, or None.
    """
    shown = readable(text)
    lines = [(m.start(), m.end()) for m in re.finditer(r"[^\n]*", shown) if shown[m.start() : m.end()].strip()]
    if len(lines) < 1:
        return None
    at, task = _task_line(shown, lines)
    start, end = lines[at]
    if task is not None:
        ahead = _AHEAD_RE.search(shown[start + task : end])  # "... the following paragraph into Spanish. X"
        colon = re.search(r"[:?.]" if ahead else r"[:?]", shown[start + task + (ahead.end() if ahead else 0) : end])
        rest = start + task + (ahead.end() if ahead else 0) + colon.end() if colon else end
        if colon and colon.group(0) != "?" and shown[rest:end].strip():
            return rest + len(shown[rest:end]) - len(shown[rest:end].lstrip()), lines[-1][1]  # "Translate this: ..."
        own_last = len(lines) > 2 and "\n\n" in shown[lines[-2][1] : lines[-1][0]] and _own_last(shown[lines[-1][0] :])
        if _all_own(shown, end, lines[at + 1 :]):
            return None  # "Can you rewrite this function?\nFrom now on, always use type hints." (breaker33)
        final = len(lines) - (2 if own_last else 1)
        if at + 1 <= final:
            return lines[at + 1][0], lines[final][1]
    last, before = lines[-1], lines[:-1]
    tail = shown[last[0] : last[1]]
    ask = before and _asks_task(tail) is not None and _BACK_RE.search(tail) is not None
    if (
        ask
        and not _TASK_RE.search(shown[before[0][0] : before[-1][1]])
        and (len(before) >= 2 or before[-1][1] - before[0][0] >= 160)
    ):
        return before[0][0], before[-1][1]  # "... pasted lines ...\nSummarize the above."
    return None


def _task_line(shown: str, lines: list[tuple[int, int]]) -> tuple[int, int | None]:
    """The first of a message's first :data:`TASK_LINE_FROM_TOP` lines that asks a task on text it hands over, under
    greetings only (:data:`PREAMBLE_CHARS`): (its index in ``lines``, where the request starts in it), or (0, None)."""
    for at, (start, end) in enumerate(lines[:TASK_LINE_FROM_TOP]):
        task = _asks_task(shown[start:end])
        if task is not None:
            return at, task
        if len(shown[start:end].strip()) > PREAMBLE_CHARS:
            break  # a line of the user's own says more than a greeting: what follows is theirs too
    return 0, None


def _asks_task(line: str) -> int | None:
    """Where the request for a task on handed-over text in ``line`` starts (:data:`_TASK_RE` then :data:`_MATERIAL_RE`),
    or None; None too when the line asks to keep something before it ("Remember that I translate the docs") or is a
    markdown heading ("## How to explain this to new hires": a pasted page's title, breaker33)."""
    task = _TASK_RE.search(line)
    if task is None or _ASKS_TO_KEEP_RE.search(line[: task.start()]) or _HEADING_RE.match(line):
        return None
    return task.start() if _MATERIAL_RE.search(line[task.start() :]) else None


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))  # the same length: positions stay those of the user's text


def readable(text: str) -> str:
    """``text`` with code and quoted text blanked out (spaces of the same length), so a request inside them is none.

    Args:
        text: a user's message.

    Returns:
        str: the message, its code spans, fenced blocks, ``>`` lines and quotes replaced by spaces.
    """
    return _QUOTED_RE.sub(_blank, _CODE_RE.sub(_blank, text))


def pasted_lines(text: str) -> list[tuple[int, int]]:
    """The spans of a message that are pasted text, not the user's own words (breaker9 B9-7): the lines after a line
    that introduces text with a colon ("From the ops wiki page:", "Here is the README:") up to the message's last
    line (the user's own: "Summarize the page for me").

    Args:
        text: a user's message.

    Returns:
        list[tuple[int, int]]: (start, end) character spans.
    """
    lines = [(m.start(), m.end()) for m in re.finditer(r"[^\n]*", text) if text[m.start() : m.end()].strip()]
    quoted = _chat_or_log(text, lines)
    material = task_material(text)
    if material is not None:
        return [material, *quoted]
    for i, (start, end) in enumerate(lines[:-1]):
        if _INTRO_LINE_RE.search(readable(text[start:end])) and i + 1 < len(lines) - 1:
            return [(lines[i + 1][0], lines[-2][1]), *quoted]
    return quoted


_LOG_LINE_RE = re.compile(
    r"\s*(?:\[?\d{1,4}[-:/.]\d{1,2}(?:[-:/.T ]\d{1,2})*(?:[.,]\d+)?Z?\]?\s+)?"
    r"\[?(?:WARN(?:ING)?|ERROR|ERR|INFO|DEBUG|TRACE|FATAL|CRITICAL|NOTICE)\]?[:\s]"
)
"""A tool's log line: a level word in capitals (after a time stamp or not): "WARNING: Remember that ..." is the
tool's, not the user's (breaker32 B32-21)."""
_SPEAKER_LINE_RE = re.compile(r"\s*(?:\[[^\]\n]{1,25}\]\s*)?<?@?[\w.\-]{1,32}>?:\s")
"""A chat line: "[10:42] bob: ...", "<alice> ...:", "dana: ..."."""
_STAMPED_RE = re.compile(r"\s*\[\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?\]")


def _chat_or_log(text: str, lines: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of pasted chat and log lines (breaker32 B32-21): a line a log level opens, and a speaker's line
    ("bob: ...") when a time stamp opens it or another line of the message is a speaker's too (a transcript of
    others talking; one "PS: ..." or "Also: ..." of the user's is not)."""
    speakers = [(a, b) for a, b in lines if _SPEAKER_LINE_RE.match(text, a)]
    spans = []
    for a, b in lines:
        if _LOG_LINE_RE.match(text, a) or ((a, b) in speakers and (len(speakers) >= 2 or _STAMPED_RE.match(text, a))):
            spans.append((a, b))
    return spans


def own_short_message(text: str) -> bool:
    """Whether a message is the user's own short say (two lines or fewer, outside code, no pasted text): only
    such a message can correct a stored line without "remember" (breaker9 B9-7).

    Args:
        text: a user's message.

    Returns:
        bool: True for a message of one or two non-empty lines with no line introducing pasted text.
    """
    lines = [line for line in readable(text).splitlines() if line.strip()]
    if task_material(text) is not None:
        return False  # "Translate this to French: the deploy window is Friday now" (B30-25)
    return len(lines) <= 2 and not any(_INTRO_LINE_RE.search(line) for line in lines[:-1])


def _all_own(shown: str, end: int, after: list[tuple[int, int]]) -> bool:
    """Whether the lines after a task line (it ends at ``end``) are all the user's own: straight under it (no blank
    line), each back in their voice or asking to keep something (:data:`_OWN_LAST_RE`, :data:`_OWN_KEEP_RE`) or a
    pleasantry ("Thanks"), one at least not: then the task is on something already in the chat, nothing is handed
    over ("Can you explain this error?\nAlso, from now on always use pnpm.\nThanks", breaker33). Text handed over
    starts after a blank line or in a voice of its own ("## Setup", "alice: ...", a log line)."""
    if not after or "\n\n" in shown[end : after[0][0]].replace("\r", ""):
        return False
    voiced = [
        _OWN_LAST_RE.match(shown[a:b]) is not None or _OWN_KEEP_RE.match(shown[a:b]) is not None for a, b in after
    ]
    polite = [_PLEASANTRY_RE.match(shown[a:b]) is not None for a, b in after]
    return any(voiced) and all(v or p for v, p in zip(voiced, polite, strict=True))


def _own_last(paragraph: str) -> bool:
    """Whether a last paragraph after the material is the user's own: :data:`_OWN_LAST_RE`, or one line that asks to
    keep something (:data:`_OWN_KEEP_RE`)."""
    return _OWN_LAST_RE.match(paragraph) is not None or (
        "\n" not in paragraph.strip() and _OWN_KEEP_RE.match(paragraph) is not None
    )


def _own_paragraph(paragraph: str, first: bool) -> bool:
    """Whether a paragraph of a pasted next message is the user's own: a last one back in their voice
    (:func:`_own_last`), or a first one of one line that asks to keep something or states a rule ("Before that:
    remember that the prod DB is read-only for me.")."""
    if first:
        return "\n" not in paragraph and _ASKS_TO_KEEP_RE.search(readable(paragraph)) is not None
    return _own_last(readable(paragraph))


def handed_over_next(messages: list[str]) -> list[str]:
    """``messages`` with each one that is only text handed over for a task asked in the message before it blanked
    (breaker32 B32-5): "Can you translate our README section to German? I'll paste it in my next message." then the
    section. The message before must ask a task (:data:`_TASK_RE`), say the text comes next (:data:`_COMING_RE`) and
    hand over nothing itself; the next message must read as a paste (:data:`PASTE_CHARS`) and ask no task of its own.
    A last paragraph back in the user's own voice ("Also, remember that X") and a one-line first paragraph that asks to
    keep something stay (:func:`_own_paragraph`).

    Args:
        messages: a session's user messages, in order.

    Returns:
        list[str]: the same messages, the handed-over ones replaced by their own last paragraph or "" (as many, in
        the same order, so indices still match the session's).
    """
    out = list(messages)
    for i in range(1, len(messages)):
        before = readable(messages[i - 1])
        if _TASK_RE.search(before) is None or _COMING_RE.search(before) is None or task_material(messages[i - 1]):
            continue
        text = messages[i]
        lines = [line for line in readable(text).splitlines() if line.strip()]
        if len(lines) < 2 and len(text.strip()) < PASTE_CHARS:
            continue  # a short say of the user's own
        if any(_asks_task(line) is not None for line in lines[:TASK_LINE_FROM_TOP]):
            continue
        paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
        own = [p for n, p in enumerate(paragraphs) if n in (0, len(paragraphs) - 1) and _own_paragraph(p, n == 0)]
        out[i] = "\n\n".join(own)
    return out
