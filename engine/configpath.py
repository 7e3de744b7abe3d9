"""Where the config file and the memory repo are: the part of :mod:`.config` that needs no pydantic.

A new process that only reads (``memrepo context``, ``memrepo recall``) finds
its repo and learns whether a config file exists without importing the
validated settings (docs/architecture.md §11: one settings object per
process, read once).

A config file :func:`memrepo.engine.config.load_settings` validated is
remembered by digest in the user cache folder (:func:`remember_valid`), so
the next read-only process may take its ``repo``, ``[workspaces]
git_toplevel`` and ``[context] me_md`` keys from the same bytes without
pydantic (:func:`known_valid_keys`). The digest covers the file's path, its
bytes and the schema's source file (``engine/config.py``): an edited file or
another memrepo version is validated again.
"""

from __future__ import annotations

import contextlib
import os
import sys
from math import log
from pathlib import Path
from typing import NamedTuple, Protocol

from memrepo.engine.format.paths import DEFAULT_REPO


class HasRepo(Protocol):
    """What :func:`resolve_repo_path` reads of the settings: the ``repo`` key."""

    @property
    def repo(self) -> str: ...


ENV_CONFIG = "MEMREPO_CONFIG"
ENV_REPO = "MEMREPO_REPO"
SERVER_IDLE_S = 300.0
"""``[writes] server_idle_s``'s default: the write server waits 5 minutes for another write (docs/architecture.md §4)."""


def config_path() -> Path:
    """The config file's path: ``$MEMREPO_CONFIG`` or the platformdirs user config folder."""
    env = os.environ.get(ENV_CONFIG)
    if env:
        return Path(os.path.expanduser(env))
    if sys.platform.startswith("linux"):  # platformdirs' rule there, without importing it on a cold start
        return _xdg("XDG_CONFIG_HOME", "~/.config") / "memrepo" / "config.toml"
    from platformdirs import user_config_path

    return user_config_path("memrepo", appauthor=False) / "config.toml"


def _xdg(variable: str, default: str) -> Path:
    """An XDG base folder as platformdirs reads it on Linux: the variable unless blank, else ``default``."""
    value = os.environ.get(variable, "")
    return Path(value if value.strip() else os.path.expanduser(default))


_SCHEMA = Path(__file__).with_name("config.py")
"""Where the settings' schema is: a change to it makes every remembered verdict stale."""


def user_cache_folder() -> Path:
    """memrepo's folder in the user's cache: ``$XDG_CACHE_HOME/memrepo`` on Linux, platformdirs' elsewhere."""
    if sys.platform.startswith("linux"):  # platformdirs' rule there, without importing it on a cold start
        return _xdg("XDG_CACHE_HOME", "~/.cache") / "memrepo"
    from platformdirs import user_cache_path

    return user_cache_path("memrepo", appauthor=False)


def _memo_path() -> Path:
    """The file holding the digest of the last config file validated: ``<user cache>/memrepo/config-valid``."""
    return user_cache_folder() / "config-valid"


def _digest(path: Path, raw: bytes) -> str:
    """SHA-256 of the config file's path and bytes and of the schema source's size and time (hex)."""
    try:
        schema = os.stat(_SCHEMA)
        stamp = f"{schema.st_size}:{schema.st_mtime_ns}"
    except OSError:
        stamp = "?"
    import hashlib  # here: a one-shot read with no config file never needs OpenSSL's digests (3 ms)

    digest = hashlib.sha256(f"{os.path.abspath(path)}\0{stamp}\0".encode())
    digest.update(raw)
    return digest.hexdigest()


def config_digest() -> str | None:
    """What the settings of this process were read from: the config file's digest, or ``absent:<path>``.

    Returns:
        str | None: :func:`_digest` of the file's path and bytes, ``absent:``
        and the path when there is no file; None when it cannot be read. Two
        processes with the same value have the same settings (the schema's
        source is in the digest).
    """
    path = config_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return f"absent:{os.path.abspath(path)}"
    except OSError:
        return None
    return _digest(path, raw)


def remember_valid(path: Path, raw: bytes) -> None:
    """Record that the config file ``path`` with these bytes was validated (never raises: it is only a cache).

    Args:
        path: the config file :func:`memrepo.engine.config.load_settings` read.
        raw: its bytes, exactly as validated.
    """
    memo = _memo_path()
    digest = _digest(path, raw)
    with contextlib.suppress(OSError):
        if memo.read_text("ascii") == digest:
            return
    with contextlib.suppress(OSError):
        memo.parent.mkdir(parents=True, exist_ok=True)
        scratch = memo.with_name(f".{memo.name}.{os.getpid()}")
        scratch.write_text(digest, "ascii")
        os.replace(scratch, memo)


