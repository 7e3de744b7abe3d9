"""Dream operations: the model's answer read strictly, each operation validated and classified.

docs/architecture.md §6: ``add {path, text, evidence, quote}``, ``edit {line, text}``,
``delete {line, keep?}``, ``move {line, path}``, ``merge {lines, text, path}``,
``promote {line, path}``, each with a ``reason`` and, optionally, the
``relation`` of its lines (duplicate, replacement, restatement, extension).
The answer must be one JSON object ``{"operations": [...]}`` that pydantic
accepts with no extra field, or the whole run fails and nothing changes
(:func:`parse_output`).

Then every operation on its own (:func:`plan`): invalid ones are dropped and
counted with a code (unknown alias, unsafe path, ``.git``, inbox as target,
secret-only text, over a limit, more than 40, a second operation on one
line, ...). The rest are classified: **auto** only when every touched line is
``by: agent``, nothing touches MEMORY.md or the inbox, the operation passes
the merge and provenance rules (:mod:`memrepo.engine.dreams.checks`: a merge
or a delete's kept line only of lines equal in form, no relation marked, a
new entry's quote typed by the user in a short message, nothing
instruction-shaped), and (memrepo's guard against "delete everything"
planted in data) a plain delete removes only a line equal to one that stays;
everything else is **review**. Reasons are recorded with file lines for the
input's aliases.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memrepo.engine.errors import MemrepoError, RefError
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.cleantext import clean_in
from memrepo.engine.format.limits import ENTRY_MAX_CHARS
from memrepo.engine.format.paths import safe_relpath

from .checks import add_reason, edit_reason, keep_reason, merge_reason, relation_reason, without_aliases
from .input import INBOX_MD, MAX_OPERATIONS, MEMORY_MD, DreamInput, LineRef
from .record import OpRecord
from .remembers import said_as_rule, said_by_user
from .same import equal_key, numbers

MAX_OUTPUT_CHARS = 200_000
"""A model answer longer than this is refused whole (characters)."""
NO_MEMORY = "<no-memory>"


class ProviderError(MemrepoError):
    """The model call or its answer failed; the run is recorded failed and nothing changes."""


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    reason: str = Field(default="", max_length=2000)
    relation: Literal["duplicate", "replacement", "restatement", "extension"] | None = None


class AddOp(_Op):
    """A new entry, supported by the user's words in a task."""

    op: Literal["add"]
    path: str = Field(max_length=300)
    text: str = Field(max_length=4000)
    evidence: list[str] = Field(default_factory=list, max_length=20)
    quote: str = Field(default="", max_length=4000)


class EditOp(_Op):
    """New text for one entry line."""

    op: Literal["edit"]
    line: str = Field(max_length=20)
    text: str = Field(max_length=4000)


class DeleteOp(_Op):
    """Remove one entry line."""

    op: Literal["delete"]
    line: str = Field(max_length=20)
    keep: str | None = Field(default=None, max_length=20)


class MoveOp(_Op):
    """Move one entry line to another file."""

    op: Literal["move"]
    line: str = Field(max_length=20)
    path: str = Field(max_length=300)


class MergeOp(_Op):
    """Replace several lines with one entry in ``path``."""

    op: Literal["merge"]
    lines: list[str] = Field(min_length=2, max_length=40)
    text: str = Field(max_length=4000)
    path: str = Field(max_length=300)


class PromoteOp(_Op):
    """Move an (untrusted) inbox line into a memory file."""

    op: Literal["promote"]
    line: str = Field(max_length=20)
    path: str = Field(max_length=300)


Operation = Annotated[AddOp | EditOp | DeleteOp | MoveOp | MergeOp | PromoteOp, Field(discriminator="op")]


class DreamOutput(BaseModel):
    """The model's whole answer."""

    model_config = ConfigDict(extra="forbid", strict=True)

    operations: list[Operation] = Field(max_length=400)


