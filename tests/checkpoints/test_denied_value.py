"""A correction that denies the stored value in its own clause and gives the new one in another (issue 30, corr16;
:mod:`.staleswap`): "the docs haven't been on Netlify since the summer, they live on Cloudflare Pages", "c'est à
5h maintenant, pas à 3h", "niet op dinsdag", "non alle 10:00", "Lo que te dije ... estaba mal: ...".

Before (heldout7, spent): none of these was kept, so the stale line stayed current. The wordings here are this
file's own (none of a benchmark set). Pure functions of text and entries.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import correction_statements, proposed_corrections
from memrepo.engine.checkpoints.userkept import place


def stored(text: str) -> list[ExistingEntry]:
    return [
        ExistingEntry("E1", "workspaces/kiwi.md", 4, text, "user", {"added": "2026-11-01"}),
        ExistingEntry(
            "E2", "workspaces/kiwi.md", 5, "The kiwi deploy window is Tuesday", "user", {"added": "2026-11-01"}
        ),
        ExistingEntry("E3", "me.md", 3, "My editor is vim", "user", {"added": "2026-11-01"}),
    ]


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The kiwi docs are hosted on Netlify",
         "the kiwi docs haven't been on Netlify since the summer, they live on Cloudflare Pages."),
        ("Le cron de nettoyage de kiwi tourne à 3h", "le cron de nettoyage, c'est à 5h maintenant, pas à 3h."),
        ("De kiwi retro is op dinsdag", "De retro is op donderdag, niet op dinsdag."),
        ("La build di kiwi parte alle 10:00", "La build parte alle 11:30, non alle 10:00."),
        ("kiwi usa Python 3.10 en el servidor",
         "Lo que te dije del servidor estaba mal: en el servidor usamos Python 3.12."),
    ],
)  # fmt: skip
def test_the_old_value_denied_and_a_new_one_replace_the_line(old: str, said: str) -> None:
    lines = stored(old)
    new = said.rstrip(".")
    assert correction_statements([said], lines) == [new]
    assert proposed_corrections([said], lines) == []
    _scope, target = place(new, "fact", "/p/kiwi", lines, [said])
    assert target is not None and target.text == old


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The kiwi API is deployed on Fly.io", "the kiwi docs haven't been on Netlify since May, they are on Render."),
        ("The kiwi API is deployed on Fly.io",
         "the staging worker hasn't been on Heroku since May, it runs on Render."),
        ("Le cron de nettoyage de kiwi tourne à 3h", "le cron d'export, c'est à 5h, pas à 4h."),
        ("La build di kiwi parte alle 10:00", "Il deploy parte alle 11:30, non alle 12:00."),
        ("The kiwi API is deployed on Fly.io",
         "the kiwi API hasn't been on Fly.io for long, we moved it there in May."),
    ],
)  # fmt: skip
def test_a_denial_of_another_value_or_thing_replaces_nothing(old: str, said: str) -> None:
    lines = stored(old)
    assert correction_statements([said], lines) == []


@pytest.mark.parametrize(
    ("old", "said", "new"),
    [
        ("kiwi runs on Python 3.10", "fyi kiwi is on Python 3.12 these days.", "kiwi is on Python 3.12 these days"),
        ("kiwi runs on Python 3.10", "heads up: kiwi is on Python 3.12 nowadays.", "kiwi is on Python 3.12 nowadays"),
        ("kiwi läuft auf Node 18", "Übrigens: kiwi läuft inzwischen auf Node 22.", "kiwi läuft inzwischen auf Node 22"),
        ("kiwi tourne sur PHP 8.1", "Au fait, kiwi tourne maintenant sur PHP 8.3.", "kiwi tourne maintenant sur PHP 8.3"),
        ("kiwi usa Redis 6.2", "Por cierto, kiwi ya usa Redis 7.2.", "kiwi ya usa Redis 7.2"),
    ],
)  # fmt: skip
def test_an_aside_lead_in_is_no_subject_and_these_days_says_now(old: str, said: str, new: str) -> None:
    lines = stored(old)
    assert correction_statements([said], lines) == [new]
    _scope, target = place(new, "fact", "/p/kiwi", lines, [said])
    assert target is not None and target.text == old


@pytest.mark.parametrize(
    "said",
    [
        "fyi the kiwi docs build is on Python 3.12 these days.",
        "btw is kiwi on Python 3.12 these days",
        "fyi if kiwi is on Python 3.12 these days the wheels break.",
        "does kiwi run on Python 3.12 these days",
    ],
)
def test_another_subject_or_a_question_after_an_aside_corrects_nothing(said: str) -> None:
    assert correction_statements([said], stored("kiwi runs on Python 3.10")) == []


@pytest.mark.parametrize(
    ("old", "said", "new"),
    [
        ("The kiwi admin API listens on port 8080", "ok, 9090 then. the 8080 in your notes is outdated.",
         "9090 then; the 8080 in your notes is outdated"),
        ("El API de kiwi escucha en el puerto 8080",
         "Vale, es el 9090. Lo de 8080 en tus notas está desactualizado.",
         "Vale, es el 9090; Lo de 8080 en tus notas está desactualizado"),
        ("Die kiwi-API läuft auf Port 8080", "Alles klar, Port 9090 also. Die 8080 in deinen Notizen ist veraltet.",
         "Alles klar, Port 9090 also; Die 8080 in deinen Notizen ist veraltet"),
        ("L'API de kiwi écoute sur le port 8080", "D'accord, c'est 9090. Le 8080 dans tes notes, c'est fini.",
         "D'accord, c'est 9090; Le 8080 dans tes notes, c'est fini"),
        ("kiwi nightly backup runs at 2:00", "right, 3:30 it is. that 2:00 thing is stale.",
         "right, 3:30 it is; that 2:00 thing is stale"),
    ],
)  # fmt: skip
def test_the_new_value_and_the_stale_cue_in_two_sentences_are_one_correction(old: str, said: str, new: str) -> None:
    lines = stored(old)
    assert correction_statements([said], lines) == [new]
    _scope, target = place(new, "fact", "/p/kiwi", lines, [said])
    assert target is not None and target.text == old


@pytest.mark.parametrize(
    "said",
    [
        "The metrics port is 9100. The 8080 note is fine.",
        "The metrics exporter listens on 9100. Your notes are outdated, I'll check which.",
        "The metrics port is 9100. The 8080 in your notes is outdated.",
    ],
)
def test_a_stale_sentence_borrows_no_value_another_line_holds_or_names_none(said: str) -> None:
    lines = [
        ExistingEntry("E1", "workspaces/kiwi.md", 4, "The kiwi admin API listens on port 8080", "user", {}),
        ExistingEntry("E2", "workspaces/kiwi.md", 5, "The kiwi metrics exporter listens on port 9100", "user", {}),
    ]
    assert correction_statements([said], lines) == []


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("La retro di kiwi è il mercoledì", "Il giorno della retro è cambiato, adesso è il venerdì."),
        ("The kiwi release train leaves on Monday", "The release train day has changed, it leaves on Wednesday."),
        ("El backup de kiwi es a las 2:00", "La hora del backup ha cambiado, ahora es a las 4:00."),
        ("Le standup de kiwi est à 9:30", "L'heure du standup a changé, c'est à 9:45."),
    ],
)
def test_it_changed_and_a_new_value_of_the_kind_replace_the_line(old: str, said: str) -> None:
    lines = stored(old)
    assert correction_statements([said], lines) == [said.rstrip(".")]


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("The kiwi release train leaves on Monday", "The retro day has changed, it's on Friday."),
        ("La retro di kiwi è il mercoledì", "Il menu è cambiato, il venerdì c'è pesce."),
        ("The kiwi release train leaves on Monday", "Nothing has changed, the release train still leaves on Monday."),
        ("Le standup de kiwi est à 9:30", "Le lieu du standup a changé, mais c'est toujours à 9:30."),
        ("The kiwi release train leaves on Monday", "If the release day has changed, it leaves on Wednesday."),
    ],
)
def test_a_change_of_another_thing_or_none_replaces_nothing(old: str, said: str) -> None:
    assert correction_statements([said], stored(old)) == []
