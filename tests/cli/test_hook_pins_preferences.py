"""A pin or a preference said in a session reaches the next session (issue 30, sess13).

Before: "pin this so every session sees it: X" was not heard at all (the qualifier before the colon), and "Pin
this: X" was written but not pinned; "Recuerda que prefiero X" / "Merk dir bitte: X" were not heard (English
"remember" only); a preference said in passing ("btw I really can't stand emoji in commit messages") was never
kept. Through the real SessionEnd checkpoint on Claude Code's transcript lines (``tests/cli/test_hook_corrections.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from test_hook_corrections import everywhere, lines_of, remember, session_end

from memrepo.engine.format.layout import ME_MD, MEMORY_MD
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def world(tmp_path: Path) -> tuple[MemoryStore, Path, Path]:
    """A memory repo and two project folders: the session's ("shop") and another ("forky")."""
    shop, forky = tmp_path / "shop", tmp_path / "forky"
    shop.mkdir()
    forky.mkdir()
    return MemoryStore.open(tmp_path / "memory", plain_settings()), shop, forky


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "pin this so every session sees it: never run terraform apply against prod from a laptop",
            "Never run terraform apply against prod from a laptop",
        ),
        (
            "Fissa questo in memoria, deve restare sempre in vista: i dati dei clienti non escono mai dall'UE.",
            "I dati dei clienti non escono mai dall'UE",
        ),
        (
            "Keep this at the top: the prod database is read-only on Fridays.",
            "The prod database is read-only on Fridays",
        ),
        ("Épingle ça : on ne déploie jamais le vendredi.", "On ne déploie jamais le vendredi"),
        ("We never deploy on Fridays. Pin that.", "We never deploy on Fridays"),
    ],
)
def test_a_pin_said_in_a_session_is_pinned_in_memory_md(world, tmp_path: Path, said: str, kept: str) -> None:
    store, shop, forky = world
    session_end(store, tmp_path, shop, [(said, "Pinned.")])
    assert everywhere(store)[kept] == MEMORY_MD
    assert lines_of(store, MEMORY_MD)[kept]["by"] == "user"
    assert kept in store.context(str(forky)).text  # another project's next session sees it


@pytest.mark.parametrize(
    "said",
    [
        "Pin this version: numpy 1.26 breaks the build.",
        "Pin this in the README: run make setup first.",
        "can you pin this issue in the GitHub repo?",
        "Keep it on top of the list: the refund bug.",
    ],
)
def test_pinning_a_thing_in_the_project_is_no_pin_request(world, tmp_path: Path, said: str) -> None:
    store, shop, _forky = world
    session_end(store, tmp_path, shop, [(said, "Done.")])
    assert not lines_of(store, MEMORY_MD)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "can you fix the typo in the install page? oh and btw I really can't stand emoji in commit messages, "
            "keep them plain",
            "I really can't stand emoji in commit messages, keep them plain",
        ),
        (
            "Por cierto, prefiero que me expliques las cosas en español, aunque el código va en inglés.",
            "Prefiero que me expliques las cosas en español, aunque el código va en inglés",
        ),
        (
            "Per i test preferisco pytest con le fixture, niente unittest.",
            "Per i test preferisco pytest con le fixture, niente unittest",
        ),
        (
            "I'd rather you used British spelling in docs and comments.",
            "I'd rather you used British spelling in docs and comments",
        ),
        ("Ich nehme lieber uv als pip für Python-Projekte.", "Ich nehme lieber uv als pip für Python-Projekte"),
    ],
)
def test_a_preference_said_in_passing_is_the_users_line_in_me_md(world, tmp_path: Path, said: str, kept: str) -> None:
    store, shop, forky = world
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert everywhere(store)[kept] == ME_MD
    meta = lines_of(store, ME_MD)[kept]
    assert meta["by"] == "user" and meta["kind"] == "preference"
    assert kept in store.context(str(forky)).text


