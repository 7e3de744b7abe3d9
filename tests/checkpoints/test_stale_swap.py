"""A correction that points at memory ("in your notes", "klopt niet meer", "你记的那个是旧的") or names the old value
("Scratch that 9:30 thing", "Nobody has touched Capistrano", "X，不是 Y") and gives a value of the same kind
(issue 30, corr14; :mod:`.staleswap`).

Before: none of these was kept, so the stale line stayed current (heldout5 of bench_session_memory: corrections
0/9). The wordings here are this file's own (none of a benchmark set). Pure functions of text and entries.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import correction_statements, proposed_corrections
from memrepo.engine.checkpoints.staleswap import rest, stale_cue
from memrepo.engine.checkpoints.userkept import kept_statements, place


def stored(text: str) -> list[ExistingEntry]:
    return [
        ExistingEntry("E1", "workspaces/kiwi.md", 4, text, "user", {"added": "2026-11-01"}),
        ExistingEntry(
            "E2", "workspaces/kiwi.md", 5, "The kiwi deploy window is Tuesday", "user", {"added": "2026-11-01"}
        ),
        ExistingEntry("E3", "me.md", 3, "My editor is vim", "user", {"added": "2026-11-01"}),
    ]


@pytest.mark.parametrize(
    ("old", "said", "new"),
    [
        ("The kiwi API listens on port 8080", "the API port you have in your notes is outdated, it serves on 9090.",
         "the API port you have in your notes is outdated, it serves on 9090"),
        ("kiwi nightly backup runs at 2:00", "Scratch that 2:00 thing for the backup, it runs at 3:30 since the migration.",
         "Scratch that 2:00 thing for the backup, it runs at 3:30 since the migration"),
        ("kiwi sends mail through Mailgun", "Nobody has used Mailgun in months, mail goes through Postmark.",
         "Nobody has used Mailgun in months, mail goes through Postmark"),
        ("kiwi 的消息队列是 RabbitMQ", "kiwi 的消息队列用的是 Kafka，不是 RabbitMQ。", "kiwi 的消息队列用的是 Kafka，不是 RabbitMQ"),
        ("Das Monitoring von kiwi läuft über Grafana 9.5",
         "Kleine Korrektur zu deinen Notizen: wir nutzen inzwischen Grafana 11.2.", "wir nutzen inzwischen Grafana 11.2"),
        ("De API van kiwi draait op Python 3.9",
         "De Python-versie in je notities klopt niet meer, we draaien op Python 3.12.",
         "De Python-versie in je notities klopt niet meer, we draaien op Python 3.12"),
        ("kiwi 的错误率告警阈值是 5%", "错误率阈值已经改成 2% 了，你记的那个是旧的。", "错误率阈值已经改成 2% 了，你记的那个是旧的"),
        ("Les déploiements de kiwi se font le lundi", "Petite mise à jour : on a déplacé les déploiements au mercredi.",
         "on a déplacé les déploiements au mercredi"),
        ("El servidor de kiwi está en us-east-1", "Me equivoqué con la región: el servidor está en eu-west-3.",
         "el servidor está en eu-west-3"),
        ("kiwi runs on Ruby 3.1", "kiwi is on 3.3 as of today, the 3.2 step was short-lived.",
         "kiwi is on 3.3 as of today, the 3.2 step was short-lived"),
    ],
)  # fmt: skip
def test_a_value_said_stale_is_replaced_by_the_new_one(old: str, said: str, new: str) -> None:
    lines = stored(old.replace("Ruby 3.1", "Ruby 3.2"))  # the chain's newest link
    assert correction_statements([said], lines) == [new]
    assert proposed_corrections([said], lines) == []
    assert [k.text for k in kept_statements([said], lines)] == [new]
    _scope, target = place(new, "fact", "/p/kiwi", lines, [said])
    assert target is not None and target.text == lines[0].text


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The shop CDN port is 443", "The blog CDN port in your notes is wrong, it's 8443."),  # another subject
        ("kiwi nightly backup runs at 2:00", "Scratch that 2:00 thing, I'll look into it later."),  # no new value
        ("kiwi sends mail through Mailgun", "Nobody has touched Mailgun in months."),  # nothing in its place
        ("The kiwi API listens on port 8080", "The API port in your notes is wrong for staging, 8080 is prod and staging is 9090."),
        ("The kiwi API listens on port 8080", "The docs in your notes are outdated, the wiki has 40 pages."),  # another kind
        ("kiwi 的消息队列是 RabbitMQ", "博客用的是 Kafka，不是 RabbitMQ 吧？"),  # a question
        ("The kiwi API listens on port 8080", "Bob said the API port in your notes is wrong, it serves on 9090."),  # hearsay
    ],
)  # fmt: skip
def test_a_stale_cue_without_the_same_subject_and_a_new_value_replaces_nothing(old: str, said: str) -> None:
    lines = stored(old)
    assert correction_statements([said], lines) == []
    for kept in kept_statements([said], lines):
        _scope, target = place(kept.text, "fact", "/p/kiwi", lines, [said])
        assert target is None or target.text != old


def test_the_stale_clause_is_no_hearsay_and_a_change_date_no_scope() -> None:
    assert stale_cue("that 30 second figure we had written down is stale")
    assert not stale_cue("the client waits 45 seconds")
    assert rest("that 30 second figure we had written down is stale, the client waits 45 seconds") == (
        "the client waits 45 seconds"
    )
    assert rest("kiwi is on 3.3 as of today, the 3.2 step was short-lived") == "kiwi is on 3.3"
