"""Where a statement of the user's belongs, and the stored line it corrects (docs/architecture.md §7).

A user's statement kept by a checkpoint is written where it is true (breaker7 B7-16): one that corrects a
line of the user's files (me.md, lessons.md) goes to that file and names the line it replaces
(``supersedes:``, or the line's own ``subject:``, the writer's replace-by-subject), so every project's block
shows the new value; one about the user ("I ...", "my ...") goes to me.md; a project's fact stays in its
workspace file. "Corrects" is the context block's own change rule (:func:`memrepo.engine.read.contextselect.replaced`:
shared topic words and a change word, "X, not Y", a higher version), asked of the two lines as if one file held them.

When that rule relates no line, the one line the statement gives a new value of the same subject
(:mod:`.samesubject`: "Nope, the CDN is Fastly now" for "The shop CDN is Cloudflare", "Terraform is on 1.9 now"
for "Infra uses Terraform 1.6"; corr9) is the corrected line; and a statement about another subject than a line's
("We moved the deploy window tests to a new folder") corrects it by no rule.

A correction said without "remember" ("actually we moved to Postgres 16", breaker6 B6-3) is kept when it
corrects a stored line by those rules and reads as one (a lead-in such as "actually", "no,", "correction:", a
change word, or a change verb or time word of the subject relation: "We moved the deploy window to Wednesday last
week"): :func:`correction_statements`. Pure functions of text and entries: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.hearsay import owner, reported
from memrepo.engine.format.irony import not_meant
from memrepo.engine.format.layout import is_workspace_file
from memrepo.engine.format.remembering import (
    about_user,
    own_short_message,
    retraction,
    said,
    task,
    user_statements,
    without_leadin,
)
from memrepo.engine.read.contextselect import MIN_COVER, Topic, candidates, replaced, topic_terms

from .chain import PIECE_CHARS, supersedes
from .claims import ExistingEntry
from .closeness import _only_value, _restated, tight
from .corrparts import CUE_RE, cued, remainder
from .cues import aside_dropped, cued_statement, first_clause
from .meaningmatch import meant_line, note, noted
from .namedold import beside_old, named_line
from .newswitch import family, unnamed_switch
from .oldvalue import names_one, said_values
from .otherlang import other_language_line
from .ownswitch import switched_line
from .projectfact import names_project
from .sameframe import same_frame, says_change
from .sameframe import tight as frame_tight
from .samesubject import corrects_one, other_subject, statement
from .slotframe import slot_line
from .slotframe import statement as slot_statement
from .staleswap import name_values, rest, stale_cue, stale_line, swaps_value, values
from .staleswap import words as words_of

_HYPOTHETICAL_RE = re.compile(
    r"^(?:if|when|whenever|unless|suppose|supposing|assuming|assume|maybe|perhaps|what\s+if|in\s+case|say|imagine|"
    r"i\s+(?:think|guess|wonder)|i['’]m\s+not\s+sure)\b",
    re.I,
)
"""A sentence that supposes rather than says ("If the window is Friday now, ..."): never a correction."""
_INFERENCE_RE = re.compile(r"^\s*(?:so|and\s+so|oh\s+so)\b,?\s", re.I)
"""A sentence that draws a conclusion, most often a question without its mark ("so the window is Friday now"):
never a correction (breaker9 case 09)."""
_ASKED_RE = re.compile(r"^(?:is|are|were|does|do|did|has|have|can|could|should|would|est-ce\s+que)\s+\S+\s+\S", re.I)
"""A question without its mark ("is kiwi on Python 3.12 these days"): never a correction."""
_NOW_RE = re.compile(r"\b(?:is|are)\s+[^,;:]{1,40}?\s+(?:now|these\s+days|nowadays)$", re.I)
"""A statement that says a value is another now: "the deploy window is Friday now", "... these days"."""
_NOT_DONE_RE = re.compile(
    r"\b(?:almost|nearly|barely|never|didn['’]t|did\s+not|tried\s+to|wanted\s+to|thought\s+about|considered)\b",
    re.I,
)
"""A change that did not happen ("We almost switched from Stripe to Adyen", breaker15 B15-42): no correction."""
_STILL_RE = re.compile(r"\bstill\b", re.I)
"""A statement that something did not change ("it's still Tuesday"): it corrects no line."""
_SECRET_RE = re.compile(r"\b(?:password|passwd|passphrase|secret|token|api[-_ ]?key|credentials?)s?\b", re.I)
"""A statement about a secret: never kept without a request (its value may be in it, breaker9 B9-17)."""
_THING_USES_RE = re.compile(r"^[A-Z][\w-]*\s+(?:uses|runs|has)\s+\S+\s+v?\d+(?:\.\d+)*$")
"""A line :func:`.hearsay.owner` reads as a person's ("Infra uses Terraform 1.6": a capital, then "uses") that names a
version of what it uses: the subject relation's version rule may still correct it by that name ("Terraform is on 1.9
now"); "Alice uses Vim 9.0" would be read so too, a line of the user's about a person's version, which is rare."""
MIN_WORDS = 3
"""Fewest words a correction said without "remember" must have."""


