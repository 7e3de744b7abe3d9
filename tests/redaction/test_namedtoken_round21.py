"""A random value after a one-word clause is typed ``named-token`` and needs evidence, as ``assigned-token`` does.

Issue 32, round 21. :func:`.structural.named_value` reads one word only to find the value after it (``unify <run>``),
the same guess as rules.py's run after whatever name; typed ``vendor-key`` it could not join the weak findings
(``shapelabels.WEAK``) that :mod:`.evidence` asks for a secret word, a vendor, a key head or a block key.
"""

from __future__ import annotations

from memrepo.engine import redaction
from memrepo.engine.redaction import shapelabels, structural

RUN = "hP8qr9F0nvVkzDjHafKE2wXTEhc8K9QpPqvyunKW=0fy"


def test_the_one_word_clause_finding_has_its_own_weak_type() -> None:
    assert [slug for _s, _e, slug in structural.named_value(f"unify {RUN}")] == ["named-token"]
    assert "named-token" in shapelabels.WEAK and "named-token" in redaction.GENERIC


def test_a_tools_field_of_one_word_and_an_id_is_kept() -> None:
    """``ksuid inspect`` prints ``String: <ksuid>``: a random id after a word, with nothing saying it is a secret."""
    for text in ("String: 0ujtsYcgvSTl8PAuAdqWYSMnLOv", "  String: 0ujzPyRiIAffKhBux4PvQdDqMHY"):
        assert redaction.redact(text)[0] == text


def test_evidence_keeps_the_one_word_clause_a_secret() -> None:
    """A block's key naming a secret above, a secret another rule found beside, a key head: still redacted."""
    for text in (
        f"keys:\n  unify {RUN}",
        f"DB_PASSWORD=hunter2xyz\nunify {RUN}",
        "brevo key_JuqpdyAj06lmIvPxQmEoHE7wlFmMtgVP",
    ):
        out = redaction.redact(text)[0]
        assert RUN not in out and "JuqpdyAj06lmIvPxQmEoHE7wlFmMtgVP" not in out, out


def test_a_one_word_clause_naming_a_product_is_evidence_for_a_random_value() -> None:
    """``Ghost: <run>``, ``zorbly: <run>``: a note names what a key opens by one word; not a word of prose or code
    (``String``), and not before a value with words in it (``prefix: 1234.dkr.ecr….amazonaws.com``)."""
    assert "RVdRdvZggPazaTsNF8voRL" not in redaction.redact("Ghost: RVdRdvZggPazaTsNF8voRL")[0]
    assert (
        "/bzBDjLdmz6Tp8ZzfsjEfwlBqbyrXyVeC6T8EiX9"
        not in redaction.redact("zorbly: /bzBDjLdmz6Tp8ZzfsjEfwlBqbyrXyVeC6T8EiX9")[0]
    )
    for text in ("String: 0ujtsYcgvSTl8PAuAdqWYSMnLOv", "prefix: 123456789.dkr.ecr.eu-west-1.amazonaws.com"):
        assert redaction.redact(text)[0] == text
