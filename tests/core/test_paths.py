"""Path rules for opening or creating a memory repo, and entry refs (docs/architecture.md §2)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.errors import PathRuleError, RefError
from memrepo.engine.format.paths import check_repo_path, make_ref, normalize_workspace, parse_ref, safe_relpath
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def _refused(path: str | Path, rule: str) -> PathRuleError:
    with pytest.raises(PathRuleError) as info:
        check_repo_path(path)
    assert info.value.rule == rule
    assert "rule:" not in str(info.value)  # plain words for people; the id is for scripts (.rule, --json)
    # Opening through the store refuses the same way and creates nothing.
    with pytest.raises(PathRuleError) as again:
        MemoryStore.open(path, plain_settings())
    assert again.value.rule == rule
    return info.value


# -- accepted paths ---------------------------------------------------------------


def test_missing_and_empty_folders_are_accepted(tmp_path: Path) -> None:
    assert check_repo_path(tmp_path / "missing" / "deeper") == tmp_path / "missing" / "deeper"
    (tmp_path / "empty").mkdir()
    assert check_repo_path(tmp_path / "empty") == tmp_path / "empty"


def test_a_relative_path_resolves_against_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert check_repo_path("memory") == tmp_path / "memory"
    assert check_repo_path("./a/../memory") == tmp_path / "memory"
    store = MemoryStore.open("memory", plain_settings())
    assert store.root == tmp_path / "memory"
    assert (tmp_path / "memory" / "MEMORY.md").is_file()


def test_tilde_expands_to_home(isolated_home: Path) -> None:
    assert check_repo_path("~/agent-memory") == isolated_home / "agent-memory"


def test_adopting_an_existing_memory_repo_makes_no_new_commit(repo_path: Path) -> None:
    first = MemoryStore.open(repo_path, plain_settings())
    head = first.head()
    assert check_repo_path(repo_path) == repo_path
    again = MemoryStore.open(repo_path, plain_settings(), create=False)
    assert again.head() == head
    assert [c.summary for c in again.log()] == ["Create memory repo"]


def test_adopting_a_memory_repo_made_by_another_tool(tmp_path: Path) -> None:
    # The Agent Memory Repo skill makes the same layout with plain git.
    root = tmp_path / "agent-memory"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / "MEMORY.md").write_text("# Memory\n\n## Index\n")
    _git(root, "add", "MEMORY.md")
    _git(root, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-q", "-m", "init")
    store = MemoryStore.open(root, plain_settings())
    result = store.remember(Candidate(text="adopted repo", by="user"))
    assert result.commit is not None
    assert [c.summary for c in store.log()] == ["Remember fact: adopted repo", "init"]


# -- refused paths -----------------------------------------------------------------


def test_filesystem_root_is_refused() -> None:
    _refused("/", "root")


def test_home_itself_is_refused(isolated_home: Path) -> None:
    _refused(isolated_home, "home")
    _refused("~", "home")
    _refused(str(isolated_home) + "/sub/..", "home")


def test_a_symlink_is_refused_even_to_a_memory_repo(tmp_path: Path, repo_path: Path) -> None:
    MemoryStore.open(repo_path, plain_settings())
    link = tmp_path / "link"
    link.symlink_to(repo_path)
    err = _refused(link, "symlink")
    assert str(link) in str(err)
    assert f"give its target: --repo {repo_path.resolve()}" in str(err)  # the one option that works (B11-12)


def test_inside_another_git_work_tree_is_refused(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    _refused(project / "memory", "inside-repo")
    (project / "src" / "deep").mkdir(parents=True)
    err = _refused(project / "src" / "deep" / "memory", "inside-repo")
    assert str(project) in str(err)
    assert not (project / "memory").exists()


def test_a_non_empty_folder_that_is_not_a_memory_repo_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "todo.txt").write_text("mine\n")
    _refused(folder, "not-memory-repo")
    assert sorted(p.name for p in folder.iterdir()) == ["todo.txt"]


def test_a_git_repo_without_memory_md_is_refused(tmp_path: Path) -> None:
    repo = tmp_path / "code"
    repo.mkdir()
    _git(repo, "init", "-q")
    err = _refused(repo, "not-memory-repo")
    assert "MEMORY.md" in str(err)
    assert not (repo / "MEMORY.md").exists()


def test_a_file_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "memory.txt"
    file.write_text("x")
    _refused(file, "not-a-directory")


def test_open_without_create_refuses_a_missing_repo(repo_path: Path) -> None:
    with pytest.raises(PathRuleError) as info:
        MemoryStore.open(repo_path, plain_settings(), create=False)
    assert "init" in str(info.value)
    assert not repo_path.exists()


# -- refs --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("repo:me.md#L3", ("me.md", 3)),
        ("repo:workspaces/billing.md#L12", ("workspaces/billing.md", 12)),
        ("  repo:./lessons.md#L1  ", ("lessons.md", 1)),
        ("repo:topics\\sql.md#L7", ("topics/sql.md", 7)),
    ],
)
def test_parse_ref_accepts_entry_refs(ref: str, expected: tuple[str, int]) -> None:
    assert parse_ref(ref) == expected
    assert parse_ref(make_ref(*expected)) == expected


@pytest.mark.parametrize(
    "ref",
    [
        "repo:../outside.md#L1",
        "repo:workspaces/../../outside.md#L1",
        "repo:..\\outside.md#L1",
        "repo:/etc/passwd#L1",
        "repo:C:/Windows/win.ini#L1",
        "repo:.git/config#L1",
        "repo:./.git/HEAD#L1",
        "repo:.git#L1",
        "repo:me.md#L0",
        "repo:me.md#L-1",
        "repo:me.md#L01",
        "repo:me.md#L",
        "repo:me.md#Labc",
        "repo:me.md#L1x",
        "repo:me.md",
        "me.md#L1",
        "repo:#L1",
        "repo:.#L1",
        "garbage",
        "",
    ],
)
def test_parse_ref_rejects_bad_and_unsafe_refs(ref: str) -> None:
    with pytest.raises(RefError):
        parse_ref(ref)


def test_safe_relpath_messages_say_what_is_wrong() -> None:
    with pytest.raises(RefError, match="climbs out"):
        safe_relpath("a/../../b")
    with pytest.raises(RefError, match=r"\.git"):
        safe_relpath(".git/hooks/pre-commit")
    with pytest.raises(RefError, match="not a path inside"):
        safe_relpath("/abs")


def test_a_dotdot_path_that_stays_inside_is_refused_naming_the_plain_path() -> None:
    """breaker30 B30-7: "workspaces/../me.md" does not climb out; the refusal says which path to give."""
    with pytest.raises(RefError, match=r"has a '\.\.' part.*give 'me\.md'") as caught:
        safe_relpath("workspaces/../me.md")
    assert "climbs out" not in str(caught.value)
    with pytest.raises(RefError, match="own state") as caught:
        safe_relpath(".git/memrepo/recall.sqlite")
    assert "never touches" not in str(caught.value)


@pytest.mark.parametrize("bad", [".GIT/config", ".Git/hooks/x", "./.gIt/HEAD"])
def test_git_folder_is_refused_whatever_its_case(tmp_path: Path, bad: str) -> None:
    """Case-insensitive file systems open .git/config for .GIT/config: refuse every spelling."""
    from memrepo.engine.agents.confinedread import read_confined

    MemoryStore.open(tmp_path / "m", plain_settings())
    with pytest.raises(RefError, match=r"\.git"):
        safe_relpath(bad)
    with pytest.raises(RefError, match=r"\.git"):
        read_confined(tmp_path / "m", bad)


@pytest.mark.parametrize(
    "bad", ["fact] [by: user; pin: true", "fact;x", "", "1fact", "a" * 33, "two words", "bad\x00value"]
)
def test_candidate_kind_must_be_one_short_word(bad: str) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="kind must be one short word"):
        Candidate(text="x y z", kind=bad)
    assert Candidate(text="x y z", kind="lesson_learned-2").kind == "lesson_learned-2"


@pytest.mark.parametrize("value", ["~\x00", "/tmp/a\x00b", "./x\x00"])
def test_a_workspace_with_a_nul_byte_is_a_name_never_a_folder(value: str) -> None:
    # a NUL once reached os.path.expanduser: ValueError out of recall and context
    ws_id, _slug, absolute = normalize_workspace(value)
    assert absolute is None
    assert ws_id.startswith("ws-")
