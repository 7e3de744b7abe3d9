"""Which line breaks :func:`memrepo.engine.redaction.find` may join a wrapped token over (docs/architecture.md §3).

A token a line break cut (a terminal's or a mail's wrap) is found whole in a
view with the break removed. breaker20's B20-1: the next line's first word was
joined too whenever it had 8+ letters, so a pasted key followed by "Remember
that X." lost "Remember" with the key, and the line was not kept. A word that
plainly starts prose is not a token's tail:

- a capitalised word of letters only (``Remember``, ``Migrations``): a random
  tail is that with a chance of some 1 in 10^5 per 8 characters;
- a lower-case word of letters only with another word after it on its line
  (``actually we deploy``): a tail ends its line, or has no word after it.

Anything else after the break (digits, mixed case, ``_``, ``+``, ``/``) is
joined as before, so a wrapped key is still found whole.
"""

from __future__ import annotations

from . import lazyre

_PROSE_RE = lazyre.compile(r"(?:[A-Z][a-z]+|[a-z]+(?=[ \t]+[A-Za-z]))(?![A-Za-z0-9_+/=-])")


def prose_after(text: str, pos: int) -> bool:
    """Whether the line ``text[pos:]`` begins is prose, not the tail of a token the break before it cut.

    Args:
        text: the text being scanned.
        pos: where the next line's first word starts (the end of a wrap match).

    Returns:
        bool: True when its first word is a plain word (see the module docstring): the break is not joined.
    """
    return _PROSE_RE.match(text, pos) is not None
