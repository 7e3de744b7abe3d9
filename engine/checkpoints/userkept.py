"""What the model-free checkpoint writes as the user's, with its kind, and where (corr10, docs/architecture.md §7).

:func:`kept_statements` gathers the statements a checkpoint keeps ``by: user`` from the user's messages: what they
asked to remember (:func:`memrepo.engine.format.remembering.user_statements`), their standing rules
(:func:`memrepo.engine.format.standing.rule_statements`: "Going forward, ...", "Please stop X-ing", "Ab sofort ...",
kept ``kind: rule``), a statement asked to be kept in mind with no "that" (:func:`.mindful.kept_in_mind`), the
corrections said without "remember" (:func:`.corrections.correction_statements`), and,
for a correction of one clause of a two-clause line, the other clause (:func:`.corrections.remainder`), so hiding
the old line loses nothing the user did not correct.

:func:`place` says where each goes: a rule replaces the one stored rule on its subject
(:func:`memrepo.engine.format.standing.same_rule`) in that rule's file, else goes to the user's rules (lessons.md,
global) or, said of the team ("we deploy ... from the release branch"), to the session's workspace; a kept clause
goes to its line's file and replaces nothing; any other statement goes where :func:`.corrections.where` says.
Pure functions of text and entries: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.layout import LESSONS_MD, MEMORY_MD, is_workspace_file
from memrepo.engine.format.mindful import kept_in_mind
from memrepo.engine.format.ownway import own_way
from memrepo.engine.format.pasted import handed_over_next
from memrepo.engine.format.preferences import own_setup, passing_preferences, prefers
from memrepo.engine.format.remembering import own_short_message, said, user_statements
from memrepo.engine.format.standing import (
    harmful,
    project_rule,
    rule_statements,
    rule_words,
    same_rule,
    taken_back,
)
from memrepo.engine.format.unasked import project_statement, unasked_statements

from .claims import ExistingEntry
from .corrections import correction_statements, cued, remainder, tight, where
from .projectfact import names_project
from .samesubject import clauses

RULE_KINDS = frozenset({"rule", "decision"})
"""Kinds of a stored line a newer rule may replace (besides any line of lessons.md or MEMORY.md)."""


class Kept(NamedTuple):
    """A statement the checkpoint keeps as the user's.

    Attributes:
        text: the statement, in the user's words less its lead-in.
        kind: ``rule`` for a standing rule, ``preference`` for one said in passing
            (:func:`memrepo.engine.format.preferences.passing_preferences`), else ``fact`` (a correction takes its
            line's kind when written).
        rest_of: for the kept clause of a corrected two-clause line, that line's text; else None.
    """

    text: str
    kind: str
    rest_of: str | None = None


_CACHE: dict[tuple, list[Kept]] = {}


def kept_statements(texts: list[str], existing: Iterable[ExistingEntry], heard: list[str] | None = None) -> list[Kept]:
    """The statements the checkpoint keeps ``by: user``, in order, each once (the module docstring).

    Args:
        texts: the user's messages.
        existing: the entries the checkpoint listed.
        heard: the messages read from the harness's own transcript (corrections are read from these only);
            ``texts`` when None.

    Returns:
        list[Kept]: the statements.
    """
    entries = list(existing)
    texts = handed_over_next(texts)  # the paste after "I'll paste it next" (B32-5)
    heard = texts if heard is None else handed_over_next(heard)
    key = (tuple(texts), tuple(heard), tuple((e.path, e.text, e.by, tuple(sorted(e.meta.items()))) for e in entries))
    if key in _CACHE:
        return list(_CACHE[key])
    rules = rule_statements(texts)
    rule_keys = {fmt.normalize_text(r) for r in rules}
    seen: set[str] = {fmt.normalize_text(r) for r in taken_back(texts)}  # "On second thought, ..." (B15-32)
    out: list[Kept] = []
    held = {fmt.normalize_text(r) for r in rules if _held_back(r, entries)}  # to the inbox (proposed_rules)
    ways = own_way(heard)  # "I review most PRs on my phone, so keep the diffs small" (sess17)
    liked = {fmt.normalize_text(p) for p in [*passing_preferences(heard), *ways]}  # said in passing (issue 30)
    passing = [*passing_preferences(heard), *ways, *own_setup(heard)]  # "I switched my terminal to fish" (sess14)
    unasked = unasked_statements(heard)  # "For this project X is Y", "until Friday X is Y" (sess15)
    unasked += kept_in_mind(heard)  # "so keep in mind the health check lives under /v2" (sess17)
    corrected = correction_statements(heard, entries)
    liked -= {fmt.normalize_text(c) for c in corrected}  # "I use zsh, not fish" for "I use fish": its line's kind
    asked = user_statements(texts)
    for fact in [*asked, *rules, *corrected, *passing, *unasked]:
        norm = fmt.normalize_text(fact)
        too_long = len(fact) > 500 and fact not in asked and fact not in rules  # asked: in parts (.longsaid)
        if len(fact) < 3 or too_long or norm in seen or norm in held:
            continue
        seen.add(norm)
        out.append(Kept(fact, "rule" if norm in rule_keys else "preference" if norm in liked else "fact"))
    out = _corrected_in_batch(out, texts, heard)  # "Remember that X." then "No wait, Y." (breaker17 B17-5)
    compound = any(clauses(e.text) for e in entries)  # no two-clause line listed: no clause to keep
    for kept in list(out) if compound else []:
        if kept.kind == "rule":
            continue
        _scope, target = where(kept.text, None, entries, cued(kept.text, heard))
        rest = remainder(kept.text, target) if target is not None else None
        if rest is not None and fmt.normalize_text(rest) not in seen:
            seen.add(fmt.normalize_text(rest))
            out.append(Kept(rest, "fact", target.text))  # type: ignore[union-attr]  # target is set with rest
    if len(_CACHE) > 16:
        _CACHE.clear()
    _CACHE[key] = out
    return list(out)


def _sentences(message: str) -> list[str]:
    """A short message of the user's own (:func:`.remembering.own_short_message`) as its statements, each ended
    with a full stop; any other message whole."""
    parts = said(message) if own_short_message(message) else []
    return [f"{part}." for part in parts] if len(parts) > 1 else [message]


def _corrected_in_batch(out: list[Kept], texts: list[str], heard: list[str]) -> list[Kept]:
    """``out`` less each request to remember that a later message of the batch corrects, with that correction
    (breaker17 B17-5): "Remember that the deploy window is Tuesday." then "No wait, the deploy window is Wednesday."
    keeps Wednesday only. The requests are asked as if stored before the message that corrects them (the same rule
    as for a stored line, :func:`.corrections.correction_statements`); a correction that says more than the new value
    (not :func:`.corrections.tight`) or one of a later request leaves the request as it is. A short message is read
    sentence by sentence: "Remember that the logo is teal. No wait, the logo is orange." keeps orange only."""
    asked = [k for k in out if k.kind == "fact" and k.rest_of is None]
    heard = [part for message in heard for part in _sentences(message)]
    if not asked or len(heard) < 2:
        return out
    first: dict[str, int] = {}  # a request's text -> the index of the heard message that asked it
    for i in range(len(heard)):
        for fact in user_statements(heard[: i + 1]):
            first.setdefault(fmt.normalize_text(fact), i)
    dropped: set[str] = set()
    added: list[Kept] = []
    for j in range(1, len(heard)):
        before = [k for k in asked if first.get(fmt.normalize_text(k.text), j) < j]
        own = [ExistingEntry(f"R{n}", "", n, k.text, "user", {}) for n, k in enumerate(before)]
        for fact in correction_statements([heard[j]], own) if own else []:
            _scope, target = where(fact, None, own, cued(fact, [heard[j]]))
            if target is not None and tight(fact, target):
                dropped.add(fmt.normalize_text(target.text))
                added.append(Kept(fact, "fact"))
    if not dropped:
        return out
    have = {fmt.normalize_text(k.text) for k in out}
    kept = [k for k in out if fmt.normalize_text(k.text) not in dropped]
    for new in added:
        if fmt.normalize_text(new.text) not in have and fmt.normalize_text(new.text) not in dropped:
            have.add(fmt.normalize_text(new.text))
            kept.append(new)
    return kept


_CHECKS_RE = re.compile(r"\b(?:tests?|test\s+suite|checks?|ci|linters?|lint|reviews?|hooks?)\b", re.IGNORECASE)
"""What a rule that stops it skips: "never run the full test suite before pushing" is the skip-tests case."""
_NEGATED_RE = re.compile(r"\b(?:never|don['’]?t|do\s+not|stop|no\s+longer|not)\b", re.IGNORECASE)


def _held_back(rule: str, entries: list[ExistingEntry]) -> bool:
    """Whether a rule goes to the inbox instead of the user's rules: a harmful one
    (:func:`~memrepo.engine.format.standing.harmful`, unless it forbids it: "never push straight to main"), one that
    says the opposite of a stored rule it does not replace ("Push straight to main" beside "Never push to main"), or
    the stored rule turned around with no new value ("Never squash merges" for "Always squash merges"; or one that
    stops running tests or checks, :data:`_CHECKS_RE`), as docs/agents.md says (breaker17 B17-14)."""
    negated = bool(_NEGATED_RE.search(rule))
    if harmful(rule):
        return True
    mine = {stem for stem, _w, _b in rule_words(rule)}
    for e in entries:
        if not _rule_line(e) or negated == bool(_NEGATED_RE.search(e.text)):
            continue
        if same_rule(rule, e.text):
            if mine <= {s for s, _w, _b in rule_words(e.text)} or (negated and _CHECKS_RE.search(rule)):
                return True  # "Never squash merges" for "Always squash merges": the user picks (breaker17 B17-14)
            continue  # "Stop writing commit messages in English; write them in German": a new value, it replaces
        theirs = rule_words(e.text)
        same_verb = [w[0] for w in rule_words(rule)[:1]] == [w[0] for w in theirs[:1]]
        if theirs and same_verb and len(mine & {s for s, _w, _b in theirs}) >= 2:
            return True  # "push straight to main" beside "Never push to main": the opposite, for the user to pick
    return False


def proposed_rules(texts: list[str], existing: Iterable[ExistingEntry]) -> list[str]:
    """The user's rules that wait in the inbox as proposals, never written ``by: user`` (:func:`_held_back`).

    Args:
        texts: the user's messages.
        existing: the entries the checkpoint listed.

    Returns:
        list[str]: the rules.
    """
    entries = list(existing)
    return [r for r in rule_statements(texts) if _held_back(r, entries)]


def _rule_line(entry: ExistingEntry) -> bool:
    return entry.path in (LESSONS_MD, MEMORY_MD) or entry.meta.get("kind", "") in RULE_KINDS


def place(
    text: str, kind: str, workspace: str | None, existing: Iterable[ExistingEntry], texts: list[str]
) -> tuple[str, ExistingEntry | None]:
    """Where a statement the checkpoint keeps as the user's goes: ``"global"`` or ``"workspace"``, and the line it
    replaces (the module docstring).

    Args:
        text: the statement.
        kind: its kind (``rule`` for a standing rule).
        workspace: the session's workspace, or None.
        existing: the entries the checkpoint listed.
        texts: the user's messages it was read from (heard from the harness's transcript).

    Returns:
        tuple: the scope, and the replaced line or None.
    """
    entries = list(existing)
    if kind == "rule":
        if project_rule(text, workspace) and workspace:
            return "workspace", None  # a rule for this project replaces no rule for all (breaker15 B15-13, B15-23)
        found = {e.text.casefold(): e for e in entries if _rule_line(e) and same_rule(text, e.text)}
        if len(found) == 1:
            target = next(iter(found.values()))
            return ("workspace" if is_workspace_file(target.path) and workspace else "global"), target
        return "global", None
    want = fmt.normalize_text(text)
    for kept in kept_statements(texts, entries):
        if kept.rest_of is not None and fmt.normalize_text(kept.text) == want:
            line = next((e for e in entries if e.text == kept.rest_of), None)
            inside = line is not None and is_workspace_file(line.path) and workspace
            return ("workspace" if inside else "global"), None
    scope, corrected = where(text, workspace, entries, cued(text, texts))
    if corrected is None and prefers(text) and not names_project(text, workspace):
        return "global", None  # the user's own preference, in any language: me.md (issue 30)
    if workspace and project_statement(text):
        return "workspace", corrected  # "I det här projektet ...": said for this project (sess15)
    return scope, corrected


__all__ = ["Kept", "kept_statements", "place", "proposed_rules"]
