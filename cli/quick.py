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
from typing import TYPE_CHECKING, NoReturn

from .quickbase import (
    NEAREST_TAG,
    UNBUDGETED,
    apply_keys,
    config_keys,
    door_present,
    errors_as_lines,
    fail,
    lexical_line,
    no_hit_line,
    read_plain,
    recall_root,
    scan_line,
    skipped_line,
    split_repo,
    start_index_build,
)

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from memrepo.engine.configpath import ReadKeys

_VALUED = {"--workspace": "workspace", "-n": "limit", "--limit": "limit", "--max-bytes": "max_bytes"}
_FLAGS = {"--full": "full", "--json": "as_json", "--all": "show_all"}


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
        ``full``, ``as_json``, ``show_all``; None when anything is not a plain, valid form
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
    got.update(full=False, as_json=False, show_all=False)
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


def recall(args: dict[str, object], keys: ReadKeys) -> None:
    """Run ``memrepo recall`` with arguments :func:`parse_recall` read (exits on an error, as the click path).

    Args:
        args: what :func:`parse_recall` read.
        keys: the config's keys (:func:`config_keys`).
    """
    from memrepo.engine.files.regularfile import not_utf8_line
    from memrepo.engine.read import coldrecall
    from memrepo.tui.plain import clean

    query = str(args["query"])
    with errors_as_lines():
        if coldrecall.is_empty_query(query):
            fail("empty query: give a word to search for (spaces and punctuation match nothing)", 2)
        root = recall_root(args["repo"], keys)
        options: dict[str, Any] = {
            "workspace": args["workspace"],
            "limit": int(args["limit"]),  # type: ignore[call-overload]
            "max_bytes": int(args["max_bytes"]),  # type: ignore[call-overload]
            "detail": "full" if args["full"] else "line",
            "min_confidence": 0.0 if args["show_all"] else None,
            "related": True,  # nothing confident: the nearest entries, marked (docs/architecture.md §4)
        }
        provider = str((keys.semantic or {}).get("provider", "auto"))
        hits = ask_door(root, query, options, provider)  # hybrid from a warm process, when one answers
        if hits is None:
            hits = coldrecall.recall(root, query, **options, start_build=start_index_build)
    if hits and hits[0].scan:
        sys.stderr.write(scan_line(hits[0].scan) + "\n")
    skipped = skipped_line(root, hits)  # once, in plain and --json alike: a file recall never read
    if skipped:
        sys.stderr.write(skipped + "\n")
    bad = not_utf8_line(root, [hit.path for hit in hits or []])
    if bad:  # recall read it with the bad bytes replaced: say so (breaker5 B5-8)
        sys.stderr.write(f"memrepo: {bad}\n")
    from memrepo.engine.read.conflictnote import merge_conflict_line
    from memrepo.engine.read.heldread import held_recall_line

    if conflict := merge_conflict_line(root):  # neither side of a conflict is recalled: say so (B5-6)
        sys.stderr.write(f"memrepo: {conflict}\n")
    if held := held_recall_line(root, query):  # entries a waiting hand edit lacks, as committed (B7-2)
        sys.stderr.write(f"memrepo: {held}\n")
    if not hits:
        best = None
        budget: int = args["max_bytes"]  # type: ignore[assignment]
        if budget < UNBUDGETED:  # a match the byte budget left out is not "no match"
            with errors_as_lines():
                again = coldrecall.recall(
                    root,
                    query,
                    workspace=args["workspace"],  # type: ignore[arg-type]
                    limit=1,
                    max_bytes=UNBUDGETED,
                    min_confidence=0.0 if args["show_all"] else None,
                    related=True,
                    start_build=start_index_build,  # while the index builds, a scan again: never a build here
                )
            best = again[0] if again else None
        if lexical := lexical_line(provider):
            sys.stderr.write(lexical + "\n")
        fail(no_hit_line(query, budget, best))
    nearest = not any(hit.answer for hit in hits)  # --all can list a hit under the minimum first
    if nearest:
        from memrepo.engine import NEAREST_LINE

        sys.stderr.write(NEAREST_LINE + "\n")
        if lexical := lexical_line(provider):
            sys.stderr.write(lexical + "\n")
    out: list[str] = []
    if args["as_json"]:
        import json

        out = [json.dumps(hit.as_dict(), ensure_ascii=False) for hit in hits]  # JSON escapes control characters
    else:
        from memrepo.engine import since_mark

        for hit in hits:  # memory text is data: control characters (terminal escapes) are shown, never sent
            tag = ("  [unreviewed]" if hit.unreviewed else "") + ("" if hit.answer else NEAREST_TAG)
            out.append(f"{clean(hit.ref)}  {hit.by:<5}  {clean(hit.text)}{since_mark(hit)}{tag}")
            if hit.section:
                out.extend(f"    {clean(line)}" for line in hit.section.split("\n"))
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()
    if nearest:
        sys.exit(1)  # no confident answer: scripts see the same exit code as with no hit


def ask_door(root: Path, query: str, options: dict[str, Any], provider: str) -> list | None:
    """``memrepo recall``'s hits from a warm process's recall door, or None to answer here (docs/architecture.md §4).

    The quick path and click's ``recall`` ask it alike; ``provider`` is ``[semantic] provider``.
    """
    if not door_present(root):
        return None  # no door (the common case): not even the door's module is loaded
    from memrepo.engine.read import recalldoor

    if options["max_bytes"] > recalldoor.REPLY_MAX // 4 or not recalldoor.wanted(provider):
        return None  # a reply that large is not worth a door's time: read here
    return recalldoor.ask(root, query, options, hook=False)


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
    with errors_as_lines():
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
    if keys is not None and hook_args is None:  # the hooks always name their repo (setup writes --repo)
        from memrepo.engine.configpath import resolve_repo_path

        from .quickbase import say_repo

        asked = (recall_args or context_args or remember_args or {}).get("repo")
        say_repo(*resolve_repo_path(str(asked) if asked else None, keys))
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

                with errors_as_lines():  # Ctrl-C while the server writes: "interrupted", as the click command
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
    the same exit code. What the exit handlers would have saved is saved
    first (the redaction clean memo, :func:`leave`). Click's path ends as every Python program does.
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
    """Save the redaction clean memo, flush standard output and error, then end the process with ``code``
    as :class:`SystemExit` reads it."""
    if code is not None and not isinstance(code, int):
        sys.stderr.write(f"{code}\n")
        code = 1
    import contextlib

    if "memrepo.engine.redaction" in sys.modules:  # os._exit skips atexit: the clean memo is written here
        from memrepo.engine.redaction import flush_clean_memo

        flush_clean_memo()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # the reader left (`| head`) or the stream is closed
            stream.flush()
    os._exit(code or 0)


if __name__ == "__main__":  # `python -m memrepo.cli.main` runs this module as the program (see cli/main.py)
    script()
