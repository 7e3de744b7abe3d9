"""Public values from other projects' own files stay verbatim; secrets in their shapes do not (issue 32, round 12).

The look-alikes are lines of the kinds ``build_idfiles.py`` found redacted (lockfiles, manifests, changelogs and
API docs of other projects), each kept now by a structure its maker documents (:mod:`.projectids`, and the
base36 CIDs and Hugging Face model ids of :mod:`.identifiers`). The second half dresses secrets in the same
shapes under a credential's label, or with a credential inside: they must not survive.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import checksums, identifiers, projectids

KEPT_BY_PROJECTIDS = [
    "- [Closing a stale PR](https://github.com/cli/cli/pull/557#issuecomment-639077269)",
    "see https://github.com/pypa/pip/issues/7744#issuecomment-717573440 for the plan",
    '"email": "21031067+Codertocat@users.noreply.github.com"',
    "![CodeQL scan](https://github.com/jedisct1/minisign/workflows/CodeQL%20scan/badge.svg)",
    "[App Launcher](https://support.discord.com/hc/articles/21334461140375-Using-Apps-on-Discord#h_01HRQSA6C8TRHS722P1H3HW1TV)",
    "the export job wrote 01HRQSA6C8TRHS722P1H3HW1TV to the queue",
    "Crockford's alphabet: 0123456789ABCDEFGHJKMNPQRSTVWXYZ",
    "| `sha256+b64u:LCa0a2j_xo_5m0U8HTBBNBNCLXBkg7-g-YpeiGJm564` | SHA-256 with urlsafe base64 |",
    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAExjZWrlc6c58W7ZzmQnx6mugty99C",
    "the Ed25519 public key: MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=",
    "Your public key has been saved in id_ed25519.pub.",
    "http://wxpython.org/Phoenix/snapshot-builds/wxPython_Phoenix-3.0.3.dev1820+49a8884-cp34-none-win_amd64.whl",
    "0ssi1wpaf7plaswqqjwigppsg5fyh99vdlb9kzl7c9lng89ndq1i",
    "Directory: 11/jre-headless/debian",
    "GitFetch: refs/heads/docker/2026.2",
    "Tags: 3.14.0-95.2.beta-sdk, beta-sdk, 3.14.0-95.2.beta, beta",
    "Tags: temurin-25-lein-2.13.0-alpine, temurin-25-lein-alpine",
    "# Example: {'local_scheme': 'no-local-version', 'version_scheme': 'semver-pep440-release-branch'}",
    "google-protobuf (4.35.1-x86_64-linux-gnu)",
    "// 'urn:ietf:params:oauth:jwk-thumbprint:sha-256:w9eYdC6_s_tLQ8lH6PUpc0mddazaqtPgeC2IgWDiqY8'",
    "Calculates a base64url-encoded JSON Web Key (JWK) Thumbprint",
    '"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",',
    '<YouTubeEmbed src="https://www.youtube.com/embed/nkQK9IU5UCQ?si=qd77jaPqJTfpQTLg" title="Roles" />',
    "12D3KooWHr9MZJVKwe7tZyD6Z8uRcZFQ7XUqhM2nQvpeQxDyAN4E",
    "For example, if a propagator requests the key `x-b3-traceid`, the",
    "> → `http://localhost:8080/ipfs/QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR`",
    "logs to `http://collector:4318/mycollector/v1/logs`",
    "$ nix-shell --attr devShells.x86_64-linux.native-clangStdenv",
    "The CI job builds `.#hydraJobs.clangTidy.x86_64-linux` which:",
    "URL: nar/1w1fff338fvdw53sqgamddn1b2xgds473pv6y13gizdbqjv4i5p3.nar.xz",
    "binary-cache-public-keys = cache.nixos.org-1:6NCHdD59X431o0gWypbMrAURkbJ16ZPMQFGspcDShjY=",
]
KEPT_BY_IDENTIFIERS = [
    "an IPNS name: k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8",
    'model: "Qwen/Qwen2.5-Coder-32B-Instruct",',
    "Specify an ARN: `arn:aws:lambda:us-west-1:943013980633:layer:SentryNodeServerlessSDKv10:19`.",
]


@pytest.mark.parametrize("text", KEPT_BY_PROJECTIDS + KEPT_BY_IDENTIFIERS)
def test_a_public_value_stays_verbatim(text: str) -> None:
    assert redaction.redact(text) == (text, [])


@pytest.mark.parametrize("text", KEPT_BY_PROJECTIDS)
def test_each_look_alike_was_a_false_alarm(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without this module's spans (the code before this round) each line is altered: the test above is not idle."""
    monkeypatch.setattr(projectids, "spans", lambda _text: iter(()))
    assert redaction.redact(text)[0] != text


