"""Recall from a new process (docs/architecture.md §4): :mod:`memrepo.engine.read.coldrecall` and ``memrepo recall``'s
quick path give exactly the store's hits, redacted as every way out is, and the text they keep leaves with its entry."""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.console import console
from helpers.repo_helpers import commit_by_hand, plain_settings

from memrepo.cli import quick
from memrepo.cli.main import main
from memrepo.engine.format.scratch import is_scratch_name
from memrepo.engine.read import coldrecall
from memrepo.engine.read.recallbuilding import build_state
from memrepo.engine.read.recallfile import build_running
from memrepo.engine.read.recallkeys import index_path
from memrepo.engine.redaction import allow
from memrepo.engine.repo.store import MemoryStore

GH = "ghp_" + "Ab12Cd34Ef56Gh78Ij90" + "Kl12Mn34Op56Qr78St90"
PW = "Tr0ub4dor" + "&3xQ"
BODY = "MIIEowIBAAKCAQEA7bq9Xk2Zf" + "akeKeyMaterialQwErTy123"
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{BODY}\n{BODY[::-1]}\n-----END RSA PRIVATE KEY-----"
WORDS = ["deploy", "billing", "queue", "cache", "auth", "postgres", "rowing", "kayak", "tests", "部署"]


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "mem"
    MemoryStore.open(root, plain_settings())
    rng = random.Random(18)
    (root / "me.md").write_text(
        "# Me\n\n"
        f"- The deploy bot uses {GH} for releases [by: user; subject: deploy]\n"
        f"- The prod db password is {PW} since june [by: user; source: https://example.com/s/1?a=1%3Bb=2]\n"
        "- Deploy key for the build box, below [by: user]\n\n"
        f"{PEM}\n",
        encoding="utf-8",
    )
    (root / "workspaces").mkdir(exist_ok=True)
    (root / "workspaces" / "billing.md").write_text(
        "# Workspace billing\n\n- Workspace billing [workspace: ws-0000b111; path: /nowhere/billing; by: user]\n"
        + "".join(
            f"- Billing queue {rng.choice(WORDS)} item {n} [by: agent; added: 2025-01-0{n % 9 + 1}]\n"
            for n in range(30)
        ),
        encoding="utf-8",
    )
    for f in range(12):
        lines = [f"# Topic {f}", ""]
        for n in range(25):
            words = " ".join(rng.sample(WORDS, 3))
            meta = [f"by: {rng.choice(['user', 'agent'])}", f"added: 2025-0{rng.randint(1, 3)}-0{rng.randint(1, 4)}"]
            if n % 7 == 0:
                meta.append(f"kind: {rng.choice(['lesson', 'fact'])}")
            if n % 11 == 0:
                meta.append("workspace: ws-0000b111")
            lines.append(f"- Team {words} for item {f}-{n} [{'; '.join(meta)}]")
        (root / "topics").mkdir(exist_ok=True)
        (root / "topics" / f"t{f}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    commit_by_hand(root, "by hand")
    return root


QUERIES = ["deploy", "deploy bot releases", "prod db password", "deploy key build box", "billing queue", "部署",
           "postgres cache", "kayak tests auth", "item 3-7", "nothing-like-this"]  # fmt: skip


def test_cold_recall_gives_the_store_s_hits_redacted_the_same(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    store = MemoryStore.open(root, plain_settings(), create=False)
    compared = 0
    for rounds in range(2):  # the second round shows what the first kept in the index
        for query in QUERIES:
            for workspace in (None, "billing"):
                for detail, limit, max_bytes in (("line", 10, 16_000), ("full", 5, 16_000), ("line", 40, 600)):
                    want = [h.model_dump() for h in store.recall(query, workspace, limit, max_bytes, detail)]
                    got = [h.as_dict() for h in coldrecall.recall(root, query, workspace, limit, max_bytes, detail)]
                    assert got == want, (rounds, query, workspace, detail, limit)
                    compared += bool(want)
    assert compared > 60  # hits were compared, not only empty lists
    shown = " ".join(json.dumps(h.as_dict()) for q in QUERIES for h in coldrecall.recall(root, q, detail="full"))
    assert GH not in shown and PW not in shown and BODY not in shown and "[REDACTED:" in shown
    with sqlite3.connect(index_path(root)) as db:
        kept = db.execute("SELECT text || meta FROM shown").fetchall()
    assert kept and not any(GH in t or PW in t for (t,) in kept)  # what is kept is the redacted text


def test_an_allowed_value_is_shown_again_by_the_next_process(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    assert PW not in coldrecall.recall(root, "prod db password")[0].text  # kept redacted in the index
    allow.add(root / ".git" / "memrepo", PW, "labelled-secret")  # `memrepo secrets allow`: a new epoch
    assert PW in coldrecall.recall(root, "prod db password")[0].text


def test_kept_text_leaves_the_index_with_its_entry(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    marker = "Kestrelwing"
    (root / "lessons.md").write_text(f"# Lessons\n\n- {marker} rows at dawn [by: user]\n", encoding="utf-8")
    commit_by_hand(root, "by hand")
    [hit] = coldrecall.recall(root, marker)
    with sqlite3.connect(index_path(root)) as db:
        assert db.execute("SELECT count(*) FROM shown WHERE text LIKE ?", (f"%{marker}%",)).fetchone()[0] == 1
    MemoryStore.open(root, plain_settings(), create=False).forget(hit.ref, origin="cli")
    assert coldrecall.recall(root, "dawn") == []  # this sync drops the item and what was kept of it
    assert marker.encode() not in index_path(root).read_bytes()


@pytest.mark.parametrize(
    "args",
    [
        ["recall", "deploy"],
        ["recall", "deploy bot", "--json", "-n", "3"],
        ["recall", "--full", "deploy key build box", "--max-bytes=700"],
        ["recall", "billing queue", "--workspace", "billing", "--limit=4"],
        ["recall", "nothing-like-this"],
        ["recall", "nothing-like-this", "--json"],
        ["recall", "  ...  "],
        ["recall", "deploy", "--workspace", "no-such-workspace"],
    ],
)
def test_the_quick_path_prints_what_click_prints(
    tmp_path: Path, args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path)
    argv = ["--repo", str(root), *args]
    assert quick.parse_recall(argv) is not None and quick.config_keys() is not None  # read here, not by click
    clicked = CliRunner().invoke(main, argv)
    monkeypatch.setattr(sys, "argv", ["memrepo", *argv])
    code = 0
    try:
        quick.run()
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert (out, code) == (clicked.stdout, clicked.exit_code)
    assert err == clicked.stderr
    assert code in (0, 1, 2) and (out or err or "--json" in args)  # --json with no hit prints nothing


def test_a_config_file_validated_before_is_read_by_the_quick_path(tmp_path: Path) -> None:
    """A config file (``memrepo setup`` users have one) no longer sends every recall through pydantic."""
    from memrepo.engine.configpath import config_path

    root = _repo(tmp_path)
    config = config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'repo = "{root}"\n\n[workspaces]\ngit_toplevel = false\n', encoding="utf-8")
    assert quick.config_keys() is None  # never validated: click's path reads it
    clicked = CliRunner().invoke(main, ["recall", "deploy"])  # validates the file, as every command does
    assert clicked.exit_code == 0 and "deploy" in clicked.stdout.lower()
    assert quick.config_keys() == (str(root), False, True, 300.0, None)
    config.write_text(f'repo = "{root}"\n\n[semantic]\nhook = true\n', encoding="utf-8")
    assert CliRunner().invoke(main, ["recall", "deploy"]).exit_code == 0
    assert quick.config_keys() == (str(root), True, True, 300.0, {"hook": True})  # the prompt hook's keys
    out, err, code, heavy = console("recall", "deploy")
    assert (out, err, code) == (clicked.stdout, clicked.stderr, 0) and not heavy


def test_an_edited_config_file_is_validated_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memrepo.engine import configpath

    root = _repo(tmp_path)
    config = configpath.config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'repo = "{root}"\n', encoding="utf-8")
    assert CliRunner().invoke(main, ["recall", "deploy"]).exit_code == 0
    assert quick.config_keys() == (str(root), True, True, 300.0, None)
    config.write_text(f'repo = "{root}"\nrepos = "typo"\n', encoding="utf-8")
    assert quick.config_keys() is None
    out, err, code, heavy = console("recall", "deploy")
    assert code == 1 and out == "" and "repos: unknown key" in err and heavy  # the error it always gave
    config.write_text(f'repo = "{root}"\n', encoding="utf-8")
    assert quick.config_keys() == (str(root), True, True, 300.0, None)  # the bytes validated before
    schema = tmp_path / "config.py"
    schema.write_text("# another memrepo version's schema\n")
    monkeypatch.setattr(configpath, "_SCHEMA", schema)
    assert quick.config_keys() is None  # a new schema validates the same bytes again


@pytest.mark.parametrize(
    "argv",
    [
        ["recall"],
        ["recall", "a", "b"],
        ["recall", "a", "--help"],
        ["recall", "a", "-n", "0"],
        ["recall", "a", "-n", "x"],
        ["recall", "a", "--limit", "201"],
        ["recall", "a", "-n", "3", "-n", "4"],
        ["recall", "a", "--workspace", ""],
        ["recall", "-x"],
        ["recall", "--", "-a"],
        ["--repo", "", "recall", "a"],
        ["--repo"],
        ["context"],
        ["remember", "recall"],
    ],
)
def test_anything_but_a_plain_recall_goes_to_click(argv: list[str]) -> None:
    assert quick.parse_recall(argv) is None


def test_no_scratch_name_ends_in_md_without_a_leading_dot() -> None:
    """The recall walk skips the scratch rule for ``*.md`` files not starting with a dot (recallkeys.walk)."""
    rng = random.Random(5)
    alphabet = "ab.~#_-swpkatejbdmo0123456789 "
    stems = ["x.swp", "x~", "#x#", "x___jb_tmp___", "x.kate-swp", "x.tmp", "4913", "goutputstream-1"]
    stems += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(3000)]
    assert not [s for s in stems if not s.startswith(".") and is_scratch_name(s + ".md")]


def test_a_sync_that_removes_entries_drops_orphan_shown_rows(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    assert coldrecall.recall(root, "deploy")
    with sqlite3.connect(index_path(root)) as db:
        kept = db.execute("SELECT count(*) FROM shown").fetchone()[0]
        db.execute("INSERT INTO shown VALUES(1, 'x', 'an orphan an older process left', '{}')")
    assert kept > 0
    (root / "me.md").write_text("# Me\n", encoding="utf-8")  # a sync that removes entries
    coldrecall.recall(root, "deploy")
    assert b"an orphan an older" not in index_path(root).read_bytes()


def test_a_quick_look_up_never_waits_for_a_first_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memrepo.cli.quickhook import _start_index_build
    from memrepo.engine.read import recall as recall_module
    from memrepo.engine.read.recallfile import build_lock

    root = _repo(tmp_path)
    assert not index_path(root).exists()
    # A small repo's quick look-up (the prompt hook) is answered from a scan too, its build started elsewhere.
    first = coldrecall.recall(root, "deploy", quick=True, start_build=_start_index_build)
    assert first and all(hit.scan and "index building" in hit.scan for hit in first)
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not build_state(root)[0] or build_running(root)):
        time.sleep(0.1)
    built = coldrecall.recall(root, "deploy", quick=True, start_build=_start_index_build)
    assert built and not any(hit.scan for hit in built) and [h.ref for h in built] == [h.ref for h in first]
    index_path(root).unlink()
    # The CLI's recall (not quick) builds a small repo at once, here.
    assert coldrecall.recall(root, "deploy", start_build=_start_index_build)
    index_path(root).unlink()
    # Without a way to start a process (the engine starts none itself) it is built here too.
    monkeypatch.setattr(recall_module, "CHILD_BUILD_FILES", 1)
    assert coldrecall.recall(root, "deploy", quick=True)
    index_path(root).unlink()
    # A large one (by the threshold) is built by another process; while it builds (its lock held here, so
    # none starts), a repo of at most QUICK_SCAN_BYTES is answered from a scan, saying so, as the CLI is.
    with build_lock(root) as free:
        assert free
        scanned = coldrecall.recall(root, "deploy", quick=True, start_build=_start_index_build)
        assert scanned and all(hit.scan and "index building" in hit.scan for hit in scanned)
        full = coldrecall.recall(root, "deploy", start_build=_start_index_build)  # the CLI's scan
        assert [h.ref for h in scanned] == [h.ref for h in full][: len(scanned)]
        # A larger one answers nothing now: a scan would cost the prompt more than the answer is worth.
        monkeypatch.setattr(coldrecall, "QUICK_SCAN_BYTES", 1_000)
        assert coldrecall.recall(root, "deploy", quick=True, start_build=_start_index_build) == []
        assert coldrecall.recall(root, "deploy", start_build=_start_index_build)  # the CLI scans whatever the size
    # With the lock free, the look-up that answers nothing starts the build; the index is there soon after.
    assert coldrecall.recall(root, "deploy", quick=True, start_build=_start_index_build) == []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not coldrecall.recall(root, "deploy", quick=True):
        time.sleep(0.2)
    assert coldrecall.recall(root, "deploy", quick=True)  # built in the background meanwhile
