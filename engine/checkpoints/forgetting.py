"""The user's requests to forget a stored line, said in a session (breaker14 B14-10, docs/architecture.md §7).

"Please forget that I'm on call this week", "Forget the note about the pager rotation", "Forget what I said about
the deploy window": a sentence of the user's own (:func:`memrepo.engine.format.remembering.said`: no question, no
quote or code, not in pasted text, not taken back after) that starts with the request. What it names is matched
against the lines the checkpoint listed (:func:`matches`):

- "forget that X" names a statement: a line matches when X and the line say the same content words (each covers
  :data:`COVER` of the other's), X whole or X up to its first comma ("..., that is over");
- "forget the note about X" / "what I said about X" names a topic: a line matches when it holds every content
  word of X.

The same in other languages ("oublie ce que je t'ai dit sur X", "vergiss, was ich dir über X gesagt habe", "lo que
te dije sobre X", "co ci mówiłem o X"; forget16); a topic's reason after a comma ("X, that bucket got deleted") is
no part of it, and the topic up to a reason not read as one names the one line holding its words as a run
(:mod:`.forgetpiece`); a bare "delete it" after a sentence naming what the user told as outdated, and a topic in other words
said with its reason, are :mod:`.forgetnear`'s; an unpin said with an event only ("4.2 shipped! unpin the freeze
note") names only a line held until that event (:func:`.forgetforms.until_happened`). Chinese and Japanese are
compared by pairs of characters.

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
from collections.abc import Callable, Iterable
from datetime import date
from typing import TYPE_CHECKING, NamedTuple

from memrepo.engine.errors import MemrepoError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.irony import not_meant
from memrepo.engine.format.layout import is_workspace_file
from memrepo.engine.format.relativedates import dated
from memrepo.engine.format.remembering import own_short_message, retraction, said

from .claims import Claim, ExistingEntry
from .distill import current_line
from .forgetforms import (
    TOLD,
    named_request,
    own_telling,
    said_over,
    unpin_and_forget,
    unpin_named,
    unremembered,
    until_happened,
)
from .forgetnear import mostly, pointed
from .forgetpiece import piece_line
from .saidwhen import said_day

if TYPE_CHECKING:
    from memrepo.engine.models import ContextBlock, Origin, WriteResult
    from memrepo.engine.write.ports import MemoryAccess

COVER = 0.75
"""Share of one side's content words the other must hold for "forget that X" to name a line."""
MAX_PROPOSED = 4
"""Most lines one request proposes to forget; a request matching more names none of them."""

