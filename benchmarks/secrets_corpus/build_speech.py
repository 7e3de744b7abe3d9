"""Build ``speech.json``: passwords said in prose and typed on command lines, split into a tuned and a held-out half.

Each template is a way people write a password down in notes or shell history
(the classes issue 32 names: ``user / pw``, "the pw is", "encrypted with",
``user:pw``, ``-p<pw>``, ``--password``, ``sshpass -p``, seed phrases ...).
Templates are numbered; even ones form the ``speech-tune`` part (the rules were
written looking at it), odd ones the ``speech-held`` part (never looked at while
writing rules). Passwords are random in three human shapes (random strong,
word+digits+symbol, dashed words) with a fixed seed.

Run::

    python benchmarks/secrets_corpus/build_speech.py > benchmarks/secrets_corpus/speech.json
"""

from __future__ import annotations

import json
import random

RNG = random.Random(3205)
WORDS = [
    "orbit",
    "maple",
    "cactus",
    "velvet",
    "harbor",
    "lantern",
    "quartz",
    "meadow",
    "copper",
    "falcon",
    "pepper",
    "thunder",
    "glacier",
    "willow",
    "ember",
    "saddle",
    "violet",
    "rocket",
    "canyon",
    "marble",
    "spruce",
    "ginger",
    "pilot",
    "raven",
]
SEED_WORDS = [
    "abandon",
    "ability",
    "able",
    "about",
    "above",
    "absent",
    "absorb",
    "abstract",
    "absurd",
    "abuse",
    "access",
    "accident",
    "account",
    "accuse",
    "achieve",
    "acid",
    "acoustic",
    "acquire",
    "across",
    "act",
    "action",
    "actor",
    "actress",
    "actual",
    "adapt",
    "add",
    "addict",
    "address",
    "adjust",
    "admit",
    "adult",
    "advance",
    "advice",
    "aerobic",
    "affair",
    "afford",
    "afraid",
    "again",
    "age",
    "agent",
    "agree",
    "ahead",
    "aim",
    "air",
    "airport",
    "aisle",
    "alarm",
    "album",
]
"""The first words of the BIP-39 English list (a public standard)."""

TEMPLATES = [
    "NAS login: admin / {pw}",
    "router creds are admin / {pw} (change after the move)",
    "the NAS root pw is {pw}",
    "wifi password for the office guest network is {pw}",
    "backups are encrypted with {pw}",
    "the zip from legal is protected with {pw}",
    "grafana admin:{pw} on the staging box",
    "staging db user/pass: app:{pw}",
    "mysql -u root -p{pw} prod_db < dump.sql",
    "mysqldump --user=backup --password={pw} --all-databases",
    "sshpass -p '{pw}' ssh deploy@10.0.0.5",
    "sshpass -p {pw} scp build.tgz ops@bastion:/tmp",
    "psql 'postgresql://app@db:5432/app' with PGPASSWORD={pw}",
    "redis-cli -h cache.internal -a {pw} ping",
    "docker login -u ci -p {pw} registry.example.com",
    "htpasswd -b -c /etc/nginx/.htpasswd ops {pw}",
    "openssl pkcs12 -export -in cert.pem -out cert.p12 -passout pass:{pw}",
    "7z a -p{pw} secrets.7z notes/",
    "unzip -P {pw} invoices-2025.zip",
    "ldapsearch -x -D cn=admin,dc=corp -w {pw} -b dc=corp",
    "keytool -genkey -alias app -keystore app.jks -storepass {pw}",
    "wget --user=ftpuser --password={pw} ftp://files.example.com/dump.gz",
    "smbclient //fs01/share -U svc_backup%{pw}",
    "net use Z: \\\\fs01\\share /user:CORP\\svc {pw}",
    "mongosh mongodb://db01:27017 -u admin -p {pw} --authenticationDatabase admin",
    "the vault unseal passphrase: {pw}",
    "jenkins: user ops, pw {pw}",
    "her laptop pw = {pw}",
    "login for the printer panel is 'admin' with {pw}",
    "keepass master password {pw} (Tom has it too)",
    "sudo password on the build box: {pw}",
    "rclone config pass {pw} for the b2 remote",
    "mariadb -uroot --password {pw} -e 'show databases'",
    "ansible-vault decrypt --vault-password-file <(echo {pw}) vars.yml",
    "export MYSQL_PWD={pw}",
    "the pfSense admin pass is now {pw} after the reset",
]
SEED_TEMPLATES = [
    "wallet seed phrase: {seed}",
    "recovery phrase for the ledger: {seed}",
    'mnemonic = "{seed}"',
    "the 12 seed words are {seed}",
]


def password() -> str:
    shape = RNG.randrange(3)
    if shape == 0:
        alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!@#%^*_+"
        return "".join(RNG.choice(alphabet) for _ in range(RNG.randint(10, 18)))
    if shape == 1:
        return f"{RNG.choice(WORDS).capitalize()}{RNG.randint(10, 9999)}{RNG.choice('!@#$%&*?')}"
    return "-".join(RNG.choice(WORDS) for _ in range(RNG.randint(3, 4))) + str(RNG.randint(1, 99))


def main() -> None:
    parts: dict[str, list[dict]] = {"speech-tune": [], "speech-held": []}
    for i, template in enumerate(TEMPLATES):
        part = "speech-tune" if i % 2 == 0 else "speech-held"
        for _ in range(3):
            pw = password()
            parts[part].append({"family": f"speech-{i:02d}", "text": template.format(pw=pw), "secrets": [pw]})
    for i, template in enumerate(SEED_TEMPLATES):
        part = "speech-tune" if i % 2 == 0 else "speech-held"
        for _ in range(3):
            seed = " ".join(RNG.choice(SEED_WORDS) for _ in range(RNG.choice([12, 24])))
            words = seed.split()
            # The phrase leaks if any run of four of its words survives.
            pieces = [" ".join(words[j : j + 4]) for j in range(0, len(words) - 3, 4)]
            parts[part].append({"family": f"seed-{i}", "text": template.format(seed=seed), "secrets": pieces})
    doc = {
        "source": "Made by build_speech.py: passwords in prose and on command lines (templates written for issue 32, "
        "random values, seed 3205). Even templates are the tuned part, odd ones held out.",
        **parts,
    }
    print(json.dumps(doc, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
