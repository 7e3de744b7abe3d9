"""Claude Code's SessionStart and UserPromptSubmit hooks answered before click loads (docs/architecture.md §4, §7).

Claude Code runs ``memrepo hook session-start`` at the start of every
session and ``memrepo hook prompt`` on every prompt, each time in a new
process, and waits for them. Through click each opened the whole store
(pygit2, pydantic, every model): about 0.6 s at 2,000 files, where
``memrepo context`` takes 0.15 s. :func:`session_start` and :func:`prompt`
read the hook's JSON themselves, answer through the light read paths
(:func:`memrepo.engine.read.coldread.context_of`,
:func:`memrepo.engine.read.coldrecall.recall`) in the JSON the click commands
print, and count the read as they do. Whatever is not the plain case (JSON
that is not an object, a field that is not a string, an error, a repo the
light path leaves to the store) goes to the click command with the same
stdin, which says what it always said.
"""

from __future__ import annotations

import io
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from .quickbase import start_index_build

if TYPE_CHECKING:
    from pathlib import Path

    from memrepo.engine.configpath import ReadKeys

STDIN_MAX = 1024 * 1024
"""Most bytes of hook JSON read from stdin (both paths)."""
PROMPT_HITS = 3
"""Recall hits a ``UserPromptSubmit`` hook adds at most (both paths)."""
PROMPT_BYTES = 1_500
"""UTF-8 bytes of hit text a ``UserPromptSubmit`` hook adds at most (both paths)."""
PROMPT_CHARS = 2_000
"""Characters of the prompt searched for (both paths)."""
FIELDS = ("session_id", "transcript_path", "cwd", "hook_event_name", "source", "prompt")
"""The payload's fields the click command validates as strings (:class:`memrepo.cli.hooks.HookPayload`)."""


def parse_hook(argv: list[str]) -> dict[str, str | None] | None:
    """``[--repo PATH] hook session-start`` or ``[--repo PATH] hook prompt`` exactly, or None for click to read.

    Args:
        argv: the command line after the program name.

    Returns:
        dict | None: ``repo`` (None when absent) and ``hook`` (``session-start`` or ``prompt``).
    """
    from .quickbase import split_repo

    split = split_repo(argv)
    if split is None or len(split[1]) != 2 or split[1][0] != "hook" or split[1][1] not in ("session-start", "prompt"):
        return None
    return {"repo": split[0], "hook": split[1][1]}


def answer(args: dict[str, str | None], keys: ReadKeys) -> bool:
    """Run the hook :func:`parse_hook` read; True when answered, False when click's command should run."""
    return (session_start if args["hook"] == "session-start" else prompt)(args, keys)


def read_stdin() -> bytes:
    """Up to :data:`STDIN_MAX` + 1 bytes of the hook's stdin; the rest of a longer one read and dropped (both paths).

    Claude Code writes the whole payload (a pasted prompt can pass 1 MB): a hook that stopped reading
    left it writing into a closed pipe. One byte more than the most says the payload was cut.
    """
    raw = sys.stdin.buffer.read(STDIN_MAX + 1)
    if len(raw) > STDIN_MAX:
        while sys.stdin.buffer.read(1 << 16):
            pass
    return raw


def _payload() -> tuple[dict[str, object] | None, bytes]:
    """The hook's JSON object from stdin, or None when the click command should read it (stdin given back)."""
    raw = read_stdin()
    try:
        payload = json.loads(raw) if raw.strip() else None
    except ValueError:
        payload = None
    if not isinstance(payload, dict) or any(not isinstance(payload.get(f), str | None) for f in FIELDS):
        _give_back(raw)
        return None, raw
    return payload, raw


def _give_back(raw: bytes) -> bool:
    sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    return False


def emit(event: str, text: str) -> None:
    """Print ``text`` the way Claude Code adds it to the session (both paths)."""
    out = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def count_read(git_dir: Path, kind: str, session: bool) -> None:
    """Count the read for ``memrepo stats`` (counts only, docs/architecture.md §9); never fails the hook (both paths).

    Args:
        git_dir: the repository's ``.git`` folder.
        kind: the read's kind (``context``, ``recall``).
        session: a SessionStart's read: one call is one session; a prompt's
            recall belongs to the session SessionStart counted.
    """
    try:
        from memrepo.engine.read.readcount import SessionReads, note_read

        if session:
            SessionReads(git_dir, "hook").note(kind)
        else:
            note_read(git_dir, kind)
    except Exception as exc:  # a counter must never cost the agent its context
        sys.stderr.write(f"memrepo: cannot count the read: {exc}\n")


def _workspace(payload: dict[str, object]) -> str | None:
    """The hook's workspace: its ``cwd``, or None for none or a folder that is no project's (the home folder, ``/``,
    the temporary folder; :func:`memrepo.engine.format.paths.session_workspace`, B30-26)."""
    from memrepo.engine.format.paths import session_workspace

    cwd = payload.get("cwd")
    return session_workspace(cwd) if isinstance(cwd, str) else None