_ASK = (
    r"(?:(?:please|pls|kindly|can\s+you|could\s+you|would\s+you|will\s+you|you\s+can|you\s+may|go\s+ahead\s+and"
    r"|just)\s+)*(?:please\s+)?"
)
_NOTE = r"(?:note|line|entry|memory|fact|bit|thing|part|preference|setting|rule)s?"
_REQUEST_RE = re.compile(
    rf"^{_ASK}(?:(?P<forget>forget|vergiss|oublie[zs]?|olvida|dimentica|esquece|esqueça|vergeet|zapomnij(?:\s+o)?)(?:\s*,)?\s+|(?:drop|delete|remove|erase|scrap|ditch)\s+(?=\S+\s+{_NOTE}\b"
    rf"|(?:the|that|my|your)\s+(?:\S+\s+){{1,3}}?{_NOTE}\s*$))(?:"
    rf"(?P<topic>(?:the|that|my|your|die|den|la|le)\s+(?:{_NOTE}|notiz|notizen)\s+(?:about|on|regarding|that\s+says|über|sur|sobre)\s+"
    r"|(?:what|everything)\s+i\s+(?:said|told\s+you|mentioned|wrote\s+down)\s+(?:about|on|regarding)\s+"
    r"|everything\s+about\s+|lo\s+del?\s+|todo\s+lo\s+de(?:l)?\s+|(?:tout\s+)?ce\s+que\s+je\s+(?:t['’]ai|vous\s+ai)"
    r"\s+(?:dit|raconté|noté)\s+(?:sur|à\s+propos\s+d(?:e|u|es|['’])|concernant)\s*|(?:todo\s+)?lo\s+que\s+te\s+(?:dije|conté)"
    r"\s+(?:sobre|de(?:l)?|acerca\s+de(?:l)?)\s+|(?:tutto\s+)?quello\s+che\s+ti\s+ho\s+detto\s+(?:su(?:l|lla|i|gli)?|di)\s+"
    r"|(?:tudo\s+)?o\s+que\s+(?:eu\s+)?te\s+(?:disse|contei)\s+sobre\s+|wat\s+ik\s+(?:je|u)\s+(?:heb\s+)?(?:vertelde|verteld"
    r"|zei|gezegd)\s+(?:heb\s+)?over\s+|(?:tym,\s*)?co\s+ci\s+(?:mówiłem|mówiłam|powiedziałem|powiedziałam)\s+o\s+"
    r"|(?:(?:das|alles),?\s+)?was\s+ich\s+(?:dir|ihnen)\s+(?:über|zu)\s+|das\s+mit\s+(?:dem|der|den)\s+"
    rf"|{TOLD})"
    rf"|(?P<own>(?:the|that|my|your)\s+(?=(?:\S+\s+){{1,3}}?{_NOTE}\s*$))"
    r"|(?P<that>(?:that|dass|que)\s+))(?P<what>.+)$",
    re.IGNORECASE,
)
"""A request to forget, at a sentence's start: "forget that X" (a statement; "vergiss, dass X", "oublie que X"),
"forget the note about X" or "forget my X preference" (a topic; Spanish "olvida lo de X", the everyday "the thing
about X": breaker27 B27-10); "drop", "delete", "remove" only with a note named
("please drop the note about tabs", "delete the staging DB note"; never "delete the tests"; breaker23 B23-16)."""
_FORGET_IT_RE = re.compile(
    r"^(?P<what>[^,;:]+?)\s*(?:[,;:]|\s[-—–])\s*(?:so\s+)?(?:please\s+)?(?:you\s+can\s+|just\s+)?(?:please\s+)?"
    r"(?:forget|drop|delete|remove)\s+(?:it|that|this|that\s+one|about\s+it)(?:\s*(?:,\s*)?please)?$",
    re.IGNORECASE,
)
""""That staging DB note is outdated, forget it.", "I'm not on call anymore, please forget that.": X names the line
(a note named, or said to be over: :data:`_OVER_RE`); "forget it" alone is no request (breaker23 B23-16, B20-8)."""
_OVER_RE = re.compile(
    rf"\b(?:{_NOTE}|outdated|stale|obsolete|wrong|no\s+longer|any\s*more|not\s+true|isn['’]t\s+true|over"
    r"|cancell?ed|called\s+off|fell\s+through)\b",  # "The vacation got cancelled, please forget that." (B30-4)
    re.I,
)
_OVER_WORDS = frozenset(
    [
        "outdated",
        "stale",
        "obsolete",
        "wrong",
        "not",
        "no",
        "longer",
        "anymore",
        "any",
        "more",
        "true",
        "over",
        "old",
        "isn",
        "cancelled",
        "canceled",
        "called",
        "off",
        "fell",
        "through",
        "got",
        "has",
        "been",
    ]
)
_TAIL_RE = re.compile(
    r"\s*(?:,|;|\s[-—–]\s)?\s*\b(?:please|thanks|thank\s+you|for\s+good|from\s+(?:your\s+)?memory)\s*$", re.I
)
_STOP_WORDS = (
    "i am is are was were be been the a an my our we us on this that these those of to in it its for at with and or "
    "me you your about now please what said note line entry memory fact bit thing part there here "
    "preference setting rule dass die der das den que la le sur über "
    # possessives and articles of the other languages' requests ("Oublie mon numéro de badge"), a note's name in them
    "mon ma mes ton ta tes de du des au aux mein meine meinen dein deine mi mis tu tus il lo gli mio mia meu minha "
    "mijn het een notiz nota notatka notitie 메모 노트 メモ 笔记 备注 her his him she he they them their its "
    # the words of a time the checkpoint writes as dates ("this week" -> "the week of 2026-11-30", relativedates.py)
    "week weekend today tonight tomorrow night month next until till til "
    # the words a told-about topic opens with ("what I told you about where the CSV exports go")
    "where how when which who why wo wie wann où comment quand dónde cómo cuándo dove quando onde waar hoe wanneer "
    "gdzie jak kiedy czego co tym gesagt habe erzählt reminder "
    # the modals of "what is needed to run X" ("czego trzeba do odpalenia dune lokalnie")
    "need needs needed must trzeba potrzeba muss braucht faut hay bisogna serve precisa moet"
)
_STOP = frozenset(
    _STOP_WORDS.split() + [name.casefold() for name in (*calendar.day_name, *calendar.month_name) if name]
)