def _names_it(new: Topic, old: Topic) -> bool:
    """Whether the newer line says which line it corrects beyond a version: "X, not Y", "X is now Y", "from Y", or
    most of the older line's topic words. A higher version alone is the block's rule within one file, where a name
    is the file's subject; across a session's lines it is not: "the staging tests now run on Postgres 16" corrects
    no "shop DB runs on Postgres 15"."""
    if new.denied or new.head or new.was:
        return True
    names = {name for name, _num, _changed in new.versions}
    words = old.words - names
    return not words or len(words & new.words) > MIN_COVER * len(words)


def corrects(
    text: str, existing: Iterable[ExistingEntry], words: bool = True, cued: bool = False, frame: bool = True
) -> ExistingEntry | None:
    """The stored line ``text`` (newer, the user's) replaces by the block's change rule, else the one line it
    corrects by the subject both are about (:func:`.samesubject.corrects_one`), or None.

    Args:
        text: the user's statement.
        existing: the entries the checkpoint listed (:meth:`memrepo.engine.checkpoints.checkpoint.Checkpointer.prepare`).
        words: whether to ask the block's change rule (False: the subject relation alone, for a statement that
            reads as a correction only by its own change verb, "We moved the deploy window to Wednesday").
        cued: the user said it after a lead-in that says it corrects ("No wait, the deploy window is Thursday"):
            the subject relation needs no time word then (:func:`.samesubject.corrects_line`).
        frame: whether a line the statement says again with a new value counts, when no rule above relates one
            (:func:`_framed`, breaker17 B17-1).

    Returns:
        ExistingEntry | None: the replaced line (the user's own lines first, then the newest), or None.
    """
    return _corrects(text, list(existing), words, cued, frame)


def _corrects(text: str, existing: list[ExistingEntry], words: bool, cued: bool, frame: bool) -> ExistingEntry | None:
    """The body of :func:`corrects`."""
    found: list[ExistingEntry] = []
    if reported(rest(text)):
        return None  # hearsay, a quote, a hedge, a proposal, a scoped statement: the user's own fact it is not
    said = topic_terms(text)
    projects = _projects(existing)
    who = _owner(rest(text), projects)  # "Nobody has used X, ..." is no one's
    mine = []
    for old in existing:
        was = _owner(old.text, projects)
        if who != was and "person:" in f"{who} {was}":
            if who is None and _THING_USES_RE.match(without_leadin(old.text)):
                mine.append(old)  # "Infra uses Terraform 1.6": a name that uses a thing, by its subject only
            continue  # "Bob's editor is Helix" never replaces "My editor is vim" (breaker9 B9-3)
        mine.append(old)
        if not words or other_subject(text, old.text):
            continue  # "We moved the deploy window tests ..." shares words with "The deploy window is ...", not its subject
        meta = {k: v for k, v in old.meta.items() if k not in ("subject", "supersedes", "workspace")}
        meta["by"] = old.by
        new_meta = {"by": "user", "added": "9999-12-31"}  # newer than any stored line
        if old.meta.get("kind"):
            new_meta["kind"] = old.meta["kind"]
        lines = [(1, fmt.Entry("", "-", old.text, meta)), (2, fmt.Entry("", "-", text, new_meta))]
        if replaced(candidates(lines)).get(1) == 2 and _names_it(said, topic_terms(old.text)):
            found.append(old)
    if not found:
        if (unnamed := unnamed_switch(text, mine)) is not None:  # "I use bun now": a line of bun's kind or none
            return unnamed.line  # (:mod:`.newswitch`, sess20)
        return (
            switched_line(text, mine)  # "Now I use bun instead of pnpm": the user's line naming pnpm (B30-1)
            or corrects_one(text, mine, cued)
            or names_one(text, mine)
            or (_framed(text, mine, cued) if frame else None)
            or _slotted(text, mine, cued)
            or _named(text, mine)
            or noted(text, mine, lambda e: e.text)  # found by meaning over its batch (:func:`_meant`)
        )
    return max(found, key=lambda e: (e.by == "user", e.meta.get("added", "")))


