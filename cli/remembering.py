"""``memrepo remember``'s body, shared by the click command and the write server (docs/architecture.md §4).

:func:`remember` checks the options, builds the candidate, writes it through
the store's governed writer and returns what the command prints and its exit
code as a :class:`Reply`, so the click command (:mod:`memrepo.cli.main`) and
the write server (:mod:`memrepo.cli.writeserver`), which answers for a new
``memrepo remember`` process, print the same bytes.

Errors are one line and a non-zero exit, as every command: 1 for a refused or
failed write, 2 for bad usage; a write kept while the repo is blocked is one line
"kept: not written yet, ..." and exit 3 (:data:`KEPT_EXIT`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memrepo.engine.repo.store import MemoryStore

OPTIONS = ("kind", "scope", "workspace", "subject", "supersedes", "by", "source", "task", "origin_text")
"""The valued options of ``memrepo remember`` (their dict keys), besides the text."""
FLAGS = ("pin", "untrusted", "as_json")
"""Its flags."""
KEPT_EXIT = 3
"""The exit code of a write kept while the repo is blocked, as ``memrepo status`` exits when a write is blocked."""


@dataclass(slots=True)
class Reply:
    """What one ``memrepo remember`` prints and how it exits.

    Attributes:
        out: its standard output (each line ends with a newline).
        err: its standard error.
        code: its exit code (0 written, 1 refused or failed, 2 bad usage, 3 kept while the repo is blocked).
        path: the repo-relative file written or matched (None when refused or failed).
    """

    out: str = ""
    err: str = ""
    code: int = 0
    path: str | None = None
    made: dict[str, object] = field(default_factory=dict)
    """What a reader checks the write against (:mod:`.replycheck`): ``action``, ``commit``, ``path``,
    ``line`` and ``redacted``."""

    def fail(self, message: str, code: int = 1) -> Reply:
        """End with one redacted error line (an error may quote memory text) and ``code``; returns self."""
        from memrepo.engine.redaction import redact_text

        self.err += f"memrepo: {redact_text(message)}\n"
        self.code = code
        return self


def remember(open_store: Callable[[], MemoryStore], args: dict[str, object]) -> Reply:
    """Save ``args["text"]`` as one entry, as ``memrepo remember`` does, and say what to print.

    Args:
        open_store: opens the memory repo (created when missing, with the
            process's settings, ``origin="cli"``).
        args: ``text``, the :data:`OPTIONS` (str or None; ``kind`` and
            ``by`` default to ``fact`` and ``user``) and the :data:`FLAGS` (bool).

    Returns:
        Reply: the output and exit code. Never raises for a refused write,
        an engine error or a surprise: each is one error line (exit 1, or 2
        for bad usage), :func:`memrepo.cli.quickbase.error_line`, as every command prints them.
    """
    reply = Reply()
    try:
        _remember(open_store, args, reply)
    except Exception as exc:
        from memrepo.engine.errors import BlockedError

        from .quickbase import error_line

        # a write kept while blocked is no failure but waits: exit 3, as `memrepo status` for a blocked repo
        return reply.fail(error_line(exc), KEPT_EXIT if isinstance(exc, BlockedError) and exc.kept else 1)
    return reply


def _remember(open_store: Callable[[], MemoryStore], args: dict[str, object], reply: Reply) -> None:
    from pydantic import ValidationError

    from memrepo.engine.models import Action, Candidate

    scope, workspace = args.get("scope"), args.get("workspace")
    here = None
    if scope == "workspace" and not workspace:
        import os

        # The folder you stand in, as the hooks and the MCP server take it (breaker7 B7-11).
        try:
            workspace = here = os.getcwd()
        except OSError:
            reply.fail("--scope workspace needs --workspace PATH|NAME: the current folder is gone", 2)
            return
    if scope == "global" and workspace:
        reply.fail(
            "--scope global takes no --workspace: drop one of them (--workspace alone saves to that workspace)", 2
        )
        return
    try:
        cand = Candidate(
            text=args["text"],
            kind=args.get("kind") or "fact",
            scope=scope or ("workspace" if workspace else "global"),
            workspace=workspace,
            subject=args.get("subject"),
            supersedes=args.get("supersedes"),
            by=args.get("by") or "user",
            pin=bool(args.get("pin")),
            source=args.get("source"),
            task=args.get("task"),
            origin="cli",
            untrusted=bool(args.get("untrusted")),
            origin_text=args.get("origin_text"),
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        reply.fail(f"{'.'.join(map(str, err['loc']))}: {err['msg']}", 2)
        return
    store = open_store()  # [writes] agent_to_inbox comes with the settings
    if here is not None and _inside(here, store.root):
        reply.fail("--scope workspace needs --workspace PATH|NAME here: the current folder is the memory repo", 2)
        return
    from memrepo.engine.errors import BusyError

    try:
        result = store.remember(cand, keep_if_git_busy=True)  # beside `git commit -a`: kept, exit 3 (B29-14)
    except BusyError as exc:
        found = _already_written(store.root, cand.text)
        if found is None:
            from .quickremember import LEFT_SILENT

            if LEFT_SILENT[0]:  # the server that holds the lock has the line: "retry" alone was untrue (B27-8)
                raise BusyError(
                    f"{exc}; the write server this line was handed to stopped answering while it held the lock:"
                    " it may still write the line (`memrepo recall` shows it; a retry says reinforced)"
                ) from exc
            raise
        # A write server killed after it committed this very line left the client waiting on a busy lock
        # (breaker26 B26-7): "busy, retry" was untrue, the line is there.
        reply.out += f"already written {found}: the repo stayed busy, so it was not reinforced\n"
        reply.path = found.removeprefix("repo:").partition("#L")[0]
        return
    if args.get("as_json"):
        reply.out += result.model_dump_json() + "\n"
    elif result.action is not Action.REFUSED:
        commit = f" ({result.commit[:7]})" if result.commit else ""
        extra = f": {result.reason}" if result.reason else ""
        redacted = f" [redacted: {', '.join(result.redacted)}]" if result.redacted else ""
        reply.out += f"{result.action.value} {result.ref}{commit}{redacted}{extra}\n"
    if result.action is Action.REFUSED:
        reply.fail(f"refused: {result.reason}")
        return
    reply.path = result.path
    if result.warning and not args.get("as_json"):
        reply.err += f"warning: {result.warning}\n"  # never silent (docs/architecture.md §4)
    line = result.ref.rpartition("#L")[2] if result.ref else ""
    reply.made = {
        "action": result.action.value,
        "commit": result.commit,
        "path": result.path,
        "line": int(line) if line.isdigit() else None,
        "redacted": bool(result.redacted),
    }
    notice = store.hooks_notice()  # said once, on stderr, that the repo's git hooks are skipped
    if notice is not None:
        reply.err += notice + "\n"


def _already_written(root: object, text: str) -> str | None:
    """``repo:<path>#L<n>`` of an entry of the work tree whose text is ``text`` (case and punctuation aside), or None.

    Read only when a write found the repo busy: the entry another process wrote meanwhile (a killed write
    server's last commit) is named instead of "busy, retry".
    """
    from pathlib import Path

    from .replycheck import _plain

    want = _plain(text)
    base = Path(str(root))
    for path in sorted(base.rglob("*.md")):
        if ".git" in path.relative_to(base).parts:
            continue
        try:
            lines = path.read_text(encoding="utf-8").split("\n")
        except (OSError, UnicodeDecodeError):
            continue
        for n, line in enumerate(lines, 1):
            if line.startswith("- ") and want and _plain(line[2:].split(" [", 1)[0]) == want:
                return f"repo:{path.relative_to(base).as_posix()}#L{n}"
    return None


def _inside(folder: str, root: object) -> bool:
    """Whether ``folder`` is the memory repo's folder or inside it (no project's workspace)."""
    from pathlib import Path

    try:
        return Path(folder).resolve().is_relative_to(Path(str(root)).resolve())
    except OSError:
        return False