def parse_output(raw: str) -> DreamOutput:
    """Read the model's answer strictly.

    Args:
        raw: the text the provider returned (one ```json fence around it is allowed).

    Returns:
        DreamOutput: the operations, not yet validated against the repo.

    Raises:
        ProviderError: oversized, not JSON, or not the schema (an extra
            field, a wrong type, an unknown ``op``); the message says which.
    """
    if len(raw) > MAX_OUTPUT_CHARS:
        raise ProviderError(f"the model's answer is {len(raw):,} characters, over the {MAX_OUTPUT_CHARS:,} limit")
    from memrepo.engine.format.modeljson import extract

    body = extract(raw)  # a fence in any case, or prose around the JSON
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ProviderError(f"the model's answer is not JSON ({exc.msg} at character {exc.pos})") from exc
    except ValueError as exc:  # e.g. an integer over Python's digit limit
        raise ProviderError(f"the model's answer is not JSON ({exc})") from exc
    try:
        return DreamOutput.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        what = "unexpected field" if err["type"] == "extra_forbidden" else err["msg"]
        raise ProviderError(f"the model's answer does not fit the schema: {where}: {what}") from exc


@dataclass(slots=True)
class Planned:
    """One operation after validation.

    Attributes:
        record: what is recorded (classification, rejection, texts).
        removes: aliases of lines it removes (delete, move, merge, promote).
        replaces: alias -> the new entry for that line (edit).
        appends: ``(path, entry-maker)`` pairs: the entries it adds; the
            maker takes ``by`` (auto keeps ``agent``, review writes ``user``).
    """

    record: OpRecord
    removes: list[str] = field(default_factory=list)
    replaces: dict[str, str] = field(default_factory=dict)
    appends: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)


def _check_path(raw: str) -> tuple[str | None, str | None]:
    """A target path, or a rejection code (control characters in a name are unsafe too)."""
    if ".." in raw.replace("\\", "/").split("/") or any(unicodedata.category(c) in ("Cc", "Cf") for c in raw):
        return None, "unsafe_path"
    try:
        rel = safe_relpath(raw)
    except RefError as exc:
        return None, "git_path" if ".git" in str(exc) else "unsafe_path"
    if any(part.startswith(".") for part in rel.split("/")):
        return None, "git_path" if rel.split("/")[0].lower() == ".git" else "unsafe_path"
    if rel == INBOX_MD:
        return None, "inbox_target"
    if not rel.endswith(".md"):
        return None, "not_markdown"
    return rel, None


def _check_text(raw: str) -> tuple[str | None, str | None]:
    """Clean, screened entry text, or a rejection code (the shared screen of docs/architecture.md §3)."""
    from memrepo.engine.format.entrytext import clean_text
    from memrepo.engine.write.policy import _MARK_RE, redact, word_count

    text = clean_text(clean_in(raw))  # what remember strips, a dream strips (docs/architecture.md §3)
    if NO_MEMORY in text.casefold():
        return None, "no_memory"
    if not text:
        return None, "empty_text"
    text, types = redact(text)
    if len(text) > ENTRY_MAX_CHARS:
        return None, "over_limit"
    if word_count(_MARK_RE.sub(" ", text)) < 2:
        return None, "secret" if types else "filler"
    entry = fmt.parse_entry(f"- {text}") if "[" in text and text.rstrip().endswith("]") else None
    if entry is not None and entry.meta:
        return None, "metadata_in_text"
    return text, None


def _redacted(text: str) -> str:
    """Model-provided free text as recorded: one line, control characters and bidi overrides dropped
    (terminal escapes never reach a record, a screen or a terminal), secrets redacted."""
    from memrepo.engine.format.entrytext import clean_text
    from memrepo.engine.write.policy import redact

    return redact(clean_text(clean_in(text)))[0]


def _name(text: str) -> str:
    """A model-provided alias or path as recorded: control characters dropped (it is validated apart)."""
    from memrepo.engine.format.entrytext import clean_text

    return clean_text(text)