def _framed(text: str, lines: list[ExistingEntry], cued: bool) -> ExistingEntry | None:
    """The one line ``text`` says again with a new value (:func:`.sameframe.same_frame`: "I live in Lisbon now" for
    "I live in Berlin"), not a line another listed line already supersedes (a chain's newest is the one)."""
    older = {e.meta.get("supersedes", "") for e in lines} - {""}
    return same_frame(text, [e for e in lines if e.text[:PIECE_CHARS] not in older], lambda e: e.text, cued)


def _named(text: str, lines: list[ExistingEntry]) -> ExistingEntry | None:
    """The one line whose old value ``text`` names, disowns and replaces by one of its type, among every listed line
    (:mod:`.namedold`: "The staging box isn't in Frankfurt, it's in Dublin"), not one a listed line supersedes."""
    older = frozenset(e.meta.get("supersedes", "") for e in lines) - {""}
    return named_line(text, lines, lambda e: e.text, " ".join(_projects(lines)), older)


def _owner(text: str, projects: frozenset[str] = frozenset()) -> str | None:
    """:func:`.hearsay.owner` of ``text`` read with a capital first letter: a sentence's first capital is no name,
    so "wren's CI runs on ..." (a line as the user typed it) and "Wren's CI is on ..." (a kept line, capitalised)
    have one owner (sess12: h3-corr-mistake-ci kept the correction beside the line it corrects). A project of
    ``projects`` is no one ("Tundra's HTTP client timeout ...", corr14)."""
    who = owner(text[:1].upper() + text[1:])
    return None if f"{who}".removeprefix("person:") in projects else who


def _projects(lines: list[ExistingEntry]) -> frozenset[str]:
    """The projects whose workspace files hold ``lines`` (their names, folded)."""
    return frozenset(
        e.path.rsplit("/", 1)[-1].removesuffix(".md").casefold() for e in lines if is_workspace_file(e.path)
    )


def _slotted(text: str, lines: list[ExistingEntry], cued: bool = False) -> ExistingEntry | None:
    """The one line ``text`` restates with one value slot changed, in any wording (:mod:`.slotframe`), else whose
    value it says is stale (:mod:`.staleswap`), not a line of another subject (:func:`.samesubject.other_subject`)
    nor one a listed line already supersedes."""
    older = {e.meta.get("supersedes", "") for e in lines} - {""}
    projects = _projects(lines)

    def same_owner(e: ExistingEntry) -> bool:  # "Bob's editor" is no slot of "My editor" (B9-3)
        who, was = _owner(rest(slot_statement(text, e.text)), projects), _owner(e.text, projects)  # "Nobody has ..."
        return who == was or "person:" not in f"{who} {was}"

    live = [e for e in lines if e.text[:PIECE_CHARS] not in older and not other_subject(text, e.text)]
    mine = [e for e in live if same_owner(e)]
    return slot_line(text, mine, lambda e: e.text) or stale_line(text, mine, lambda e: e.text, cued, " ".join(projects))


