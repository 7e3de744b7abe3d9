"""``memrepo status`` and ``memrepo commit-hand-edits``: where the work tree stands, and hand edits committed now.

``status`` is what a script asks before it trusts memory (docs/architecture.md §3), so its exit code
says whether the user must act: 0 when nothing waits for them (clean, or hand edits memrepo commits
by itself), :data:`NEEDS_YOU` when a write is blocked (a merge or rebase in progress, a stale lock),
a hand edit waits for their answer, or writes kept while blocked wait to be applied. 1 stays an
error (no memory repo, a bad config), 2 bad usage.

``status`` is a read: it never writes, so it never waits for the write lock (docs/architecture.md §4).
Writes kept while blocked are applied by the next write once the block is gone (``remember``; the
app, the MCP server and ``watch`` on the git event that ends it; the write server on an idle tick);
``commit-hand-edits`` applies them now, and ``status`` names it while some wait with no block left.
"""

from __future__ import annotations

import sys
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

import click

from .main import _errors_as_lines, _fail, _open_store

if TYPE_CHECKING:
    from memrepo.engine.repo.store import MemoryStore

NEEDS_YOU = 3
"""``memrepo status``'s exit code when the user must act: blocked, or a hand-edit question open.

Not 1, which every memrepo command uses for an error, so ``memrepo status || ...`` in a script can
tell "memory needs you" from "no memory repo here" by the code.
"""


@click.command()
@click.pass_context
@_errors_as_lines
def status(ctx: click.Context) -> None:
    """Say whether the work tree is clean, hand-edited or blocked.

    Exit 0 when nothing blocks memory, 3 when a write is blocked, a hand edit waits for your answer,
    writes kept while blocked wait to be applied (``memrepo commit-hand-edits`` applies them), a git
    command beside memrepo dropped a write it committed (the line names the ``git cherry-pick``) or an
    agent's lines wait for a retry after a failed write (``git commit -a`` held the index's lock).
    Entries waiting in the inbox are counted on a last line (``memrepo inbox``), exit code unchanged.
    """
    from memrepo.engine.models import RepoState
    from memrepo.tui.plain import clean

    store = _open_store(ctx, create=False)
    st = store.status()
    lost = store.lost_writes()  # memrepo's commit a git command dropped, its lines in no file (in a stash: B28-3)
    retry, applied = _waiting(store, st.state is RepoState.BLOCKED, st.pending)
    if lost and st.state is RepoState.CLEAN:  # never "clean" (B24-10)
        click.echo(clean(f"lost writes: {lost}", one_line=False))
    elif st.pending and st.state is RepoState.CLEAN and not st.questions:  # never "clean" with exit 3 (B11-14)
        click.echo(f"pending: {st.pending} write(s) kept while blocked, not applied yet: ", nl=False)
        click.echo("`memrepo commit-hand-edits` applies them")
    elif retry and st.state is RepoState.CLEAN and not st.questions:  # an agent's lines a git lock kept (B26-6)
        click.echo(clean(f"pending: {retry}"))
    else:
        click.echo(clean(st.state.value + (f": {st.reason}" if st.reason else ""), one_line=False))
    if st.pending and st.state is RepoState.BLOCKED:
        click.echo(f"{st.pending} write(s) kept while blocked, applied once the block is gone")
    elif st.pending and st.questions:  # a write to the questioned file waits for the answer (engine/write/remember.py)
        click.echo(f"{st.pending} write(s) kept while blocked, applied once the question below is answered")
    elif st.pending and st.state is not RepoState.CLEAN:
        click.echo(
            f"{st.pending} write(s) kept while blocked, not applied yet: `memrepo commit-hand-edits` applies them"
        )
    if lost and st.state is not RepoState.CLEAN:  # said beside a block or a hand edit too, not only once clean
        click.echo(clean(f"lost writes: {lost}", one_line=False))
    for path in st.changed:  # file names and hand-edited lines are data: control characters shown, never sent
        click.echo(f"  {clean(path)}")
    for q in st.questions:
        click.echo(clean(q.message, one_line=False))
    waiting = _inbox_count(store)
    if waiting:  # said, not an exit code: the inbox waits for a review, no write is held (docs/architecture.md §3)
        click.echo(f"{waiting} inbox {'entry waits' if waiting == 1 else 'entries wait'} for review: `memrepo inbox`")
    unapplied = store.unapplied_kept()
    if unapplied:  # an acknowledged write that a later check refused: said, never silently gone (B31-7)
        click.echo(
            f"{len(unapplied)} write(s) kept while blocked could not be applied (refused since): "
            + ", ".join(clean(p) for p in unapplied[:3])
            + (" ..." if len(unapplied) > 3 else "")
            + "; read, then delete"
        )
    if retry and not (st.state is RepoState.CLEAN and not st.questions and not st.pending and not lost):
        click.echo(clean(retry))
    if applied:  # said, not an exit code: their write is in the history (B27-7)
        click.echo(clean(applied))
    _say_parked(store)
    if st.state is RepoState.BLOCKED or st.questions or st.pending or lost or retry:
        sys.exit(NEEDS_YOU)


