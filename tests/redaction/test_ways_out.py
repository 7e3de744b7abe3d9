"""One redaction on every way out (docs/architecture.md §3): a test per way out.

Each plants secrets where issue 14 found them leaking (hand-written lines,
metadata values, a private key's body over several lines, transcripts, a
``command`` provider's stderr) and searches what leaves for their values.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import commit_by_hand, plain_settings

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

CORPUS = json.loads(
    (Path(__file__).parents[2] / "benchmarks" / "secrets_corpus" / "corpus.json").read_text(encoding="utf-8")
)
GH = "ghp_" + "Ab12Cd34Ef56Gh78Ij90" + "Kl12Mn34Op56Qr78St90"
HF = "hf_" + "eKjFTrKCb0Tz8BbwTKx8EqwtHmcOJEZqgy"
PW = "Tr0ub4dor" + "&3xQ"
BODY = "MIIEowIBAAKCAQEA7bq9Xk2Zf" + "akeKeyMaterialQwErTy123"
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{BODY}\n{BODY[::-1]}\n-----END RSA PRIVATE KEY-----"
SECRETS = [GH, HF, PW, BODY, BODY[::-1]]

HAND = (
    "# About me\n\n"
    f"- The deploy bot uses {GH} for releases [by: user; subject: token {HF}]\n"
    f"- The prod db password is {PW} since june [by: user]\n"
    "- Deploy key for the build box, below [by: user]\n\n"
    f"{PEM}\n"
)
"""A hand-written file: secrets in entry text, in a metadata value, and a key's body over lines."""


def _leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


@pytest.fixture
def hand_repo(tmp_path: Path) -> Path:
    root = tmp_path / "mem"
    MemoryStore.open(root, plain_settings())
    (root / "me.md").write_text(HAND, encoding="utf-8")
    commit_by_hand(root, "by hand")
    return root


def _git(root: Path, *args: str) -> str:
    out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=True).stdout
    return out.decode("latin-1")  # packed objects are binary; the values searched for are ASCII


def test_files_written_every_blob_and_commit_message(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "mem", plain_settings())
    samples = CORPUS["named"] + CORPUS["hard"]
    for s in samples:
        result = store.remember(Candidate(text=f"{s['text']} noted today", subject=s["text"][:80], source="chat"))
        assert result.redacted, s["text"]
    blobs = _git(store.root, "cat-file", "--batch-all-objects", "--batch")
    messages = _git(store.root, "log", "--format=%B")
    tree = "".join(p.read_text(encoding="utf-8") for p in store.root.glob("*.md"))
    leaked = [p for s in samples for p in s["secrets"] if p in blobs or p in messages or p in tree]
    assert leaked == []


def test_context_block(hand_repo: Path) -> None:
    (hand_repo / "MEMORY.md").write_text(HAND.replace("# About me", "# Memory"), encoding="utf-8")
    commit_by_hand(hand_repo, "by hand")
    block = MemoryStore.open(hand_repo, plain_settings()).context(None)
    assert "The deploy bot uses [REDACTED:github-token]" in block.text
    assert _leaks(block.text) == []


def test_recall_full_section_metadata_and_json(hand_repo: Path) -> None:
    store = MemoryStore.open(hand_repo, plain_settings())
    hits = store.recall("deploy key build box", detail="full")
    assert hits and hits[0].section and "[REDACTED:private-key]" in hits[0].section
    assert _leaks(hits[0].section) == []
    bot = store.recall("deploy bot releases", detail="line")[0]
    assert "subject" in bot.meta and _leaks(json.dumps(bot.model_dump())) == []
    out = CliRunner().invoke(main, ["--repo", str(hand_repo), "recall", "deploy", "--full", "--json"])
    assert out.exit_code == 0 and "[REDACTED:" in out.output and _leaks(out.output) == []


def test_show_text_and_metadata(hand_repo: Path) -> None:
    for args in (["show", "me.md"], ["show", "me.md", "--json"]):
        out = CliRunner().invoke(main, ["--repo", str(hand_repo), *args])
        assert out.exit_code == 0 and "[REDACTED:github-token]" in out.output
        assert _leaks(out.output) == []


def test_cli_errors(hand_repo: Path) -> None:
    out = CliRunner().invoke(main, ["--repo", str(hand_repo), "show", f"{GH}.md"])
    assert out.exit_code != 0 and "memrepo:" in out.output and GH not in out.output


def test_remember_says_what_it_redacted(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["--repo", str(tmp_path / "m"), "remember", f"the bot token is {GH} for ci"])
    assert out.exit_code == 0 and "[redacted: github-token]" in out.output and GH not in out.output


def test_dream_prompt_folder_inbox_and_tasks(hand_repo: Path) -> None:
    from memrepo.engine.agents.transcripts import Task
    from memrepo.engine.dreams.input import build_input

    (hand_repo / "inbox.md").write_text(f"# Inbox\n\n- the page says the key is {HF} [by: agent]\n")
    commit_by_hand(hand_repo, "inbox")
    task = Task(
        source="claude_code",
        id="claude_code:s1",
        started=datetime(2026, 1, 1, tzinfo=UTC),
        title=f"fix ci with {GH}",
        workspace=None,
        user_messages=[f"use the password {PW} for the db", f"and the key\n{PEM}"],
        final_reply=f"done, I used {HF}",
    )
    files = [p for p, _ in MemoryStore.open(hand_repo, plain_settings()).list_files()]
    din = build_input(hand_repo, files, [task])
    assert "[REDACTED:" in din.prompt and _leaks(din.prompt) == []