def _meant(text: str, others: list[str], lines: list[ExistingEntry]) -> ExistingEntry | None:
    """The line ``text`` talks about by meaning (:func:`.meaningmatch.meant_line`, ranked over every listed line), when
    it gives that line another value of its kind (:func:`.staleswap.swaps_value`) and is of its owner and subject and
    no listed line supersedes it (as :func:`_slotted`); else None. ``others``: the user's other sentences."""
    if not lines or not name_values(text):
        return None  # no value of any kind: nothing to swap, and no model loaded for it
    line = meant_line(text, others, lines, lambda e: e.text)
    if line is None or other_subject(text, line.text):
        return None
    older = {e.meta.get("supersedes", "") for e in lines} - {""}
    projects = _projects(lines)
    who, was = _owner(rest(text), projects), _owner(line.text, projects)
    if line.text[:PIECE_CHARS] in older or (who != was and "person:" in f"{who} {was}"):
        return None
    return line if swaps_value(text, line.text, " ".join(projects)) else None


def _borrowed(fact: str, before: str, lines: list[ExistingEntry], cued: bool, kept: list[str]) -> str:
    """``fact`` joined after the sentence ``before`` it when ``fact`` only says a line's value is stale, naming it
    ("my note about 8080 is stale"), and ``before`` gives the new value ("ok so 8443 it is"): the two say one
    correction (corr16, h6-corr-port-tool-en). Else ``fact``; also when ``before`` was kept on its own."""
    if not before or not stale_cue(fact) or _slotted(fact, lines, cued) is not None:
        return fact
    said = set(words_of(fact))
    if not any(v in said for e in lines for v in values(e.text)):
        return fact  # the stale sentence names no stored value: which line it means is not said
    earlier = aside_dropped(without_leadin(before))
    if any(fmt.normalize_text(k) == fmt.normalize_text(earlier) for k in kept):
        return fact
    joined = f"{earlier.rstrip('.!;,')}; {fact}"
    target = _slotted(joined, lines, cued)
    if target is None:
        return fact
    held = {v for e in lines if e is not target for v in values(e.text)}
    return fact if set(values(earlier)) & held else joined  # "The metrics port is 9100": another line's value


def where(
    text: str, workspace: str | None, existing: Iterable[ExistingEntry], cued: bool = False
) -> tuple[str, ExistingEntry | None]:
    """Where a statement of the user's belongs: ``"global"`` or ``"workspace"``, and the line it corrects.

    A correction goes where the line it corrects is (a line of me.md or lessons.md: global; of a workspace
    file: the workspace); otherwise a statement about the user (:func:`about_user`) is global, the rest the
    session's workspace (global without one).

    Args:
        text: the user's statement.
        workspace: the session's workspace, or None.
        existing: the entries the checkpoint listed.
        cued: the user said it after a lead-in that says it corrects (:func:`cued`).

    Returns:
        tuple: the scope, and the corrected line or None.
    """
    target = corrects(text, existing, cued=cued)
    if target is not None:
        return ("workspace" if is_workspace_file(target.path) and workspace else "global"), target
    if (about_user(text) and not names_project(text, workspace)) or not workspace:
        return "global", None
    return "workspace", None


def correction_statements(texts: list[str], existing: Iterable[ExistingEntry]) -> list[str]:
    """The user's corrections said without "remember" that are kept ``by: user`` at once: those of
    :func:`_corrections` that are :func:`tight` (breaker9 item 4). See :func:`_corrections` for the rule."""
    return [fact for fact, close in _corrections(texts, existing) if close]


def proposed_corrections(texts: list[str], existing: Iterable[ExistingEntry]) -> list[str]:
    """The user's corrections said without "remember" that say more than the new value (not :func:`tight`:
    "the shop DB is on Postgres 17 now on my laptop"): proposed in the inbox for review, never written
    ``by: user`` and never hiding the stored line until accepted (breaker9 item 4).

    Args:
        texts: the user's messages (read from the harness's transcript).
        existing: the entries the checkpoint listed.

    Returns:
        list[str]: the statements, in order.
    """
    return [fact for fact, close in _corrections(texts, existing) if not close]


