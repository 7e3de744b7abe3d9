"""Keys from four more maintained scanners' formats (issue 32 round 11).

Nosey Parker and Titus (Apache-2.0), secretlint (MIT), Trivy (Apache-2.0) and
Microsoft security-utilities (MIT) document these shapes with their rules'
examples; the values below are made for this file. Each "is taken" case leaked
before its rule; each "stays" case is a look-alike that must come out unchanged.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import vendorwords


def _gone(text: str, value: str) -> None:
    out = redaction.redact(text)[0]
    assert value not in out, out
    assert "[REDACTED:" in out


def _stays(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize("vendor", ["teamcity", "packagist", "wpengine", "coderabbit", "browserstack", "vmware"])
def test_a_vendor_named_by_the_new_rule_sets_marks_its_key(vendor: str) -> None:
    assert vendor in vendorwords.VENDORS
    _gone(f"{vendor}: 4f9a8c7e6d5b4a3f2e1d0c9b8a7f6e5d", "4f9a8c7e6d5b4a3f2e1d0c9b8a7f6e5d")


@pytest.mark.parametrize("word", ["python", "maven", "redis", "iterable", "scale", "here", "help"])
def test_everyday_and_tool_words_of_the_new_rule_sets_name_no_vendor(word: str) -> None:
    assert word not in vendorwords.VENDORS