def plan(output: DreamOutput, din: DreamInput, existing: set[str], root: Path) -> list[Planned]:
    """Validate and classify every operation (docs/architecture.md §6).

    Args:
        output: the parsed answer.
        din: the input the answer refers to.
        existing: every file path in the work tree.
        root: the work tree (a target must not be a folder or symlink).

    Returns:
        list[Planned]: one per proposed operation, in order; rejected ones
        carry their code and change nothing.
    """
    taken: set[str] = set()
    out: list[Planned] = []
    removed_texts: dict[str, int] = {}
    kept_lines: list[tuple[Planned, str]] = []
    for n, op in enumerate(output.operations):
        rec = OpRecord(op=op.op, reason=_redacted(without_aliases(op.reason, din)), relation=op.relation)
        item = Planned(rec)
        out.append(item)

        def reject(code: str, detail: str, item: Planned = item) -> None:
            item.record.classification = "rejected"
            item.record.rejection = code
            item.record.detail = detail
            item.removes, item.replaces, item.appends = [], {}, []

        aliases = list(op.lines) if isinstance(op, MergeOp) else ([] if isinstance(op, AddOp) else [op.line])
        rec.lines = [_name(a) for a in aliases]
        if isinstance(op, AddOp | MoveOp | MergeOp | PromoteOp):
            rec.path = _name(op.path)
        if isinstance(op, AddOp | EditOp | MergeOp):
            rec.text = _redacted(op.text)
        if isinstance(op, AddOp):
            rec.evidence = [_name(t) for t in op.evidence]
            rec.quote = _redacted(op.quote)
        if n >= MAX_OPERATIONS:
            reject("too_many", f"more than {MAX_OPERATIONS} operations: only the first {MAX_OPERATIONS} count")
            continue
        refs: list[LineRef] = []
        unknown = [a for a in aliases if a not in din.lines]
        if unknown or (isinstance(op, AddOp) and any(t not in din.tasks for t in op.evidence)):
            reject("unknown_alias", "names a line or task alias that was not in the input")
            continue
        kept = None
        if isinstance(op, DeleteOp) and op.keep is not None:
            kept = din.lines.get(op.keep)
            if kept is None or op.keep == op.line or kept.inbox:
                reject("unknown_alias", "the line it keeps is not a folder line of the input, or is the line itself")
                continue
            rec.kept_ref, rec.kept_text = f"repo:{kept.path}#L{kept.line}", kept.text
        refs = [din.lines[a] for a in aliases]
        rec.refs = [f"repo:{r.path}#L{r.line}" for r in refs]
        rec.before = "\n".join(r.text for r in refs)
        if len(set(aliases)) != len(aliases) or any(a in taken for a in aliases):
            reject("line_taken", "a line may have one operation per dream; an earlier one has it")
            continue
        if any(r.header for r in refs):
            reject("workspace_header", "the entry naming a workspace file's workspace stays in place")
            continue
        target = None
        if isinstance(op, AddOp | MoveOp | MergeOp | PromoteOp):
            target, code = _check_path(op.path)
            if code is not None:
                reject(
                    code, "the target path is not a safe markdown path in the memory repo (never .git, never inbox.md)"
                )
                continue
            assert target is not None  # _check_path names a path whenever it names no code
            full = root / target
            if full.is_symlink() or full.is_dir():
                reject("unsafe_path", "the target is a folder or a symlink")
                continue
            rec.path = target
        text = None
        if isinstance(op, AddOp | EditOp | MergeOp):
            text, code = _check_text(op.text)
            if code is not None:
                reject(code, "the text did not pass the write screen (secrets, <no-memory>, length, filler)")
                continue
            assert text is not None  # _check_text gives text whenever it gives no code
            rec.text = text
        if isinstance(op, PromoteOp) and not refs[0].inbox:
            reject("not_inbox", "promote takes an inbox line")
            continue
        if isinstance(op, MoveOp) and target == refs[0].path:
            reject("no_change", "the line is in that file already")
            continue
        taken.update(aliases)
        # -- what it does -------------------------------------------------
        if isinstance(op, AddOp):
            assert target is not None and text is not None  # both checked above for an add
            source = din.tasks[op.evidence[0]].id if op.evidence else None
            meta = {"source": source} if source else {}
            if said_by_user(text, [din.tasks[t] for t in op.evidence]):
                meta["by"] = "user"  # the user's own "remember that" words (the checkpoint's trust rule)
                if said_as_rule(text, [din.tasks[t] for t in op.evidence]):
                    meta["kind"] = "rule"  # "From now on, X" (corr11)
            item.appends.append((target, text, meta))
        elif isinstance(op, EditOp):
            assert text is not None
            item.replaces[aliases[0]] = text
        elif isinstance(op, DeleteOp):
            item.removes.append(aliases[0])
        elif isinstance(op, MoveOp | PromoteOp):
            assert target is not None
            item.removes.append(aliases[0])
            # A moved line keeps its author; a promoted inbox line stays the agent's (docs/architecture.md §6).
            dropped = ("by", "workspace") if isinstance(op, PromoteOp) else ("workspace",)
            meta = {k: v for k, v in refs[0].meta.items() if k not in dropped}
            item.appends.append((target, refs[0].text, meta))
        elif isinstance(op, MergeOp):
            assert target is not None and text is not None
            item.removes.extend(aliases)
            kind = next((r.meta["kind"] for r in refs if r.meta.get("kind")), None)
            meta = {"kind": kind} if kind else {}
            if all(r.by == "user" for r in refs):
                meta["by"] = "user"  # the user's own lines merged stay the user's (with via: dream when reviewed)
            item.appends.append((target, text, meta))
        rec.after = "\n".join(t for _, t, _ in item.appends) or "\n".join(item.replaces.values())
        for a in item.removes:
            key = same_key(din.lines[a].text)
            removed_texts[key] = removed_texts.get(key, 0) + 1
        if kept is not None and isinstance(op, DeleteOp):
            kept_lines.append((item, op.keep or ""))
        # -- classification ------------------------------------------------
        why = _review_reason(op, refs, target, existing, din, kept)
        if why is None:
            rec.classification, rec.detail = "auto", "agent lines only, outside MEMORY.md and the inbox"
        else:
            rec.classification, rec.detail = "review", why
    _demote_unsafe_deletes(out, din, removed_texts, kept_lines)
    return out


