"""A bare random run is redacted only with evidence that it is a secret (issue 32, round 15: :mod:`.evidence`).

The look-alikes are the shapes the tuned public-format parts showed altered (an armored key's line, a JWK
coordinate, a run quoted in prose); each secret below is found by the shape-alone rule only, so it stays
redacted only by the evidence class it names: removing that class from :mod:`.evidence` fails its case.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import evidence

RUN = "Zk9xQ2mP7vL4nR8tY3wBq1Xc7Hf2aB3dE5gJ"


@pytest.mark.parametrize(
    "text",
    [
        f"see {RUN} in the spec",
        f"mQINBGTz{RUN}Wq8Lk2Jd9Xa4Yp7Rm3Vn6Bc1Ht5Gs0Fz",  # a line of an armored public key, no header in view
        f"x: '{RUN}-gY-n9eo',",  # a JWK coordinate
        f"{RUN}\n{RUN}Q",
        # no evidence in the place either (round 15 keeps them; they were redacted before: B25-5, fp14's guards)
        'url = "sourcehut:~acme/Zk9xQ2mP7vL4nR8tY3wBq1Xc"',
        "@acme/zk9xq2mp7vl4nr8ty3wbq1xc",
    ],
)
def test_a_bare_run_with_no_evidence_stays_verbatim(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (f"gh secret set ACME_API_SECRET --body 'SK4d9d2fe2cc3d260e53d6433de45d88d1 {RUN}'", "word on the line"),
        (f"{RUN} is the Zhipu one for prod", "vendor after"),
        (f"acme_{RUN}", "vendor head"),
        (f"API_KEY{RUN}", "secret word glued on"),
        (f"<secret>{{{RUN}}}</secret>", "element named secret"),
        (f'client = RESTClient("{RUN}")', "sign-in call"),
        (f"b2 account authorize 0009c43bdb8fea62332d30680 {RUN}", "sign-in command"),
        (f"convier 32|{RUN}", "Sanctum id"),
        (f"shipday key (prod)\n{RUN}", "label on the line above"),
        (f"mot de passe {RUN}", "another language's password word"),
        (f"b3BlbnNzaC1rZXktdjEAAAAABG5vbmU\\r\\n{RUN}", "OpenSSH key body and its escaped continuation"),
        ("streak A4bb3Af3AdafcAf29A06A5b23ee0a0c8", "mixed-case hex"),
        ("\x1b]52;c;Z2hwX1prOXhRMm1QN3ZMNG5SOHRZM3dCcTFYYzdIZjJhQjNkRTVnSg==\x1b\\ copied", "base64 of a token"),
        ("- `uploads/ghp_Xq3Lm9Pz0Rt7Wv2Yb5Nc8Kd4Hs6Jf1Ga0Ue.png` from the bot", "vendor prefix in a path"),
    ],
)
def test_a_run_with_evidence_is_still_redacted(text: str, why: str) -> None:
    out = redaction.redact(text)[0]
    assert RUN not in out and out != text, (why, out)
    assert "high-entropy" in redaction.redact(text)[1], "found by the shape-alone rule, kept by its evidence"


def test_only_a_span_no_other_rule_found_is_bare() -> None:
    found = [(0, 10, "high-entropy"), (5, 20, "labelled-secret"), (30, 40, "high-entropy")]
    assert not evidence.bare((0, 20, "labelled-secret"), found)
    assert evidence.bare((30, 40, "high-entropy"), found)


def test_keep_bare_keeps_a_span_another_rule_found_without_evidence() -> None:
    text = f"see {RUN} and {RUN}Q"
    one, two = (4, 4 + len(RUN), "labelled-secret"), (9 + len(RUN), 10 + 2 * len(RUN), "high-entropy")
    assert evidence.keep_bare(text, [one, two], [one, two]) == [one]
