"""breaker20's and breaker21's secrets on the ways out: files, commits, context, recall, the dream prompt.

Each was kept verbatim end to end before (B20-5, B21-1, B21-2, B21-3, B21-7);
a pasted key's next line kept every word (B20-1).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

PWS = ["Xk9#mQ2" + "$vL7p", "Hn4$Wq8" + "zPk2m", "Qw7#Lp2" + "!Zr9x", "Tz8Rp#V" + "x9qLm", "CafeLatte" + "#77"]
LINES = [
    f"staging mysql app user: CREATE USER 'app'@'%' IDENTIFIED BY '{PWS[0]}';",
    f"GRANT SELECT ON rpt.* TO 'rpt'@'%' IDENTIFIED BY '{PWS[1]}';",
    f"prod db pw is in SSM: aws ssm put-parameter --name /prod/db/pw --value {PWS[2]} --type SecureString",
    f'terraform: variable "db_password" {{ default = "{PWS[3]}" }}',
    f"the office wifi is {PWS[4]}.",
]
OPENAI = "sk-proj-" + "Xq93LmN0pVb27RtYz8Kf" + "W4sHjD1cUe6AgQiP5oBx"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=True).stdout.decode("latin-1")


def test_each_secret_stays_off_every_way_out(tmp_path: Path) -> None:
    from memrepo.engine.dreams.input import build_input

    store = MemoryStore.open(tmp_path / "mem", plain_settings(), create=True)
    for line in LINES:
        assert store.remember(Candidate(text=line, subject=line[:60], source="chat")).redacted, line
    root = store.root
    blobs = _git(root, "cat-file", "--batch-all-objects", "--batch")
    messages = _git(root, "log", "--format=%B")
    tree = "".join(p.read_text(encoding="utf-8") for p in root.rglob("*.md"))
    block = store.context(None).text
    recalled = CliRunner().invoke(main, ["--repo", str(root), "recall", "mysql ssm terraform wifi", "--full"]).output
    files = [p for p, _ in store.list_files()]
    prompt = build_input(root, files, []).prompt
    for name, out in (("blobs", blobs), ("messages", messages), ("tree", tree), ("context", block)):
        assert [p for p in PWS if p in out] == [], name
    assert [p for p in PWS if p in recalled or p in prompt] == []
    assert "IDENTIFIED BY '[REDACTED:password]'" in tree and "the office wifi is [REDACTED:password]" in tree


def test_the_line_after_a_pasted_key_keeps_its_words(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "mem", plain_settings(), create=True)
    text = f"export OPENAI_API_KEY={OPENAI}\nRemember that the payments webhook lives at /hooks/stripe."
    store.remember(Candidate(text=text, source="chat"))
    tree = "".join(p.read_text(encoding="utf-8") for p in store.root.rglob("*.md"))
    assert OPENAI not in tree and "Remember that the payments webhook lives at /hooks/stripe" in tree
