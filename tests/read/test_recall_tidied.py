"""A file tidied by hand keeps its corrections (breaker8 B8-17, docs/recall.md): a ``supersedes:`` holds across
files, so a line moved to a topic file never ranks above the line that replaces it; a Korean correction ranks above its
old line (B8-12)."""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.read.recallorder import replacements
from memrepo.engine.repo.store import MemoryStore

NEW = "My editor is now Neovim [by: user; supersedes: My editor is Emacs; added: 2026-12-05]"
OLD = "My editor is Emacs [by: user; added: 2026-12-05]"


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_a_line_moved_to_a_topic_file_ranks_below_the_line_that_supersedes_it(store: MemoryStore) -> None:
    _write(
        store.root,
        {
            "me.md": f"# Me\n\n- I live in Montreal [by: user; added: 2026-12-05]\n- {NEW}\n",
            "topics/tools.md": f"# Tools\n\n- {OLD}\n- My shell is fish [by: user; added: 2026-12-05]\n",
        },
    )
    hits = store.recall("editor Emacs Neovim")
    texts = [h.text for h in hits]
    assert texts.index("My editor is now Neovim") < texts.index("My editor is Emacs")
    hits = store.recall("what editor do I use")
    assert [h.text for h in hits][:2] == ["My editor is now Neovim", "My editor is Emacs"]


def test_supersedes_across_files_follows_the_same_rules_as_in_one_file() -> None:
    rows = {
        1: ("topics/tools.md", 3, "My editor is Emacs", {"by": "user"}),
        2: ("me.md", 9, "My editor is now Neovim", {"by": "user", "supersedes": "My editor is Emacs"}),
        3: ("topics/shell.md", 3, "My shell is fish", {"by": "user", "subject": "shell"}),
        4: ("me.md", 10, "Shell: zsh", {"by": "agent", "supersedes": "shell"}),  # an agent never hides the user
        5: ("topics/x.md", 3, "Emacs", {"by": "user"}),
        6: ("me.md", 11, "Not Emacs", {"by": "user", "supersedes": "Emacs"}),  # under 8 characters: no text piece
    }
    assert replacements(rows) == {1: 2}


def test_a_korean_correction_ranks_above_its_old_line_in_recall(store: MemoryStore) -> None:
    # breaker8 B8-12: 이제 ("now") was no change word, and recall put the outdated 3시 line first
    old, new = "kimchi-bot 배포는 매일 새벽 3시에 한다", "kimchi-bot 배포는 이제 매일 새벽 5시에 한다"
    _write(
        store.root,
        {
            "workspaces/kimchi-bot.md": f"# kimchi-bot\n\n- {old} [by: user; added: 2026-12-05]\n"
            "- kimchi-bot은 Python 3.12를 쓴다 [by: user; added: 2026-12-05]\n"
            f"- {new} [by: user; added: 2026-12-05]\n",
        },
    )
    texts = [h.text for h in store.recall("kimchi-bot 배포 새벽")]
    assert texts.index(new) < texts.index(old)
