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
            if comm.startswith("git") and (cwd == work or cwd.startswith(work + "/")):
                git_here = pid, _command_line(pid)
    return git_here


def confirmed_unheld(path: Path) -> bool:
    """True when the lock file ``path`` exists and no live process owns it, seen twice a moment apart.

    Two looks, the same file both times: a git command that renamed its lock
    into place while the first look ran and took a new one is not mistaken
    for a stale lock.
    """
    for look in range(2):
        try:
            st = os.stat(path)
        except OSError:
            return False
        if lock_holder(path) is not None:
            return False
        if look == 0:
            first = (st.st_ino, st.st_mtime_ns)
            time.sleep(0.005)
    return (st.st_ino, st.st_mtime_ns) == first


def _command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    words = [w.decode("utf-8", "replace") for w in raw.split(b"\0") if w]
    line = " ".join(" ".join([os.path.basename(words[0]), *words[1:]]).split()) if words else "?"
    return line if len(line) <= 60 else line[:57] + "..."
