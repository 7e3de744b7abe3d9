"""What every quick path shares: plain arguments, the config's keys, one-line errors (docs/architecture.md §4).

The quick paths (:mod:`.quick`, :mod:`.quickhook`, :mod:`.quickremember`)
answer a command before click loads. They read the same plain argument forms
and print errors the way click's commands do. Those shared pieces live here,
below all three, so none of them imports another to borrow one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from pathlib import Path

    from memrepo.engine.configpath import ReadKeys


UNBUDGETED = 1 << 30
"""A byte budget no recall reaches: the second look that tells "nothing matches" from "nothing fits"."""


def split_repo(argv: list[str]) -> tuple[str | None, list[str]] | None:
    """A leading ``--repo PATH`` or ``--repo=PATH`` and the rest; None for an odd or empty one (click's reading)."""
    args = list(argv)
    if not args or not args[0].startswith("--repo"):
        return None, args
    if args[0] == "--repo" and len(args) >= 2:
        repo, args = args[1], args[2:]
    elif args[0].startswith("--repo="):
        repo, args = args[0].removeprefix("--repo="), args[1:]
    else:
        return None
    return (repo, args) if repo else None


def read_plain(
    rest: list[str], valued: dict[str, str], flags: dict[str, str], equals: bool
) -> tuple[str, dict[str, str | bool]] | None:
    """One positional argument and options in their plain forms, as the quick paths take them; None for click.

    Args:
        rest: the arguments after the command's name.
        valued: option spelling -> key, for options with a value (``--opt VALUE``,
            and ``--opt=VALUE`` too with ``equals``).
        flags: option spelling -> key, for flags.
        equals: whether ``--opt=VALUE`` is read here.

    Returns:
        tuple | None: the positional argument and each option's value by key
        (True for a flag); None for anything click reads otherwise or refuses:
        an unknown option, ``-`` or ``--``, a second positional, a repeated
        key, a missing value or one starting with ``-``, no positional.
    """
    positional = None
    got: dict[str, str | bool] = {}
    i = 0
    while i < len(rest):
        token = rest[i]
        i += 1
        name, value = token, None
        if equals and token.startswith("--") and "=" in token:
            name, value = token.split("=", 1)
        found: str | bool
        if name in flags and value is None:
            key, found = flags[name], True
        elif name in valued:
            if value is None:
                if i >= len(rest):
                    return None
                value = rest[i]
                i += 1
            if value.startswith("-"):
                return None
            key, found = valued[name], value
        elif not token.startswith("-") and positional is None:
            positional = token
            continue
        else:
            return None
        if key in got:
            return None
        got[key] = found
    return None if positional is None else (positional, got)


def config_keys() -> ReadKeys | None:
    """The config's keys a one-shot read needs when the quick path may use them, else None.

    The defaults when there is no config file; the file's own keys when
    :func:`memrepo.engine.config.load_settings` validated it as it is now
    (:func:`memrepo.engine.configpath.known_valid_keys`); None otherwise, and
    click's path then validates it (and says what is wrong).
    """
    from memrepo.engine.configpath import ReadKeys, config_path, known_valid_keys

    path = config_path()
    try:
        os.stat(path)
    except FileNotFoundError:
        return ReadKeys()
    except OSError:
        return None
    return known_valid_keys(path)


def fail(message: str, code: int = 1) -> NoReturn:
    """One line on stderr, redacted (an error may quote memory text), and the exit code: as the click path."""
    from memrepo.engine.redaction import redact_text

    sys.stdout.flush()
    sys.stderr.write(f"memrepo: {redact_text(message)}\n")
    sys.stderr.flush()
    sys.exit(code)


@contextmanager
def errors_as_lines() -> Iterator[None]:
    """Engine errors (and any surprise) as one line and the exit code, as :func:`memrepo.cli.main._errors_as_lines`."""
    try:
        yield
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except Exception as exc:
        fail(error_line(exc, ids="--json" in sys.argv[1:]))


def error_line(exc: BaseException, ids: bool = False) -> str:
    """The one line (before redaction) every command prints for an error: an engine error's message, an OS
    error's reason and file, or, for a bug, its type and text to report. With ``ids`` (a command run with
    ``--json``: a script reads it) a path rule's id ends the line, ``(rule: home)``."""
    from memrepo.engine.errors import DISK_FULL, MemrepoError, PathRuleError, is_disk_full

    if isinstance(exc, PathRuleError) and ids:
        return f"{exc} (rule: {exc.rule})"
    if isinstance(exc, MemrepoError):
        return str(exc)
    if isinstance(exc, OSError) and is_disk_full(exc):
        return DISK_FULL
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}"
    return f"internal error ({type(exc).__name__}): {exc}; please report it"


def apply_keys(keys: ReadKeys) -> None:
    """Apply the config's keys the read paths need, as :func:`memrepo.engine.config.load_settings` does."""
    from memrepo.engine.format import paths

    paths.GIT_TOPLEVEL = keys.git_toplevel


REPO_NOTED = [False]
"""Whether this process said which repo it works on (:func:`say_repo`): once, on the quick path or click's."""


def say_repo(repo: Path, source: str) -> None:
    """One line on stderr when the current folder is inside another memory repo than ``repo``
    (:func:`memrepo.engine.configpath.other_repo_note`; breaker finding B6-9), once per process."""
    if REPO_NOTED[0] or source == "--repo":
        return
    from memrepo.engine.configpath import other_repo_note

    REPO_NOTED[0] = True
    note = other_repo_note(repo, source)
    if note:
        sys.stderr.write(note + "\n")


