"""breaker8 B8-13: in a Claude Code session, "X, remember that." and "remember" said in Korean, Chinese or Japanese are
requests to keep X, as "Remember that X." is (docs/commands.md ``checkpoint``). The finding's exact turns, through
the SessionEnd checkpoint on a transcript in Claude Code's own line format."""

from __future__ import annotations

from pathlib import Path

from test_hook_user_remember import entries, session_end, setup  # noqa: F401  (setup is a fixture)


def test_the_findings_requests_are_all_kept_by_user(setup, tmp_path: Path) -> None:  # noqa: F811
    store, project = setup
    out = session_end(
        store,
        tmp_path,
        project,
        [
            ("Remember that kimchi-bot's Discord server id is 1184467732216.", "Noted."),
            ("기억해 줘: kimchi-bot의 관리자는 민지야", "알겠어요."),
            ("记住：我的护照在书房的抽屉里", "好的。"),
            ("Actually we moved kimchi-bot to Python 3.13, remember that.", "Noted: 3.13."),
            ("覚えておいて：kimchi-botのログはGrafanaで見る", "はい。"),
            ("The bot's staging channel is #kimchi-staging, remember that.", "OK."),
            ("The bot's prod channel is #kimchi-prod. Remember that.", "OK."),
        ],
    )
    found = entries(store)
    by = {text: who for text, who in found.items()}
    wanted = [
        "Discord server id is 1184467732216",
        "관리자는 민지야",
        "我的护照在书房的抽屉里",
        "Python 3.13",
        "Grafana",
        "#kimchi-staging",
        "#kimchi-prod",
    ]
    for part in wanted:
        hits = [text for text in by if part in text]
        assert hits, (part, out, found)
        assert by[hits[0]] == "user", (part, found)
    said = " ".join(found)
    assert "remember that" not in said.lower() and "기억해" not in said and "记住" not in said and "覚えて" not in said