def test_distillation_prompt(tmp_path: Path) -> None:
    from memrepo.engine.checkpoints.checkpoint import Claim, ExistingEntry
    from memrepo.engine.checkpoints.distill import build_prompt

    claim = Claim(
        scope="global",
        claim_id="c1",
        session_ids=["s"],
        workspace=None,
        messages=[{"id": "m1", "session": "s", "role": "user", "text": f"the key is\n{PEM}\nand {PW} too"}],
        trigger="turns",
    )
    claim.existing = {"E1": ExistingEntry("E1", "me.md", 3, f"The deploy bot uses {GH}", "user", {})}
    prompt = build_prompt(claim)
    assert "[REDACTED:" in prompt and _leaks(prompt) == []


SCRIPT = f"""
import sys
sys.stdin.read()
print("auth failed for token {GH}", file=sys.stderr)
sys.exit(2)
"""


def test_dream_record_keeps_no_secret_from_a_command_providers_stderr(
    hand_repo: Path, isolated_home: Path, tmp_path: Path
) -> None:
    from helpers.dream_helpers import settings

    from memrepo.engine.dreams.dreamer import Dreamer

    script = tmp_path / "model.py"
    script.write_text(SCRIPT)
    cfg = settings(isolated_home, provider="command")
    cfg.dream.command.argv = [sys.executable, str(script)]
    record = Dreamer(MemoryStore.open(hand_repo, plain_settings()), cfg).run()
    assert record.status == "failed" and "status 2" in (record.reason or "")
    on_disk = "".join(p.read_text() for p in (hand_repo / ".git" / "memrepo" / "dreams").glob("*.json"))
    assert "[REDACTED:github-token]" in on_disk and GH not in on_disk


def test_log_records(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    MemoryStore.open(tmp_path / "m", plain_settings())  # a store puts the filter on memrepo's loggers
    with caplog.at_level(logging.INFO):
        logging.getLogger("memrepo.checkpoint").info("distilling %s", f"password={PW}")
        try:
            raise ValueError(f"bad token {GH}")
        except ValueError:
            logging.getLogger("memrepo.mcp").exception("tool failed")
    assert "distilling" in caplog.text and "tool failed" in caplog.text
    assert _leaks(caplog.text) == []


async def test_mcp_recall_read_and_errors(hand_repo: Path, tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from helpers.mcp_helpers import call, mcp_session

    async with mcp_session(hand_repo, tmp_path) as session:
        err, text = await call(session, "memory_recall", query="deploy key build box", detail="full")
        assert not err and "[REDACTED:private-key]" in text and _leaks(text) == []
        err, text = await call(session, "memory_read", ref_or_path="me.md")
        assert not err and _leaks(text) == [], text
        err, text = await call(session, "memory_read", ref_or_path=f"{GH}.md")
        assert err and GH not in text, text
        err, text = await call(
            session, "memory_remember", content=f"the ci bot token is {HF} for releases", kind="fact", scope="global"
        )
        assert not err and "[redacted: huggingface-token]" in text and HF not in text, text


def test_the_corpus_is_redacted_on_the_read_ways_out(tmp_path: Path) -> None:
    """Every one-line corpus sample, hand-written into a file, through show, recall and the dream prompt."""
    from memrepo.engine.dreams.input import build_input

    root = tmp_path / "mem"
    MemoryStore.open(root, plain_settings())
    samples = [
        s
        for name in ("vendor", "named", "hard")
        for s in CORPUS[name]
        if "\n" not in s["text"] and "]" not in s["text"]
    ]
    body = "".join(f"- corpus sample {i}: {s['text']} [by: user]\n" for i, s in enumerate(samples))
    (root / "notes.md").write_text("# Notes\n\n" + body, encoding="utf-8")
    commit_by_hand(root, "by hand")
    store = MemoryStore.open(root, plain_settings())
    shown = [
        json.loads(x)["text"]
        for x in CliRunner().invoke(main, ["--repo", str(root), "show", "notes.md", "--json"]).output.splitlines()
    ]
    recalled = [h.text for h in store.recall("corpus sample", limit=len(samples), max_bytes=10**7)]
    prompt = build_input(root, ["notes.md"], [], cap=10**7).prompt
    data = json.loads(prompt.rstrip("\n").rsplit("\n", 1)[1])  # the DATA line ends the prompt
    prompted = [row["text"] for block in data["folder"] for row in block["lines"]]
    for name, texts in (("show", shown), ("recall", recalled), ("dream prompt", prompted)):
        # Each sample is judged on its own entry (placeholder values repeat across samples).
        out = {int(t.split(":", 1)[0].split()[-1]): t for t in texts if t.startswith("corpus sample ")}
        assert len(out) == len(samples) > 600 if name != "recall" else len(out) >= 200, name  # recall: 200 hits at most
        leaked = [samples[i] for i, text in out.items() if any(p in text for p in samples[i]["secrets"])]
        assert len(leaked) / len(out) <= 0.02, (name, [s["text"][:60] for s in leaked])
