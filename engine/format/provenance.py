"""Whose words a text is: what a person typed, what a tool injected, what was pasted, what instructs.

Only text a person typed counts as their words (docs/architecture.md §6): a
compaction summary, a task notification, text a client injects (skills,
warnings, collaboration modes, environment context), tool output and a
sub-agent's session never do. Inside what the person sent, a pasted page is
still not their words, and a line that tells future agents what to do changes
their behaviour without the person having decided it: both go to review,
never to main automatically. Where it is unclear, the safer reading wins.

This module holds the rules only; the transcript readers
(:mod:`memrepo.engine.agents.transcripts`) and the dream classifier
(:mod:`memrepo.engine.dreams.ops`) call it.
"""

from __future__ import annotations

import re

CLAUDE_INJECTED_PREFIXES: tuple[str, ...] = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<task-notification>",
    "<system-reminder>",
    "<user-prompt-submit-hook>",
    "Caveat: The messages below were generated",
    "This session is being continued from a previous conversation",
    "[Request interrupted by user",
)
"""Claude Code user-role text that the tool wrote, not the person (prefixes, after leading spaces)."""

CODEX_INJECTED_PREFIXES: tuple[str, ...] = (
    "<environment_context>",
    "<user_instructions>",
    "<permissions",
    "# AGENTS.md",
    "<user_shell_command>",
    "<turn_aborted>",
    "<skill>",
    "<skill ",
    "<warning>",
    "<collaboration_mode>",
    "<subagent",
    "<system-reminder>",
)
"""Codex user-role text that the client injected, not the person (prefixes, after leading spaces)."""


def claude_line_is_injected(obj: dict) -> bool:
    """True when a Claude Code transcript line is not the person's own words, whatever its role.

    Args:
        obj: one JSON object of a Claude Code ``.jsonl`` transcript.

    Returns:
        bool: True for compaction summaries (``isCompactSummary``, also written
        as a user-role line), lines Claude Code marks as meta (``isMeta``) or
        visible only in its transcript view, sub-agent (sidechain) lines and
        tool results.
    """
    if obj.get("isCompactSummary") or obj.get("isMeta") or obj.get("isSidechain"):
        return True
    if obj.get("isVisibleInTranscriptOnly"):
        return True
    return bool(obj.get("toolUseResult"))


def strip_injected(text: str, prefixes: tuple[str, ...]) -> str:
    """``text`` without the injected blocks a client adds to a user message.

    A part that starts with an injected tag (after leading spaces) is dropped
    whole; the rest is kept.

    Args:
        text: one text part of a user-role message.
        prefixes: :data:`CLAUDE_INJECTED_PREFIXES` or :data:`CODEX_INJECTED_PREFIXES`.

    Returns:
        str: the text the person typed, or "" when the part was injected.
    """
    return "" if text.lstrip().startswith(prefixes) else text


_META_KEY_RE = re.compile(r"(?:^|[\s;,\[(])(?:by|via|origin|task|added|source)\s*[:=]", re.IGNORECASE)
_WORD_RE = re.compile(r"[^\W_]+")
_USER_WORDS = frozenset({"user", "users", "human", "person", "owner", "me", "myself", "operator", "you"})
_SPEECH_WORDS = frozenset(
    {
        "the",
        "a",
        "by",
        "from",
        "said",
        "says",
        "say",
        "input",
        "typed",
        "wrote",
        "told",
        "tells",
        "own",
        "words",
        "word",
        "s",
        "directly",
        "asked",
        "confirmed",
        "stated",
        "message",
        "request",
        "instruction",
        "instructions",
        "prompt",
        "chat",
        "note",
        "real",
        "actual",
        "this",
        "my",
        "their",
        "his",
        "her",
        "explicitly",
        "per",
        "via",
    }
)


def claims_user(source: str) -> bool:
    """True when a ``source:`` value would pass a write off as the user's own words.

    By class, not by list: a value carrying metadata (``by:``, ``via:`` ...), or
    one whose words, less words of speech ("said", "own words" ...), only name the
    user ("user", "the user told me", "User's own words"). A place is never a
    claim: a value that is only URLs, paths and file names is kept, whatever its
    words. Beside a place or a name, the user is still claimed when the value says
    the user said it ("the user, Alice Smith <alice@example.com>, said so", "per the
    user's message in https://...") or starts by naming the user ("the user, Alice";
    breaker30 B30-15: only the bare spellings were refused). The value is read as every provenance check reads text
    (:func:`.typedwords.fold`: invisible characters gone, NFKC, look-alike letters Latin), so "u\u200bser", a
    fullwidth "ｕｓｅｒ" or "usеr" with a Cyrillic е is "user" (breaker31 B31-7).
    """
    if not source.isascii():
        from .typedwords import fold

        source = fold(source)
    if _META_KEY_RE.search(source):
        return True
    rest = _PLACE_RE.sub(" ", source.casefold()).strip(" .")
    words = set(_WORD_RE.findall(rest))
    if not words & _USER_WORDS:
        return False
    if not (words - _USER_WORDS - _SPEECH_WORDS):
        return True
    return bool(words & _NAMED_USER and words & _SAID) or _STARTS_WITH_USER_RE.match(rest) is not None


_PLACE_RE = re.compile(r"\S*(?:://|/|@)\S*|\S+\.\S+")
"""A URL, a path, an e-mail address or a file name (a word with a dot inside): a place, never a claim."""
_NAMED_USER = frozenset({"user", "users", "human", "owner", "operator"})
"""Words that name the user whatever stands beside them (not "me" or "you", which a place's text may say)."""
_SAID = frozenset(
    {
        "said",
        "says",
        "say",
        "typed",
        "wrote",
        "told",
        "tells",
        "stated",
        "asked",
        "confirmed",
        "words",
        "message",
        "request",
    }
)
"""Words that say the named one spoke: with :data:`_NAMED_USER` the value claims the user's words."""
_STARTS_WITH_USER_RE = re.compile(r"(?:the\s+)?(?:user|human|owner|operator)s?(?:'s)?\s*(?:$|[,;:(<\-\u2014])")
"""A value that opens by naming the user ("the user, Alice Smith", "User (Alice)")."""