SEMANTIC_MAX_ENTRIES = 20_000
"""Default bound on the entries that get a vector (docs/architecture.md §4, "Hybrid recall").

At 384 int8 values an entry this is about 8 MB on disk and in memory, and a first
build of ~12-30 ms an entry on one CPU thread (4-10 minutes, in the background).
"""

SEMANTIC_MIN_SIMILARITY = 0.81
"""Default cosine similarity below which a semantic neighbour is not fused (tuned on the benchmark's
tune split, benchmarks/recall_quality/: 0.80 let in noise, 0.82 lost paraphrases; multilingual-e5-small's
cosines sit in 0.75-0.95 for any pair of English sentences)."""

SEMANTIC_ANSWER_SIMILARITY = 0.845
"""Default cosine the best semantic neighbour needs when lexical recall found no answer (tuned likewise). The
trade-off, tune splits (repo A | repo C), with entries embedded with their headings: 0.84 finds 0.94 | 0.95 of
paraphrases in the top 5 and leaves 0.44 | 0.12 of no-answer questions empty; 0.845 finds 0.91 | 0.85 and
leaves 0.62 | 0.31 empty; 0.86 finds 0.81 | 0.70 and leaves 0.75 | 0.44. Recall-first within the paraphrase
target (0.80): the agent can ignore a weak hit, not a missing one."""

SEMANTIC_WEIGHT = 1.5
"""Default weight of the semantic list in reciprocal rank fusion (the lexical list's is 1)."""

SEMANTIC_HOOK_ANSWER_SIMILARITY = 0.85
"""Default answer floor of the prompt hook's hybrid recall (``answer_similarity``'s, stricter: a wrong hit costs
the agent's context on every prompt). Tune splits (repo A | repo C), paraphrase hit@3 / no-answer left empty:
0.845 gives 0.84 | 0.80 and 0.62 | 0.31; 0.85 gives 0.81 | 0.75 and 0.75 | 0.31; 0.86 gives 0.75 | 0.70 and
0.75 | 0.44 (benchmarks/hook_systems.py; docs/architecture.md §7)."""


SEMANTIC_SIZE_SLOPE = 0.018
"""Default ``[semantic] size_slope``: how much both cosine floors drop in a small repo for each unit of
``ln(SIZE_REF / N)`` (:func:`size_shift`; in the bundled model's cosines: a floor with its own model wants its
own slope, 0 turns the rule off)."""

SIZE_REF = 135
"""Entries at and above which the cosine floors stand as tuned (the smallest tuning repo's size)."""

SIZE_MIN = 10
"""The smallest repo size the shift was measured at: a smaller repo gets the shift of this many entries."""


def size_shift(count: int, slope: float = SEMANTIC_SIZE_SLOPE) -> float:
    """How far both cosine floors drop in a repo of ``count`` entries (docs/architecture.md §4).

    The floors were tuned on repos of 135-185 entries. A no-answer question's best neighbour is the
    highest of ``N`` unrelated cosines, lower the fewer entries, while an answer's cosine does not
    depend on ``N``; the shift keeps the share of no-answer questions reaching a floor what it is at
    the tuning size (measured by subsampling the tuning repos' entries: 0.049 at 10, 0.037 at 22).

    Args:
        count: entries in the recall index (0 or more): the repo's size, not the vectors built so far. While
            a build runs, the entries without a vector are still there to answer; counting only the few
            with a vector dropped the floors as for a tiny repo, and unrelated neighbours answered.
        slope: ``[semantic] size_slope`` (0 or more).

    Returns:
        float: ``slope × ln(SIZE_REF / max(count, SIZE_MIN))`` under :data:`SIZE_REF` entries, else 0.0.
    """
    if count >= SIZE_REF:
        return 0.0
    return slope * log(SIZE_REF / max(count, SIZE_MIN))


class SemanticKeys(NamedTuple):
    """``[semantic]`` as a one-shot process reads it without pydantic (the fields of ``config.SemanticSettings``
    that :func:`memrepo.engine.read.semantic_once.fuse_once` reads; :func:`memrepo.engine.read.coldrecall.hook_semantic`
    makes it from :attr:`ReadKeys.semantic`)."""

    provider: str = "auto"
    max_entries: int = SEMANTIC_MAX_ENTRIES
    min_similarity: float = SEMANTIC_MIN_SIMILARITY
    answer_similarity: float = SEMANTIC_ANSWER_SIMILARITY
    semantic_weight: float = SEMANTIC_WEIGHT
    size_slope: float = SEMANTIC_SIZE_SLOPE
    hook: bool = False
    hook_answer_similarity: float = SEMANTIC_HOOK_ANSWER_SIMILARITY