def recall_root(cli_repo: object, keys: ReadKeys) -> Path:
    """The memory repo a light recall reads: ``--repo``, then ``MEMREPO_REPO``, then the config's ``repo``.

    Raises:
        PathRuleError: the path breaks a rule of docs/architecture.md §2, or holds no memory repo.
    """
    from memrepo.engine.read import coldrecall

    apply_keys(keys)
    repo = cli_repo or os.environ.get("MEMREPO_REPO") or keys.repo
    return coldrecall.open_repo(os.path.expanduser(str(repo)))


NEAREST_TAG = "  [nearest, not an answer]"
"""The mark after each nearest entry in ``memrepo recall``'s plain output."""


def no_hit_line(query: str, max_bytes: int, best: object | None) -> str:
    """The line ``memrepo recall`` prints with no hit to show (docs/architecture.md §4).

    Args:
        query: what was searched for (shortened to 60 characters here).
        max_bytes: the ``--max-bytes`` budget given (bytes).
        best: the best match with no byte budget (a hit with ``ref``, ``text`` and ``answer``), or None when nothing
            matches; a nearest entry (``answer`` False) is named as one.

    Returns:
        str: "no memory matches ..." when nothing matches; when something does but the budget
        left every hit out, that it matched, how many bytes the best hit needs, and to raise ``--max-bytes``.
    """
    from memrepo.tui.plain import clean

    shown = clean(query if len(query) <= 60 else query[:57] + "...")
    if best is None:
        return f"no memory matches {shown!r}"
    need = len(str(getattr(best, "ref", "")).encode()) + len(str(getattr(best, "text", "")).encode("utf-8", "replace"))
    if not getattr(best, "answer", True):  # only a nearest entry matched: it is not an answer either
        return (
            f"no entry answers {shown!r} confidently, and no nearest entry fits in --max-bytes {max_bytes} "
            f"(the nearest needs {need} bytes): raise --max-bytes"
        )
    return (
        f"memory matches {shown!r}, but no hit fits in --max-bytes {max_bytes} "
        f"(the best needs {need} bytes): raise --max-bytes"
    )


LEXICAL_LINE = (
    "memrepo: recall matched words only, not meaning: the semantic extra is not installed "
    "(`memrepo health` says how to add it)"
)
"""What ``memrepo recall`` adds on standard error when nothing answers and the semantic extra is missing."""


def lexical_line(provider: str) -> str | None:
    """:data:`LEXICAL_LINE` when ``[semantic] provider`` is ``auto`` and the local model is not installed, else None.

    Said only beside "no memory matches" and the nearest entries (a new user's "how do we release?" over "We deploy
    with make ship" got nothing and no hint why, while the README says the recall result says so; round 22).
    Semantic recall turned off on purpose, or another provider, says nothing.
    """
    from memrepo.engine import semantic_extra_missing

    return LEXICAL_LINE if semantic_extra_missing(provider) else None


def skipped_line(root: Path, hits: list | None = None) -> str | None:
    """The one line ``memrepo recall`` prints on standard error when files were too large to search, else None.

    Names at most three files and their sizes (MB) and counts the rest (breaker3 F15: a recall of a word
    only in a 50 MB file said "no memory matches" and nothing of the file it never read). ``hits``: the
    recall's answer (a scan's says what it skipped, so the files are not walked twice).
    """
    from memrepo.engine.read.coldrecall import skipped_files
    from memrepo.tui.plain import clean

    files = skipped_files(root, hits)
    if not files:
        return None
    named = ", ".join(f"{clean(rel)} ({size / (1 << 20):.1f} MB)" for rel, size in files[:3])
    more = f" and {len(files) - 3} more" if len(files) > 3 else ""
    return f"memrepo: not searched, over recall's 1 MB limit: {named}{more}; split it into smaller files"


BUILD_CODE = (
    "import os\ntry: os.nice(max(0, 10 - os.nice(0)))\nexcept (OSError, AttributeError): pass\n"
    "import sys; from memrepo.engine.read.recallfile import build_index; build_index(sys.argv[1], True)"
)
"""The build process's code: :data:`memrepo.engine.read.recallfile.BUILD_CODE` (a test holds the two equal; importing
it here would load the engine in the quick path): its priority lowered before any import."""


def start_index_build(root: Path) -> None:
    """Start the recall index's first build in a process of its own that outlives this one.

    A build of a large repo takes seconds to minutes; the recall that starts it
    answers from a scan of the files meanwhile (the prompt hook answers
    nothing). The build runs in a new session at the lowest CPU priority, one
    at a time, and resumes from its last batch when an earlier one was killed
    (:func:`memrepo.engine.read.recallfile.build_index`, docs/architecture.md §4).

    Raises:
        OSError: no process could be started.
    """
    import subprocess

    code = BUILD_CODE
    subprocess.Popen(
        [sys.executable, "-c", code, str(root)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def scan_line(note: str) -> str:
    """The line ``memrepo recall`` prints on standard error when a scan of the files answered (``note``: the build's progress)."""
    return f"memrepo: answered by a scan of the files while the recall index builds ({note})"


DOOR_FILE = ".git/memrepo/recall.sock"
"""Where a warm process's recall door listens, relative to the work tree (``recalldoor.door_path``; a test holds
the two equal): looked at before the door's module is loaded, which a new process without a door never needs."""


def door_present(root: Path) -> bool:
    """Whether a recall door's socket is in place for the work tree ``root`` (one ``stat``)."""
    return os.path.exists(os.path.join(root, DOOR_FILE))
