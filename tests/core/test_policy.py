"""The write policy (docs/architecture.md §3 "policy"): salience, secret redaction, <no-memory>, scopes.

Every secret goes through ``MemoryStore.remember`` in a real repo, then the
work tree and every git object are searched for its value.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore

# Fake values in realistic shapes, built from pieces so no real key is pasted here.
ALNUM = "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34"
AWS_ID = "AKIA" + "Q7XZ4R2M9PLK3T8V"
AWS_SECRET = "wJalrXUtnF" + "EMI/K7MDENG/bPxRfiCY" + "Zq8Vn3Lk"
GITHUB = "ghp_" + ALNUM[:36]
GITLAB = "glpat-" + "Zx8Yw7Vu6Ts5Rq4Po3Nm"
SLACK = "xoxb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
STRIPE = "sk_live_" + ALNUM[:24]
OPENAI = "sk-proj-" + ALNUM[:40] + "T3xz"
ANTHROPIC = "sk-ant-api03-" + ALNUM + "_-Qz9"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    + ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ"
    + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM_BODY = "MIIEowIBAAKCAQEA7bq9Xk2Zf" + "akeKeyMaterialQwErTy123"
PEM = "-----BEGIN RSA PRIVATE KEY-----\\n" + PEM_BODY + "\\n-----END RSA PRIVATE KEY-----"
URL_PASSWORD = "hunter2pass"
HEX_KEY = "9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a"

SECRET_CORPUS = [
    # (text, types expected, values that must be nowhere)
    (
        f"aws deploy user {AWS_ID} with aws_secret_access_key={AWS_SECRET}",
        ["aws-access-key", "aws-secret-key"],
        [AWS_ID, AWS_SECRET],
    ),
    (f"ci pushes with the token {GITHUB} from the bot", ["github-token"], [GITHUB]),
    (f"gitlab mirror uses {GITLAB} for pulls", ["gitlab-token"], [GITLAB]),
    (f"slack alerts post with {SLACK} to #ops", ["slack-token"], [SLACK]),
    (f"billing tests charge with {STRIPE} by mistake", ["stripe-key"], [STRIPE]),
    (f"the eval harness reads {OPENAI} from env", ["openai-key"], [OPENAI]),
    (f"the agent runner calls Claude with {ANTHROPIC} in staging", ["anthropic-key"], [ANTHROPIC]),
    (f"the staging session cookie is {JWT} for admin", ["jwt"], [JWT, JWT.split(".")[2]]),
    (f"deploy key {PEM} lives in the vault", ["private-key"], [PEM_BODY]),
    (f"the wiki mirror is https://user:{URL_PASSWORD}@host/x for docs", ["url-password"], [URL_PASSWORD]),
    (f"the metrics exporter runs with api_key={HEX_KEY} always", ["labelled-secret"], [HEX_KEY]),
]


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "mem", plain_settings())


def _git(root: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["git", "-C", str(root), *args], input=data, capture_output=True, check=True).stdout


def _everything_in_git(root: Path) -> bytes:
    """Every object's content (loose and packed) plus the raw bytes of every file under .git."""
    blobs = _git(root, "cat-file", "--batch-all-objects", "--batch")
    raw = b"".join(p.read_bytes() for p in (root / ".git").rglob("*") if p.is_file())
    return blobs + raw


@pytest.mark.parametrize(("text", "types", "values"), SECRET_CORPUS, ids=[c[1][0] for c in SECRET_CORPUS])
def test_secrets_are_redacted_before_anything_reaches_disk(
    store: MemoryStore, text: str, types: list[str], values: list[str]
) -> None:
    # The same secret in subject and source (metadata) is redacted there too.
    result = store.remember(Candidate(text=text, subject=f"creds {text}", source=f"chat: {text}"))
    assert result.action is Action.ADDED, result.reason
    assert result.redacted == types
    data = (store.root / (result.path or "")).read_text()
    for kind in types:
        assert f"[REDACTED:{kind}]" in data
    summary = store.log(1)[0].summary
    assert summary.startswith("Remember fact: ") and "[REDACTED:" in summary
    _git(store.root, "gc", "-q")  # packs too: every object is searched, loose or packed
    tree = b"".join(p.read_bytes() for p in store.root.rglob("*") if p.is_file())
    everything = tree + _everything_in_git(store.root)
    for value in values:
        assert value.encode() not in everything, value
        assert value not in str(result)


def test_secret_only_text_is_dropped_and_leaves_no_commit(store: MemoryStore) -> None:
    head = store.head()
    result = store.remember(Candidate(text=f"ok {GITHUB} {STRIPE}"))
    assert result.action is Action.REFUSED
    assert "secret-only" in (result.reason or "")
    assert result.redacted == ["github-token", "stripe-key"]
    assert store.head() == head
    for value in (GITHUB, STRIPE):
        assert value.encode() not in _everything_in_git(store.root)
        assert all(value not in (store.root / p).read_text() for p, _ in store.list_files())


FALSE_ALARMS = [
    "fixed in commit 3f2a1b0c9d8e7f6a5b4c3d2e1f0a9f8a7b6c5d4e on main",
    "the failing session was 123e4567-e89b-12d3-a456-426614174000 yesterday",
    "tarball sha256 is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 per release notes",
    "pins pygit2 to 1.21.0 until the wheel is fixed",
    "the entry point is /home/u/src/app/main.py in the app",
    "docs live at https://docs.example.com/guide?page=2#install for setup",
]


@pytest.mark.parametrize("text", FALSE_ALARMS)
def test_what_memory_really_holds_is_not_taken_for_a_secret(store: MemoryStore, text: str) -> None:
    result = store.remember(Candidate(text=text))
    assert result.action is Action.ADDED, result.reason
    assert result.redacted == []
    assert [e.text for e in store.read_file(result.path or "").entries] == [text]


@pytest.mark.parametrize("text", ["ok", "thanks", "hello", "noted", "sure", "yes", "no", "?", "ok thanks", "好的"])
def test_filler_is_refused(store: MemoryStore, text: str) -> None:
    head = store.head()
    result = store.remember(Candidate(text=text))
    assert result.action is Action.REFUSED
    assert "filler" in (result.reason or "")
    assert store.head() == head


@pytest.mark.parametrize("text", ["uses pnpm", "喜欢茶"])
def test_two_real_words_pass(store: MemoryStore, text: str) -> None:
    assert store.remember(Candidate(text=text)).action is Action.ADDED


@pytest.mark.parametrize(
    ("origin_text", "text"),
    [("please <No-Memory> I am on leave", "is on leave"), (None, "is on leave <no-memory>")],
)
def test_no_memory_refuses(store: MemoryStore, origin_text: str | None, text: str) -> None:
    head = store.head()
    result = store.remember(Candidate(text=text, origin_text=origin_text))
    assert result.action is Action.REFUSED
    assert "<no-memory>" in (result.reason or "")
    assert store.head() == head


def test_an_origin_text_without_the_marker_does_not_refuse(store: MemoryStore) -> None:
    result = store.remember(Candidate(text="is on leave", origin_text="I am on leave next week"))
    assert result.action is Action.ADDED


@pytest.mark.parametrize("scope", ["private", "contact", "task"])
def test_scopes_that_never_reach_the_repo_are_refused(store: MemoryStore, scope: str) -> None:
    head = store.head()
    result = store.remember(Candidate(text="has a doctor appointment", scope=scope))  # type: ignore[arg-type]
    assert result.action is Action.REFUSED
    assert scope in (result.reason or "")
    assert store.head() == head
