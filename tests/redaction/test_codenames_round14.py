"""Names from code and builds, comment anchors and DER public keys stay verbatim; secrets beside them do not.

Issue 32 round 14: each look-alike below is in a shape ``build_pubfiles.py``'s
tuning half (kind, bat, Lasp, nixos-generators) or ``build_idfiles.py``'s set
found redacted: a GitHub comment anchor, Rust target triples, Go and C# code
names with digits, a model id, a slug with a version (a vendor name before a name still counts: ``google-protobuf (4.35.1-x86_64-linux-gnu)``
stays redacted), a DER public key in base64.
``test_each_was_a_false_alarm`` pins what the round changed: with
:mod:`.codenames` off, every look-alike is altered again. The other tests pin
what must still be redacted: passphrases made of words, labelled camel-case
passwords, a private key's DER, random tokens.
"""

from __future__ import annotations

import base64
import random
import re
import string

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import (
    codeforms,
    codenames,
    configvalues,
    evidence,
    notevalues,
    pubformats,
    rules,
    vendornames,
)

_RNG = random.Random(14)
_P256_SPKI = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200") + b"\x04" + _RNG.randbytes(64)
_ED25519_PKCS8 = bytes.fromhex("302e020100300506032b657004220420") + _RNG.randbytes(32)
PUBLIC_KEY_B64 = base64.b64encode(_P256_SPKI).decode()
PRIVATE_KEY_B64 = base64.b64encode(_ED25519_PKCS8).decode()

LOOK_ALIKES = [
    "see: https://github.com/sharkdp/bat/pull/2755#discussion_r1456416875",
    "[this comment](https://github.com/NixOS/nixpkgs/issues/109661#issuecomment-762629438) and",
    "- { target: aarch64-unknown-linux-musl  , os: ubuntu-latest , dpkg_arch: musl-linux-arm64, use-cross: true }",
    "- { target: i686-pc-windows-msvc        , os: windows-2025 }",
    "[target.x86_64-pc-windows-msvc]",
    "# pkgs = nixpkgs.legacyPackages.x86_64-linux;",
    "in, out := &in.KubeadmConfigPatchesJSON6902, &out.KubeadmConfigPatchesJSON6902",
    "func CreateWithV1Alpha4Config(config *v1alpha4.Cluster) CreateOption {",
    "Some(ContentType::UTF_16LE) => UTF_16LE.decode_with_bom_removal(line_buffer).0,",
    '.arg("test_UTF-16LE-complicated.txt")',
    "_stream.Format = SoundIO.Format.Float32LE;",
    'model: "Qwen/Qwen2.5-Coder-32B-Instruct",',
    "Tags: temurin-25-lein-2.13.0-alpine, temurin-25-lein-alpine",
    PUBLIC_KEY_B64[:64],
    f"key = {PUBLIC_KEY_B64}",
    "deployment.apps/nginx-deployment-66b6c48dd5 scaled",
    '<add key="ClientValidationEnabled" value="true" />',
    '"email": "21031067+Codertocat@users.noreply.github.com"',
]

KEY_FILES = [
    "openssl pkeyutl -sign -inkey ed25519_private.pem  -rawin -in file1 -out file1.ed25519.sig",
    "Your public key has been saved in id_ed25519.pub.",
]