def _read(
    sentence: str,
    before: str,
    cue: bool,
    entries: list[ExistingEntry],
    mine: list[tuple[str, bool]],
    pool: list[str],
    asked: set[str],
) -> tuple[str, bool] | None:
    """One of the user's sentences read as a correction (:func:`_corrections`' rule): the statement and whether it is
    :func:`tight`, or None. ``cue``: the sentence was said after a correction's cue (taken off ``sentence``)."""
    fact = aside_dropped(without_leadin(sentence))  # "fyi dune is on Node 22 LTS these days" (corr16)
    fact = _borrowed(fact, before, entries, cue, [f for f, _close in mine])  # "so 8443 it is. my note ..."
    whole = corrects(fact, entries, True, True) or _slotted(fact, entries) or said_values(fact)
    clause = first_clause(fact) if cue else None  # "X, das Upgrade lief ... durch": X
    cut = corrects(clause, entries, True, True, frame=False) if clause and clause != fact else None
    if clause and cut is not None and (not whole or whole == cut):  # the first clause alone: the same line
        fact = clause  # its reason is not kept
    if len(fact.split()) < MIN_WORDS or len(fact) > 500 or task(fact) or _HYPOTHETICAL_RE.match(fact):
        return None
    if (
        reported(rest(sentence))
        or _INFERENCE_RE.match(sentence)
        or _ASKED_RE.match(fact)
        or _STILL_RE.search(fact)
        or _SECRET_RE.search(fact)
    ):
        return None  # not the user's own new fact (breaker9 B9-1..B9-6); "it's still Tuesday" changes nothing
    named_old = _named(fact, entries)  # "The staging box isn't in Frankfurt, it's in Dublin" (corr17)
    if _NOT_DONE_RE.search(beside_old(fact, named_old.text) if named_old else fact):
        return None  # "We almost switched from Stripe to Adyen": it did not happen (breaker15 B15-42)
    if fmt.normalize_text(fact) in asked or user_statements([sentence]):
        return None  # a request to remember: user_statements keeps it
    if (unnamed := unnamed_switch(fact, entries)) is not None:  # "I use bun now", "we moved to Postgres" (sess20)
        if unnamed.line is None:  # a name of no known kind and no line found by meaning: proposed, saying why
            return (fact, False) if family(unnamed.value) is None else None
        return (fact, unnamed.sure) if not _restated(fact, unnamed.line) else None
    topic = topic_terms(fact)
    named = topic.denied or topic.head or topic.was or any(changed for _n, _v, changed in topic.versions)
    cued = cue or bool(CUE_RE.match(sentence))
    words = bool(cued or named or _NOW_RE.search(fact))
    read = statement(fact)
    values = said_values(fact) is not None  # "We switched from Stripe to Adyen", "X replaced Y" (corr10)
    framed = says_change(fact, cued) and _framed(fact, entries, cued) is not None  # B17-1
    slotted = _slotted(fact, entries, cued)  # one value slot changed, in any wording (sess12)
    switched = switched_line(fact, entries)  # "Now I use bun instead of pnpm" for the user's pnpm line (B30-1)
    ruled = words or values or framed or slotted or named_old or (read is not None and (read.change or cued))
    target = switched or (corrects(fact, entries, words or values, cued, frame=False) if ruled else None)
    close = target is not None and (tight(fact, target) or frame_tight(fact, target.text))
    if target is None and framed:
        target = _framed(fact, entries, cued)  # "I live in Lisbon now" (B17-1): tight when one value swapped
        close = target is not None and frame_tight(fact, target.text)
    if target is None:
        target = slotted
    meant = None
    if target is None:  # the line it talks about by meaning, a value swapped (sem15)
        meant = _meant(fact, [p for p in pool if p not in fact and fact not in p], entries)
        if meant is not None and not _only_value(fact, meant):
            meant = None  # by meaning only what says nothing but the new value: no proposal either
        target = meant
    if target is not None and target in (slotted, meant, named_old, switched):
        close = True
    if target is None and not cue:  # "Die Staging-Datenbank heißt jetzt juniper." for an English line: proposed
        target = other_language_line(fact, entries)  # (breaker29 B29-13, :mod:`.otherlang`)
    if target is not None:
        fact = slot_statement(fact, target.text)  # "My mistake earlier: X" keeps X (:mod:`.slotframe`)
    if meant is not None:
        note(fact, meant.text)
    return (fact, close) if target is not None and not _restated(fact, target) else None


