"""The order a file's lines claim the context block's budget in: step 2 of the selection rule (docs/architecture.md §4).

:mod:`.contextselect` says which lines a newer line replaces (step 1); this module ranks the rest: the user's lines
(where the file asks for them) or the user's rules and decisions, then what a line is to an agent (:func:`need`), then
lines naming the block's workspace, then the newest first. Kept apart from the replacement rule, which recall asks too.
"""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.engine.errors import FormatError
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.terms import fold
from memrepo.engine.read.changewords import IDENTITY_RE, PREFERENCE_RE, REDACTED_RE, SAFETY_RE

from .contextselect import RULE_KINDS, Candidate, candidates, replaced, says_change


def block_order(
    cands: Sequence[Candidate], user_first: bool, names: Sequence[str], again: bool = False
) -> tuple[dict[int, int], dict[int, tuple[int, ...]], dict[int, Mark]]:
    """Steps 1 and 2 of the module docstring for one file, with the user's lines an agent has since corrected and
    the lines replaced in part.

    An agent's line never hides the user's, but a user's line that a newer agent line would replace by
    the same rule (breaker5 B5-9: Codex has no hooks, so a correction the user tells it is ``by: agent``)
    gets that agent line ranked right after it, so the budget shows the two together. A line a newer line replaces
    for one of its facts (:func:`.contextpart.partly_replaced`) is not hidden but ranked right after the line shown
    in its place. With ``again`` (me.md and a workspace file: not the pins' or the rules' file), a line a newer line
    says again in other words (:func:`.contextagain.said_again`) ranks after every other line, tier :data:`TIER_AGAIN`.

    Returns:
        tuple: the replaced lines (:func:`replaced`, less those replaced in part); each other line's rank key
        (:func:`rank_key` and a last place: smaller first); each marked line's mark (:func:`.contextpart.marked`):
        the user's corrected lines -> the agent line since, the lines replaced in part -> (the line shown in their
        place, the parts struck).
    """
    from .contextpart import partly_replaced

    disputed: dict[int, int] = {}
    gone = replaced(cands, disputed)
    partly = partly_replaced(cands, gone)
    gone = {old: new for old, new in gone.items() if old not in partly}
    order: dict[int, tuple[int, ...]] = {
        c.number: (*rank_key(c, user_first, names), 0) for c in cands if c.number not in gone
    }
    for old, new in disputed.items():
        order[new] = min(order[new], (*order[old][:-1], 1))
    for old, (new, _parts) in partly.items():
        if new in order:
            order[old] = (*order[new][:-1], 1)
    marks: dict[int, Mark] = {**disputed, **partly}
    if again:
        from .contextagain import said_again

        for number in said_again(cands, gone):
            if number in order and number not in marks:
                order[number] = (TIER_AGAIN, *order[number][1:])
    return gone, order, marks


TIER_AGAIN = 3
"""The rank tier of a line a newer one says again in other words: after the user's (1) and the other lines (2)."""


Mark = int | tuple[int, tuple[str, ...]]
"""A shown line's mark (:func:`.contextpart.marked`): the agent line since, or (the line in its place, parts struck)."""


NEED_IDENTITY, NEED_RULE, NEED_OTHER, NEED_REDACTED = range(4)
"""What a line is to an agent (:func:`need`), most needed first."""

PREFERENCE_KINDS = RULE_KINDS | {"preference"}
"""Kinds that say how the user wants things done."""


def need(entry: fmt.Entry, about_user: bool) -> int:
    """How much an agent needs a line when its file is over budget (docs/architecture.md §4): smaller first.

    Args:
        entry: the entry.
        about_user: the file is about the user (``user_first``: me.md, MEMORY.md, lessons.md); elsewhere only
            a redacted line is told apart.

    Returns:
        int: :data:`NEED_IDENTITY` for who the user is and what keeps them safe (``kind: identity``, or the
        word classes :data:`.changewords.IDENTITY_RE` and :data:`.changewords.SAFETY_RE`); :data:`NEED_RULE`
        for a rule, decision, correction or preference (its ``kind:`` or :data:`.changewords.PREFERENCE_RE`);
        :data:`NEED_OTHER` for the rest; :data:`NEED_REDACTED` for a line whose text is more than half
        redaction markers (breaker8 B8-15: "My AWS key is [REDACTED:...]" told an agent nothing yet kept the
        user's name out).
    """
    text = entry.text
    marked = sum(len(m) for m in REDACTED_RE.findall(text))
    if marked * 2 > len(text.strip()):
        return NEED_REDACTED
    if not about_user:
        return NEED_OTHER
    kind = entry.meta.get("kind", "").strip().casefold()
    folded = fold(text)
    if kind == "identity" or IDENTITY_RE.search(folded) or SAFETY_RE.search(folded):
        return NEED_IDENTITY
    if kind in PREFERENCE_KINDS or PREFERENCE_RE.search(folded):
        return NEED_RULE
    return NEED_OTHER


