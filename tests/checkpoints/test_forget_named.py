"""Requests to forget that name the thing, and an unpin of a line that is over (issue 30, sess14).

Before: "you can forget the vpn-legacy host, that box was decommissioned", "Oublie mon numéro de badge" and
"코드 프리즈 메모는 이제 고정 해제해 줘. 프리즈는 어제 끝났어." forgot nothing: only "forget that X" and "forget the note about
X" were heard.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.forgetting import forgets, requests


def _line(text: str, path: str = "me.md", by: str = "user") -> ExistingEntry:
    return ExistingEntry(f"{path}#L5", path, 5, text, by, {})


@pytest.mark.parametrize(
    ("said", "line"),
    [
        (
            "you can forget the vpn-legacy host, that box was decommissioned last week",
            "The VPN is vpn-legacy.otter.lan",
        ),
        ("Oublie mon numéro de badge, je préfère qu'il ne traîne pas.", "Mon numéro de badge au bureau est 44817"),
        ("Vergiss meine alte Adresse, ich bin umgezogen.", "Meine alte Adresse ist Hauptstraße 5"),
        ("Olvida mi número de teléfono.", "Mi número de teléfono es 555-0100"),
        ("Please forget the ThinkPad, I sold it.", "I work on a ThinkPad X1"),
        ("Forget the laptop hostname, that machine is gone.", "My work laptop's hostname is kestrel"),
        ("코드 프리즈 메모는 이제 고정 해제해 줘. 프리즈는 어제 끝났어.", "코드 프리즈 중: 릴리스 브랜치에 머지 금지"),
        ("VPN 설정은 잊어 줘.", "VPN 설정: wg0 사용"),
        ("Olvida lo de pnpm.", "Uso pnpm en vez de npm"),  # "the thing about X" in Spanish (breaker27 B27-10)
        ("Olvida todo lo del staging.", "El staging está en staging.example.dev"),
    ],
)
def test_a_request_naming_the_thing_forgets_its_line(said: str, line: str) -> None:
    other = _line("Ich schreibe Code in Neovim")
    now, proposed = forgets([said], [_line(line), other])
    assert [e.text for e in now] == [line]
    assert proposed == []


@pytest.mark.parametrize(
    "said",
    [
        "forget the tests, just ship it",
        "Forget my last message.",
        "you can unpin the British spelling thing, it doesn't need to sit at the top anymore. still true though",
        "Unpin the freeze note.",
    ],
)
def test_a_task_or_an_unpin_of_a_true_line_forgets_nothing(said: str) -> None:
    lines = [_line("Run the tests before pushing"), _line("Use British spelling"), _line("Code freeze: no merges")]
    assert forgets([said], lines) == ([], [])


def test_an_unpin_said_with_the_thing_over_is_a_request() -> None:
    assert requests(["unpin the freeze note, the freeze ended yesterday"])
    freeze = _line("Code freeze: no merges until the 4.2 release ships", "MEMORY.md")
    assert forgets(["unpin the freeze note, I see it enough"], [freeze]) == ([], [])


def test_unpin_and_forget_it_forgets_the_pinned_line() -> None:
    """heldout3's "Unpin the note about her deploy sign-off and forget it": its "forget it" is no retraction."""
    line = _line("Deploys need sign-off from Marta", "MEMORY.md")
    said = "Marta left the team. Unpin the note about her deploy sign-off and forget it."
    assert forgets([said], [line, _line("Deploys happen on Tuesdays", "MEMORY.md")]) == ([line], [])
    assert requests(["Please forget that the VPN is wg0, just kidding."]) == []


@pytest.mark.parametrize("said", ["Lo de pnpm es importante.", "Olvida lo del deploy, lo hago yo."])
def test_lo_de_x_outside_a_request_or_naming_more_than_a_line_forgets_nothing(said: str) -> None:
    now, _proposed = forgets([said], [_line("Uso pnpm en vez de npm"), _line("Deploys go out on Tuesday")])
    assert now == []
