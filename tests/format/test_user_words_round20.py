"""What the user asked to keep, and what only looks like it (breaker32 B32-7, B32-15, B32-21; docs/architecture.md §7).

Before: "..., but don't remember that C" kept C; a pasted chat line ("[09:15] kim: remember that ...") or a tool's
log line ("ERROR: Remember that ...") was kept as the user's own request; and a long message cut inside a line kept
a tail starting mid-sentence, so "Do not remember that X" could be read as "remember that X".
"""

from __future__ import annotations

from memrepo.engine.checkpoints.msgcut import TAIL_CHARS, cut_message
from memrepo.engine.format.remembering import user_statements


def test_a_refused_part_of_a_request_is_never_kept() -> None:
    said = (
        "Remember that the wiki moved to Notion and that builds take ten minutes, but don't remember that I was late."
    )
    assert user_statements([said]) == ["the wiki moved to Notion", "builds take ten minutes"]
    assert user_statements(["Remember that lunch is at noon; please do not save this about my doctor."]) == [
        "lunch is at noon"
    ]


def test_a_statement_holding_never_is_still_kept_whole() -> None:
    assert user_statements(["Remember that we never deploy on Fridays."]) == ["we never deploy on Fridays"]
    assert user_statements(["Remember that the bot should never store raw logs."]) == [
        "the bot should never store raw logs"
    ]


def test_other_peoples_chat_lines_and_tool_logs_are_not_the_users_requests() -> None:
    chat = "[09:15] kim: remember that the vpn drops at midnight\n[09:16] lee: sure\nwhat does kim mean here?"
    log = "npm printed:\n\nERROR: Remember that node 16 is end of life.\nWARN deprecated flag used"
    assert user_statements([chat]) == []
    assert user_statements([log]) == []


def test_the_users_own_lead_ins_with_a_colon_still_ask() -> None:
    assert user_statements(["PS: remember that the office closes at six."]) == ["the office closes at six"]
    assert user_statements(["Btw: remember that my badge number changed."]) == ["my badge number changed"]


def test_a_tail_cut_inside_a_line_starts_after_a_sentence_end() -> None:
    said = "remember that the beta flag is on. "
    rest = "tick " * ((TAIL_CHARS - len(said)) // 5)
    assert len(said + rest) == TAIL_CHARS  # the tail starts right after "Do not ", inside one long line
    text = "trace ok " * 1_000 + "Do not " + said + rest
    out, cut = cut_message(text, 8_000)
    assert cut == 1
    assert "beta flag" not in out.split("characters cut ...]", 1)[1]
    assert user_statements([out]) == []
