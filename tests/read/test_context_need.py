"""Past its budget, a file about the user keeps what an agent most needs (docs/architecture.md §4, breaker8 B8-15):
who the user is and what keeps them safe, then rules and preferences, then trivia; a line of redaction markers last."""

from __future__ import annotations

from memrepo.engine.format.entries import Entry
from memrepo.engine.read.context import ContextFile, build_context
from memrepo.engine.read.contextrank import NEED_IDENTITY, NEED_OTHER, NEED_REDACTED, NEED_RULE, need

_TRIVIA = [
    "I take the train to work on Tuesdays",
    "My favourite tea is genmaicha",
    "I am learning the cello",
    "My favourite colour is teal",
    "I run 10 km every Sunday morning",
    "My laptop is a ThinkPad X1 Carbon running Fedora 41",
    "I use fish as my shell",
    "My GitHub handle is miraokafor",
    "I speak English, French and some Korean",
    "My manager is Dana Whitfield",
    "My phone is a Pixel 8",
    "I keep my notes in Obsidian",
    "I drink my coffee black, no sugar",
    "My home office has a standing desk",
    "I studied oceanography at McGill",
]


def _me_md() -> str:
    """The breaker's me.md: identity and an allergy first (oldest), trivia and a redacted line after (newest)."""
    lines = [
        "- My name is Mira Okafor; I go by Mira [by: user; added: 2026-12-01; kind: fact]",
        "- The user is allergic to peanuts [by: agent; added: 2026-12-01; kind: fact]",
        "- I dislike emoji in commit messages [by: user; added: 2026-12-02; kind: fact]",
    ]
    lines += [f"- {t} [by: user; added: 2026-12-05; kind: fact]" for t in _TRIVIA]
    lines.append(
        "- My AWS access key is [REDACTED:aws-access-key] and the secret is [REDACTED:labelled-secret] "
        "[by: user; added: 2026-12-05; kind: fact]"
    )
    return "# About me\n\n" + "\n".join(lines) + "\n"


def _block(text: str, budget: int) -> str:
    return build_context("abc1234", [ContextFile("me.md", text.encode(), budget, user_first=True)]).text


def test_over_budget_me_md_keeps_the_name_and_the_allergy_and_drops_trivia_and_the_redacted_line() -> None:
    shown = _block(_me_md(), 120)
    assert "not shown" in shown  # the budget does leave lines out
    assert "My name is Mira Okafor" in shown
    assert "allergic to peanuts" in shown  # an agent saved it; it is the user's safety
    assert "dislike emoji" in shown  # a preference before trivia
    assert "[REDACTED:" not in shown
    assert "train to work" not in shown  # among trivia, the oldest goes first


def test_a_redacted_line_goes_last_in_any_file() -> None:
    text = "# w\n\n- The staging token is [REDACTED:labelled-secret] [by: user; added: 2026-03-01]\n" + "".join(
        f"- Service {i} runs on port {8000 + i} [by: user; added: 2026-01-0{i}]\n" for i in range(1, 6)
    )
    shown = build_context("abc1234", [ContextFile("workspaces/w.md", text.encode(), 60)]).text
    assert "not shown" in shown and "Service 5 runs" in shown
    assert "[REDACTED:" not in shown


def test_need_classes() -> None:
    def of(text: str, **meta: str) -> int:
        return need(Entry("", "-", text, {"by": "user", **meta}), True)

    assert of("My pronouns are she/her") == NEED_IDENTITY
    assert of("I live in Montreal; my timezone is EST") == NEED_IDENTITY
    assert of("Severe allergy to shellfish, carries an EpiPen") == NEED_IDENTITY
    assert of("我对花生过敏") == NEED_IDENTITY
    assert of("Mira", kind="identity") == NEED_IDENTITY
    assert of("Prefers tabs over spaces") == NEED_RULE
    assert of("Short answers", kind="preference") == NEED_RULE
    assert of("My favourite colour is teal") == NEED_OTHER
    assert of("Key [REDACTED:aws-access-key] and [REDACTED:labelled-secret]") == NEED_REDACTED
    # a short secret in a long sentence still says something: only a line mostly of markers goes last
    assert of("The staging database password, kept in 1Password, is [REDACTED:labelled-secret]") == NEED_OTHER
    # outside a file about the user, words about names or diet give no rank (a service "name")
    assert need(Entry("", "-", "The service name is api-gw", {"by": "user"}), False) == NEED_OTHER


def test_a_name_or_home_counts_as_identity_only_of_a_person() -> None:
    """breaker13 B13-24: an agent's "bucket name is ..." ranked with the user's own lines and cut their preference."""

    def of(text: str) -> int:
        return need(Entry("", "-", text, {"by": "agent"}), True)

    assert of("The S3 bucket name is shop-prod-assets and the CDN is named shop-cdn") == NEED_OTHER
    assert of("The Grafana dashboard for checkout is named Checkout Golden Signals") == NEED_OTHER
    assert of("The config lives in services/api") == NEED_OTHER
    for text in (
        "My daughter is named Zoe",
        "My partner's name is Sam",
        "Lives in Lisbon",
        "My sister lives in Berlin",
    ):
        assert of(text) == NEED_IDENTITY, text
