"""The ``memrepo`` console script: ``recall``, ``context`` and two Claude Code hooks answered before click loads.

A search from the shell, or a hook asking for the context block, starts a new
process each time, so what that process imports is most of what it costs
(docs/architecture.md §4). :func:`run` reads the plain forms of ``memrepo
[--repo PATH] recall QUERY [options]`` and ``memrepo [--repo PATH] context
[--workspace W]`` itself and answers through :mod:`memrepo.engine.read.coldrecall`
and :mod:`memrepo.engine.read.coldread`; any other command, ``--help``, an odd
spelling or a bad value goes to click (:func:`memrepo.cli.main.run`), which
prints what it always printed. What is printed, and the exit codes, are
those of :mod:`memrepo.cli.read`'s ``recall`` and ``context`` (tests run both
side by side).

Settings: the repo comes from ``--repo``, then ``MEMREPO_REPO``, then the
config file. A config file is validated by click's path
(:func:`memrepo.engine.config.load_settings`, docs/architecture.md §11) unless
those very bytes were validated before (:mod:`memrepo.engine.configpath`
keeps the digest): an invalid or edited one still goes through click and
fails the command as it always did.
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

_VALUED = {"--workspace": "workspace", "-n": "limit", "--limit": "limit", "--max-bytes": "max_bytes"}
_FLAGS = {"--full": "full", "--json": "as_json"}


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


def parse_context(argv: list[str]) -> dict[str, str | None] | None:
    """The arguments of ``[--repo PATH] context [--workspace W]`` in their plain forms, or None for click to read.

    Args:
        argv: the command line after the program name.

    Returns:
        dict | None: ``repo`` and ``workspace`` (None when absent); None for
        anything else (``--json``, ``--help``, an empty or repeated option).
    """
    split = split_repo(argv)
    if split is None or not split[1] or split[1][0] != "context":
        return None
    repo, args = split
    rest = args[1:]
    workspace = None
    if len(rest) == 2 and rest[0] == "--workspace":
        workspace = rest[1]
    elif len(rest) == 1 and rest[0].startswith("--workspace="):
        workspace = rest[0].removeprefix("--workspace=")
    elif rest:
        return None
    if workspace is not None and (not workspace.strip() or workspace.startswith("-")):
        return None
    return {"repo": repo, "workspace": workspace}


def parse_recall(argv: list[str]) -> dict[str, object] | None:
    """The arguments of ``[--repo PATH] recall QUERY [options]`` in their plain forms, or None for click to read.

    Args:
        argv: the command line after the program name.

    Returns:
        dict | None: ``repo``, ``query``, ``workspace``, ``limit``, ``max_bytes``,
        ``full``, ``as_json``; None when anything is not a plain, valid form
        (click then reads it, and says what is wrong).
    """
    split = split_repo(argv)
    if split is None or not split[1] or split[1][0] != "recall":
        return None
    repo, args = split
    read = read_plain(args[1:], _VALUED, _FLAGS, equals=True)
    if read is None:
        return None
    query, options = read
    got: dict[str, object] = {"repo": repo, "workspace": None, "limit": 10, "max_bytes": 16_000}
    got.update(full=False, as_json=False)
    for key, value in options.items():
        if isinstance(value, bool):
            got[key] = True
        elif key == "workspace":
            if not value.strip():
                return None
            got[key] = value
        else:
            if not (value and value.isascii() and value.isdigit()):
                return None
            number = int(value)
            if (key == "limit" and not 1 <= number <= 200) or (key == "max_bytes" and number < 0):
                return None
            got[key] = number
    got["query"] = query
    return got


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


def _fail(message: str, code: int = 1) -> NoReturn:
    """One line on stderr, redacted (an error may quote memory text), and the exit code: as the click path."""
    from memrepo.engine.redaction import redact_text

    sys.stdout.flush()
    sys.stderr.write(f"memrepo: {redact_text(message)}\n")
    sys.stderr.flush()
    sys.exit(code)


@contextmanager
def _errors_as_lines() -> Iterator[None]:
    """Engine errors (and any surprise) as one line and the exit code, as :func:`memrepo.cli.main._errors_as_lines`."""
    try:
        yield
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    except Exception as exc:
        _fail(error_line(exc))


def error_line(exc: BaseException) -> str:
    """The one line (before redaction) every command prints for an error: an engine error's message, an OS
    error's reason and file, or, for a bug, its type and text to report."""
    from memrepo.engine.errors import DISK_FULL, MemrepoError, is_disk_full

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


def recall_root(cli_repo: object, keys: ReadKeys) -> Path:
    """The memory repo a light recall reads: ``--repo``, then ``MEMREPO_REPO``, then the config's ``repo``.

    Raises:
        PathRuleError: the path breaks a rule of docs/architecture.md §2, or holds no memory repo.
    """
    from memrepo.engine.read import coldrecall

    apply_keys(keys)
    repo = cli_repo or os.environ.get("MEMREPO_REPO") or keys.repo
    return coldrecall.open_repo(os.path.expanduser(str(repo)))