def session_start(args: dict[str, str | None], keys: ReadKeys) -> bool:
    """Print the SessionStart hook's answer for the JSON on stdin, and count the read.

    Args:
        args: what :func:`parse_hook` read.
        keys: the config's keys (:func:`memrepo.cli.quickbase.config_keys`).

    Returns:
        bool: True when answered; False when click's command should run, with
        stdin given back to it whole.
    """
    payload, raw = _payload()
    if payload is None:
        return False
    if payload.get("source") == "compact":  # the click command distils the session's turns first (B31-12)
        return _give_back(raw)
    from memrepo.engine.read.coldread import context_of

    from .quickbase import apply_keys

    apply_keys(keys)
    try:
        found = context_of(args["repo"], _workspace(payload), keys)
    except Exception:  # the click command reports it, in its own words
        return _give_back(raw)
    if found is None:
        return _give_back(raw)
    text, git_dir = found
    from memrepo.engine.checkpoints.waiting import left_in

    session, cwd = payload.get("session_id"), payload.get("cwd")
    if left_in(
        git_dir / "memrepo", cwd if isinstance(cwd, str) else None, session if isinstance(session, str) else None
    ):
        return _give_back(raw)  # the click command distils a session left without closing first (B31-15)
    if apply_kept_later(git_dir, wait_s=kept_wait_s()):  # this session's block has them too (breaker14 B14-13)
        try:
            again = context_of(args["repo"], _workspace(payload), keys)
        except Exception:  # the block rendered before them is still right about everything else
            again = None
        text = again[0] if again is not None else text
    emit("SessionStart", with_kept_note(text, git_dir))
    count_read(git_dir, "context", session=True)
    from .checkpointretry import retry_later

    retry_later(git_dir)  # lines a git lock kept from a past session's checkpoint, retried now git is done (B26-6)
    if isinstance(session, str):
        from memrepo.engine.agents.sessionrepos import claim

        claim(session.strip(), git_dir.parent)  # another repo's dream leaves this session alone (B11-9)
    return True


APPLY_CODE = (
    "import sys\nfrom pathlib import Path\nfrom memrepo.engine.config import load_settings\n"
    "from memrepo.engine.repo.store import MemoryStore\n"
    "store = MemoryStore.open(Path(sys.argv[1]), load_settings(), create=False, origin='cli')\n"
    "try:\n    with store.lock.hold('apply pending', timeout=10.0):\n        store.apply_pending()\n"
    "finally:\n    store.close()\n"
)
"""The process :func:`apply_kept_later` starts: the writes kept while blocked applied (still blocked: kept)."""


KEPT_WAIT_S = 5.0
"""How long a session's start waits for the writes kept while blocked to be applied before it prints its block
(seconds; ``MEMREPO_KEPT_WAIT_S`` sets another, e.g. for a slow machine)."""


def kept_wait_s() -> float:
    """:data:`KEPT_WAIT_S`, or ``MEMREPO_KEPT_WAIT_S`` when it holds a number of seconds from 0 to 600."""
    try:
        found = float(os.environ.get("MEMREPO_KEPT_WAIT_S", ""))
    except ValueError:
        return KEPT_WAIT_S
    return found if 0 <= found <= 600 else KEPT_WAIT_S


