"""memrepo installs only under ``memrepo``: beside a distribution that ships top-level
``engine``, ``tui`` and ``themes`` packages, both work, in either install order, and removing
one leaves the other whole. The editable install maps the repository's folders the same way
and sees edits (new files too) without reinstalling.

Each case makes a fresh virtual environment without network: the wheels are built here with
the setuptools already installed, pip installs them with ``--no-index``, and the
dependencies (textual, pygit2, ...) come from the running environment through a path file.
"""

from __future__ import annotations

import json
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest
from helpers.packaging_helpers import FOLDERS, GENERIC, run

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("packaging")]  # one worker builds the wheels once


class Venv:
    """A fresh virtual environment whose dependencies come from the running one."""

    def __init__(self, path: Path) -> None:
        run(sys.executable, "-m", "venv", "--without-pip", path)
        self.path = path
        self.python = path / "bin" / "python"
        self.site = Path(
            run(self.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
        )
        # Appended after the venv's own site-packages: what is installed here comes first.
        (self.site / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    def pip(self, *args: str | Path) -> None:
        run(sys.executable, "-m", "pip", "--python", self.python, "--disable-pip-version-check", "-q", *args)

    def install(self, wheel: Path) -> None:
        self.pip("install", "--no-deps", "--no-index", wheel)

    def uninstall(self, name: str) -> None:
        self.pip("uninstall", "-y", name)

    def probe(self, cwd: Path) -> dict[str, object]:
        """What the environment imports: every memrepo module, and whatever engine/tui/themes are."""
        code = textwrap.dedent("""\
            import importlib, json, pkgutil, sys
            out = {"generic": {}, "memrepo": {}, "errors": []}
            for name in ("engine", "tui", "themes"):
                try:
                    mod = importlib.import_module(name)
                    out["generic"][name] = [getattr(mod, "WHO", None), mod.__file__]
                except ImportError:
                    out["generic"][name] = None
            try:
                import memrepo.cli.main  # the entry point first: cli's modules import it (and it them)
            except ModuleNotFoundError:
                out["memrepo"] = None  # not installed
            else:
                for top in ("engine", "tui", "cli", "mcpserver", "evals", "themes"):
                    pkg = importlib.import_module("memrepo." + top)
                    out["memrepo"][top] = pkg.__file__
                    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
                        try:
                            importlib.import_module(info.name)
                        except Exception as exc:
                            out["errors"].append(f"{info.name}: {exc!r}")
                from importlib.resources import files
                out["theme"] = files("memrepo.themes").joinpath("memrepo-dark.toml").read_text()[:200]
            print(json.dumps(out))
            """)
        done = run(self.python, "-I", "-c", code, cwd=cwd)
        return json.loads(done.stdout.splitlines()[-1])

    def memrepo(self, *args: str, cwd: Path) -> str:
        return run(self.path / "bin" / "memrepo", *args, cwd=cwd).stdout


def check_memrepo(env: Venv, tmp: Path, home: Path) -> None:
    """Every memrepo module imports from this environment, and the CLI writes and reads a memory."""
    seen = env.probe(cwd=tmp)
    assert seen["errors"] == []
    for top, file in seen["memrepo"].items():  # type: ignore[union-attr]
        assert Path(file).is_relative_to(env.site / "memrepo" / top), (top, file)
    assert "generic-names" not in seen["theme"]  # memrepo's theme, not the other one of the same name
    repo = tmp / f"memory-{len(list(tmp.glob('memory-*')))}"
    env.memrepo("--repo", str(repo), "remember", "Keeps the wheel and the generic names apart", cwd=tmp)
    assert "Keeps the wheel and the generic names apart" in env.memrepo("--repo", str(repo), "recall", "wheel", cwd=tmp)
    assert env.memrepo("--help", cwd=tmp).startswith("Usage: memrepo")


def check_generic(env: Venv, tmp: Path) -> None:
    """The other distribution's engine, tui and themes are its own, files and all."""
    seen = env.probe(cwd=tmp)
    for name in GENERIC:
        who, file = seen["generic"][name]  # type: ignore[index]
        assert who == f"generic-names {name}" and Path(file) == env.site / name / "__init__.py", (name, file)
    assert (env.site / "themes" / "memrepo-dark.toml").read_text() == 'owner = "generic-names"\n'


def test_wheel_installed_after_a_distribution_with_generic_names(
    memrepo_wheel: Path, dummy_wheel: Path, tmp_path: Path, isolated_home: Path
) -> None:
    env = Venv(tmp_path / "venv")
    env.install(dummy_wheel)
    env.install(memrepo_wheel)
    check_generic(env, tmp_path)
    check_memrepo(env, tmp_path, isolated_home)
    env.uninstall("memrepo")  # removes memrepo's files only
    check_generic(env, tmp_path)
    assert env.probe(cwd=tmp_path)["memrepo"] is None
    assert not [p for p in (env.site / "memrepo").rglob("*") if p.is_file()]  # pip may leave the empty folder


def test_distribution_with_generic_names_installed_after_the_wheel(
    memrepo_wheel: Path, dummy_wheel: Path, tmp_path: Path, isolated_home: Path
) -> None:
    env = Venv(tmp_path / "venv")
    env.install(memrepo_wheel)
    env.install(dummy_wheel)
    check_memrepo(env, tmp_path, isolated_home)
    check_generic(env, tmp_path)
    env.uninstall("generic-names")  # removes the generic names only
    check_memrepo(env, tmp_path, isolated_home)
    assert env.probe(cwd=tmp_path)["generic"] == dict.fromkeys(GENERIC)


def test_editable_install_maps_the_folders_and_sees_edits(source: Path, dummy_wheel: Path, tmp_path: Path) -> None:
    out = tmp_path / "editable"
    out.mkdir()
    code = "import sys; from setuptools import build_meta; print(build_meta.build_editable(sys.argv[1]))"
    wheel = out / run(sys.executable, "-c", code, out, cwd=source).stdout.strip().splitlines()[-1]
    env = Venv(tmp_path / "venv")
    env.install(dummy_wheel)
    env.install(wheel)
    seen = env.probe(cwd=tmp_path)
    assert seen["errors"] == []
    for top, file in seen["memrepo"].items():  # type: ignore[union-attr]
        assert Path(file) == source / top / "__init__.py", (top, file)  # the folder itself, not a copy
    assert not any((env.site / name).exists() for name in FOLDERS if name not in GENERIC)
    check_generic(env, tmp_path)
    # Edits and new files in the folders are seen at once, under their memrepo names.
    (source / "engine" / "live_edit_probe.py").write_text('SEEN = "new file"\n')
    with (source / "cli" / "main.py").open("a", encoding="utf-8") as fh:
        fh.write('\nLIVE_EDIT_PROBE = "edited"\n')
    probe = (
        "import memrepo.engine.live_edit_probe as p, memrepo.cli.main as m, engine;"
        "print(p.SEEN, m.LIVE_EDIT_PROBE, engine.WHO, sep='|')"
    )
    assert run(env.python, "-I", "-c", probe, cwd=tmp_path).stdout.strip() == "new file|edited|generic-names engine"
