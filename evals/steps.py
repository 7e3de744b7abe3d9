"""Eval setup steps and query targets, in registries a case names by ``op`` and ``target`` (docs/architecture.md §10).

:data:`STEPS` and :data:`TARGETS` hold the built-in ones; :func:`step` and
:func:`target` register more, so a later feature (checkpoints, say) adds its
own steps without changing the case format or :mod:`memrepo.evals.runner`. Steps
run on a fresh repo; in their string arguments ``{root}`` stands for the
repo's folder. No step runs a process (the engine never does).
"""

from __future__ import annotations

import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memrepo.engine.errors import MemrepoError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


@dataclass
class EvalRun:
    """One case's repo while its steps and queries run.

    Attributes:
        store: the fresh repo's store.
        root: its folder.
    """

    store: MemoryStore
    root: Path
    notes: list[str] = field(default_factory=list)

    def fill(self, value: Any) -> Any:
        """``value`` with ``{root}`` replaced by the repo folder (strings only)."""
        return value.replace("{root}", str(self.root)) if isinstance(value, str) else value


StepFn = Callable[[EvalRun, dict[str, Any]], None]
TargetFn = Callable[[EvalRun, dict[str, Any], tuple[str, ...]], dict[str, str | None]]
"""A target answers, for each needle, where it was found (a short place) or None."""

STEPS: dict[str, StepFn] = {}
"""Setup steps by ``op``."""

TARGETS: dict[str, TargetFn] = {}
"""Query targets by name."""


def step(name: str) -> Callable[[StepFn], StepFn]:
    """Register a setup step ``op = name`` (a function ``(run, args) -> None``)."""

    def add(fn: StepFn) -> StepFn:
        STEPS[name] = fn
        return fn

    return add


def target(name: str) -> Callable[[TargetFn], TargetFn]:
    """Register a query target (a function ``(run, args, needles) -> {needle: place or None}``)."""

    def add(fn: TargetFn) -> TargetFn:
        TARGETS[name] = fn
        return fn

    return add


def inside(base: Path, rel: Any, what: str) -> Path:
    """``base / rel`` if it stays inside ``base`` once every symlink is resolved.

    Args:
        base (Path): the folder a case may touch (the case's temp repo, or its ``.git/hooks``).
        rel (Any): the relative path a case file gave (a string).
        what (str): the step or target and argument, for the message.

    Returns:
        Path: the joined path (not resolved).

    Raises:
        MemrepoError: ``rel`` is not a non-empty string, is absolute, or leads
            outside ``base`` (``..`` parts or a symlink pointing out). Case files
            come from anyone, so a step never touches a path outside its repo.
    """
    if not isinstance(rel, str) or not rel.strip() or "\x00" in rel:
        raise MemrepoError(f"{what}: needs a relative path, got {rel!r}")
    if Path(rel).is_absolute():
        raise MemrepoError(f"{what}: path {rel!r} is absolute; give a path inside the repo")
    path = base / rel
    if not path.resolve().is_relative_to(base.resolve()) or path.resolve() == base.resolve():
        raise MemrepoError(f"{what}: path {rel!r} leaves {base.name or base}")
    return path


def _relative(run: EvalRun, value: Any) -> Any:
    """``value`` relative to the repo when it is ``{root}``-filled into an absolute path inside it."""
    if isinstance(value, str) and Path(value).is_absolute() and Path(value).is_relative_to(run.root):
        return str(Path(value).relative_to(run.root))
    return value


def _args(args: dict[str, Any], run: EvalRun) -> dict[str, Any]:
    return {k: run.fill(v) for k, v in args.items() if k != "op"}


@step("remember")
def _remember(run: EvalRun, args: dict[str, Any]) -> None:
    cand = Candidate.model_validate({"origin": "cli", **_args(args, run)})
    run.notes.append(f"remember: {run.store.remember(cand).action}")


@step("write_file")
def _write_file(run: EvalRun, args: dict[str, Any]) -> None:
    """A hand edit or a planted file: ``path``, ``text``, ``mode`` append (default) or replace."""
    a = _args(args, run)
    path = inside(run.root, _relative(run, a.get("path")), "write_file")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a" if a.get("mode", "append") == "append" else "w", encoding="utf-8") as fh:
        fh.write(a["text"])


@step("commit_hand_edits")
def _commit_hand_edits(run: EvalRun, args: dict[str, Any]) -> None:
    run.store.commit_hand_edits()


def _find_ref(run: EvalRun, contains: str) -> tuple[str, str]:
    for rel, _size in run.store.list_files():
        if not rel.endswith(".md"):
            continue
        for entry in run.store.read_file(rel).entries:
            if contains in entry.text:
                return entry.ref, entry.text
    raise MemrepoError(f"no entry holds {contains!r}")


@step("forget")
def _forget(run: EvalRun, args: dict[str, Any]) -> None:
    """Forget the first entry holding ``contains``; ``compact = true`` compacts too."""
    a = _args(args, run)
    ref, text = _find_ref(run, a["contains"])
    run.store.forget(ref, expect=text, compact=bool(a.get("compact", False)))


@step("compact")
def _compact(run: EvalRun, args: dict[str, Any]) -> None:
    run.store.compact()