_HAN_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+")
_HANGUL_RE = re.compile(r"[\uac00-\ud7a3]+")
_PARTICLE_RE = re.compile(r"(?:은|는|이|가|을|를|의|에|에서|으로|로|도|만)$")


class Request(NamedTuple):
    """A request to forget: what it names, and whether that is a topic ("the note about X") or a statement;
    ``over``: the message says the thing is over or outdated (a topic named in other words may then name a line,
    :func:`.forgetnear.mostly`); ``until``: an unpin request whose message says no more than an event (it names only
    a line held until that event, :func:`.forgetforms.until_happened`)."""

    what: str
    topic: bool
    over: bool = False
    until: str = ""
    days: frozenset[str] = frozenset()
    """The ISO dates its relative time meant on the day it was said ("this week" -> the week's Monday), which a
    line kept with its dates shares (:func:`dated_request`)."""


_DAY_RE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def dated_request(request: Request, today: date) -> Request:
    """``request`` with :attr:`Request.days`: the dates its relative time ("this week", "today", "until Friday")
    meant on ``today``, written as the writer writes them in a kept line (:func:`~memrepo.engine.format.
    relativedates.dated`; breaker29 B29-4: "forget that I'm on call this week" for "I'm on call the week of
    2026-11-30 for the payments team", whose only other shared word is "call").

    Args:
        request: a request read by :func:`requests`.
        today: the day the session said it.

    Returns:
        Request: the same request, its ``days`` set when its words hold a relative time.
    """
    said_days = frozenset(_DAY_RE.findall(request.what))
    days = frozenset(_DAY_RE.findall(dated(request.what, today).text)) - said_days
    return request._replace(days=days) if days else request


def _words(text: str) -> set[str]:
    """Content words, casefolded, contractions opened, a plural's "s" dropped: "I'm on-call" -> {"call"}."""
    text = re.sub(r"['’](?:m|re|s|ve|ll|d)\b", " ", text.casefold()).replace("n't", " not")
    out = set()
    for word in re.findall(r"[^\W_]+", text):
        han = _HAN_RE.findall(word)
        if han:  # Chinese and Japanese write no spaces: each pair of characters is a word
            out |= {run[i : i + 2] for run in han for i in range(max(1, len(run) - 1))} - _STOP
            word = _HAN_RE.sub("", word)
        if len(word) > 2 and _HANGUL_RE.fullmatch(word):
            word = _PARTICLE_RE.sub("", word)  # "계정은" -> "계정"
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
        over = said_over(text)
        for i, sentence in enumerate(sentences):
            before, after = sentences[i - 1] if i else "", sentences[i + 1] if i + 1 < len(sentences) else ""
            if not_meant(before, sentence, after):
                continue
            it = _FORGET_IT_RE.match(sentence.strip())
            if it and _OVER_RE.search(it["what"]):  # "That staging DB note is outdated, forget it."
                what = " ".join(w for w in re.findall(r"[\w'’-]+", it["what"]) if w.casefold() not in _OVER_WORDS)
                if _words(what):
                    out.append(Request(what, True, over=True))
                continue
            back = pointed(before, sentence)  # "What I told you about X is outdated. Delete it from memory."
            if back is not None and _words(back):
                out.append(Request(back, True, over=True))
                continue
            at = text.find(sentence)
            if (
                taken_back is not None
                and at < taken_back
                and not (at < taken_back < at + len(sentence) and unpin_and_forget(sentence))
            ):
                continue  # "Please forget that X. Just kidding."; not "Unpin X and forget it"
            found = _REQUEST_RE.match(sentence.strip())
            if found is not None and found.group("teller") is not None and not own_telling(found.group("teller")):
                found = None  # "Forget what the docs say about retries": someone else's words, no line of memory
            if found is None:
                other = named_request(sentence.strip(), text)  # "you can forget the vpn-legacy host" (sess14)
                gone = unremembered(sentence)  # "Non ricordare più il numero del badge" (breaker28 B28-2)
                if gone is not None and _words(gone):
                    out.append(Request(gone, True, over=True))
                elif other is not None and _words(other):
                    out.append(Request(other, True, over=over))
                elif (unpin := unpin_named(sentence)) is not None and _words(unpin):
                    # "the freeze ended, unpin the freeze note"; "4.2 shipped! you can unpin the freeze note"
                    out.append(Request(unpin, True, over=True) if over else Request(unpin, True, until=text))
                continue
            what = _TAIL_RE.sub("", found.group("what")).strip(" ,.;:!")
            topic = bool(found.group("topic") or found.group("own"))
            if found.group("own"):  # "my tabs preference": the words before the note's name
                what = re.sub(rf"\s+{_NOTE}$", "", what, flags=re.I)
            if len(_words(what)) >= 1 and len(what.split()) >= (1 if topic else 2):
                out.append(Request(what, topic, over=over))
    return out


