"""Shared fixtures. Tests never read the developer's home, config or git config:
libgit2's config search path points at an empty folder for the whole session
(helpers/gitconfig.py says why), and an autouse fixture points HOME, XDG folders
and git's global/system config at a temp folder for every test, after clearing every
``GIT_*``, ``MEMREPO_*`` and ``XDG_*`` variable of the shell that started pytest. Every
child process a test starts and leaves running is killed when the test ends."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import pytest_textual_snapshot
from helpers.gitconfig import isolate_libgit2
from helpers.repo_helpers import plain_settings

from memrepo.engine.repo.store import MemoryStore

_EMPTY_GIT_CONFIG_DIR = Path(tempfile.mkdtemp(prefix="memrepo-tests-no-gitconfig-"))
"""The empty folder libgit2 looks in for system, XDG and global config (one per test process)."""


def pytest_configure(config: pytest.Config) -> None:
    isolate_libgit2(_EMPTY_GIT_CONFIG_DIR)
    if not hasattr(config, "workerinput"):  # once per run: in xdist's controller, before its workers start
        compile_memrepo()


_PACKAGES = ("memrepo.engine", "memrepo.cli", "memrepo.tui", "memrepo.mcpserver", "memrepo.evals")
"""memrepo's subpackages holding Python modules (``memrepo.themes`` holds none)."""


def compile_memrepo() -> None:
    """Write the bytecode of memrepo's modules once, before any test runs (up-to-date files are skipped).

    Hundreds of tests start ``memrepo`` (or ``python -c`` importing it) in a new process. With
    ``PYTHONDONTWRITEBYTECODE`` set, as on the machines the suite runs on, none of them wrote the
    bytecode of what it compiled, so each compiled every module it imported again from source:
    ~0.1-0.2 s of CPU per process (tests/cli/test_hook_quick.py: 9.4 s of CPU without, 7.1 s with).
    Without the variable the workers would each compile the same modules at once. The compiler
    writes the files whatever the variable says; every process then reads them."""
    import compileall
    import importlib.util

    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compileall.compile_dir(folder, quiet=1)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_EMPTY_GIT_CONFIG_DIR, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked slow first (in their order): with ``-n`` the long ones start at once
    rather than lengthening the end of the run. Every worker sorts alike, as xdist needs."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def empty_git_config_dir() -> Path:
    """The folder libgit2's config search path points at (always empty)."""
    return _EMPTY_GIT_CONFIG_DIR


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh HOME with XDG folders and empty git config for every test.

    Every ``GIT_*``, ``MEMREPO_*`` and ``XDG_*`` variable (and ``EMAIL``, git's last identity
    fallback) the shell exported is cleared first: an exported ``GIT_AUTHOR_NAME`` overrode a
    test's ``git -c user.name=...`` (tests/core/test_staged_hand_edits.py failed), a
    ``GIT_DIR`` sent git commands to another repo, ``XDG_RUNTIME_DIR`` put write servers' sockets
    in the developer's own folder. Tests that need one set it themselves.
    """
    home = tmp_path_factory.mktemp("home")
    for var in list(os.environ):
        if var.startswith(("GIT_", "MEMREPO_", "XDG_")) or var == "EMAIL":
            monkeypatch.delenv(var)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv(
        "MEMREPO_WRITE_SERVER", "0"
    )  # no test leaves a write server behind (tests/cli/test_write_server.py starts its own)
    # Lexical recall unless a test of hybrid recall turns it on (tests/read/test_semantic_*.py): the
    # others' results must not depend on a background build of vectors.
    monkeypatch.setenv("MEMREPO_SEMANTIC", "off")
    return home


def _kill(proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    """SIGKILL a child (its whole process group when it leads one of its own) and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        group = os.getpgid(proc.pid)
        if group == proc.pid and group != os.getpgrp():
            os.killpg(group, signal.SIGKILL)
        else:
            proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=30)


@pytest.fixture(autouse=True)
def no_child_left_running(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Kill every child process the test started (``subprocess``, ``asyncio``) that still runs when it ends.

    A test that gives up on a child (``communicate(timeout=...)`` raising, an assert before
    the child's stop) left it running: a ``memrepo watch`` so left ran 33 minutes past the suite.
    Set up before the test's other fixtures, so their own teardown stops their children first.
    """
    started: list[subprocess.Popen] = []  # type: ignore[type-arg]
    original = subprocess.Popen.__init__

    def recording_init(self: subprocess.Popen, *args: object, **kwargs: object) -> None:  # type: ignore[type-arg]
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        started.append(self)

    monkeypatch.setattr(subprocess.Popen, "__init__", recording_init)
    yield
    for proc in started:
        if proc.poll() is None:
            _kill(proc)


@pytest.fixture(autouse=True)
def process_wide_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process-wide rules loading settings sets (``config._applied``:
    ``[workspaces] git_toplevel``) go back after each test: a CLI test run in-process with
    ``git_toplevel = false`` made a later test on the same worker see workspaces another way."""
    from memrepo.engine.format import paths

    monkeypatch.setattr(paths, "GIT_TOPLEVEL", paths.GIT_TOPLEVEL)


@pytest.fixture(autouse=True)
def private_tmpdir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temp folder of this test's own for ``tempfile`` and for subprocesses (TMPDIR), so tests
    running side by side (pytest -n) never see each other's temp files."""
    folder = tmp_path_factory.mktemp("tmpdir")
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setenv("TMPDIR", str(folder))
    return folder


@pytest.fixture
def repo_path(tmp_path: Path) -> Path:
    """A path where a new memory repo can be created (missing folder)."""
    return tmp_path / "memory"


@pytest.fixture
def store(repo_path: Path) -> MemoryStore:
    """A memory repo created at ``repo_path`` with its starting layout."""
    return MemoryStore.open(repo_path, plain_settings())


class _SnapshotsFolder(pytest_textual_snapshot.SVGImageExtension):
    """Keep the SVGs in tests/snapshots/<test file>/ rather than syrupy's __snapshots__."""

    @classmethod
    def dirname(cls, *, test_location) -> str:
        return str(Path(test_location.filepath).parent / "snapshots" / test_location.basename)


@pytest.fixture(autouse=True)
def _snapshots_in_tests_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every snapshot test keeps its SVGs under tests/snapshots/ (look at them before accepting)."""
    monkeypatch.setattr(pytest_textual_snapshot, "SVGImageExtension", _SnapshotsFolder)


@pytest.fixture(autouse=True)
def fresh_allow_lists() -> Iterator[None]:
    """Forget the allow-lists activated by the test: they are process-wide (one per repo opened), so a
    value one test allows (tests/read/test_cold_recall.py allows a password) would show unredacted in the
    next test on the same worker (CI failed that way in tests/redaction/test_ways_out.py)."""
    from memrepo.engine.redaction import allow

    yield
    with allow._lock:
        allow._active.clear()
