"""Issue 32 round 26: classes read on notes6's tune half, with values invented here (docs/architecture.md §3).

notes6 was written blind by a helper and split by template before any value was drawn; its held half was not read.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

ETH_KEY = "0xa823cad6dff2eba0f39b53c437f4ae0cae78923a49bf9d95a39a717a2e5b9c2b"
INFURA = "fd05b03c4196871037476a12a30220d1"
KEYPAIR = (
    "47,101,38,226,158,142,106,92,215,220,25,107,157,164,165,96,76,78,125,47,182,158,52,240,72,208,139,190,103,"
    "188,11,143,166,183,224,179,40,146,15,175,38,122,79,124,254,150,161,191,29,229,248,92,220,225,27,130,216,34,"
    "66,213,182,119,200,245"
)
SEED = "orbit canal fossil drift hammer lemon pulse acoustic visa galaxy endless tuna"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            f'networks: {{ sepolia: {{ url: "https://sepolia.infura.io/v3/{INFURA}", accounts: ["{ETH_KEY}"] }} }}',
            INFURA,
        ),
        (
            f'networks: {{ sepolia: {{ url: "https://sepolia.infura.io/v3/{INFURA}", accounts: ["{ETH_KEY}"] }} }}',
            ETH_KEY,
        ),
        (f"devnet deployer keypair (~/.config/solana/id.json):\n[{KEYPAIR}]", KEYPAIR[:40]),
        ("- admin key (indexing job only): 05b2fc695ddf8b9c75cad2dcb4905148", "05b2fc695ddf8b9c75cad2dcb4905148"),
        ("github-recovery-codes.txt for the org owner (keep offline)\n4a1b9-7c2d3\n9e8f7-1a2b3", "4a1b9-7c2d3"),
        ("- הסיסמה לשרת הגיבויים היא Tk4#vQ9zLm – לא לשנות", "Tk4#vQ9zLm"),
        ("- NAS im Büro → Benutzer backup, Passwort → Fichte?Lampe77 · gilt auch für das Web", "Fichte?Lampe77"),
        ("Дмитрий: логин ivanov, пароль Qz7!vK-pL=2m — только не свети его", "Qz7!vK-pL=2m"),
        (f'- Ví thử nghiệm – cụm từ khôi phục: "{SEED}"', "orbit canal fossil drift"),
        ("- Réseau invité : clé WPA2 7%vRnq*jKL (changée tous les mois)", "7%vRnq*jKL"),
    ],
)
def test_a_secret_of_notes6s_classes_is_redacted(text: str, secret: str) -> None:
    out, _types = redaction.redact(text)
    assert secret not in out, out


def test_a_connection_string_keeps_its_host_and_user() -> None:
    text = "export uses mongodb+srv://kofi:Hq4xT9_pLm2Zr7Wn@cluster0.ab12c.mongodb.net/analytics?w=majority"
    out, _types = redaction.redact(text)
    assert "Hq4xT9_pLm2Zr7Wn" not in out
    assert "kofi" in out and "cluster0.ab12c.mongodb.net/analytics" in out


@pytest.mark.parametrize(
    "text",
    [
        "Algolia app 4KIZ5Q1SLJ, search-only key (safe in the browser): 9a7f3c2e1b0d4e5f6a7b8c9d0e1f2a3b",
        "db_password: ENC[AES256_GCM,data:29b9vEo8pKfbAaMo,iv:Zm9vYmFy,tag:YmF6cXV4,type:str]",
        "- [kind: decision] Password hashing: argon2id with m=65536, t=3, p=1",
        '    APIKey:    mustEnv("PARTNER_API_KEY"),',
        "val key = BuildConfig.MAPS_API_KEY",
        "smtp_password: \"{{ lookup('community.hashi_vault.hashi_vault', 'secret=kv/data/smtp:password') }}\"",
    ],
)
def test_a_look_alike_of_notes6s_classes_stays(text: str) -> None:
    assert redaction.redact(text)[0] == text


def test_a_github_client_id_stays_beside_its_secret() -> None:
    text = "GITHUB_ID=Ov23liQx7TmN2pR8sK4v\nGITHUB_SECRET=4f9a1c7e2b8d3f6a0e5c9b2d7f1a4e8c3b6d0f9a"
    out, _types = redaction.redact(text)
    assert "Ov23liQx7TmN2pR8sK4v" in out and "4f9a1c7e2b8d3f6a0e5c9b2d7f1a4e8c3b6d0f9a" not in out
