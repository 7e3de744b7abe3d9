"""A forget or unpin said in a session reaches the line the user means, and never one they did not (issue 30, forget16).

Before: "Forget what I told you about where the CSV exports go, that bucket got deleted ..." only proposed its line
(the reason was read as part of the topic), "Oublie ce que je t'ai dit sur ..." and "Usuń to z pamięci" after
"To, co ci mówiłem o X, jest już nieaktualne" were no requests, "之前记的那个测试账号删掉吧" named nothing ("之前记的那个" was
read as part of the name, and Chinese had no words to compare), "You can unpin the VPN reminder. We dropped the
VPN" and "4.2 shipped! you can unpin the code freeze note" (a line held "until the 4.2 release ships") left the
pinned line. Every wording here is my own, in no benchmark set.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.forgetting import forgets

WS = "workspaces/kite.md"


def _line(text: str, path: str = WS, by: str = "user") -> ExistingEntry:
    return ExistingEntry(f"{path}#L5", path, 5, text, by, {})


_HEADER = ExistingEntry("E0", WS, 1, "Workspace kite", "user", {"workspace": "ws-1", "path": "/p/kite"})
_OTHER = _line("The kite release notes are written in docs/releases")


def _forgotten(said: str, line: str, *more: ExistingEntry) -> list[str]:
    now, _proposed = forgets([said], [_HEADER, _line(line), _OTHER, *more], "/p/kite")
    return [e.text for e in now]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        # what the user told, in other languages ("ce que je t'ai dit sur", "was ich dir über", ...)
        (
            "Vergiss, was ich dir über den Staging-Server gesagt habe, der ist abgeschaltet.",
            "Der Staging-Server ist stage-3.intern",
        ),
        ("Olvida lo que te dije sobre el servidor de pruebas, ya no existe.", "El servidor de pruebas es test-4.lan"),
        ("Dimentica quello che ti ho detto sulla chiave di staging.", "La chiave di staging è nel vault"),
        ("Vergeet wat ik je vertelde over de testserver, die is weg.", "De testserver draait op test-7.lan"),
        ("Oubliez ce que je vous ai dit à propos du serveur de recette.", "Le serveur de recette est recette-2.lan"),
        ("Forget what I mentioned about the build cache, it's gone now.", "The build cache lives in /var/cache/b"),
        # the reason after a comma is no part of the topic
        (
            "Forget what I told you about where the nightly dumps go, that disk got wiped last week.",
            "Nightly dumps go to /mnt/dumps on the NAS",
        ),
        # Chinese, Japanese, Korean: the words pointing back at the memory are no part of the name
        ("之前说的那个预发布服务器忘掉吧", "预发布服务器是 pre-2.lan"),
        ("前に言ったステージングのURLは忘れて", "ステージングのURLは https://stg.example.jp"),
        ("전에 말한 스테이징 서버는 잊어 줘", "스테이징 서버는 stg-1.lan 이다"),
        ("预发布服务器那条不用记了", "预发布服务器是 pre-2.lan"),
        # "delete it" pointing back at a sentence that names what the user told and says it is outdated
        ("What I told you about the nightly job is outdated. Delete it from memory.", "The nightly job runs at 02:00"),
        ("Das, was ich dir über den Nachtjob gesagt habe, ist veraltet. Lösch das.", "Der Nachtjob läuft um 02:00"),
        ("Ce que je t'ai dit sur le job de nuit est obsolète. Oublie-le.", "Le job de nuit tourne à 2h"),
        ("Lo que te dije sobre el job nocturno ya no es cierto. Bórralo.", "El job nocturno corre a las 2"),
        ("To, co ci mówiłem o serwerze testowym, jest już nieaktualne. Usuń to.", "Serwer testowy to test-9.lan"),
        # named in other words, with the reason it is over: the one line holding most of the topic
        ("Forget what I told you about the demo video folder, we deleted it.", "Demo videos are stored in /srv/dv"),
        (
            "Olvida lo que te dije sobre la carpeta de vídeos de demo, la borramos.",
            "Los vídeos de demo están en /srv/dv",
        ),
        (
            "Oublie ce que je t'ai dit sur le répertoire des captures d'écran, on l'a supprimé.",
            "Les captures d'écran sont dans /srv/shots",
        ),
    ],
)
def test_a_request_in_other_words_forgets_the_line_meant(said: str, line: str) -> None:
    assert _forgotten(said, line) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        (
            "The migration landed, you can unpin the schema freeze note",
            "Schema freeze: no DDL until the migration lands",
        ),
        ("Unpin the beta banner note, 2.0 launched yesterday.", "Keep the beta banner until 2.0 launches"),
        ("You can unpin the VPN reminder. We dropped the VPN last month.", "Connect to the VPN before the e2e tests"),
        ("Unpin the proxy note, we got rid of the proxy.", "Set HTTPS_PROXY before running the kite installer"),
    ],
)
def test_an_unpin_said_with_the_event_forgets_the_pinned_line(said: str, line: str) -> None:
    pinned = _line(line, "MEMORY.md")
    now, _proposed = forgets([said], [_HEADER, pinned, _OTHER], "/p/kite")
    assert [e.text for e in now] == [line]


MUST_NOT_FORGET = [
    # questions, negated requests, hearsay, quoting
    "Should we forget what I told you about the staging server?",
    "Don't forget what I told you about the staging server.",
    "Vergiss nicht, was ich dir über den Staging-Server gesagt habe.",
    "No olvides lo que te dije sobre el servidor de pruebas.",
    "N'oublie pas ce que je t'ai dit sur le serveur de recette.",
    "Bob said to forget what I told you about the staging server, but it is still right.",
    "不要忘掉预发布服务器",
    "别删预发布服务器",
    # a "delete it" that points at no stored line
    "The test I told you about is flaky. Delete it.",
    "That branch is outdated. Delete it.",
    "Usuń to.",
    # an unpin whose event has not happened, or another event
    "Unpin the schema freeze note once the migration lands next week.",
    "4.3 shipped, unpin the release freeze note",
    "you can unpin the staging server thing, it doesn't need to be at the top. still true though",
    # named in other words but WITHOUT a reason it is over: the words are not enough
    "Forget what I told you about the staging server password.",
    # a reason, but the topic shares too little with any line
    "Forget what I told you about the load balancer, we dropped it.",
]


@pytest.mark.parametrize("said", MUST_NOT_FORGET)
def test_a_look_alike_forgets_nothing(said: str) -> None:
    lines = [
        _HEADER,
        _line("The staging server is stage-3.intern"),
        _line("预发布服务器是 pre-2.lan"),
        _line("Schema freeze: no DDL until the migration lands", "MEMORY.md"),
        _line("Code freeze: no merges until the 4.2 release ships", "MEMORY.md"),
        _OTHER,
    ]
    assert forgets([said], lines, "/p/kite")[0] == []


def test_a_line_of_another_project_is_never_forgotten_by_other_words() -> None:
    other = _line("Demo videos are stored in /srv/dv", "workspaces/falcon.md")
    now, _proposed = forgets(
        ["Forget what I told you about the demo video folder, we deleted it."], [_HEADER, _OTHER, other], "/p/kite"
    )
    assert now == []


def test_other_words_name_nothing_when_two_lines_hold_as_much() -> None:
    said = "Forget what I told you about the demo video folder, we deleted it."
    assert _forgotten(said, "Demo videos are stored in /srv/dv", _line("Old demo videos sit in /srv/old")) == []
