"""The recall index a background build makes (its own process: ``build_index``) is redacted under the
repo's allow-list, as the index a process builds for itself (docs/architecture.md §3, §4): a value the user
marked a false alarm stays findable and shown, whichever process built the index."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.redaction import allow, redact

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
"""GitHub's token shape: redacted unless allowed."""


@pytest.mark.parametrize("background", [False, True])
def test_a_value_marked_a_false_alarm_stays_in_an_index_built_by_another_process(
    tmp_path: Path, background: bool
) -> None:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    (root / "MEMORY.md").write_text(f"# Memory\n\n- The demo fixture token is {TOKEN} in the docs\n", encoding="utf-8")
    assert redact(TOKEN)[1], "the value must be one redaction takes for a secret"
    state = root / ".git" / "memrepo"
    allow.add(state, TOKEN, "github-token")
    code = "import sys; from memrepo.engine.read.recallfile import build_index; build_index(sys.argv[1], sys.argv[2] == '1')"
    subprocess.run([sys.executable, "-c", code, str(root), "1" if background else "0"], check=True, timeout=300)
    index = RecallIndex(root)
    try:
        hits = index.search("demo fixture token", limit=3)
        texts = [index.row(iid)[3] for iid, _key in hits]
    finally:
        index.close()
    assert texts == [f"The demo fixture token is {TOKEN} in the docs"]