def _sides(request: Request, said_: str, line: str) -> tuple[set[str], set[str]]:
    """The content words of what ``request`` says (``said_``) and of ``line``; when the request said a relative time
    and the line holds ISO dates, the request's days (:attr:`Request.days`) on its side and the line's dates on the
    line's, so a time said both ways counts as one word in common (otherwise a time's words and numbers do not
    count, docs/agents.md "A request to forget")."""
    line_days = set(_DAY_RE.findall(line)) if request.days else set()
    if not line_days:  # a line kept without dates ("I'm on call this week") is compared by its words alone
        return _words(said_), _words(line)
    return _words(said_) | set(request.days), _words(line) | line_days


def _names(request: Request, line: str) -> bool:
    if not _words(line):
        return False
    if request.topic:
        want, have = _sides(request, request.what, line)
        return bool(want) and want <= have
    for said_ in {request.what, request.what.split(",", 1)[0]}:
        want, have = _sides(request, said_, line)
        common = len(want & have)
        if want and common >= math.ceil(COVER * len(want)) and common >= math.ceil(COVER * len(have)):
            return True
    return False


def _covered(request: Request, line: str) -> bool:
    """Whether a "forget that X" names ``line`` from X's side: every content word of X (two or more) in the line,
    and half the line's ("Forget that I prefer tabs." for "I prefer tabs over spaces"; breaker23 B23-16); X up to
    its first comma too, as :func:`_names` reads it ("..., the rotation changed")."""
    if request.topic:
        return False
    for said_ in {request.what, request.what.split(",", 1)[0]}:
        want, have = _sides(request, said_, line)
        if len(want) >= 2 and want <= have and 2 * len(want) >= len(have):
            return True
    return False


def _shared(request: Request, line: str) -> int:
    want, have = _sides(request, request.what, line)
    return len(want & have)


def matches(
    request: Request, existing: Iterable[ExistingEntry], elsewhere: frozenset[str] = frozenset()
) -> list[ExistingEntry]:
    """The listed lines ``request`` names (the module docstring), at most one per text; a workspace file's header
    line (its ``workspace:`` key) never. None named both ways: the lines X's words name (:func:`_covered`). None
    either way, and the topic said with the reason it is over: the line :func:`.forgetnear.mostly` finds, never one
    of ``elsewhere`` (other projects' files)."""
    entries = [e for e in existing if not (is_workspace_file(e.path) and e.meta.get("workspace"))]
    if request.until:  # an unpin said with an event only: the lines held until that event
        entries = [e for e in entries if until_happened(e.text, request.until)]
    head, *rest = re.split(r"[,;]|\s[-–—]\s", request.what, maxsplit=1)
    head = head.strip() if rest and said_over(rest[0]) else request.what  # "X, that bucket got deleted": X
    asked = [request] if not request.topic or head == request.what else [request, request._replace(what=head)]
    for said_ in asked:  # "what I told you about where the CSV exports go, that bucket got deleted": its head
        for names in (_names, _covered):
            out: dict[str, ExistingEntry] = {}
            for entry in entries:
                if names(said_, entry.text):
                    out.setdefault(f"{entry.path}\n{entry.text.casefold()}", entry)
            if out:
                return list(out.values())
    near = [e for e in entries if e.path not in elsewhere]
    piece = piece_line(request.what, near, _words, lambda e: e.text) if request.topic else None
    if piece is not None:  # "X, I don't mind them anymore": X a verbatim piece of one line (B31-3)
        return [piece]
    if request.topic and request.over:  # named in other words, with the reason it is over
        found = mostly(_words(head), near, _words, lambda e: e.text, head)
        return [found] if found is not None else []
    return []


