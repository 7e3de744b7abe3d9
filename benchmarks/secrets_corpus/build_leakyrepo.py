"""Build ``leakyrepo.json`` (a tuning part, round 13): credential files as people keep them, from Plazmaz/leaky-repo.

Plazmaz/leaky-repo (MIT, snapshot 2e95135) is a benchmark repository of secret-holding files as they sit on
disk: dotfiles (``.bash_profile``, ``.netrc``, ``.npmrc``, ``.git-credentials``, ``.pgpass``), tool configs
(FileZilla, Robomongo, DBeaver, SFTP plugins, ``.s3cfg``, ``hub``), web apps' settings (``wp-config.php``,
Django's ``settings.py``, Laravel's ``.env``, Rails' ``secrets.yml``), a SQL dump and a shadow file. Its
``.leaky-meta/secrets.csv`` counts, per file, the lines that hold a risk. No rule of ours was written from it
before round 13; it shares no sample with a held-out part.

Each non-empty, non-comment line of each text file is one sample (private-key files, binary files and
Firefox's ``logins.json`` are left out: whole-file formats other parts cover). A line holding one of the values
labelled below by hand (the file's "Risk" lines, the values its comments name) is a secret sample
(``leakyrepo``); a line holding a value the repo calls informative but that is a credential's half (an AWS key
id, a client key) is left out; every other line is a look-alike that must come out unchanged
(``leakyrepo-benign``). Placeholder passwords that are the word itself (``password "password"``) are left out
of both: no rule should take the word "password" for one.

Run (local, not shipped: the values are the repo's)::

    git -C LEAKY archive HEAD | tar x -C /tmp/leaky
    python benchmarks/secrets_corpus/build_leakyrepo.py /tmp/leaky OUT
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned leakyrepo --tuned leakyrepo-benign \\
        --extra OUT/leakyrepo.json --extra-benign OUT/leakyrepo-benign.json --misses
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

RISK: dict[str, list[str]] = {
    ".bash_profile": [
        "nAH2VzKrMrRjySLlt8HCdFU3tM2TUuUZgh39NX",
        "dummy-pass",
        "sampleHerokuKey",
        "51e61afee2c2667123fc9ed160a0a20b330c8f74",
        "xoxp-858723095049-581481478633-908968721956-f16b85d1f73ef37c02323bf3fd537ea5",
        "password123",
    ],
    ".bashrc": ["Pass!12345", "38c47f19e349153fa963bb3b3212fe8e-us11", "c77e01c1e89682e4d4b94a059a7fd2b37ab326ed"],
    ".docker/.dockercfg": [
        "X3Rva2VuOjEyMzQuMThqZjg0MWZrbDQwYU90dTNrLXdCbDVuaThDM2Q0QVh0QjM2V2VqZzM4MDA2WlR5TDhUOWg5VXgrWWwzdTNVQ1hDWFZlWg"
    ],
    ".docker/config.json": [
        "X3Rva2VuOjEyMzQuMThqZjg0MWZrbDQwYU90dTNrLXdCbDVuaThDM2Q0QVh0QjM2V2VqZzM4MDA2WlR5TDhUOWg5VXgrWWwzdTNVQ1hDWFZlWg"
    ],
    ".ftpconfig": ["hunter22", "swordfish"],
    ".git-credentials": ["password!#@498"],
    ".idea/WebServers.xml": ["dff9dfdfdfdadfcfdfd8dff9dfcfdfcfdfc9dfd8dfcfdfdedffadfcbdfd9dfd9dfdddfc5dfd8dfcedf8b"],
    ".netrc": ["pass123"],
    ".npmrc": ["YWRtaW46YWRtaW4=", "26dfe8d8-889b-4380-92ff-9c3c6ea5d930"],
    ".remote-sync.json": ["hunter22"],
    ".vscode/sftp.json": ["swordfish!23"],
    "cloud/.credentials": ["nAH2VzKrMrRjySLlt8HCdFU3tM2TUuUZgh39NX"],
    "cloud/.s3cfg": ["yLryKGwcGc3ez9G8YAnjeYMQOc"],
    "cloud/.tugboat": ["3b6311afca5bd8aac647b316704e9c6d"],
    "cloud/heroku.json": ["7a2f9a4289e530bef6dbf31f4cbf63d5"],
    "config": ["irc_pass"],
    "db/.pgpass": [],
    "db/dump.sql": [
        "$2y$12$s.YfVZdfvAuO/Iz6fte5iO..ZbbEgreZnDcYOGvX4NGJskYQIstcG",
        "$2y$12$Sq//4hEpn1z91c3I/iU67.rqaHNtD3ucwG0Ncx7vOsHST4Jsr2Q0C",
        "$2y$12$3iskP41QVYgh2GFesX2Rpe0DstoL9GpIsvYxM4VI24jcILuCha3O2",
        "$2y$12$hnktY9dEP/LexZjZ5b9B7ubzgxjO2393dWDaregvwPPaiRicOYkpu",
        "$2y$12$M593ZP8u9pOnJiBIUbyW1.r8KfCy8uv9UCgDlX2oj3OtHmibEsQie",
        "$2y$12$GEu9AWgT/Jf9Kgj/WEUanOkoa5OBC6W4cPkGeuVyROcS9T1U6orX.",
        "$2y$12$hjrJNp/UijB4YKg5rMhDeOoqUT5Oe2T7pTfxCEgyfgYtrHC5ph36W",
        "$2y$12$lipAFqG0QyyYKa.S16oTNOdFgkr3svEUx7JOl1HYU4m03oYFq89Uq",
        "$2y$12$/jJGIYh9wizWMFIcu79TEucXzYtvRdn3YxUpGUKnoZT1B6Gv2taSm",
        "$2y$12$kZ55ticjwXD9d/A5o3y8..fA7/1qycT2befZ4QrCjJCfrxk415gUy",
    ],
    "db/mongoid.yml": ["testpass"],
    "db/robomongo.json": ["mongopass", "SSHPass123", "roboMongoSSHPass"],
    "deployment-config.json": ["hunter22"],
    "etc/shadow": [
        "$6$LnUhhUi45srUKt9i$4Hp6VRTOB2mxvsYH8mwsCfBryg6hCbm4JJjV26KplN8ewZ7EUVqQDkLKDW.O8XRHx.B76JkwXtyD3wnAXEuZN1"
    ],
    "filezilla/filezilla.xml": ["ExamplePas123"],
    "filezilla/recentservers.xml": ["NjllNWU5ZWMwZDU0MmU5Y2QwOTY4MWM5YzZhMDdkYWVmNjg3OWE3MDMzM2Q4MWJmCg=="],
    "hub": ["7f9cc25de23d1a255720b0ae4551f4044d600f46"],
    "proftpdpasswd": [
        "$6$LnUhhUi45srUKt9i$4Hp6VRTOB2mxvsYH8mwsCfBryg6hCbm4JJjV26KplN8ewZ7EUVqQDkLKDW.O8XRHx.B76JkwXtyD3wnAXEuZN1"
    ],
    "sftp-config.json": ["hunter22"],
    "ventrilo_srv.ini": ["AdminPassword123", "UserPassword123"],
    "web/django/settings.py": ["zh!=!gq(w^_t[sBR29954x)HI+$ehwss*xYNQeu([xcWMhdzzr"],
    "web/js/salesforce.js": ["salesforcepassword"],
    "web/ruby/secrets.yml": [
        "e0ec946fcefea5ce0d4d924f3c8db11dffeb7d10b320a69133c47a9641ab7d204d22c94f10c1ce1e187c643805fec5b2d2ba322c17bac533c110e6c6378ba84c",
        "96dc2e349b1236b9e5915f1526b5e28e19a6557a88026007632c6c11da7cb5952ae55c520eb0d6fa78b972cbe8e855887f539edea5f969636792e54469e3c96e",
        "8969518770d7484053e72f09c7bd37995d79c320e618ce3ec7a44b7c43fafff1615622a01513789bff7ac7a5201c6382bb6851632c8aa63e76bf0f0a01ed0e17",
    ],
    "web/var/www/.env": ["4StV8PVvCLC6gkJXgGdkYdlWW0suqjb2sj0QvDHx3Hsn", "admin123", "RedisPass1!", "Mailpass1234!"],
    "web/var/www/public_html/.htpasswd": ["$apr1$tp8glkbm$fjg65tI1eipoBh62aEjIy0"],
    "web/var/www/public_html/config.php": ["pass123"],
    "web/var/www/public_html/wp-config.php": [
        "MW1pxMctoyA(>M%0Vl 2(#o0|2$cB+K|.G$hB~4`Juw@]:(5;oVUl<<W3^e_R-fg",
        "Y>Y9.5Ch0-3cq|=vbus[IeF(OJ9yZ|SQ#:iG;NSa+GJmj _1Ed(cVZ7r#+JMlA,S",
        "Q$:B]zZjN-AdT<>h7V1.vm+k^|}2wVZf]Xw#QEZ[-pSohv+Kj0W-Z|:|g$-+E8:8",
        "}Fi>>0a{> akEdJ1K3c}([(:x;K[)ZQ3F3cttcpd EFORd.%R|*|rdRs#-L-&)P1",
        "j@cGIZJfObpPU);AZgYH5,ubbSlUp|ZnLZNlq|;tkFe5xc(=_0[LKbF71T.EE ~9",
        "Ed&1cr+{3T$a+{[8LP~i5-[|Z`x-V>;Di_C/E~UnSg{n[h#{D[-t>yIUZ8YqSu3t",
        "of@~yp:v@SK;Y}hzUo4=bz9WmX&vEw5TO dD$<2djGcE+Qz,Sb9i:{+U<#eM-RmE",
        ":9URM*n56|I|Rf$|ud0cFJ<KAA<1h_w]A!/?])<q+!qK>+Lq&j9^-!{%%pW. ,Z=",
        "'DB_PASSWORD', 'admin'",  # the piece that vanishes when the password does ('admin' is also DB_USER)
    ],
}
"""File -> the secret values its lines hold, labelled by hand from the file and its "Risk" comments."""

CREDENTIAL_HALVES = (
    "yLryKGwcGc3ez9G8YAnjeYMQOc",
    "nAH2VzKrMrRjySLlt8HCdFU3tM2TUuUZgh39NX",
    "383c8164d4bdd95d8b1bfbf4f540d754",
    "606b868828",
    'password "password"',
    'password="password"',
    ":password",
    "HES1:",
    "HES2:",
)
"""Lines holding these are in neither part: key ids the repo calls informative, the word "password" as a value,
and ``high-entropy-misc.txt``'s two random strings (informative to the repo, a random value to us)."""

