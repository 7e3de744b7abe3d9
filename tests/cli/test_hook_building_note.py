"""A large repo's first prompts while its index builds (breaker finding B6-10).

Over :data:`~memrepo.engine.read.coldrecall.QUICK_SCAN_BYTES` the prompt hook answers nothing while the
index's first build runs (a scan would cost the prompt seconds). It said nothing either, so the agent
was not told memory exists and is being indexed; a small repo's hook says so in one line. Now the large
one adds that one line too, in the hook's additionalContext, with no hit and no scan.
"""

from __future__ import annotations

from pathlib import Path

from test_hook_recall_modes import _hook, _memory, _said

from memrepo.engine.read import coldrecall
from memrepo.engine.read.recallbuilding import build_state
from memrepo.engine.read.recallfile import build_lock
from memrepo.engine.read.recallkeys import walk


def test_a_large_repo_s_prompt_says_the_index_is_building(tmp_path: Path) -> None:
    root, project, home = _memory(tmp_path, files=0)
    filler = "- Notes on the garden shed and the compost heap, week by week " + "x" * 4_000 + "\n"
    big = root / "topics"
    for n in range(coldrecall.QUICK_SCAN_BYTES // len(filler) + 10):  # past what the hook scans
        (big / f"big{n}.md").write_text(f"# Big {n}\n\n{filler}", encoding="utf-8")
    assert sum(st.st_size for st in walk(root).values()) > coldrecall.QUICK_SCAN_BYTES
    with build_lock(root) as free:  # a build runs (this holds its lock): the hook must not wait for it
        assert free
        out, err, code = _hook(root, project, home, home / "none.toml", "how do deploys reach the staging cluster?")
        assert code == 0, err
        lines = _said(out)
        assert lines[0] == "<memory_recall>" and lines[-1] == "</memory_recall>" and len(lines) == 3
        note = lines[1]
        assert (
            note.startswith("(no recall for this prompt yet: ") and f"index building: 0 of {len(walk(root)):,}" in note
        )
        assert "memory_recall" in note  # what answers meanwhile
        assert not any(line.startswith("repo:") for line in lines)  # no scan was made for it
        assert not build_state(root)[0]
