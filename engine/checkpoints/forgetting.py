"""The user's requests to forget a stored line, said in a session (breaker14 B14-10, docs/architecture.md §7).

"Please forget that I'm on call this week", "Forget the note about the pager rotation", "Forget what I said about
the deploy window": a sentence of the user's own (:func:`memrepo.engine.format.remembering.said`: no question, no
quote or code, not in pasted text, not taken back after) that starts with the request. What it names is matched
against the lines the checkpoint listed (:func:`matches`):

- "forget that X" names a statement: a line matches when X and the line say the same content words (each covers
  :data:`COVER` of the other's), X whole or X up to its first comma ("..., that is over");
- "forget the note about X" / "what I said about X" names a topic: a line matches when it holds every content
  word of X.

One matching line of the user's own is forgotten (its own commit, "Forget: ..."). Several matching lines, or one
an agent wrote, are never forgotten: each waits in the inbox as a request to forget it (``forgets:``, ``by: user``),
so the user picks; a session that read untrusted content only proposes. No line matched: nothing changes.
Not a request: "Don't forget that ...", "Never forget ...", "Forget it", "Forget about it", "Forget that," (a
retraction), "I always forget that ...", "Did you forget that ...?", quoted or reported words, "Let's forget ...".
"""

from __future__ import annotations

import calendar
import math
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from memrepo.engine.errors import MemrepoError
from memrepo.engine.format.irony import not_meant
from memrepo.engine.format.layout import is_workspace_file
from memrepo.engine.format.remembering import own_short_message, retraction, said

from .claims import Claim, ExistingEntry

if TYPE_CHECKING:
    from memrepo.engine.models import Origin, WriteResult
    from memrepo.engine.write.ports import MemoryAccess

COVER = 0.75
"""Share of one side's content words the other must hold for "forget that X" to name a line."""
MAX_PROPOSED = 4
"""Most lines one request proposes to forget; a request matching more names none of them."""

_ASK = r"(?:(?:please|pls|kindly|can\s+you|could\s+you|would\s+you|will\s+you)\s+)*(?:please\s+)?"
_REQUEST_RE = re.compile(
    rf"^{_ASK}forget\s+(?:"
    r"(?P<topic>(?:the|that|my|your)\s+(?:note|line|entry|memory|fact|bit|thing|part)s?\s+(?:about|on|regarding|that\s+says)\s+"
    r"|what\s+i\s+(?:said|told\s+you)\s+about\s+|everything\s+about\s+)"
    r"|(?P<that>that\s+))(?P<what>.+)$",
    re.IGNORECASE,
)
"""A request to forget, at a sentence's start: "forget that X" (a statement) or "forget the note about X" (a topic)."""
_TAIL_RE = re.compile(
    r"\s*(?:,|;|\s[-—–]\s)?\s*\b(?:please|thanks|thank\s+you|for\s+good|from\s+(?:your\s+)?memory)\s*$", re.I
)
_STOP_WORDS = (
    "i am is are was were be been the a an my our we us on this that these those of to in it its for at with and or "
    "me you your about now please what said note line entry memory fact bit thing part there here "
    # the words of a time the checkpoint writes as dates ("this week" -> "the week of 2026-11-30", relativedates.py)
    "week weekend today tonight tomorrow night month next until till til"
)
_STOP = frozenset(
    _STOP_WORDS.split() + [name.casefold() for name in (*calendar.day_name, *calendar.month_name) if name]
)


class Request(NamedTuple):
    """A request to forget: what it names, and whether that is a topic ("the note about X") or a statement."""

    what: str
    topic: bool


def _words(text: str) -> set[str]:
    """Content words, casefolded, contractions opened, a plural's "s" dropped: "I'm on-call" -> {"call"}."""
    text = re.sub(r"['’](?:m|re|s|ve|ll|d)\b", " ", text.casefold()).replace("n't", " not")
    out = set()
    for word in re.findall(r"[^\W_]+", text):
        if word in _STOP or len(word) < 2 or word.isdigit():
            continue
        out.add(word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word)
    return out


def requests(texts: list[str]) -> list[Request]:
    """The user's requests to forget in ``texts`` (their messages), in order (the module docstring).

    Args:
        texts: the user's messages (read from the harness's transcript).

    Returns:
        list[Request]: each request's named statement or topic.
    """
    out: list[Request] = []
    for text in texts:
        if not own_short_message(text):
            continue  # pasted text: a page, a mail, a log
        taken_back = retraction(text)
        sentences = said(text)
        for i, sentence in enumerate(sentences):
            before, after = sentences[i - 1] if i else "", sentences[i + 1] if i + 1 < len(sentences) else ""
            if taken_back is not None and text.find(sentence) < taken_back:
                continue  # "Please forget that X. Just kidding."
            if not_meant(before, sentence, after):
                continue
            found = _REQUEST_RE.match(sentence.strip())
            if found is None:
                continue
            what = _TAIL_RE.sub("", found.group("what")).strip(" ,.;:!")
            if len(_words(what)) >= 1 and len(what.split()) >= (1 if found.group("topic") else 2):
                out.append(Request(what, bool(found.group("topic"))))
    return out