@pytest.mark.parametrize(
    "said",
    [
        "I prefer the second option.",
        "I'd rather you fix the tests first.",
        "Do you prefer tabs or spaces?",
        "Bob prefers tabs over spaces.",
        "My colleague prefers vim for everything.",
        "I think I prefer Go for the new service.",
        "If I had to pick, I'd prefer Go.",
        "I hate when the build breaks.",
        "I don't like how this function looks.",
        "Non mi piace questa soluzione.",
        "Per ora preferisco lasciare così il file.",
        "The README says: I prefer tabs.",
        "I'd rather you didn't touch the config right now.",
        "Honestly I'd rather we ship this PR as is.",
    ],
)
def test_a_choice_a_hedge_or_someone_elses_preference_is_not_kept(world, tmp_path: Path, said: str) -> None:
    store, shop, _forky = world
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert not everywhere(store)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "Recuerda que prefiero Poetry en lugar de pip para mis proyectos de Python.",
            "Prefiero Poetry en lugar de pip para mis proyectos de Python",
        ),
        (
            "Merk dir bitte: keine Emojis in Commit-Nachrichten, das mag ich nicht.",
            "Keine Emojis in Commit-Nachrichten, das mag ich nicht",
        ),
    ],
)
def test_remember_in_another_language_keeps_a_preference_in_me_md(world, tmp_path: Path, said: str, kept: str) -> None:
    store, shop, forky = world
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert everywhere(store)[kept] == ME_MD
    assert kept in store.context(str(forky)).text


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Ricordati che il deploy è il martedì.", "Il deploy è il martedì"),
        ("N'oublie pas qu'on déploie le mardi.", "On déploie le mardi"),
        ("Denk daran, dass wir dienstags deployen.", "Wir dienstags deployen"),
    ],
)
def test_remember_in_another_language_keeps_a_projects_fact_in_its_file(
    world, tmp_path: Path, said: str, kept: str
) -> None:
    store, shop, _forky = world
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert everywhere(store)[kept].startswith("workspaces/")


def test_i_remember_and_a_question_are_no_request() -> None:
    from memrepo.engine.format.remembering import user_statements

    assert user_statements(["Je me souviens que tu as dit X.", "¿Recuerdas que el deploy es el martes?"]) == []


@pytest.mark.parametrize(
    ("stored", "said", "kept"),
    [
        (
            "Die Datenbank von pylon ist Postgres 15.",
            "Kleine Korrektur: wir sind inzwischen auf Postgres 17, das Upgrade lief letzte Woche durch.",
            "Wir sind inzwischen auf Postgres 17",
        ),
        (
            "pylon のステージング環境は staging.pylon.internal です",
            "すみません、訂正です。ステージングのホスト名は stg.pylon.internal に変わりました。",
            "ステージングのホスト名は stg.pylon.internal に変わりました",
        ),
    ],
)
def test_a_correction_cued_in_another_language_replaces_the_stored_line(
    world, tmp_path: Path, stored: str, said: str, kept: str
) -> None:
    store, shop, _forky = world
    rel = remember(store, stored, shop)
    session_end(store, tmp_path, shop, [(said, "OK.")])
    meta = lines_of(store, rel)[kept]
    assert meta["by"] == "user" and meta["supersedes"]
    block = store.context(str(shop)).text
    assert kept in block and stored.rstrip(".") not in block


@pytest.mark.parametrize(
    "said",
    [
        "Kleine Korrektur: die Tests laufen jetzt grün, danke.",
        "すみません、訂正です。テストは全部通りました。",
        "Correction: the README now has a FAQ section.",
    ],
)
def test_a_cue_before_a_statement_of_another_subject_corrects_nothing(world, tmp_path: Path, said: str) -> None:
    store, shop, _forky = world
    rel = remember(store, "The deploy window is Tuesday", shop)
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert not any("supersedes" in meta for meta in lines_of(store, rel).values())
    assert "The deploy window is Tuesday" in store.context(str(shop)).text
