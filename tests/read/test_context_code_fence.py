"""A code fence in an entry cannot open a code block in the context block (breaker3 F21).

Before: a hand-written entry "- ```" showed as "L52 ```" in the block, and a markdown-minded reader could
take every line after it for code. Now a run of three or more backticks or tildes is written as character
references, in every reader of the block (the store and ``memrepo context``'s cold path) and the prompt
hook's recall block; single backticks (inline code) stay as written.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memrepo.cli.main import main
from memrepo.engine.read.context import sanitize_line
from memrepo.engine.repo.store import MemoryStore


def test_fence_marks_are_escaped_inline_code_is_kept() -> None:
    assert sanitize_line("```") == "&#96;&#96;&#96;"
    assert sanitize_line("~~~~ python") == "&#126;&#126;&#126;&#126; python"
    assert sanitize_line("Run `make ship` then ``x``") == "Run `make ship` then ``x``"


def test_a_lone_fence_entry_opens_no_code_block(store: MemoryStore, tmp_path: Path) -> None:
    me = store.root / "me.md"
    me.write_text(
        me.read_text(encoding="utf-8")
        + "- ``` [by: user]\n- Likes tea fence test [by: user]\n- Quokka snippet ~~~ sh [by: user]\n"
    )
    for text in (
        store.context().text,
        CliRunner().invoke(main, ["--repo", str(store.root), "context"]).stdout,
    ):
        assert "```" not in text and "~~~" not in text, text
        assert "&#96;&#96;&#96;" in text and "Likes tea fence test" in text
    payload = {"session_id": "s", "transcript_path": str(tmp_path / "s.jsonl"), "cwd": str(tmp_path)}
    hook = CliRunner().invoke(
        main,
        ["--repo", str(store.root), "hook", "prompt"],
        input=json.dumps({**payload, "hook_event_name": "UserPromptSubmit", "prompt": "quokka snippet"}),
    )
    block = json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Quokka snippet &#126;&#126;&#126; sh" in block and "~~~" not in block