@pytest.mark.parametrize("text", KEY_FILES)
def test_key_file_names_kept(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A key's file name (``.pem``, ``.pub``) is a file name (notevalues' extensions); before this round it was not."""
    assert redaction.redact(text) == (text, [])
    monkeypatch.setattr(notevalues, "_EXT", notevalues._EXT.replace("|pem|pub|crt|cer|csr|der|sig|asc|gpg", ""))
    monkeypatch.setattr(
        notevalues,
        "_FILE_RE",
        re.compile(r"(?<![\w./${}-])(?P<stem>[\w./${}-]+?)\." + notevalues._EXT + r"(?![\w/${}-]|\.\w)"),
    )
    monkeypatch.setattr(rules, "_names_public", lambda _m, _label: False)  # round 24 keeps a key's public half
    redaction.flush_clean_memo()
    assert redaction.redact(text)[0] != text


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alike_kept(text: str) -> None:
    """A name, an anchor or a public key comes out unchanged."""
    assert redaction.redact(text) == (text, [])


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_each_was_a_false_alarm(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With :mod:`.codenames` off (the code before this round), the look-alike is altered: the test above is not idle."""
    monkeypatch.setattr(evidence, "keep_bare", lambda _text, spans, _found: spans)  # round 15 keeps bare runs too
    monkeypatch.setattr(codenames, "spans", lambda text: iter(()))
    monkeypatch.setattr(configvalues, "spans", lambda _text: iter(()))  # round 15 keeps target triples, GCP names
    monkeypatch.setattr(pubformats, "spans", lambda _text: iter(()))  # round 17 keeps a declared function's name
    monkeypatch.setattr(rules, "_WORDS_NAME_RE", re.compile(r"(?!x)x"))  # round 17 keeps names of words too
    monkeypatch.setattr(codeforms, "spans", lambda _text: iter(()))  # round 23 keeps names in code's places too
    monkeypatch.setattr(vendornames, "words_ok", lambda _value, _known: False)  # round 23: the vendor rule reads names
    redaction.flush_clean_memo()
    assert redaction.redact(text)[0] != text


SECRETS = [
    ("unzip -P rocket-velvet-harbor-pilot77 invoices-2025.zip", "rocket-velvet-harbor-pilot77"),
    ("backups are encrypted with willow-maple-quartz-copper94", "willow-maple-quartz-copper94"),
    ("password: CorrectHorseBatteryStaple2024", "CorrectHorseBatteryStaple2024"),
    ("the NAS root pw is Kubeadm2Config9Patches", "Kubeadm2Config9Patches"),
    ("https://deploy:WY66IOdbu3Vbi2ge31nvnakj@git.example.com/team/repo.git", "WY66IOdbu3Vbi2ge31nvnakj"),
    (PRIVATE_KEY_B64, PRIVATE_KEY_B64),
    ('<add key="ApiKey" value="Xk9Lm2Qp8Rt4Vw7Zb3Nc5Kd" />', "Xk9Lm2Qp8Rt4Vw7Zb3Nc5Kd"),
    ("cp prod-a8F3kLm92QzXv7RtY1pWnB4c.pem /etc/ssl/", "a8F3kLm92QzXv7RtY1pWnB4c"),
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_secret_still_redacted(text: str, secret: str) -> None:
    """Passphrases of words, a labelled or slotted camel-case password and a private key's DER are still redacted."""
    out, found = redaction.redact(text)
    assert secret not in out and found


def test_public_key_check_reads_the_der() -> None:
    """A SubjectPublicKeyInfo decodes as one; a PKCS #8 private key and random base64 never do."""
    assert codenames.spki_ok(PUBLIC_KEY_B64)
    assert not codenames.spki_ok(PRIVATE_KEY_B64)
    assert not codenames.spki_ok(base64.b64encode(b"\x30\x59\x30\x13\x06\x07" + _RNG.randbytes(80)).decode())


def test_random_tokens_are_no_names() -> None:
    """Of 12,000 random tokens in four alphabets, at most a handful read as names (measured: 15 in 60,000)."""
    rng = random.Random(32)
    alphabets = (
        string.ascii_letters + string.digits,
        string.ascii_lowercase + string.digits,
        string.ascii_uppercase + string.digits,
        string.ascii_letters + string.digits + "-_",
    )
    named = sum(
        codenames.name_ok("".join(rng.choice(alpha) for _ in range(length)))
        for alpha in alphabets
        for length in (16, 24, 32)
        for _ in range(1000)
    )
    assert named <= 12


def test_drop_public_finds_the_same_public_spans_fast() -> None:
    """``public._meeting`` (the bisect walk drop_public uses, now that texts hold many names) returns exactly the
    public spans a full scan finds to meet a finding."""
    import itertools

    from memrepo.engine.redaction import public

    rng = random.Random(5)
    for _ in range(200):
        pub = sorted((a, a + rng.randint(1, 40)) for a in (rng.randint(0, 500) for _ in range(rng.randint(1, 30))))
        starts = [a for a, _ in pub]
        reach = list(itertools.accumulate((b for _, b in pub), max))
        for _ in range(20):
            start = rng.randint(0, 540)
            end = start + rng.randint(1, 60)
            want = [(a, b) for a, b in pub if a < end and b > start]
            assert public._meeting(pub, starts, reach, start, end) == want