def apply_kept_later(git_dir: Path, wait_s: float = 0.0) -> bool:
    """Start a process that applies the writes kept while blocked, when some wait and no merge or rebase is on.

    A checkpoint kept during a merge waited, out of every block, until some other write once the merge was
    done (breaker11 B11-14); a session's start now applies it, and waits up to ``wait_s`` for it so that its
    own block has the kept lines (breaker14 B14-13: the first session after the user ended the block was told
    the line was kept and did not get it). Detached, like the index build: a slow apply (a busy lock) goes on
    after the wait, and the next session's block has it; a failure to start costs only that.

    Returns:
        bool: True when kept writes were applied within ``wait_s`` (the caller renders its block again).
    """
    import contextlib
    import subprocess

    with contextlib.suppress(OSError):
        from memrepo.engine.format.layout import PENDING_DIR

        if not any((git_dir / "memrepo" / PENDING_DIR).glob("*.json")):
            return False
        if any((git_dir / name).exists() for name in ("MERGE_HEAD", "rebase-merge", "rebase-apply")):
            return False  # still blocked: the write would be kept again
        child = subprocess.Popen(
            [sys.executable, "-c", APPLY_CODE, str(git_dir.parent)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        if wait_s > 0:
            try:
                return child.wait(timeout=wait_s) == 0
            except subprocess.TimeoutExpired:
                return False  # it goes on alone
    return False


def with_kept_note(text: str, git_dir: Path) -> str:
    """``text`` (a context block) with the kept writes' line before its closing tag, when writes wait (B14-13)."""
    from memrepo.engine.read.keptnote import kept_note

    note = kept_note(git_dir)
    if note is None:
        return text
    head, tag, tail = text.rpartition("</memory_repo>")
    if not tag:
        return f"{text.rstrip()}\n{note}\n"
    return f"{head.rstrip()}\n{note}\n{tag}{tail}"


def prompt(args: dict[str, str | None], keys: ReadKeys) -> bool:
    """Print the UserPromptSubmit hook's few recall hits for the prompt (nothing when none match), and count the read.

    Args:
        args: what :func:`parse_hook` read.
        keys: the config's keys (:func:`memrepo.cli.quickbase.config_keys`).

    Returns:
        bool: as :func:`session_start`.
    """
    payload, raw = _payload()
    if payload is None:
        return False
    text = payload.get("prompt")
    if not isinstance(text, str) or not text.strip():
        return True  # nothing to search for: the click command prints nothing either
    from memrepo.engine import recall_block
    from memrepo.engine.read import coldrecall
    from memrepo.engine.read.heldread import with_held

    from .quickbase import recall_root

    try:
        root = recall_root(args["repo"], keys)
        # Only hits above the confidence minimum (none for an unrelated prompt); only the folders'
        # mtimes checked, so it answers in milliseconds at any size (docs/architecture.md §4).
        options: dict[str, Any] = {
            "workspace": _workspace(payload),
            "limit": PROMPT_HITS,
            "max_bytes": PROMPT_BYTES,
            "quick": True,
            "start_build": start_index_build,
            "reviewed": True,  # the inbox is never injected: ranked out, so its places go to reviewed lines (B29-8)
        }
        hits = ask_door(root, text[:PROMPT_CHARS], options, str((keys.semantic or {}).get("provider", "auto")))
        if hits is None:
            hits = _hybrid(root, text[:PROMPT_CHARS], options, keys)
        if hits is None:
            hits = coldrecall.recall(root, text[:PROMPT_CHARS], **options)
        block = recall_block(hits, PROMPT_BYTES, hits[0].covered if hits else None)
        block = with_held(block, root, text[:PROMPT_CHARS])  # what a waiting hand edit lacks, as committed (B7-2)
    except Exception:
        return _give_back(raw)
    if block:
        emit("UserPromptSubmit", block)
        count_read(root / ".git", "recall", session=False)
    elif building := getattr(hits, "building", None):  # a large repo's first build: no hit looked for (B6-10)
        from memrepo.engine.read.modeline import waiting_block

        emit("UserPromptSubmit", waiting_block(building))
    return True


def ask_door(root: Path, query: str, options: dict[str, Any], provider: str) -> list | None:
    """The prompt's hits from a warm process's recall door (hybrid, its model loaded), or None to answer here.

    Asked first, within :data:`memrepo.engine.read.recalldoor.BUDGET_S`, by the quick path and by click's
    ``hook prompt`` alike; no door (a missing socket: one failed connect), a slow, foreign or dead one,
    or semantic recall off (``provider``, ``[semantic] provider``): None (docs/architecture.md §7).
    A door that answered lexically for a reason says it in one line on stderr (the mode line).
    """
    from .quickbase import door_present

    if not door_present(root):
        return None  # no door (the common case): not even the door's module is loaded
    from memrepo.engine.read import recalldoor

    if not recalldoor.wanted(provider):
        return None
    asked: dict[str, Any] = {k: options[k] for k in ("workspace", "limit", "max_bytes", "reviewed") if k in options}
    hits = recalldoor.ask(root, query, asked, hook=True)
    if hits and hits[0].note:
        sys.stderr.write(f"memrepo: lexical recall answered: {hits[0].note}\n")
    return hits


def _hybrid(root: Path, query: str, options: dict[str, Any], keys: ReadKeys) -> list | None:
    """The prompt's hits fused with the repo's vectors (docs/architecture.md §7), or None to answer lexically.

    Only when :func:`memrepo.engine.read.coldrecall.hook_semantic` gives settings (``[semantic] hook
    = true``, a vectors file, semantic recall not off). Whatever goes wrong is one line on stderr and
    the lexical answer: never the hook's failure.
    """
    from memrepo.engine.read import coldrecall

    try:
        settings = coldrecall.hook_semantic(root, keys.semantic)
        if settings is None:
            return None
        hits = coldrecall.recall(root, query, **options, semantic=settings)
    except Exception as exc:
        sys.stderr.write(f"memrepo: hybrid recall failed, lexical recall answered: {exc}\n")
        return None
    if hits and hits[0].note:
        sys.stderr.write(f"memrepo: lexical recall answered: {hits[0].note}\n")
    return hits


_start_index_build = start_index_build  # the name tests and older callers use
