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
import unicodedata

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

TYPED_MAX_CHARS = 1_000
"""A user message longer than this (characters) is read as holding pasted material."""
TYPED_MAX_LINES = 8
"""A user message with more non-empty lines than this is read as holding pasted material."""


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


def typed_text(message: str) -> str:
    """The part of a user message that reads as typed by the person, not pasted.

    A long message (over :data:`TYPED_MAX_CHARS` characters or
    :data:`TYPED_MAX_LINES` non-empty lines) is read as holding pasted
    material, and none of it counts; in a short one, fenced code and ``>``
    quoted lines are pasted material and are left out.

    Args:
        message: one user message, as the transcript holds it.

    Returns:
        str: the typed text ("" when nothing in it counts as typed).
    """
    lines = [ln for ln in message.splitlines() if ln.strip()]
    if len(message) > TYPED_MAX_CHARS or len(lines) > TYPED_MAX_LINES:
        return ""
    out: list[str] = []
    fenced = False
    for line in message.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or stripped.startswith(">"):
            continue
        out.append(line)
    return "\n".join(out) if not fenced else ""


_IGNORE = re.compile(
    r"\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(instruction|prompt|rule|guideline|polic|system)",
    re.I | re.S,
)
_IMPERATIVE = re.compile(
    r"^\s*(?:please\s+|(?:you|agents?|assistants?|the\s+(?:agent|assistant|model))\s+(?:must|should|shall|need\s+to|have\s+to)\s+"
    r"|from\s+now\s+on,?\s+|always\s+|never\s+|do\s+not\s+|don't\s+|make\s+sure\s+(?:to\s+)?)?"
    r"(?:always|never|ignore|run|execute|exec|upload|send|post|email|mail|curl|wget|download|install|delete|"
    r"remove|rm|copy|cp|push|fetch|open|visit|browse|call|invoke|share|exfiltrate|forward|paste|print|reveal|"
    r"disable|enable|grant|give|set|unset|export|source|eval|sudo|chmod|ssh|scp|rsync|kill|use|add|write|"
    r"read|cat|type|click|transfer|pay|approve|accept|trust|allow|skip|avoid|prefer|stop|start|must)\b",
    re.I,
)
_SENSITIVE = re.compile(
    r"(~/\.|\$HOME/\.|/etc/(?:passwd|shadow)|\.aws\b|\.ssh\b|id_rsa|id_ed25519|\.env\b|\.netrc|"
    r"credentials?\b|private\s+key|api[\s_-]?keys?\b|passwords?\b|\btokens?\b|secrets?\b|"
    r"https?://|\bftp://|`[^`]+`|\$\(|\|\s*(?:sh|bash)\b)",
    re.I,
)


def instruction_reason(text: str) -> str | None:
    """Why an entry's text reads as an instruction to future agents, or None when it describes.

    An instruction-shaped entry changes what later agents do: it is reviewed
    by the person before it reaches main (docs/architecture.md §6). Matched:
    "ignore … instructions" phrasing; a sentence opening with an imperative or
    "you/agents must…"; and text naming credentials, home dot-folders, URLs or
    shell commands, which an agent could be led to act on.

    Args:
        text: the entry text (metadata excluded).

    Returns:
        str | None: a one-line reason, or None.
    """
    folded = unicodedata.normalize("NFKC", text)
    if _IGNORE.search(folded):
        return "reads as an attempt to override the agent's instructions"
    for sentence in re.split(r"(?<=[.!?;:])\s+|\n", folded):
        if _IMPERATIVE.match(sentence):
            return "reads as an instruction to future agents"
    if _SENSITIVE.search(folded):
        return "names credentials, a URL or a command an agent could act on"
    return None


def introduced_instruction(text: str, before: list[str]) -> str | None:
    """Why ``text`` adds an instruction that the lines it replaces did not hold, or None.

    An edit or merge of agent lines that already instructed (``Use uv for
    installs`` → ``Use uv for every install``) adds nothing new for an agent to
    act on; one that brings in an override, an imperative where there was
    none, or a credential, URL or command the old lines did not name does.

    Args:
        text: the new entry text.
        before: the texts of the lines it replaces.

    Returns:
        str | None: a one-line reason, or None.
    """
    old = "\n".join(unicodedata.normalize("NFKC", b) for b in before)
    new = unicodedata.normalize("NFKC", text)
    if _IGNORE.search(new) and not _IGNORE.search(old):
        return "reads as an attempt to override the agent's instructions"
    old_marks = {m.group(0).casefold() for m in _SENSITIVE.finditer(old)}
    if any(m.group(0).casefold() not in old_marks for m in _SENSITIVE.finditer(new)):
        return "names credentials, a URL or a command an agent could act on"
    sentences = lambda s: re.split(r"(?<=[.!?;:])\s+|\n", s)  # noqa: E731
    if any(_IMPERATIVE.match(x) for x in sentences(new)) and not any(_IMPERATIVE.match(x) for x in sentences(old)):
        return "reads as an instruction to future agents"
    return None