def recall(args: dict[str, object], keys: ReadKeys) -> None:
    """Run ``memrepo recall`` with arguments :func:`parse_recall` read (exits on an error, as the click path).

    Args:
        args: what :func:`parse_recall` read.
        keys: the config's keys (:func:`config_keys`).
    """
    from memrepo.engine.read import coldrecall
    from memrepo.tui.plain import clean

    query = str(args["query"])
    with _errors_as_lines():
        if coldrecall.is_empty_query(query):
            _fail("empty query: give a word to search for (spaces and punctuation match nothing)", 2)
        root = recall_root(args["repo"], keys)
        hits = coldrecall.recall(
            root,
            query,
            workspace=args["workspace"],  # type: ignore[arg-type]
            limit=int(args["limit"]),  # type: ignore[call-overload]
            max_bytes=int(args["max_bytes"]),  # type: ignore[call-overload]
            detail="full" if args["full"] else "line",
        )
    if not hits and not args["as_json"]:
        shown = query if len(query) <= 60 else query[:57] + "..."
        _fail(f"no memory matches {clean(shown)!r}")
    out: list[str] = []
    if args["as_json"]:
        import json

        out = [json.dumps(hit.as_dict(), ensure_ascii=False) for hit in hits]  # JSON escapes control characters
    else:
        for hit in hits:  # memory text is data: control characters (terminal escapes) are shown, never sent
            tag = "  [unreviewed]" if hit.unreviewed else ""
            out.append(f"{clean(hit.ref)}  {hit.by:<5}  {clean(hit.text)}{tag}")
            if hit.section:
                out.extend(f"    {clean(line)}" for line in hit.section.split("\n"))
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()


def context(args: dict[str, str | None], keys: ReadKeys) -> bool:
    """Print ``memrepo context``'s block through :func:`memrepo.engine.read.coldread.context_text`.

    Args:
        args: what :func:`parse_context` read.
        keys: the config's keys (:func:`config_keys`).

    Returns:
        bool: True when printed (or failed, with the click path's line and exit
        code); False when the light path cannot tell and click's path should run.
    """
    from memrepo.engine.read.coldread import context_text

    apply_keys(keys)
    with _errors_as_lines():
        text = context_text(args["repo"], args["workspace"], keys)
    if text is None:
        return False
    sys.stdout.write(text)
    sys.stdout.flush()
    return True


def run() -> None:
    """The ``memrepo`` console script (and ``python -m memrepo.cli.main``).

    ``memrepo recall``, ``memrepo context``, ``memrepo hook session-start``
    and ``memrepo hook prompt`` (:mod:`.quickhook`) in a plain form, with no config file
    or one validated before as it is now, are answered here, and ``memrepo
    remember`` is handed to the repo's write server when one runs
    (:mod:`.quickremember`); everything else is :func:`memrepo.cli.main.run`.
    """
    argv = sys.argv[1:]
    recall_args = parse_recall(argv)
    context_args = parse_context(argv) if recall_args is None else None
    hook_args = None
    if recall_args is None and context_args is None and "hook" in argv:
        from .quickhook import parse_hook  # only for a hook: every other command goes on to click as before

        hook_args = parse_hook(argv)
    remember_args = None
    if recall_args is None and context_args is None and hook_args is None and "remember" in argv:
        from .quickremember import parse_remember  # only for a write: the read paths stay as light as they were

        remember_args = parse_remember(argv)
    light = recall_args is not None or context_args is not None or hook_args is not None or remember_args is not None
    keys = config_keys() if light else None
    start_server = None
    if keys is not None:
        _answering[0] = True
        try:
            if recall_args is not None:
                recall(recall_args, keys)
                return
            if context_args is not None and context(context_args, keys):
                return
            if hook_args is not None:
                from .quickhook import answer

                if answer(hook_args, keys):
                    return
            if remember_args is not None:
                from .quickremember import remember

                with _errors_as_lines():  # Ctrl-C while the server writes: "interrupted", as the click command
                    start_server = remember(remember_args, keys)  # exits when the server wrote; else click writes
        except BrokenPipeError:  # `memrepo recall x | head`: the reader left, which is not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        _answering[0] = False
    from memrepo.cli.main import run as run_click

    if start_server is None:
        run_click()
        return
    try:
        run_click()
    except SystemExit as exc:
        if exc.code in (None, 0):
            start_server()  # this write succeeded: the next one is the server's
        raise
    start_server()


_answering = [False]
"""True while (and after) :func:`run` answers on a quick path, False once click's path runs."""


def script() -> None:
    """The console script: :func:`run`, and after a quick answer an exit without the interpreter's teardown.

    Tearing down what a quick path imported (sqlite3, the recall modules, the
    regex caches) takes about 6 ms of a 45 ms ``memrepo recall``; a quick
    path has closed its files and databases and started no thread, so once
    its output is flushed the process ends at once (:func:`os._exit`) with
    the same exit code. Click's path ends as every Python program does.
    """
    try:
        run()
    except SystemExit as exc:
        if not _answering[0]:
            raise
        leave(exc.code)
    if _answering[0]:
        leave(0)


def leave(code: object) -> NoReturn:
    """Flush standard output and error, then end the process with ``code`` as :class:`SystemExit` reads it."""
    if code is not None and not isinstance(code, int):
        sys.stderr.write(f"{code}\n")
        code = 1
    import contextlib

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # the reader left (`| head`) or the stream is closed
            stream.flush()
    os._exit(code or 0)