def _before_request(sentence: str) -> str | None:
    """The statement before a request to the agent that ends ``sentence`` ("I switched from pnpm to bun now, use bun
    for installs": the first clause; breaker30 B30-1), or None when no clause after a comma is such a request."""
    head, sep, tail = sentence.partition(", ")
    return head if sep and task(tail) and not task(head) and len(head.split()) >= MIN_WORDS else None


def _corrections(texts: list[str], existing: Iterable[ExistingEntry]) -> list[tuple[str, bool]]:
    """The user's statements, said without "remember", that correct a stored line (breaker6 B6-3).

    A statement (:func:`memrepo.engine.format.remembering.said`: no question, no code or quote) counts when it
    is not a task for the agent (:func:`~memrepo.engine.format.remembering.task`) nor a supposition (:data:`_HYPOTHETICAL_RE`), has :data:`MIN_WORDS` words or more, reads as a correction
    (a lead-in of :data:`CUE_RE`; or it names what changed: "X, not Y", "X is now Y", "X is Y now", "from Y", a
    version it says changed: :func:`topic_terms`; a change word alone is not enough) and replaces a line of
    ``existing`` by the block's change rule or the subject relation (:func:`corrects`); or, read as one subject and
    value that says it changed (:func:`.samesubject.statement`: "We moved the deploy window to Wednesday last
    week"), corrects a line by the subject relation alone; or, related by no rule, gives the line it talks about by
    meaning (:func:`_meant`, :mod:`.meaningmatch`) a new value and says nothing else (:func:`_only_value`: "Deploys go
    out on Thursday mornings" for "Production deploys go out on Tuesday mornings"). What it gives is the statement
    less its lead-in.

    Args:
        texts: the user's messages (read from the harness's transcript: never an agent's words).
        existing: the entries the checkpoint listed.

    Returns:
        list[str]: the statements, in order, without the ones a request to remember already gives.
    """
    entries = list(existing)
    if not entries:
        return []
    asked = {fmt.normalize_text(s) for s in user_statements(texts)}
    pool = [without_leadin(s) for text in texts for s in said(text)]  # the user's sentences (:mod:`.meaningmatch`)
    per_message: list[list[tuple[str, bool]]] = []
    for text in texts:
        taken_back = retraction(text)
        if taken_back is not None and not without_leadin(text[:taken_back] + " x y").strip(" ,.;:!-—–xy"):
            for earlier in reversed(per_message):  # "Never mind, ...", "Forget that, ...": the last ones are taken back
                if earlier:
                    earlier.clear()
                    break
        if not own_short_message(text):
            per_message.append([])
            continue  # pasted text: a page, a mail, a log (breaker9 B9-7)
        mine: list[tuple[str, bool]] = []
        sentences = said(text)
        for i, sentence in enumerate(sentences):
            before, after = sentences[i - 1] if i else "", sentences[i + 1] if i + 1 < len(sentences) else ""
            if not_meant(before, sentence, after):
                continue  # "Yeah right. We switched from Stripe to Bitcoin." (breaker15 B15-12)
            if taken_back is not None and text.find(sentence) < taken_back:
                continue  # "No, X. Just kidding, ..." / "You said X. That's wrong." (breaker9 B9-1, B9-6)
            whole = sentence
            sentence, cue = cued_statement(sentence, before)  # "Kleine Korrektur: X", "訂正です。X" (issue 30, sess13)
            found = _read(sentence, before, cue, entries, mine, pool, asked)
            if found is None and (said_first := _before_request(sentence)):  # "X, use bun for installs" (B30-1)
                found = _read(said_first, before, cue, entries, mine, pool, asked)
            if (
                found is None and cue and sentence != whole
            ):  # the cue names the topic: "Me equivoqué con el puerto: es 8443"
                found = _read(whole, before, True, entries, mine, pool, asked)
            if found is not None:
                mine.append(found)
        per_message.append(mine)
    return [found for mine in per_message for found in mine]


__all__ = [
    "correction_statements",
    "corrects",
    "cued",
    "proposed_corrections",
    "remainder",
    "supersedes",
    "tight",
    "where",
]