class ReadKeys(NamedTuple):
    """The settings a one-shot read (``memrepo recall``, ``memrepo context``) needs, without pydantic.

    Attributes:
        repo: the ``repo`` key.
        git_toplevel: ``[workspaces] git_toplevel``.
        me_md: ``[context] me_md``.
        server_idle_s: ``[writes] server_idle_s``: how long the write
            server of ``memrepo remember`` waits for the next write (0: none).
        semantic: the ``[semantic]`` table as written (validated), None when absent.
    """

    repo: str = DEFAULT_REPO
    git_toplevel: bool = True
    me_md: bool = True
    server_idle_s: float = SERVER_IDLE_S
    semantic: dict[str, object] | None = None


def known_valid_keys(path: Path) -> ReadKeys | None:
    """The :class:`ReadKeys` of a config file validated before, as it is now; else None.

    Args:
        path: the config file (:func:`config_path`).

    Returns:
        ReadKeys | None: the keys (their defaults when absent), or None when
        the file cannot be read or its bytes were not validated as they are:
        the caller then loads the settings, which says what is wrong.
    """
    try:
        raw = path.read_bytes()
        if _memo_path().read_text("ascii") != _digest(path, raw):
            return None
    except OSError:
        return None
    import tomllib

    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    repo = data.get("repo", DEFAULT_REPO)
    toplevel = _section(data, "workspaces").get("git_toplevel", True)
    me_md = _section(data, "context").get("me_md", True)
    idle = _section(data, "writes").get("server_idle_s", SERVER_IDLE_S)
    if not isinstance(repo, str) or not isinstance(toplevel, bool) or not isinstance(me_md, bool):
        return None  # validated, yet not a string and booleans as written: pydantic read it otherwise, so ask it
    if isinstance(idle, bool) or not isinstance(idle, int | float):
        return None
    semantic = data.get("semantic")
    return ReadKeys(repo, toplevel, me_md, float(idle), semantic if isinstance(semantic, dict) else None)


def _section(data: dict[str, object], name: str) -> dict[str, object]:
    value = data.get(name, {})
    return value if isinstance(value, dict) else {}


def resolve_repo_path(cli_value: str | None, settings: HasRepo) -> tuple[Path, str]:
    """Pick the repo path: ``--repo``, then ``MEMREPO_REPO``, then config, then ``~/agent-memory``.

    Args:
        cli_value: the ``--repo`` option, or None.
        settings: the settings the front end loaded (its ``repo`` key).

    Returns:
        tuple[Path, str]: the expanded path and where it came from
        (``--repo``, ``MEMREPO_REPO``, ``config``, ``default``).
    """
    if cli_value:
        return Path(os.path.expanduser(cli_value)), "--repo"
    env = os.environ.get(ENV_REPO)
    if env:
        return Path(os.path.expanduser(env)), ENV_REPO
    source = "config" if settings.repo != DEFAULT_REPO else "default"
    return Path(os.path.expanduser(settings.repo)), source


_SOURCE_WORDS = {ENV_REPO: f"from {ENV_REPO}", "config": "from the config file", "default": "the default repo"}


def memory_repo_around(folder: str) -> Path | None:
    """The memory repo holding ``folder``: the nearest folder at or above it with a ``.git`` and a ``MEMORY.md``
    (docs/architecture.md §2: a memory repo is a git repository whose top level holds MEMORY.md); else None."""
    current = os.path.abspath(folder)
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return Path(current) if os.path.isfile(os.path.join(current, "MEMORY.md")) else None
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def other_repo_note(repo: Path, source: str, folder: str | None = None) -> str | None:
    """The one line that says which repo a command works on, when the current folder is in another memory repo.

    The repo is never taken from the current folder (README, Configuration: ``--repo``, ``MEMREPO_REPO``, the
    config's ``repo``, else ``~/agent-memory``); a user used to git expects the folder they are in, so a
    command run inside another memory repo says which one it works on (breaker finding B6-9).

    Args:
        repo: the repo in use (:func:`resolve_repo_path`).
        source: where it came from (:func:`resolve_repo_path`); ``--repo`` never gets a note.
        folder: the current folder (default: :func:`os.getcwd`).

    Returns:
        str | None: ``memrepo: working on ~/agent-memory (the default repo), not the memory repo in this
        folder, /x/notes: pass --repo /x/notes to use it``; None when there is nothing to say.
    """
    if source == "--repo":
        return None
    try:
        here = memory_repo_around(folder if folder is not None else os.getcwd())
        if here is None or (repo.exists() and os.path.samefile(here, repo)):
            return None
    except OSError:  # the current folder was removed, or a path cannot be statted: nothing to compare
        return None
    home = os.path.expanduser("~")
    shown = str(repo)
    if shown == home or shown.startswith(home.rstrip(os.sep) + os.sep):
        shown = "~" + shown[len(home) :]
    import shlex

    why, use = _SOURCE_WORDS.get(source, source), shlex.quote(str(here))
    return (
        f"memrepo: working on {shown} ({why}), not the memory repo in this folder, {here}: pass --repo {use} to use it"
    )