def _review_reason(
    op: object, refs: list[LineRef], target: str | None, existing: set[str], din: DreamInput, kept: LineRef | None
) -> str | None:
    """Why an operation needs the user's review, or None when it may apply automatically.

    The merge and provenance rules are :mod:`memrepo.engine.dreams.checks` (docs/architecture.md §6).
    """
    if any(r.inbox for r in refs) or isinstance(op, PromoteOp):
        return "touches the untrusted inbox: only the user moves inbox text"
    if any(r.path == MEMORY_MD for r in refs) or target == MEMORY_MD:
        return "touches MEMORY.md, which every session reads"
    if any(r.by != "agent" for r in refs):
        return "touches the user's own lines"
    if target is not None and target not in existing:
        return "creates a new file (and its index link in MEMORY.md)"
    why = relation_reason(getattr(op, "relation", None))
    if why is not None:
        return why
    if isinstance(op, MergeOp):
        why = merge_reason(op.text, refs)
        if why is not None:
            return why
    if isinstance(op, DeleteOp) and kept is not None:
        why = keep_reason(refs[0], kept)
        if why is not None:
            return why
    if isinstance(op, EditOp | MergeOp):
        return edit_reason(op.text, refs)
    if isinstance(op, AddOp):
        return add_reason(op.text, op.quote, op.evidence, din)
    return None


def _demote_unsafe_deletes(
    items: list[Planned], din: DreamInput, removed: dict[str, int], kept_lines: list[tuple[Planned, str]]
) -> None:
    """A plain delete is automatic only when an equal entry stays (a pure de-duplication, docs/architecture.md §6).

    Equal: the same text but for form (:func:`memrepo.engine.dreams.same.equal`). A delete that names
    the line it keeps is automatic only while no other operation of the dream removes that line.
    """
    live = [item for item in items if item.record.classification != "rejected"]
    touched = {a for item in live for a in item.removes} | {a for item in live for a in item.replaces}
    for item, keep in kept_lines:
        if item.record.classification == "auto" and keep in touched:
            item.record.classification = "review"
            item.record.detail = "another operation of this dream changes the line it keeps: the user decides"
    if not any(item.record.op == "delete" and item.record.classification == "auto" for item in items):
        return
    remaining: dict[str, int] = {}
    for ref in din.lines.values():
        if not ref.inbox:
            key = same_key(ref.text)
            remaining[key] = remaining.get(key, 0) + 1
    for key, count in removed.items():
        remaining[key] = remaining.get(key, 0) - count
    for item in items:
        rec = item.record
        if rec.op == "delete" and rec.classification == "auto":
            key = same_key(din.lines[rec.lines[0]].text)
            if remaining.get(key, 0) < 1:
                rec.classification = "review"
                rec.detail = "a delete that is not a duplicate removes information: the user decides"


def same_key(text: str) -> str:
    """What two equal entries share (:func:`memrepo.engine.dreams.same.equal`): the key and the numbers."""
    return equal_key(text) + "\0" + " ".join(numbers(text))


def counts(items: list[Planned]) -> tuple[dict[str, int], dict[str, int]]:
    """``{proposed, auto, review, rejected}`` and rejection code -> count."""
    out = {"proposed": len(items), "auto": 0, "review": 0, "rejected": 0}
    reasons: dict[str, int] = {}
    for item in items:
        out[item.record.classification] += 1
        if item.record.rejection:
            reasons[item.record.rejection] = reasons.get(item.record.rejection, 0) + 1
    return out, reasons
