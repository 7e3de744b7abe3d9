"""The ``memrepo`` console script: ``memrepo recall`` answered before click loads, everything else by click.

A search from the shell starts a new process each time, so what that process
imports is most of what it costs (docs/architecture.md §4). :func:`run`
reads the plain forms of ``memrepo [--repo PATH] recall QUERY [options]``
itself and answers through :mod:`memrepo.engine.coldrecall`; any other
command, ``--help``, an odd spelling or a bad value goes to click
(:func:`memrepo.cli.main.run`), which prints what it always printed. What is
printed, and the exit codes, are those of :mod:`memrepo.cli.read`'s
``recall`` (a test runs both side by side).

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
from typing import NoReturn

_VALUED = {"--workspace": "workspace", "-n": "limit", "--limit": "limit", "--max-bytes": "max_bytes"}
_FLAGS = {"--full": "full", "--json": "as_json"}


def parse_recall(argv: list[str]) -> dict[str, object] | None:
    """The arguments of ``[--repo PATH] recall QUERY [options]`` in their plain forms, or None for click to read.

    Args:
        argv: the command line after the program name.

    Returns:
        dict | None: ``repo``, ``query``, ``workspace``, ``limit``, ``max_bytes``,
        ``full``, ``as_json``; None when anything is not a plain, valid form
        (click then reads it, and says what is wrong).
    """
    args = list(argv)
    repo = None
    if args and args[0].startswith("--repo"):
        if args[0] == "--repo" and len(args) >= 2:
            repo, args = args[1], args[2:]
        elif args[0].startswith("--repo="):
            repo, args = args[0].removeprefix("--repo="), args[1:]
        else:
            return None
        if not repo:
            return None
    if not args or args[0] != "recall":
        return None
    got: dict[str, object] = {"repo": repo, "workspace": None, "limit": 10, "max_bytes": 16_000}
    got.update(full=False, as_json=False)
    query = None
    seen: set[str] = set()
    rest = args[1:]
    i = 0
    while i < len(rest):
        token = rest[i]
        i += 1
        name, value = token, None
        if token.startswith("--") and "=" in token:
            name, value = token.split("=", 1)
        if name in _FLAGS and value is None:
            key = _FLAGS[name]
        elif name in _VALUED:
            if value is None:
                if i >= len(rest):
                    return None
                value = rest[i]
                i += 1
            if value.startswith("-"):
                return None
            key = _VALUED[name]
        elif not token.startswith("-") and query is None:
            query = token
            continue
        else:
            return None  # another option, a second argument, "-", "--": click's reading
        if key in seen:
            return None
        seen.add(key)
        if key in ("full", "as_json"):
            got[key] = True
        elif key == "workspace":
            if not (value or "").strip():
                return None
            got[key] = value
        else:
            if not (value and value.isascii() and value.isdigit()):
                return None
            number = int(value)
            if (key == "limit" and not 1 <= number <= 200) or (key == "max_bytes" and number < 0):
                return None
            got[key] = number
    if query is None:
        return None
    got["query"] = query
    return got


def config_keys() -> tuple[str, bool] | None:
    """The config's ``repo`` and ``[workspaces] git_toplevel`` when the quick path may use them, else None.

    The defaults when there is no config file; the file's own keys when
    :func:`memrepo.engine.config.load_settings` validated it as it is now
    (:func:`memrepo.engine.configpath.known_valid_keys`); None otherwise, and
    click's path then validates it (and says what is wrong).
    """
    from memrepo.engine.configpath import config_path, known_valid_keys
    from memrepo.engine.paths import DEFAULT_REPO

    path = config_path()
    try:
        os.stat(path)
    except FileNotFoundError:
        return DEFAULT_REPO, True
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


def recall(args: dict[str, object], keys: tuple[str, bool]) -> None:
    """Run ``memrepo recall`` with arguments :func:`parse_recall` read (exits on an error, as the click path).

    Args:
        args: what :func:`parse_recall` read.
        keys: the config's ``repo`` and ``[workspaces] git_toplevel`` (:func:`config_keys`).
    """
    from memrepo.engine import coldrecall, paths
    from memrepo.engine.errors import MemrepoError
    from memrepo.tui.plain import clean

    query = str(args["query"])
    try:
        if coldrecall.is_empty_query(query):
            _fail("empty query: give a word to search for (spaces and punctuation match nothing)", 2)
        paths.GIT_TOPLEVEL = keys[1]  # as load_settings applies it
        repo = args["repo"] or os.environ.get("MEMREPO_REPO") or keys[0]
        root = coldrecall.open_repo(os.path.expanduser(str(repo)))
        hits = coldrecall.recall(
            root,
            query,
            workspace=args["workspace"],  # type: ignore[arg-type]
            limit=int(args["limit"]),  # type: ignore[call-overload]
            max_bytes=int(args["max_bytes"]),  # type: ignore[call-overload]
            detail="full" if args["full"] else "line",
        )
    except MemrepoError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}")
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    except Exception as exc:  # a bug: still one line, with the type to report
        _fail(f"internal error ({type(exc).__name__}): {exc}; please report it")
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


def run() -> None:
    """The ``memrepo`` console script (and ``python -m memrepo.cli.main``).

    ``memrepo recall`` in a plain form, with no config file or one validated
    before as it is now, is answered here; everything else is
    :func:`memrepo.cli.main.run`.
    """
    args = parse_recall(sys.argv[1:])
    keys = config_keys() if args is not None else None
    if args is not None and keys is not None:
        try:
            recall(args, keys)
        except BrokenPipeError:  # `memrepo recall x | head`: the reader left, which is not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        return
    from memrepo.cli.main import run as run_click

    run_click()
