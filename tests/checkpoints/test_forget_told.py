"""A request to forget what the user told, in any language's "what I said about X", and an order to stop keeping X
in mind (round 18, breaker28 B28-2, h9-forget-backups-pl).

Before: "Zapomnij, co mówiłem o ..." (no "ci"), "Dimentica quello che ho detto sul ..." (no "ti"), "Olvida lo que
dije sobre ..." and "Non ricordare più ..." forgot nothing: only the told-about forms with the dative pronoun each
language's list held were heard, and a negated "remember" was no request.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.forgetting import forgets, requests


def _line(text: str, path: str = "me.md") -> ExistingEntry:
    return ExistingEntry(f"{path}#L5", path, 5, text, "user", {})


_OTHERS = [_line("Ich schreibe Code in Neovim"), _line("I prefer tabs over spaces")]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        (
            "Zapomnij, co mówiłem o nocnych kopiach zapasowych bazy, to już nieaktualne.",
            "Puffin: kopie zapasowe bazy robi skrypt backup.sh o 2:00 w nocy",
        ),
        (
            "Dimentica quello che ti ho detto sul server di staging, non esiste più.",
            "Il server di staging è staging.example.it",
        ),
        (
            "Olvida lo que dije sobre el servidor de pruebas, ya no existe.",
            "El servidor de pruebas está en test.example.es",
        ),
        (
            "Vergiss, was ich über den alten VPN-Host gesagt habe, den gibt es nicht mehr.",
            "Der VPN-Host ist vpn-old.example.de",
        ),
        ("Vergeet wat ik zei over de oude server.", "De oude server draait op Debian 9"),
        (
            "Oublie ce que j'ai dit à propos du serveur de démo, on l'a supprimé.",
            "Le serveur de démo est demo.example.fr",
        ),
    ],
)
def test_what_the_user_told_about_a_topic_is_forgotten(said: str, line: str) -> None:
    now, proposed = forgets([said], [_line(line), *_OTHERS])
    assert [e.text for e in now] == [line]
    assert proposed == []


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("Non ricordare più il numero del mio badge, l'ho cambiato.", "Il numero del mio badge è 44817"),
        ("You don't need to remember the old staging IP anymore.", "The staging IP is 10.0.0.5"),
        ("Merk dir die alte Adresse nicht mehr.", "Meine alte Adresse ist Hauptstraße 5"),
        ("Ya no recuerdes mi número de teléfono viejo.", "Mi número de teléfono es 555-0100"),
    ],
)
def test_an_order_to_stop_keeping_a_thing_in_mind_forgets_it(said: str, line: str) -> None:
    now, _proposed = forgets([said], [_line(line), *_OTHERS])
    assert [e.text for e in now] == [line]


@pytest.mark.parametrize(
    "said",
    [
        "Forget what the docs say about retries, just use three.",  # someone else's words, not memory's
        "Forget what Bob said about the release process.",
        "I don't remember the staging IP anymore.",  # the user's own memory
        "Non ricordo più il numero del badge.",
        "Remember the staging IP, it changes often.",
    ],
)
def test_someone_elses_words_or_the_users_own_memory_forget_nothing(said: str) -> None:
    assert requests([said]) == []
    lines = [_line("The staging IP is 10.0.0.5"), _line("Il numero del badge è 44817"), _line("Retries: 3, see docs")]
    assert forgets([said], lines) == ([], [])


def test_a_note_named_with_we_dont_use_it_anymore_is_forgotten() -> None:
    """h9-forget-review-login: "we don't use that account anymore" says the thing is over, so the topic is its
    head before the comma; said without it ("we still use it") the line is only proposed."""
    line = _line("Lynx App Store review login: qa-lynx@example.com", "workspaces/lynx.md")
    other = _line("Lynx targets iOS 16 and Android 10+ clients", "workspaces/lynx.md")
    said = "Drop the note about the App Store review login, we don't use that account anymore."
    assert forgets([said], [line, other]) == ([line], [])
    kept = "Drop the note about the App Store review login, we still use it but Bob owns it now."
    assert forgets([kept], [line, other])[0] == []