def near_misses(request: Request, existing: Iterable[ExistingEntry]) -> list[ExistingEntry]:
    """The one line a request that names none comes nearest to (two content words or more in common, more than any
    other line's), proposed for forgetting so the request is never silent ("Vergiss, dass die Staging-DB jede Nacht
    zurückgesetzt wird." for "The staging DB is reset every night"; breaker23 B23-16); none when two lines tie."""
    scored = [
        (_shared(request, e.text), e) for e in existing if not (is_workspace_file(e.path) and e.meta.get("workspace"))
    ]
    best = max((n for n, _e in scored), default=0)
    top = {e.text.casefold(): e for n, e in scored if n == best}
    return list(top.values()) if best >= 2 and len(top) == 1 else []


def forgets(
    texts: list[str],
    existing: Iterable[ExistingEntry],
    workspace: str | None = None,
    today: date | Callable[[str], date] | None = None,
) -> tuple[list[ExistingEntry], list[ExistingEntry]]:
    """What the user's requests to forget do: (lines to forget now, lines proposed for forgetting in the inbox).

    Args:
        texts: the user's messages (read from the harness's transcript).
        existing: the entries the checkpoint listed.
        workspace: the session's project folder: a request naming one line of its file and lines of others names
            that one ("the note about migrations" said in the blog; breaker23 B23-14).
        today: the day the session said them, or a function giving the day a request's words were said
            (:func:`.saidwhen.said_day`, breaker29 B29-6): a request's relative time then also names a line kept
            with the dates it meant (:func:`dated_request`); None leaves times out of the match.

    Returns:
        tuple: the user's own lines each named alone by a request, and every other named line (several for one
        request, or an agent's; the near miss of a request that names none), each once.
    """
    entries = list(existing)
    own = {e.path for e in entries if workspace and e.meta.get("workspace") and e.meta.get("path") == workspace}
    now: dict[tuple[str, str], ExistingEntry] = {}
    proposed: dict[tuple[str, str], ExistingEntry] = {}
    elsewhere = frozenset(e.path for e in entries if is_workspace_file(e.path) and e.path not in own)
    for request in requests(texts):
        day = today(request.what) if callable(today) else today
        request = dated_request(request, day) if day is not None else request
        found = matches(request, entries, elsewhere)
        if len(found) > MAX_PROPOSED:
            continue  # names nothing in particular
        here = [e for e in found if e.path in own]
        found = here if len(here) == 1 else found
        for entry in found:
            key = (entry.path, entry.text)
            if len(found) == 1 and entry.by == "user":
                now[key] = entry
            elif key not in now:
                proposed[key] = entry
        for entry in [] if found or request.until else near_misses(request, entries):
            proposed.setdefault((entry.path, entry.text), entry)
    return list(now.values()), [e for k, e in proposed.items() if k not in now]


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

    today = store.git.now().date()

    def said_on(what: str) -> date:  # the day the request was said, as distill dates a kept line (B29-6)
        return said_day(claim.messages, what, today)

    now, proposed = forgets(claim.user_texts(heard=True), claim.existing.values(), claim.workspace, said_on)
    if claim.untrusted:
        now, proposed = [], [*now, *proposed]
    out: list[WriteResult] = []
    one = len(claim.session_ids) == 1
    for entry in now:
        try:
            line = current_line(store, entry)
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


__all__ = ["Request", "apply_forgets", "dated_request", "forgets", "matches", "near_misses", "requests"]


def workspace_heads(store: MemoryAccess, ctx: ContextBlock) -> list[str]:
    """The ref of the header entry ("Workspace shop", its ``workspace:`` and ``path:`` keys) of each workspace file
    the block has a section for.

    The block leaves that line out (its section's header names the workspace), but the forget rule finds the
    session's own project file by it (:func:`forgets`), so the checkpoint keeps it among the existing entries.

    Args:
        store: the repo (its work tree is read).
        ctx: the block the checkpoint lists the existing entries from.

    Returns:
        list[str]: ``repo:workspaces/x.md#L3`` refs, one per workspace file that has a header entry.
    """
    heads: list[str] = []
    for section in ctx.sections:
        path = section.path
        if not is_workspace_file(path):
            continue
        try:
            parsed = fmt.parse(read_work_file(store.root / path), path)
        except (OSError, MemrepoError):
            continue
        head = next((n for n, entry in parsed.entries() if entry.meta.get("workspace")), None)
        if head is not None:
            heads.append(f"repo:{path}#L{head}")
    return heads
