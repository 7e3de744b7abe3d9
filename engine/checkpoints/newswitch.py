"""A switch the user states that names only its new value: "I use bun now", "I'm on Emacs these days", "we moved to
Postgres" (breaker30 B30-1, B30-21; docs/architecture.md §7 "A switch that names only its new value").

No old value is said, so which stored line it replaces is found by the new value's kind:

- a value of a known family (:data:`FAMILIES`: JavaScript package managers, editors, shells, databases, terminals,
  browsers, hosts, Python package tools, container engines) replaces the one line that holds a value of the same
  family ("I prefer pnpm over npm for every JavaScript project" for bun, "My editor is vim" for Emacs): kept at once,
  ``supersedes:`` that line. Two such lines of one author, or a line of more than one thing ("I prefer pnpm, I use
  tmux, and I use fish"), make it a proposal naming the newest one, never a replacement;
- any other name (capitalised or with a digit or a dot: "Logseq", "Things 3"; a lowercase word such as "tests" in
  "we're running tests now" is left to the other rules) is matched by meaning with the ``[semantic]`` model
  (:func:`.meaningmatch.nearest_group`: the line whose words are nearest the value, when it stands out of the rest):
  a proposal in the inbox that names that line (one key to accept in the app), never a replacement. Measured on
  our own 21 values against 11 lines of 11 kinds (docs/architecture.md §7), the model's nearest line is the value's
  kind 2-9 times in 21 (by method), with margins of 0.001-0.04 in cosine for right and wrong picks alike: never
  sure enough to replace a line by itself; with the stand-out rule it named a line for 12 of 33 values, the right one
  7 times;
- without the model, or with no line standing out, such a name waits in the inbox with no line named, saying why
  (:func:`waits`: accepting adds it beside the user's lines);
- a value of a known family with no line of that family: nothing is kept (bun is no replacement for the shell's line).

"I" switches look at the user's own lines about themselves (not a workspace file); "we" switches at the project's
lines (a workspace file). The sentence must be the whole switch: "I use bun for scripts too" (a part, an addition),
"my colleague uses Emacs" (another person), "I used Emacs in 2019" (the past) are none, and so is a new version of
a stored name ("we're on Postgres 16 now" for "... Postgres 14": the other rules read versions); a line that already
names the new value, or that another listed line supersedes, is never the one replaced.

Pure functions of text and entries (and the process's local model): no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memrepo.engine.format.layout import is_workspace_file
from memrepo.engine.format.remembering import OTHER_PERSON_RE

from .chain import PIECE_CHARS
from .claims import ExistingEntry
from .meaningmatch import model_ready, nearest_group

FAMILIES: dict[str, tuple[str, ...]] = {
    "js package manager": ("npm", "pnpm", "yarn", "bun"),
    "editor": ("vim", "neovim", "nvim", "emacs", "helix", "vscode", "vs code", "zed", "sublime", "nano", "cursor"),
    "shell": ("bash", "zsh", "fish", "nushell", "powershell"),
    "database": ("postgres", "postgresql", "mysql", "mariadb", "sqlite", "mongodb", "cockroachdb"),
    "terminal": ("iterm", "iterm2", "alacritty", "kitty", "wezterm", "ghostty"),
    "browser": ("chrome", "firefox", "safari", "brave"),
    "host": ("heroku", "fly.io", "render", "vercel", "netlify", "railway"),
    "python package tool": ("pip", "poetry", "uv", "pipenv", "conda"),
    "container engine": ("docker", "podman"),
}
"""Tool families whose members replace each other: a new value of one replaces the line holding another."""

_V = r"(?P<v>(?-i:[A-Z][\w.+#-]*\s+[A-Z][\w.+#-]*)|[\w.+#@/-]+(?:\s+v?\d[\w.]*)?)"
_NOW = r"(?:now|these\s+days|nowadays|jetzt|inzwischen|mittlerweile|maintenant|désormais|ahora)"
_FORMS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        # "I switched to bun", "we've moved over to Postgres 16 now"
        rf"^(?P<who>i|we)(?:['’]ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:switched|moved|migrated|changed)"
        rf"\s+(?:over\s+)?to\s+{_V}(?:\s+{_NOW})?$",
        # "I'm on Emacs these days", "we're using Postgres now", "I use bun now", "now I use bun"
        rf"^(?:now,?\s+)?(?P<who>i|we)(?:['’]m|\s+am|['’]re|\s+are)\s+(?:now\s+)?(?:on|using|running)\s+{_V}"
        rf"(?:\s+{_NOW})?$",
        rf"^(?:now,?\s+)?(?P<who>i|we)\s+(?:now\s+)?(?:use|run)\s+{_V}(?:\s+{_NOW})?$",
        # "Ich benutze jetzt Emacs", "Wir sind auf Postgres umgestiegen"
        rf"^(?P<who>ich|wir)\s+(?:benutze|benutzen|nutze|nutzen|verwende|verwenden)\s+{_NOW}\s+{_V}$",
        rf"^{_NOW}\s+(?:benutze|benutzen|nutze|nutzen|verwende|verwenden)\s+(?P<who>ich|wir)\s+{_V}$",
        rf"^(?P<who>ich|wir)\s+(?:bin|sind)\s+(?:jetzt\s+)?(?:auf|zu)\s+{_V}\s+(?:umgestiegen|gewechselt)$",
        # "J'utilise Emacs maintenant", "On est passé à Postgres"
        rf"^(?:maintenant,?\s+)?(?P<who>j['’]|on\s+|nous\s+)(?:utilise|utilisons)\s+(?:maintenant\s+)?{_V}"
        rf"(?:\s+{_NOW})?$",
        rf"^(?P<who>je\s+suis|on\s+est|nous\s+sommes)\s+pass[ée]e?s?\s+(?:à|a|sur)\s+{_V}(?:\s+{_NOW})?$",
        # "Ahora uso Emacs", "Nos pasamos a Postgres"
        rf"^(?:ahora\s+)?(?P<who>uso|utilizo|usamos|utilizamos)\s+(?:ahora\s+)?{_V}(?:\s+ahora)?$",
        rf"^(?P<who>me|nos)\s+(?:pasé|pase|pasamos|cambié|cambie|cambiamos)\s+a\s+{_V}(?:\s+ahora)?$",
    )
]
"""Whole sentences that say the speaker switched to one value and name no old one."""
_CHANGE_RE = re.compile(
    rf"\b(?:switched|moved|migrated|changed|{_NOW}|umgestiegen|gewechselt)\b|pass[ée]|pasé|pase|pasamos|cambi",
    re.IGNORECASE,
)
"""What says the use changed: "I use bun" alone says no switch."""
_WE = ("we", "wir", "on ", "nous ", "nous sommes", "on est", "usamos", "utilizamos", "nos")
_NOT_VALUE_RE = re.compile(
    r"^(?:it|that|this|call|leave|vacation|holiday|track|board|time|break|the|a|an|my|our|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|\d.*)$",
    re.IGNORECASE,
)
"""What an "I'm on X now" says that is no tool ("I'm on call now", "we're on track now", "we moved to Friday")."""
_NAME_RE = re.compile(r"^[A-Z]|[\d.+#]")
"""A value outside the families that reads as a name: capitalised ("Logseq"), or with a digit or a dot ("fly.io")."""
_MORE_RE = re.compile(r"[,;]|\s(?:and|but|und|et|y)\s", re.IGNORECASE)
_STOP = frozenset(
    [
        "i",
        "i'm",
        "my",
        "me",
        "we",
        "our",
        "us",
        "the",
        "a",
        "an",
        "is",
        "are",
        "am",
        "was",
        "be",
        "to",
        "of",
        "in",
        "on",
        "for",
        "with",
        "as",
        "at",
        "by",
        "and",
        "or",
        "over",
        "every",
        "all",
        "most",
        "use",
        "uses",
        "used",
        "using",
        "prefer",
        "prefers",
        "run",
        "runs",
        "go",
        "goes",
        "through",
        "user",
        "user's",
        "ich",
        "mein",
        "meine",
        "wir",
        "unser",
        "je",
        "mon",
        "ma",
        "nous",
        "notre",
        "yo",
        "mi",
        "nosotros",
        "nuestro",
    ]
)
"""Words of a line that are no value (the model's words for it, :func:`_words`)."""


@dataclass(frozen=True, slots=True)
class Switch:
    """A switch that names only its new value: the line it replaces (None: none found) and whether that is sure."""

    value: str
    line: ExistingEntry | None
    sure: bool


def new_value(text: str) -> tuple[str, bool] | None:
    """The new value of a switch that names no old one (the module docstring), and whether "we" said it.

    Args:
        text: one sentence of the user's, less its lead-in.

    Returns:
        tuple[str, bool] | None: (the value as said, True for "we"), or None when the sentence is no such switch.
    """
    said = " ".join(text.split()).rstrip(".!")
    if not _CHANGE_RE.search(said):
        return None
    for form in _FORMS:
        found = form.match(said)
        if found is None:
            continue
        value = found["v"].strip(".,")
        if _NOT_VALUE_RE.match(value):
            return None
        return value, found["who"].casefold().startswith(_WE)
    return None


def family(value: str) -> str | None:
    """The family (:data:`FAMILIES`) of ``value`` ("bun": "js package manager"), or None."""
    folded = re.sub(r"\s+v?\d[\w.]*$", "", value.casefold())
    return next((name for name, members in FAMILIES.items() if folded in members), None)


def _holds(line: str, members: Sequence[str]) -> bool:
    return any(re.search(rf"(?<![\w.-]){re.escape(m)}(?![\w-])", line, re.IGNORECASE) for m in members)


def _about_user(entry: ExistingEntry) -> bool:
    """Whether a stored line is about the user ("I ...", "My editor ..."), not someone they know ("My boss ...")."""
    if OTHER_PERSON_RE.match(entry.text):
        return False
    first = entry.text.split(maxsplit=1)[:1]
    word = first[0].casefold().strip(",:") if first else ""
    return word in ("i", "i'm", "i’m", "my", "user", "user's", "ich", "mein", "meine", "je", "j'utilise", "mon", "mi")


def _words(text: str) -> list[str]:
    """A line's words that may be its value, for the model (:data:`_STOP` left out)."""
    return [w for w in re.findall(r"[\w.+#-]+", text) if len(w) > 1 and w.casefold() not in _STOP]


def unnamed_switch(text: str, lines: Sequence[ExistingEntry]) -> Switch | None:
    """The line a switch that names only its new value replaces (the module docstring), or None for no such switch.

    Args:
        text: one sentence of the user's, less its lead-in.
        lines: the stored lines the checkpoint listed (the caller drops other people's lines).

    Returns:
        Switch | None: None when ``text`` is no such switch; else the line (None when no line is found) and whether
        it is sure (a value of a known family, one line of that family): kept at once when sure, else proposed.
    """
    said = new_value(text)
    if said is None:
        return None
    value, we = said
    if (base := re.sub(r"\s+v?\d[\w.]*$", "", value)) != value and any(_holds(e.text, [base]) for e in lines):
        return None  # "We're on Postgres 16 now" for "... Postgres 14": a version, the other rules' (corr10)
    older = {e.meta.get("supersedes", "") for e in lines} - {""}
    pool = [
        e
        for e in lines
        if is_workspace_file(e.path) == we
        and (we or _about_user(e))
        and e.text[:PIECE_CHARS] not in older
        and not _holds(e.text, [value])
    ]
    kind = family(value)
    if kind is None and not _NAME_RE.search(value):
        return None  # "we're running tests now", "I'm on mobile now": no name, the other rules' (if any)
    if kind is not None:
        found = [e for e in pool if _holds(e.text, FAMILIES[kind])]
        if found:
            line = max(found, key=lambda e: (e.by == "user", e.meta.get("added", ""), e.line))
            same = [e for e in found if e.by == line.by]
            return Switch(value, line, len(same) == 1 and not _MORE_RE.search(line.text))
        return Switch(value, None, False)  # bun with no package manager stored: not the shell's line by meaning
    at = nearest_group(value, [_words(e.text) for e in pool])
    return Switch(value, pool[at] if at is not None else None, False)


NO_MODEL_WAITS = (
    "it names no old value, and without the meaning model (memrepo[semantic]) which of your lines it replaces is not "
    "known: accept it to add it beside them"
)
"""The ``waits:`` of such a switch kept in the inbox when no model could look for its line."""
NO_LINE_WAITS = "it names no old value, and none of your lines is clearly of its kind: accept it to add it beside them"
"""The ``waits:`` of such a switch kept in the inbox when the model found no line standing out."""


NEAR_WAITS = (
    "it names no old value, and the line it replaces was found by meaning only, so it waits for you to confirm it"
)
"""The ``waits:`` of such a switch proposed naming the line the model found (:func:`.meaningmatch.nearest_group`)."""
SEVERAL_WAITS = (
    "it names no old value, and more than one line of yours is of its kind (or that line says several things), so it "
    "waits for you to confirm it replaces the newest"
)
"""The ``waits:`` of a known family's switch proposed naming the newest of its lines (not sure: not replaced)."""


def waits(text: str, lines: Sequence[ExistingEntry]) -> str | None:
    """Why a switch that names only its new value waits in the inbox (the module docstring), or None: no such switch,
    or one kept at once (sure), or a known family with no line (nothing kept).

    Args:
        text: the user's statement.
        lines: the stored lines the checkpoint listed.

    Returns:
        str | None: :data:`NO_MODEL_WAITS` or :data:`NO_LINE_WAITS` (no line named), :data:`NEAR_WAITS` (a line found
        by meaning), :data:`SEVERAL_WAITS` (the newest of several lines of its family), or None.
    """
    found = unnamed_switch(text, lines)
    if found is None or found.sure:
        return None
    known = family(found.value) is not None
    if found.line is not None:
        return SEVERAL_WAITS if known else NEAR_WAITS
    return None if known else NO_LINE_WAITS if model_ready() else NO_MODEL_WAITS


__all__ = [
    "FAMILIES",
    "NEAR_WAITS",
    "NO_LINE_WAITS",
    "NO_MODEL_WAITS",
    "SEVERAL_WAITS",
    "Switch",
    "family",
    "new_value",
    "unnamed_switch",
    "waits",
]
