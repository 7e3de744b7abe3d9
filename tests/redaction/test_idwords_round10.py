"""Identifiers as people quote them in issue threads stay verbatim; secrets in the same places do not (issue 32, round 10).

Each look-alike below is in a shape ``build_proseids.py``'s set of lines from
public issue threads found redacted: a checksum compared with another
(``expected <sha256> but computed <sha256>``, on a line naming a ``.pat`` file),
Terraform's lock id after ``force-unlock`` (Terraform a vendor name), OpenPGP
key ids and fingerprints as GnuPG and apt print them, GnuPG's import message,
OpenSSH's ``Offending ... key in <file>:<line>``, an STS assumed-role ARN, a
Microsoft Entra error code after "login fails with", git-lfs's object id after
the path it could not download (Jenkins a vendor name), ``kubectl describe``'s
``Node:`` and ``Controlled By:``, a release file name before "is signed with",
a Vercel deployment id (``dpl_``), and an S3 key laid out as ``<collection>/<uuid>/<collection>/<name>``. Values
are made here (hashes of short strings, random hex and UUIDs).
``test_each_was_a_false_alarm`` pins what the round changed: with
:mod:`.idwords` off, every look-alike is altered again.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import idwords, rules, shapelabels, valueparts

SHA_A = "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
SHA_B = "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d"
FPR = "08761693ED66A211CFEA9C9B7786E78A1238C500"
UUID = "261c6078-6c34-47c7-86ef-bcbfb2462457"

LOOK_ALIKES = [
    # two digests of one length compared, on a line that names a .pat file
    f"rs2421p_64570.pat: expected {SHA_A} but computed {SHA_B}",
    # Terraform's lock id after force-unlock
    "terraform force-unlock 7e0f3c2a-91bd-ce47-5a10-3f9d2b8e6c41 freed the state",
    # OpenPGP key ids and fingerprints as GnuPG and apt print them
    "focal InRelease: NO_PUBKEY 7786E78A1238C500",
    f"release-2.4.1.tar.gz is signed with RSA key {FPR}",
    f"where do I get the public key for {FPR}?",
    f"the key on github is {FPR} ({FPR[-16:]}), not the signing one",
    'gpg: key 7786E78A1238C500: public key "acme-release <release@acme.test>" imported',
    # OpenSSH's message: a path and a line number
    "Offending ECDSA key in /home/dev/.ssh/known_hosts:12, host 10.0.4.7",
    # documented structures
    "failed account 210987654321: assumed-role/DeployBotRole/i-0f3e2d1c0b9axxxxx is not authorized to perform",
    "sso login fails with AADSTS50076, request " + UUID,
    f"Error downloading assets/Builds/jenkins.war ({SHA_A}): LFS: Repository or object not found",
    "Node:         gke-prod-pool-3c9d1e2-node-x7kq/10.128.0.14",
    "Controlled By:  ReplicaSet/ingress-nginx-controller-7d4b9c6f58",
    # Vercel's deployment id (its REST API's dpl_ ids)
    "vercel inspect dpl_7HbQx2LmN9pRtW4kZs8Vc3YdFg6J --logs showed the failed step",
    # an S3 key: collection, uuid, collection, a name
    f"sync stops with NoSuchKey on tenants/{UUID}/uploads/Xq3Lm9Pz0Rt7Wv2Yb5Nc_Floorplan.png",
]

SECRETS = [
    # the same places holding a secret are still redacted
    (f"our webhook secret expected {SHA_A} got {SHA_B}", SHA_A),
    ("the password hash 5f4dcc3b5aa765d61d8327deb882cf99", "5f4dcc3b5aa765d61d8327deb882cf99"),
    (f"signing key {FPR.lower()}", FPR.lower()),
    ("heroku api key " + UUID, UUID),
    ("GITHUB_TOKEN=ghp_" + "Xq3Lm9Pz0Rt7Wv2Yb5Nc8Kd4Hs6Jf1Ga0Ue", "Xq3Lm9Pz0Rt7Wv2Yb5Nc8Kd4Hs6Jf1Ga0Ue"),
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_public_id_stays_verbatim(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_secret_in_the_same_place_is_still_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_each_was_a_false_alarm(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With :mod:`.idwords` off (the code before this round), the look-alike is altered: the test above is not idle."""
    monkeypatch.setattr(idwords, "spans", lambda text: iter(()))
    monkeypatch.setattr(shapelabels, "countered", lambda *args: False)  # round 16's key-naming-a-public-value keep
    monkeypatch.setattr(shapelabels, "WEAK", frozenset({"high-entropy"}))  # round 17: a run after a name is weak
    monkeypatch.setattr(rules, "_names_public", lambda _m, _label: False)  # round 24 keeps a key's id and public half
    monkeypatch.setattr(valueparts, "not_a_secret_value", lambda _value: False)  # round 26 keeps paths and dated names
    redaction.flush_clean_memo()
    assert redaction.redact(text)[0] != text


def test_a_lone_digest_after_got_needs_a_checksum_line() -> None:
    """``got <hex>`` alone, on a line saying nothing of checksums, is not taken for one (a key someone got)."""
    assert idwords._COMPARED_RE.search(f"got {SHA_A} from the vendor")
    assert not list(idwords.spans(f"got {SHA_A} from the vendor"))
    assert list(idwords.spans(f"sha256 mismatch: got {SHA_A}"))


def test_an_object_key_under_a_secret_word_or_with_a_vendor_prefix_is_not_kept() -> None:
    """``tokens/<uuid>/...`` or a last part like ``ghp_...``: the layout alone does not make the path public."""
    kept = f"tenants/{UUID}/uploads/Xq3Lm9Pz0Rt7Wv2Yb5Nc_Floorplan.png"
    assert list(idwords.spans(kept)) == [(0, len(kept))]
    assert not list(idwords.spans(f"tokens/{UUID}/items/Xq3Lm9Pz0Rt7Wv2Yb5Nc_Floorplan"))
    assert not list(idwords.spans(f"tenants/{UUID}/uploads/ghp_Xq3Lm9Pz0Rt7Wv2Yb5Nc8Kd4Hs6Jf1Ga0Ue"))


def test_a_bank_account_number_under_its_label_is_no_api_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "IBAN" names the value (an account number, even one whose check digits fail) after "the API" names nothing."""
    from memrepo.engine.redaction import context

    text = "the API accepts IBAN DE547007001001804848 though it should not"
    assert redaction.redact(text)[0] == text
    assert "Xq3Lm9Pz0Rt7Wv2Yb5Nc8K" not in redaction.redact("iban service api key Xq3Lm9Pz0Rt7Wv2Yb5Nc8K")[0]
    monkeypatch.setattr(context, "PUBLIC_LABELS", context.PUBLIC_LABELS - {"iban"})
    redaction.flush_clean_memo()
    assert redaction.redact(text)[0] != text