SKIP_FILES = (".ssh/id_rsa", ".ssh/id_rsa.pub", "misc-keys/cert-key.pem", "misc-keys/putty-example.ppk")
COMMENT = ("#", "//", "<!--", "/*", "*", "--")


def build(root: Path) -> tuple[list[dict], list[dict]]:
    """(secret samples, look-alike samples) of the checkout at ``root``."""
    secret: list[dict] = []
    benign: list[dict] = []
    for line in (root / ".leaky-meta" / "secrets.csv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name = line.split(",")[0]
        if name in SKIP_FILES or name.startswith(".mozilla"):
            continue
        try:
            text = (root / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        values = [v for v in RISK.get(name, []) if v]
        for number, raw in enumerate(text.splitlines(), 1):
            stripped = raw.strip()
            if not stripped or stripped.startswith(COMMENT):
                continue
            source = f"https://github.com/Plazmaz/leaky-repo/blob/2e95135/{name}#L{number}"
            held = [v for v in values if v in raw]
            if held:
                secret.append({"family": name, "rule": name, "text": raw, "secrets": held, "source": source})
            elif not any(h in raw for h in CREDENTIAL_HALVES):
                benign.append({"family": name, "text": raw, "source": source})
    return secret, benign


def main() -> None:
    root, out = Path(sys.argv[1]), Path(sys.argv[2])
    secret, benign = build(root)
    out.mkdir(parents=True, exist_ok=True)
    note = "Plazmaz/leaky-repo (MIT) snapshot 2e95135, labelled by hand (build_leakyrepo.py, round 13); local only"
    (out / "leakyrepo.json").write_text(json.dumps({"source": note, "samples": secret}, indent=1), encoding="utf-8")
    (out / "leakyrepo-benign.json").write_text(
        json.dumps({"source": note, "samples": benign}, indent=1), encoding="utf-8"
    )
    print(f"{len(secret)} secret lines, {len(benign)} look-alike lines", file=sys.stderr)


if __name__ == "__main__":
    main()