def test_the_identifier_shapes_widened_this_round() -> None:
    """Base36 CIDs decode to a CID (an IPNS name's libp2p key), a cut one or random base36 does not; a Hugging Face id
    is a model name only when its model part repeats the family with a version."""
    ipns = "k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8"
    assert checksums.cid_ok(ipns)
    assert not checksums.cid_ok(ipns[:-3])
    assert not checksums.cid_ok("k" + "q7" * 31)
    assert list(identifiers._models("Qwen/Qwen2.5-Coder-32B-Instruct"))
    assert not list(identifiers._models("Qwen/Coder-Instruct"))


GH_TOKEN = "ghp_R7kX2mQ9vT4wB8nL3zC6yH1dF5gJ0sA2pE7u"
ULID = "01HRQSA6C8TRHS722P1H3HW1TV"
NIX = "0ssi1wpaf7plaswqqjwigppsg5fyh99vdlb9kzl7c9lng89ndq1i"

DRESSED = [
    (f"API_TOKEN={ULID}", ULID),
    (f"the service token is {ULID}", ULID),
    (f"export PASSWORD={NIX}", NIX),
    (f"Authorization: Bearer {NIX}", NIX),
    (f"https://pypi.example.com/simple/{GH_TOKEN}/pkg-1.0-py3-none-any.whl", GH_TOKEN),
    ("Tags: zX9qT4mW2vB8nR5kY7pL3cJ6", "zX9qT4mW2vB8nR5kY7pL3cJ6"),
    ("GitFetch: refs/heads/zX9qT4mW2vB8nR5kY7pL3cJ6", "zX9qT4mW2vB8nR5kY7pL3cJ6"),
    ("DB_PASSWORD=semver-pep440-release-branch", "semver-pep440-release-branch"),
    (
        "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgiyvo0X+VQ0yIrOaN",  # a PKCS#8 private key's first line
        "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgiyvo0X+VQ0yIrOaN",
    ),
    (f"see https://github.com/o/r/issues/1#issuecomment-1 {GH_TOKEN}", GH_TOKEN),
    (
        "https://hooks.slack.com/services/T01ABCDEF/B01ABCDEF/zX9qT4mW2vB8nR5kY7pL3cJ6",  # the host kept, not the path
        "zX9qT4mW2vB8nR5kY7pL3cJ6",
    ),
    ("https://user:Tr0ub4dor3x@localhost:8080/admin", "Tr0ub4dor3x"),
    ("export API_TOKEN=zX9qT4mW2vB8nR5kY7pL3cJ6.example.com", "zX9qT4mW2vB8nR5kY7pL3cJ6"),
]


@pytest.mark.parametrize(("line", "secret"), DRESSED)
def test_a_secret_in_a_kept_shape_is_still_redacted(line: str, secret: str) -> None:
    out, _kinds = redaction.redact(line)
    assert secret not in out, out


def test_a_public_key_head_with_a_wrong_length_is_no_public_key() -> None:
    """The SubjectPublicKeyInfo's DER length must match the bytes (or the line be a 64/76-character first line)."""
    assert projectids._spki_ok("MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=")
    assert not projectids._spki_ok("MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuEAAAAAAAAAA")
    assert not projectids._spki_ok("MCowBQYDK2VwAyEAGb9ECWm")


def test_a_ulid_outside_its_years_is_not_kept() -> None:
    """A ULID's first 10 characters are its time: a value decoding to 1970 or past 2035 is not taken for one."""
    assert projectids._ulid_ok(ULID)
    assert not projectids._ulid_ok("0000XSNJG0MQJHBF4QX1EFD6Y3")
    assert not projectids._ulid_ok("7ZZZZZZZZZMQJHBF4QX1EFD6Y3")
