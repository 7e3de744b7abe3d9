"""Who holds a git lock file: live processes seen through ``/proc`` (docs/architecture.md §3).

Shared by :mod:`.lock` (the write lock and git's lock files) and :mod:`.remoteclean` (what a killed
push left in a local-path remote), below both.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def pid_alive(pid: object) -> bool:
    """True when a process with this pid exists (a zombie counts as alive)."""
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def lock_holder(path: Path) -> tuple[int, str] | None:
    """The live process that owns the git lock file ``path``, as ``(pid, command line)``, or None.

    A process that has it open, or else, for ``index.lock`` only, a live
    ``git`` process working in the repository (``git commit`` writes
    ``index.lock``, closes it, and renames it only when the commit is made;
    ref locks stay open until renamed). Looks through ``/proc``
    (Linux); processes of other users are not visible. Returns None when
    there is no ``/proc``.
    """
    proc = Path("/proc")
    if not (proc / "self" / "fd").is_dir():
        return None
    target = os.path.realpath(path)
    git_dir = Path(target).parent
    while git_dir.name != ".git" and git_dir != git_dir.parent and git_dir.name not in ("", "/"):
        if (git_dir / "HEAD").is_file() and (git_dir / "objects").is_dir():
            break
        git_dir = git_dir.parent
    work = str(git_dir.parent) if git_dir.name == ".git" else str(git_dir)
    index = Path(target).name == "index.lock"
    git_here: tuple[int, str] | None = None
    for entry in os.scandir(proc):
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        try:
            fds = os.scandir(os.path.join(entry.path, "fd"))
        except OSError:
            continue
        with fds:
            for fd in fds:
                try:
                    if os.readlink(fd.path) == target:
                        return pid, _command_line(pid)
                except OSError:
                    continue
        if git_here is None and index and pid != os.getpid():
            try:
                comm = Path(entry.path, "comm").read_text().strip()
                cwd = os.readlink(os.path.join(entry.path, "cwd"))
            except OSError:
                continue
            if comm.startswith("git") and any(
                d == work or d.startswith(work + "/") for d in _git_dirs(entry.path, cwd)
            ):
                git_here = pid, _command_line(pid)
    return git_here


def _git_dirs(proc_dir: str, cwd: str) -> list[str]:
    """Where a git process works: its cwd, and the folders its ``-C``, ``--git-dir``, ``--work-tree`` and its
    ``GIT_DIR`` / ``GIT_WORK_TREE`` name (a ``git --git-dir=R/.git commit -a`` run from elsewhere holds R's
    ``index.lock`` too, and was taken for no holder: its lock removed as stale while its editor was open)."""
    found = [cwd]
    try:
        words = [w.decode("utf-8", "replace") for w in Path(proc_dir, "cmdline").read_bytes().split(b"\0") if w]
    except OSError:
        words = []
    base = cwd
    for n, word in enumerate(words[1:], 1):
        name, eq, value = word.partition("=")
        if not eq and word in ("-C", "--git-dir", "--work-tree") and n + 1 < len(words):
            name, value = word, words[n + 1]
        if name in ("-C", "--git-dir", "--work-tree") and value:
            place = os.path.normpath(os.path.join(base, value))
            base = place if name == "-C" else base
            found.append(place)
    try:
        env = Path(proc_dir, "environ").read_bytes().split(b"\0")
    except OSError:
        env = []
    for item in env:
        key, _eq, value = item.decode("utf-8", "replace").partition("=")
        if key in ("GIT_DIR", "GIT_WORK_TREE") and value:
            found.append(os.path.normpath(os.path.join(cwd, value)))
    return [os.path.realpath(d) for d in found]


def confirmed_unheld(path: Path) -> bool:
    """True when the lock file ``path`` exists and no live process owns it, seen twice a moment apart.

    Two looks, the same file (device and inode) both times: a git command that renamed its lock into place
    while the first look ran and took a new one is not mistaken for a stale lock (the renamed one lives on as
    the target, so the new one is another inode). Its modification time is not compared: a file touched
    between the looks is the same lock file, and each look reads all of ``/proc`` (0.15 s with 150 processes
    on a loaded machine), long enough for a touch to land between them and make a lock that blocks writes
    look held (the MCP kept-write test's flake, round 17).
    """
    for look in range(2):
        try:
            st = os.stat(path)
        except OSError:
            return False
        if lock_holder(path) is not None:
            return False
        if look == 0:
            first = (st.st_dev, st.st_ino)
            time.sleep(0.005)
    return (st.st_dev, st.st_ino) == first


def _command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    words = [w.decode("utf-8", "replace") for w in raw.split(b"\0") if w]
    line = " ".join(" ".join([os.path.basename(words[0]), *words[1:]]).split()) if words else "?"
    return line if len(line) <= 60 else line[:57] + "..."
