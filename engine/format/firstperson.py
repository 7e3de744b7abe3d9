"""Statements about the user by their first word, per language (split from :mod:`.remembering`).

A statement about the user belongs in me.md whatever project it was said in (breaker7 B7-16, docs/agents.md):
:func:`.remembering.about_user` reads these starts after a statement's lead-in.
"""

from __future__ import annotations

import re

ABOUT_USER_RE = re.compile(
    r"^(?:i|i['’](?:m|ve|d|ll)|my|me|mine|myself)\b|^(?:我|我的|나는|내가|저는|私は|私の)",
    re.IGNORECASE,
)
"""A statement about the user: it starts with "I", "my" (or 我, 나는, 私は)."""

OWN_WORD_RE = re.compile(
    r"^(?:(?:il|la|i|le|o|a|os|as)\s+)?(?:ich|mein(?:e[mnrs]?)?|je|j['’]|mon|ma|mes|yo|mis?|io|mio|mia|miei|mie|eu"
    r"|meu|minha|meus|minhas|ik|mijn|jag|jeg|min|mitt|mina|mine|mój|moja|moje|moi|můj)\b",
    re.IGNORECASE,
)
"""A statement about the user in German, French, Spanish, Italian, Portuguese, Dutch, the Nordic languages, Polish
or Czech: "Mein Editor ist Helix", "Mi editor es Helix", "Mon fuseau horaire est CET", "Il mio editor è Helix"
(breaker29 B29-2: these went to the project's file while "My editor is Helix" went to me.md)."""