def rank_key(cand: Candidate, user_first: bool, names: Sequence[str]) -> tuple[int, int, int, int, int]:
    """The order the budget is filled in (module docstring, step 2): smaller first.

    Args:
        cand: the entry.
        user_first: the file's user lines all come before the agents' (me.md, lessons.md).
        names: the block's workspace names (folded), whose mention makes a line relevant.

    Returns:
        tuple: (tier, :func:`need`, relevance, negated date, negated line) as a sort key: the newest sorts first;
        a line with no date at or above it sorts last. In a file about the user an agent's line on who the
        user is or what keeps them safe ranks with the user's own lines (an allergy an agent saved).
    """
    entry = cand.entry
    user = entry.by == "user"
    needed = need(entry, user_first)
    if user_first:
        tier = 1 if user or needed == NEED_IDENTITY else 2
    else:
        tier = 1 if user and entry.meta.get("kind", "").strip().casefold() in RULE_KINDS else 2
    relevant = 0
    if names:
        text = fold(entry.text)
        ws = fold(entry.meta.get("workspace", ""))
        relevant = 0 if any(n and (n in text or n == ws) for n in names) else 1
    digits = cand.date.replace("-", "")
    day = int(digits) if len(digits) == 8 and digits.isdigit() else 0
    return tier, needed, relevant, -day, -cand.number


PIN_FILE, ME_FILE = "MEMORY.md", "me.md"
_APART = 1_000_000  # me.md's line numbers, shifted past any MEMORY.md line


def pins_since(files: Sequence[tuple[str, bytes | None]], today: str | None = None) -> dict[int, int]:
    """MEMORY.md's user lines (pins) that a newer user line of me.md replaces by the rule of :func:`replaced`, asked
    of the two files' user lines together: the pin's line number -> the me.md line's (breaker13 B13-26: "I moved to
    Montreal" saved plainly left the pinned "I live in Lyon" unmarked). The block marks such a pin, never hides it:
    a pin is in every prompt by the user's own choice.

    Args:
        files: (path, bytes) of the block's files; only MEMORY.md and me.md are read.
        today: ``YYYY-MM-DD``: a line past its ``until:`` date then marks no pin (:func:`.modeline.past`).
    """
    from .modeline import past

    data = dict(files)
    pins, me = data.get(PIN_FILE), data.get(ME_FILE)
    if not pins or not me:
        return {}
    try:
        rows = [(n, e) for n, e in fmt.parse(pins, PIN_FILE).entries() if e.by == "user" and not past(e.meta, today)]
        rows += [
            (_APART + n, e) for n, e in fmt.parse(me, ME_FILE).entries() if e.by == "user" and not past(e.meta, today)
        ]
    except FormatError:
        return {}
    if not rows or rows[-1][0] < _APART or rows[0][0] >= _APART:
        return {}
    dated = _dated(rows)
    gone = replaced(dated)
    by_number = {c.number: c for c in dated}
    return {
        old: new - _APART
        for old, new in gone.items()
        if old < _APART <= new and _known_newer(by_number[new], by_number[old])
    }


def _known_newer(line: Candidate, pin: Candidate) -> bool:
    """Whether the me.md line is known to be newer than the pin: a later date, or the same day and only the me.md
    line says it changed (:func:`.contextselect.says_change`). Two files' line numbers say nothing of which was
    written last, so a same-day pair that both (or neither) say changed marks no pin (breaker26 B26-11: "Pin this:
    deploy from the release branch again" was marked as replaced by the morning's "Deploy from main; the release
    branch is retired", pointing the agent to the stale line)."""
    if line.date != pin.date:
        return line.date > pin.date
    return says_change(line.entry.text) and not says_change(pin.entry.text)


def _dated(rows: list[tuple[int, fmt.Entry]]) -> list[Candidate]:
    """The rows as candidates, each file's undated lines dated by the newest line above them in their own file."""
    pins = candidates([r for r in rows if r[0] < _APART])
    return pins + candidates([r for r in rows if r[0] >= _APART])