@step("plant_hook")
def _plant_hook(run: EvalRun, args: dict[str, Any]) -> None:
    """An executable ``.git/hooks/<name>`` holding ``script``."""
    a = _args(args, run)
    hooks = run.root / ".git" / "hooks"
    if hooks.is_symlink() or (hooks.exists() and not hooks.resolve().is_relative_to(run.root.resolve())):
        raise MemrepoError("plant_hook: .git/hooks leads outside the repo")
    hooks.mkdir(parents=True, exist_ok=True)
    hook = inside(hooks, a.get("name"), "plant_hook name")
    if hook.parent.resolve() != hooks.resolve():
        raise MemrepoError(f"plant_hook name: {a.get('name')!r} is not a file name in .git/hooks")
    if hook.is_symlink():
        raise MemrepoError(f"plant_hook name: .git/hooks/{a.get('name')} is a symlink")
    hook.write_text(a["script"], encoding="utf-8")
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


@step("archive_workspace")
def _archive(run: EvalRun, args: dict[str, Any]) -> None:
    a = _args(args, run)
    run.store.archive_workspace(a["workspace"], force=bool(a.get("force", True)))


@step("restore_workspace")
def _restore(run: EvalRun, args: dict[str, Any]) -> None:
    run.store.restore_workspace(_args(args, run)["workspace"])


def _in_texts(texts: list[tuple[str, str]], needles: tuple[str, ...]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for needle in needles:
        out[needle] = next((where for where, text in texts if needle in text), None)
    return out


@target("context")
def _context(run: EvalRun, args: dict[str, Any], needles: tuple[str, ...]) -> dict[str, str | None]:
    """The context block for ``workspace`` (none: MEMORY.md alone)."""
    block = run.store.context(_args(args, run).get("workspace"))
    return _in_texts([("context block", block.text)], needles)


@target("recall")
def _recall(run: EvalRun, args: dict[str, Any], needles: tuple[str, ...]) -> dict[str, str | None]:
    """Recall hits for ``query`` in ``workspace`` (none: every file); each hit's text and path."""
    a = _args(args, run)
    hits = run.store.recall(a["query"], workspace=a.get("workspace"), limit=int(a.get("limit", 50)))
    return _in_texts([(h.ref, f"{h.path}\n{h.text}") for h in hits], needles)


def _work_files(run: EvalRun) -> list[tuple[str, str]]:
    out = []
    for rel, _size in run.store.list_files():
        full = run.root / rel
        if full.is_file() and not full.is_symlink():
            out.append((rel, full.read_bytes().decode("utf-8", "replace")))
    return out


@target("file")
def _file(run: EvalRun, args: dict[str, Any], needles: tuple[str, ...]) -> dict[str, str | None]:
    """The raw text of one work-tree file ``path`` (missing: empty)."""
    rel = _relative(run, _args(args, run).get("path"))
    full = inside(run.root, rel, "file target")
    text = full.read_bytes().decode("utf-8", "replace") if full.is_file() else ""
    return _in_texts([(rel, text)], needles)


@target("files")
def _files(run: EvalRun, args: dict[str, Any], needles: tuple[str, ...]) -> dict[str, str | None]:
    """Every byte of every work-tree file (not ``.git``)."""
    return _in_texts(_work_files(run), needles)


@target("git")
def _git(run: EvalRun, args: dict[str, Any], needles: tuple[str, ...]) -> dict[str, str | None]:
    """Every byte under ``.git``: raw, inflated, every object (:func:`memrepo.engine.git.scan.git_traces`)."""
    from memrepo.engine.git.scan import git_traces

    found = git_traces(run.root, list(needles))
    return {n: (found[n][0] if found.get(n) else None) for n in needles}


# -- checkpoints: a distillation queued, a session deleted meanwhile --


@step("checkpoint_queue")
def _checkpoint_queue(run: EvalRun, args: dict[str, Any]) -> None:
    """Buffer one user turn of ``session`` (in ``cwd``'s workspace, if given) saying ``text``, and claim it.

    The claim waits in the run until ``checkpoint_finish``, as a distillation
    queued behind a model call would.
    """
    from memrepo.engine.checkpoints.checkpoint import Checkpointer

    a = _args(args, run)
    checkpointer = run.__dict__.setdefault("checkpointer", Checkpointer(run.store.state_dir))
    session = str(a.get("session", "eval-session"))
    messages = [
        {"id": f"{session}/u1", "role": "user", "text": str(a["text"])},
        {"id": f"{session}/a1", "role": "assistant", "text": "Noted."},
    ]
    _result, claim = checkpointer.submit(session, a.get("cwd") or None, messages, "force")
    if claim is None:
        raise MemrepoError("the checkpoint was not claimed for distillation")
    run.__dict__.setdefault("claims", []).append(claim)


@step("forget_session")
def _forget_session(run: EvalRun, args: dict[str, Any]) -> None:
    """Delete ``session``: its buffer, a tombstone for queued work, and what it already wrote."""
    a = _args(args, run)
    checkpointer = run.__dict__.get("checkpointer")
    if checkpointer is None:
        raise MemrepoError("forget_session needs a checkpoint_queue step first")
    checkpointer.forget_session(str(a["session"]))
    run.store.purge_task(str(a["session"]))


@step("checkpoint_finish")
def _checkpoint_finish(run: EvalRun, args: dict[str, Any]) -> None:
    """Run every queued distillation to the end (the offline ``rules`` provider) and write its result."""
    from memrepo.engine.checkpoints.flow import finish_claim

    checkpointer = run.__dict__.get("checkpointer")
    for claim in run.__dict__.pop("claims", []):
        assert checkpointer is not None  # the step that queued a claim made it
        finish_claim(run.store, checkpointer, run.store.settings, claim)
