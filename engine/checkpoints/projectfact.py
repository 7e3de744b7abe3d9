"""A statement that starts with "I" or "my" but is the project's fact (breaker17 B17-11, fix11a).

"I'm the only maintainer of this repo", "I deploy this blog by hand every Sunday", "my build here needs Node 18":
:func:`memrepo.engine.format.remembering.about_user` reads them as the user's (me.md, shown in every project's
block); they name the session's project, so :func:`.corrections.where` sends them to its workspace file. Pure
functions of text: no file, no repo.
"""

from __future__ import annotations

import re

from .samesubject import state_word

_THIS_PROJECT_RE = re.compile(
    r"\b(?:this|the\s+current)\s+(?:repo|repository|project|codebase|code\s+base|blog|site|website|app|service|package|"
    r"library|monorepo|folder|directory|workspace)\b|\b(?P<before>[\w'’]+)\s+here\b(?!\s+(?:from|since|for\s+\d|in\s+\d))",
    re.I,
)
"""A statement said of the session's project: "this repo", "this blog", "my build here" (not "I moved here", "I'm new
here": the user's own place, :data:`_PLACE_WORDS`)."""
_PLACE_WORDS = frozenset(
    [
        "moved",
        "came",
        "come",
        "live",
        "lived",
        "living",
        "work",
        "worked",
        "working",
        "been",
        "new",
        "from",
        "back",
        "over",
        "out",
        "started",
        "got",
        "get",
        "am",
        "was",
        "were",
        "is",
        "are",
        "be",
        "'m",
        "i'm",
        "it",
        "like",
        "love",
        "stay",
        "stayed",
    ]
)


def names_project(text: str, workspace: str | None) -> bool:
    """Whether a statement that starts with "I" or "my" is the project's fact (breaker17 B17-11): it says "this repo",
    "this blog", "<thing> here" (:data:`_THIS_PROJECT_RE`) or names the session's workspace folder ("I deploy the shop
    by hand" in ``/p/shop``). Such a fact goes to the workspace file, never me.md, where every other project would
    show it."""
    name = re.split(r"[\\/]", (workspace or "").rstrip("/\\"))[-1]
    said_name = len(name) > 2 and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I)
    before = [(m.group("before") or "").casefold() for m in _THIS_PROJECT_RE.finditer(text)]
    found = [w for w in before if not w or (w not in _PLACE_WORDS and not state_word(w))]  # not "I'm happy here"
    return bool(workspace) and bool(found or said_name)


__all__ = ["names_project"]