def _names(request: Request, line: str) -> bool:
    have = _words(line)
    if not have:
        return False
    if request.topic:
        want = _words(request.what)
        return bool(want) and want <= have
    for said_ in {request.what, request.what.split(",", 1)[0]}:
        want = _words(said_)
        common = len(want & have)
        if want and common >= math.ceil(COVER * len(want)) and common >= math.ceil(COVER * len(have)):
            return True
    return False


def matches(request: Request, existing: Iterable[ExistingEntry]) -> list[ExistingEntry]:
    """The listed lines ``request`` names (the module docstring), at most one per text; a workspace file's header
    line (its ``workspace:`` key) never."""
    out: dict[str, ExistingEntry] = {}
    for entry in existing:
        if is_workspace_file(entry.path) and entry.meta.get("workspace"):
            continue
        if _names(request, entry.text):
            out.setdefault(f"{entry.path}\n{entry.text.casefold()}", entry)
    return list(out.values())


def forgets(texts: list[str], existing: Iterable[ExistingEntry]) -> tuple[list[ExistingEntry], list[ExistingEntry]]:
    """What the user's requests to forget do: (lines to forget now, lines proposed for forgetting in the inbox).

    Args:
        texts: the user's messages (read from the harness's transcript).
        existing: the entries the checkpoint listed.

    Returns:
        tuple: the user's own lines each named alone by a request, and every other named line (several for one
        request, or an agent's), each once.
    """
    entries = list(existing)
    now: dict[tuple[str, str], ExistingEntry] = {}
    proposed: dict[tuple[str, str], ExistingEntry] = {}
    for request in requests(texts):
        found = matches(request, entries)
        if len(found) > MAX_PROPOSED:
            continue  # names nothing in particular
        for entry in found:
            key = (entry.path, entry.text)
            if len(found) == 1 and entry.by == "user":
                now[key] = entry
            elif key not in now:
                proposed[key] = entry
    return list(now.values()), [e for k, e in proposed.items() if k not in now]


def _current_line(store: MemoryAccess, entry: ExistingEntry) -> int | None:
    """The line now holding ``entry``'s text in its file (the batch's writes may have moved it), or None."""
    from memrepo.engine.files.regularfile import read_work_file
    from memrepo.engine.format import entries as fmt

    try:
        parsed = fmt.parse(read_work_file(store.root / entry.path), entry.path)
    except (OSError, MemrepoError):
        return None
    want = fmt.normalize_text(entry.text)
    return next((n for n, e in parsed.entries() if fmt.normalize_text(e.text) == want), None)


def apply_forgets(store: MemoryAccess, claim: Claim, origin: Origin) -> list[WriteResult]:
    """Carry out the user's requests to forget in ``claim`` (:func:`forgets`, read from the harness's transcript
    only): forget each line named alone (its own commit, refused when the line changed since it was listed), and
    write every other named line to the inbox as a request to forget it. A batch that read untrusted content
    forgets nothing: each line is proposed.

    Args:
        store: the store to write through.
        claim: the prepared claim (its listed entries).
        origin: the ``Origin:`` trailer.

    Returns:
        list[WriteResult]: what each change did.
    """
    from memrepo.engine.format.paths import make_ref
    from memrepo.engine.models import KIND_RE, Candidate

    now, proposed = forgets(claim.user_texts(heard=True), claim.existing.values())
    if claim.untrusted:
        now, proposed = [], [*now, *proposed]
    out: list[WriteResult] = []
    one = len(claim.session_ids) == 1
    for entry in now:
        try:
            line = _current_line(store, entry)
            if line is None:
                continue  # gone already
            out.append(store.forget(make_ref(entry.path, line), origin=origin, expect=entry.text))
        except MemrepoError:
            proposed.append(entry)  # the line moved or changed meanwhile: the user decides in the inbox
    for entry in proposed:
        workspace = claim.workspace if is_workspace_file(entry.path) else None
        kind = entry.meta.get("kind", "fact")
        cand = Candidate(
            text=entry.text,
            kind=kind if KIND_RE.fullmatch(kind) else "fact",
            scope="workspace" if workspace else "global",
            workspace=workspace,
            by="user",
            forgets=entry.path,
            origin=origin,
            task=claim.session_ids[0] if one else None,
            source=f"checkpoint {claim.session_ids[0]}" if one else "checkpoint",
        )
        try:
            out.append(store.remember(cand))
        except MemrepoError:
            continue  # blocked: kept in pending by the writer, or refused
    return out


__all__ = ["Request", "apply_forgets", "forgets", "matches", "requests"]