def _waiting(store: MemoryStore, blocked: bool, pending: int) -> tuple[str | None, str | None]:
    """The line naming an agent's messages a failed write left pending (B26-6), or None (a read of the buffers);
    and, in its place, a note when their write was one a block kept and it has been applied since.

    A session that ends mid-merge has its write kept while blocked; the buffer still names its messages with
    the block's whole reason (the checkpoint counts a kept write as a failure). While blocked the block is said
    on the first line: this one says only whose write is kept. Once the block is gone and no kept write
    waits, their write is in the history: a note, not "not written yet" with exit 3 naming a merge that is
    over, cut mid-word (breaker27 B27-7).
    """
    from memrepo.engine.checkpoints.waiting import waiting_kept, waiting_line

    line = waiting_line(store.state_dir)
    who = waiting_kept(store.state_dir) if line else None
    if who is None:
        return line, None
    if blocked or pending:
        return f"{who}: their write is one of the writes kept while blocked (above)", None
    return None, (
        f"{who}: their write was kept during a block and applied since; "
        "`memrepo checkpoint --retry-parked` clears them from the session's buffer"
    )


def _say_parked(store: MemoryStore) -> None:
    """Name an agent's messages parked after failed distillations, and those buffered past the idle limit (said,
    like the inbox: no exit code)."""
    from memrepo.engine.checkpoints.waiting import left_line
    from memrepo.tui.plain import clean

    line = store.parked_line()  # the buffers only: the checkpoint policy's imports cost status ~0.24 s
    if line:
        click.echo(clean(line))
    left = left_line(store.state_dir)  # a session that ended without closing: its turns not in memory yet (B31-15)
    if left:
        click.echo(clean(left))


def _inbox_count(store: MemoryStore) -> int:
    """How many entries inbox.md holds (0 when it is missing or unreadable: ``status`` never fails on it)."""
    from memrepo.engine.errors import MemrepoError

    try:
        return len(store.read_file("inbox.md").entries)
    except (MemrepoError, OSError):
        return 0


@click.command("commit-hand-edits")
@click.argument("paths", nargs=-1)
@click.option(
    "--yes", is_flag=True, help="Also commit edits that emptied a file, removed most of its entries or added a secret."
)
@click.option("--redact", is_flag=True, help="Replace secrets the edits added with [REDACTED:<type>], then commit.")
@click.option(
    "--put-back",
    is_flag=True,
    help="Answer each question the other way: the committed text back (a stale save: the dropped entries back).",
)
@click.pass_context
@_errors_as_lines
def commit_hand_edits(ctx: click.Context, paths: tuple[str, ...], yes: bool, redact: bool, put_back: bool) -> None:
    """Commit hand edits now (PATHS only, when given) as "Hand edits"; --put-back undoes the questioned ones."""
    from memrepo.engine.errors import BlockedError
    from memrepo.engine.models import RepoState

    store = _open_store(ctx, create=False)
    if put_back and (yes or redact):
        raise click.UsageError("--put-back undoes what --yes and --redact would commit: give one of them")
    if put_back:  # the app's "put back" (docs/architecture.md §3): the question's answer, not a commit of the edit
        missing = [p for p in paths if not _in_repo(store, p)]
        if missing:  # a typo: a script must not read "no question waits" as "nothing to put back there"
            _fail(f"not in the memory repo (no such file in the work tree or in HEAD): {', '.join(missing)}")
        wanted = set(paths)
        st = store.status()
        if (
            st.state is RepoState.BLOCKED
        ):  # a conflict in progress (a `git stash pop`): no question, the block's way out
            raise BlockedError(st.reason or "unknown")
        asked = [q for q in st.questions if not wanted or q.path in wanted]
        kept = len(store.pending())
        for q in asked:
            done = store.answer_hand_edit(q.path, q.seen, commit=False)  # applies the writes kept meanwhile too
            click.echo(f"put back {q.path}" + (f": committed {done[:12]}" if done else ": the committed text"))
        if not asked:
            click.echo("no question waits" + (f" for {', '.join(paths)}" if paths else ""))
        applied = kept - len(store.pending())
        if applied:
            click.echo(f"applied {applied} write(s) kept while blocked")
        return
    if redact:  # each edit that added a secret: redacted in the file, then committed (docs/architecture.md §3)
        wanted = set(paths)
        for q in store.status().questions:
            if q.secrets and (not wanted or q.path in wanted):
                done = store.answer_hand_edit(q.path, q.seen, commit=False, redact=True)
                click.echo(f"redacted {len(q.secrets)} line(s) of {q.path}: committed {(done or '')[:12]}")
    kept = len(store.pending())
    commit = store.commit_hand_edits(list(paths) or None, confirm=yes)  # applies the writes kept while blocked too
    click.echo(f"committed {commit[:12]}" if commit else "nothing to commit")
    applied = kept - len(store.pending())
    if applied:
        click.echo(f"applied {applied} write(s) kept while blocked")
    from memrepo.tui.plain import clean

    for q in store.status().questions:
        click.echo(clean(q.message, one_line=False))


def _in_repo(store: MemoryStore, rel: str) -> bool:
    """True when ``rel`` (repo-relative) is a file in the work tree or in HEAD; never for a path out of the repo."""
    path = PurePosixPath(rel)
    if not rel or path.is_absolute() or ".." in path.parts or path.parts[0] == ".git":
        return False
    return (store.root / rel).is_file() or store.git.head_blob(path.as_posix()) is not None


def register(main: click.Group) -> None:
    """Add ``status`` and ``commit-hand-edits`` to the ``memrepo`` command group."""
    main.add_command(status)
    main.add_command(commit_hand_edits)
