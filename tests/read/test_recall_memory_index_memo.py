"""A recall index held in memory writes no redaction memo into the folder the command runs in.

The index's first build redacts each entry and keeps the texts Betterleaks found clean in a memo in the index's
own folder (``.git/memrepo/redaction-clean.bin``). An index held in memory (``:memory:``, used when ``.git``
cannot be written) took ``Path(":memory:").parent`` as that folder: the current one, so a ``redaction-clean.bin``
appeared wherever the user ran the command.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.redaction.memo import FILE_NAME, flush_all


def test_an_index_in_memory_leaves_no_memo_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, elsewhere = tmp_path / "memory", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    (root / "notes.md").write_text(
        "# Notes\n\n"
        "- Build id is Ab12Cd34Ef56Gh78Ij90Kl12 for the nightly [by: agent]\n"  # token-like: Betterleaks is asked
        "- The nightly runs at 02:00 [by: agent]\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(elsewhere)
    index = RecallIndex(root, ":memory:")
    assert index.sync() == 1
    assert [index.entry(i)[2] for i, _ in index.search("nightly runs")][:1] == ["The nightly runs at 02:00"]
    flush_all()
    assert list(elsewhere.iterdir()) == []
    assert not (root / FILE_NAME).exists()


def test_an_index_on_disk_keeps_its_memo_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same build with the index in ``.git/memrepo`` does keep the memo there (what the fix must not lose)."""
    root, elsewhere = tmp_path / "memory", tmp_path / "elsewhere"
    (root / ".git" / "memrepo").mkdir(parents=True)
    elsewhere.mkdir()
    (root / "notes.md").write_text("# Notes\n\n- Build id is Ab12Cd34Ef56Gh78Ij90Kl12 [by: agent]\n", encoding="utf-8")
    monkeypatch.chdir(elsewhere)
    index = RecallIndex(root, root / ".git" / "memrepo" / "recall.sqlite")
    assert index.sync() == 1
    flush_all()
    assert (root / ".git" / "memrepo" / FILE_NAME).is_file()
    assert list(elsewhere.iterdir()) == []
