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


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("cmd.exe /C PSEXEC \\\\10.0.94.120 -u Administrator -p dev_admin CMD /C ECHO", "dev_admin"),
        ('PsExec64.exe \\\\build7 -u "CORP\\svc" -p "winter harbor" cmd', "winter harbor"),
        ('sender.Credentials = new NetworkCredential("ops@corp.example", "vzihlaquknriqlht");', "vzihlaquknriqlht"),
        ('new DirectoryEntry("LDAP://CORP.EXAMPLE",\n    "ADMIN@CORP.EXAMPLE",\n    "Rrhh1234");', "Rrhh1234"),
        (
            '"pkg": "git+https://7d3f9a0c2b1e4d5f6a7b8c9d0e1f2a3b4c5d6e7f:x-oauth-basic@github.com/acme/pkg.git"',
            "7d3f9a0c2b1e4d5f6a7b8c9d0e1f2a3b4c5d6e7f",
        ),
        ("  .dockerconfigjson: eyE1x2a3MpLe", "eyE1x2a3MpLe"),
        ('ensure the password is "centipede" and press the "On" button!', "centipede"),
        ("The default Password is 'blooberry'", "blooberry"),
        ("    $mail->Password = 'un!techwhooah';   // SMTP password", "un!techwhooah"),
        (
            "[T2`https://outlook.office.com/webhook/3b1c9e2a-5d4f-4a8b-9c7d-1e2f3a4b5c6d@"
            "a7e3f1d2-7fc7-4c7a-aae9-d2f387b67c5d/IncomingWebhook/9c8b7a6d5e4f30211f2e3d4c5b6a7988/"
            "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6`](https://outlook.office.com/webhook/"
            "3b1c9e2a-5d4f-4a8b-9c7d-1e2f3a4b5c6d%2540a7e3f1d2-7fc7-4c7a-aae9-d2f387b67c5d/IncomingWebhook/"
            "9c8b7a6d5e4f30211f2e3d4c5b6a7988/0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6)",
            "9c8b7a6d5e4f30211f2e3d4c5b6a7988",
        ),
        ("<password>  plainSecret  </password>", "plainSecret"),
        ("# REACT_APP_PASS=whiteduke", "whiteduke"),
    ],
)
def test_a_credential_in_a_documented_tool_or_format_shape_is_taken(text: str, value: str) -> None:
    _gone(text, value)


@pytest.mark.parametrize(
    "text",
    [
        "psExec \\\\HOST42 -u User -p $Password -i -d calc.exe",
        "%RUNTIMEDIR%\\PsExec.exe \\\\satmodel2 -u ops -p %PW% -i 2",
        "docker run -u 1000 -p 8080:80 nginx",
        'var cred = new NetworkCredential("ops", password);',
        "git clone https://github.com/acme/pkg.git",
        "the password is required for every login",
        'the password is "required"',
        'server->password = "busybox@";',
        "$mail->Password = $config['smtp_pass'];",
        "<password>${env.DEPLOY_PW}</password>",
        "# Password: required",
        "pinned with uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11",
        "  .dockerconfigjson: <base64 of ~/.docker/config.json>",
    ],
)
def test_the_same_shapes_holding_no_credential_stay(text: str) -> None:
    _stays(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("px-api-7c1e9b2a-4f3d-4a8e-b6c5-d2e1f0a9b8c7 for the cluster", "7c1e9b2a-4f3d-4a8e-b6c5-d2e1f0a9b8c7"),
        ("deploy with px-dep-0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d", "0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d"),
    ],
)
def test_nosey_parker_rules_kingfisher_lacks_are_run(text: str, value: str) -> None:
    _gone(text, value)


def test_nosey_parker_rules_carry_their_notice_and_load_after_kingfisher() -> None:
    import json
    from pathlib import Path

    from memrepo.engine.redaction import kingfisher

    doc = json.loads((Path(kingfisher.__file__).parent / "noseyparker.json").read_text(encoding="utf-8"))
    assert "Apache" in doc["license"] and "Praetorian" in doc["license"]
    assert doc["rules"] and all(rule["id"].startswith("np.") and rule["keywords"] for rule in doc["rules"])
    assert kingfisher.FILES == ("kingfisher.json", "noseyparker.json")


def test_the_upstream_builder_takes_the_rules_capture_and_leaves_placeholders(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """build_upstream_tests.py on rule files in Nosey Parker's format: the password group, not the user's."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks" / "secrets_corpus"))
    import build_upstream_tests as build

    (tmp_path / "vmware.yml").write_text(
        "rules:\n"
        "- name: Credentials in Connect-VIServer Invocation\n"
        "  id: np.vmware.1\n"
        "  pattern: '(?x)Connect-VIServer .{0,50} -User \\s+ (?P<username>\\S{3,30}) \\s+ -Password \\s+ (?P<token>\\S{3,30})'\n"
        "  categories: [fuzzy, secret]\n"
        "  examples:\n"
        "  - 'Connect-VIServer -Server vc1 -User admin@vsphere.local -Password Wq8!rT2zpL'\n"
        "  - 'Connect-VIServer -Server vc1 -User $user -Password $password'\n"
        "  negative_examples:\n"
        "  - 'Connect-VIServer -Server vc1'\n",
        encoding="utf-8",
    )
    (tmp_path / "other.yml").write_text(
        "rules:\n- name: Kingfisher copy\n  id: kingfisher.x.1\n  pattern: 'x'\n  examples: ['xxxxxxxxxxxxxxxxxxxx']\n",
        encoding="utf-8",
    )
    samples, negatives = build.noseyparker([tmp_path])
    assert [s["secrets"] for s in samples] == [["Wq8!rT2zpL"]]
    assert [n["text"] for n in negatives] == ["Connect-VIServer -Server vc1"]
