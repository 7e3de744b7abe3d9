"""Build ``speech2.json``: a second speech set in other phrasings, written before any rule was tuned on it.

``build_speech.py``'s templates were written beside the rules. This set was
written afterwards from how people and agents really leave credentials in notes
and shell history (other wordings, other tools, five other languages), in four
parts written separately:

- ``speech2-tune``: secrets the rules may be tuned on;
- ``speech2-held``: secrets in other phrasings, never looked at while writing rules;
- ``speech2-benign-tune`` and ``speech2-benign-held``: the same styles with no
  secret in them; each text must come out unchanged.

Decisions the benign parts encode (docs/architecture.md §3):

- a PIN or passcode of 4 to 8 digits right after "PIN", "passcode" or
  "unlock code" and a link ("is", ":", "=") is a secret: it opens a phone, a
  card or a door; "PIN length", "pin numpy to 1.26" are not;
- placeholders stay: ``<password>``, ``$PASSWORD``, ``${DB_PASS}``, ``%PASS%``,
  ``****``, ``xxxx``, and vendor defaults that every manual prints
  (``changeme``, ``admin:admin``, ``password``): they are public, and recall
  needs them ("the default is changeme");
- pointers to a secret stay ("stored in 1Password under 'Prod DB'", "pw is in
  the .env file", ``--password-file``, ``-passin env:VAR``, ``--password-stdin``).

Values are random (fixed seed) in five human shapes: random strong,
Word+digits+symbol, dashed words, lowercase word+digits, and 32-character tokens
for ``--token``/unseal keys; PINs are 4 to 8 digits. Run::

    python benchmarks/secrets_corpus/build_speech2.py > benchmarks/secrets_corpus/speech2.json
"""

from __future__ import annotations

import base64
import json
import random
import string

RNG = random.Random(3232)
WORDS = [
    "tango",
    "bramble",
    "nectar",
    "pumice",
    "sorrel",
    "quill",
    "basalt",
    "juniper",
    "osprey",
    "fennel",
    "lichen",
    "mosaic",
    "tundra",
    "walnut",
    "zephyr",
    "cobalt",
    "saffron",
    "plover",
    "hazel",
    "kestrel",
]
SEED_WORDS = [
    "zoo",
    "zone",
    "youth",
    "young",
    "yellow",
    "year",
    "wrong",
    "write",
    "wrist",
    "wreck",
    "worth",
    "world",
    "work",
    "word",
    "wool",
    "wood",
    "wonder",
    "woman",
    "wolf",
    "witness",
    "wish",
    "wise",
    "wire",
    "winter",
    "wink",
    "wing",
    "wine",
    "window",
    "win",
    "wild",
    "wife",
    "width",
    "wide",
    "whip",
]
"""The last words of the BIP-39 English list (a public standard); build_speech.py uses the first ones."""

SECRET_TUNE = [
    "login for the switch: admin, pass {pw}",
    "passphrase for the gpg key is {pw}",
    "door PIN: {pin}",
    "unseal key 1: {tok}",
    "PGPASSWORD='{pw}' pg_dump -h db app > app.sql",
    "curl --user admin:{pw} http://localhost:15672/api/overview",
    "./deploy.sh --api-token {tok} --env prod",
    "export SMTP_PASS={pw}",
    "git remote set-url origin https://bot:{pw}@gitlab.example.com/g/r.git",
    "redis-cli -h r1 -p 6380 -a {pw}",
    "mongodump -u backup -p '{pw}' --out /srv/dump",
    "htpasswd -nb alice {pw}",
    "net use \\\\fs02\\it {pw} /user:CORP\\carol",
    "docker login -u bot --password={pw} quay.io",
    "openssl pkcs12 -in id.p12 -passin pass:{pw} -nodes",
    "password for my bank account is {pw}",
    "Das Passwort ist {pw}",
    "mot de passe : {pw}",
    "contraseña: {pw}",
    "パスワード：{pw}",
    "密码：{pw}",
    "jira creds -> alice / {pw}",
    "wifi key is {pw}",
    "reset the iDRAC password to {pw}",
    "ssh pi@raspberrypi.local, password {pw}",
    "MYSQL_ROOT_PASSWORD={pw} docker compose up -d",
    "user=etl pass={pw}",
    "restic -r b2:bucket backup ~ (repo pass: {pw})",
    "sqlcmd -U sa -P '{pw}' -Q 'select 1'",
    "my recovery words: {seed}",
    "use {pw} to log in to the kiosk",
    "Bob's phone passcode = {pin}",
]
SECRET_HELD = [
    "login for the router: admin, password {pw}",
    "use passphrase {pw} to unlock the backup disk",
    "phone PIN is {pin}",
    "the vault unseal key is {tok}",
    "PGPASSWORD={pw} psql -h db.internal -U app app",
    "curl -u deploy:{pw} https://ci.example.com/api/json",
    "./sync.sh --token={tok}",
    "export STAGING_DB_PASSWORD={pw}",
    "git clone https://alice:{pw}@git.example.com/team/repo.git",
    "redis-cli -a '{pw}' --no-auth-warning info",
    "mongo admin -u root -p {pw}",
    "htpasswd -bB .htpasswd alice {pw}",
    "net use \\\\nas\\media {pw} /user:home\\bob",
    "docker login --username ci --password {pw} ghcr.io",
    "openssl rsa -in key.pem -passin pass:{pw} -out key.nopass.pem",
    "my password for the HR portal is {pw}",
    "Passwort für das WLAN: {pw}",
    "le mot de passe du serveur est {pw}",
    "la contraseña del router es {pw}",
    "サーバーのパスワードは{pw}です",
    "数据库密码是{pw}",
    "creds for jira -> bob.smith / {pw}",
    "wifi key: {pw}",
    "set the BIOS supervisor password to {pw}",
    "changed my gmail password to {pw} yesterday",
    "ssh deploy@10.1.2.3 (password: {pw})",
    "mysql --host=db -uadmin --password='{pw}' shop",
    "archive passcode: {pw}",
    "DB_PASS={pw} npm run migrate",
    "admin pass for grafana = {pw}",
    "username: svc_etl  password: {pw}",
    "restic repo password {pw}",
    "web01 ansible_user=root ansible_password={pw}",
    "sqlcmd -S tcp:db01 -U sa -P {pw} -Q 'select 1'",
    "BIP39 mnemonic for the test wallet: {seed}",
    "unlock code for the safe is {pin}",
    "bank card PIN: {pin}",
    "the wifi is 'HomeNet' and the pass is {pw}",
    "remember: pwd {pw} for the jump host",
    "lftp -u backup,{pw} sftp://files.example.com",
    "the master key for KeePass is {pw}",
    "I set the root password to {pw}",
]
TOOLS_TUNE = [
    "psexec \\\\srv01 -u CORP\\admin -p {pw} cmd",
    "cmdkey /add:srv01 /user:CORP\\svc /pass:{pw}",
    "net user backup {pw} /add",
    "sc config MySvc obj= CORP\\svc password= {pw}",
    "$sec = ConvertTo-SecureString '{pw}' -AsPlainText -Force",
    "echo '{pw}' | sudo -S apt update",
    "echo 'deploy:{pw}' | chpasswd",
    "nmcli dev wifi connect HomeNet password {pw}",
    "wpa_passphrase HomeNet {pw} > /etc/wpa.conf",
    "kubectl create secret generic db --from-literal=password={pw}",
    "helm install app ./chart --set db.password={pw}",
    "terraform apply -var 'db_password={pw}'",
    "docker run -e POSTGRES_PASSWORD={pw} postgres:16",
    "java -Djavax.net.ssl.keyStorePassword={pw} -jar app.jar",
    "gpg --batch --passphrase {pw} -d secrets.gpg",
    "sqlplus system/{pw}@ORCL",
    "az login -u bob@corp.com -p {pw}",
    "x11vnc -passwd {pw} -forever",
    "qpdf --password={pw} --decrypt in.pdf out.pdf",
    "vault operator unseal {tok}",
    "ssh-keygen -p -N {pw} -f id_rsa",
    "schtasks /create /tn backup /ru CORP\\svc /rp {pw} /tr backup.cmd",
]
"""Tools that take a password on the command line (from their manuals), added to the tune half after the first
held-out measurement; drawn with their own seed so the other parts keep their values."""
TOOLS_BENIGN_TUNE = [
    "psexec \\\\srv01 -s cmd",
    "net user backup /delete",
    "echo $SUDO_PASS | sudo -S apt update",
    "nmcli dev wifi connect HomeNet --ask",
    "kubectl create secret generic db --from-file=password=./pw.txt",
    "helm install app ./chart --set db.password=$DB_PASSWORD",
    "terraform apply -var-file=prod.tfvars",
    "docker run -e POSTGRES_PASSWORD_FILE=/run/secrets/pg postgres:16",
    "gpg --batch --passphrase-file ~/.gpgpass -d secrets.gpg",
    "sqlplus / as sysdba",
    "az login --use-device-code",
    "vault operator unseal  # paste one key share when asked",
    "ssh-keygen -t ed25519 -N '' -C ci@example.com",
]
BENIGN_TUNE = [
    "the password policy is 14 characters minimum",
    "forgot password? go to https://id.example.com/forgot",
    "DB password lives in Bitwarden, item 'staging postgres'",
    "take the password from vault kv get secret/app",
    "the pass is in ~/.pgpass",
    "mysql -u app -p app_db  # asks for the password",
    "PGPASSWORD=$DB_PASS pg_dump app > app.sql",
    'curl -u "$API_USER:$API_KEY" https://api.example.com/v1',
    "export SMTP_PASSWORD=<smtp password>",
    "echo $CR_PAT | docker login ghcr.io -u bot --password-stdin",
    'redis-cli -a "$REDIS_PASS" info',
    "openssl pkcs12 -in id.p12 -passin env:P12_PASS -nodes",
    "git clone git@github.com:org/repo.git",
    "the default login is admin / admin, changed at install",
    "PIN must be 6 digits",
    "pin pydantic to 2.7.1 until the fix lands",
    "the door PIN changes every month; ask reception",
    "three unseal key shares out of five are needed",
    "Passwort zurücksetzen über die Anmeldeseite",
    "le mot de passe expire tous les 90 jours",
    "la contraseña se cambia cada 90 días",
    "パスワードを忘れた場合は管理者に連絡",
    "忘记密码请联系管理员",
    "sshpass -f ~/.sshpass ssh build01",
    "mongo -u admin -p --authenticationDatabase admin",
    "password: see KeePass entry 'NAS'",
    "login with Google SSO, no password",
    "encrypted with LUKS2 and a TPM-bound key",
    "the passphrase should be at least five words",
    "set PASSWORD_MIN_LENGTH=12 in settings",
    'docker login -u ci -p "$CI_REGISTRY_PASSWORD" $CI_REGISTRY',
    "user / pass fields sit at the top of the form",
    "my password for the VPN expired; IT will reset it",
    "--password-file /run/secrets/db_password",
    "the wifi password is on the fridge",
]
BENIGN_HELD = [
    "the password policy needs 12 characters and a symbol",
    "reset your password at https://accounts.example.com/reset",
    "password is stored in 1Password under 'Prod DB'",
    "use the password from the vault (secret/data/prod/db)",
    "pw is in the .env file",
    "mysql -u root -p prod_db  # prompts for the password",
    "PGPASSWORD=$PGPASS psql -h db app",
    "curl -u $USER:$TOKEN https://api.example.com",
    "export DB_PASSWORD=<password>",
    "docker login -u ci --password-stdin < token.txt",
    'redis-cli -a "$REDIS_PASSWORD" ping',
    "openssl rsa -in key.pem -passin env:KEY_PASS",
    "openssl rsa -in key.pem -passin file:/run/secrets/key_pass",
    "git clone https://github.com/org/repo.git",
    "git clone https://${GIT_USER}:${GIT_TOKEN}@git.example.com/r.git",
    "the default password is changeme, change it on first login",
    "PIN length is 6 digits",
    "pin numpy to 1.26.4",
    "pinned the base image to 3.12-slim",
    "PIN reset takes 24 hours",
    "the unseal key shares are held by 3 of 5 admins",
    "password: see Bitwarden entry 'NAS'",
    "Passwort vergessen? Link auf der Anmeldeseite",
    "le mot de passe doit contenir 12 caractères",
    "la contraseña debe tener al menos 8 caracteres",
    "パスワードは8文字以上にしてください",
    "密码是必填项",
    "ssh-keygen -t ed25519 -N '' -f id_ed25519",
    "htpasswd -c .htpasswd alice  # asks for the password",
    "net use Z: \\\\fs01\\share /user:CORP\\svc *",
    "--token=$(cat ~/.token)",
    "login with SSO, no password needed",
    "admin / user roles are set in config.yaml",
    "encrypted with AES-256-GCM",
    "the passphrase is at least 4 words long",
    "password reset email goes to it@example.com",
    "export PASSWORD_HASHERS=argon2",
    "password: ******** (masked)",
    "curl -u admin https://host.example.com  # prompts for the password",
    "mysql -p\"${MYSQL_ROOT_PASSWORD}\" -e 'select 1'",
    "sshpass -e ssh host  # password from SSHPASS",
    "admin:admin is the Grafana default, changed on install",
    "my password for Netflix expired, reset it tomorrow",
    "use the passphrase from KeePass to unlock",
    "pw reset link expires in 15 minutes",
]


def password() -> str:
    shape = RNG.randrange(4)
    if shape == 0:
        alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!@#%^*_+"
        return "".join(RNG.choice(alphabet) for _ in range(RNG.randint(9, 16)))
    if shape == 1:
        return f"{RNG.choice(WORDS).capitalize()}{RNG.randint(1, 999)}{RNG.choice('!#$%&*?.')}"
    if shape == 2:
        return "-".join(RNG.choice(WORDS) for _ in range(RNG.randint(3, 4)))
    return f"{RNG.choice(WORDS)}{RNG.randint(1, 2026)}"


def token() -> str:
    if RNG.randrange(2):
        return base64.b64encode(RNG.randbytes(32)).decode()
    return "".join(RNG.choice(string.ascii_letters + string.digits) for _ in range(32))


def pin() -> str:
    return "".join(RNG.choice(string.digits) for _ in range(RNG.choice([4, 4, 6, 8])))


def secrets(templates: list[str], tag: str) -> list[dict]:
    out = []
    for i, template in enumerate(templates):
        for _ in range(2):
            if "{seed}" in template:
                words = [RNG.choice(SEED_WORDS) for _ in range(RNG.choice([12, 24]))]
                pieces = [" ".join(words[j : j + 4]) for j in range(0, len(words) - 3, 4)]
                out.append(
                    {"family": f"{tag}-{i:02d}", "text": template.format(seed=" ".join(words)), "secrets": pieces}
                )
                continue
            value = {"pw": password(), "tok": token(), "pin": pin()}
            text = template.format(**value)
            used = [v for k, v in value.items() if "{" + k + "}" in template]
            out.append({"family": f"{tag}-{i:02d}", "text": text, "secrets": used})
    return out


def main() -> None:
    doc = {
        "source": "Made by build_speech2.py (issue 32, round 4): passwords, PINs and tokens in prose, in five other "
        "languages and on command lines, in phrasings other than build_speech.py's; random values, seed 3232. "
        "speech2-held and speech2-benign-held were written before tuning and never tuned on.",
        "speech2-tune": secrets(SECRET_TUNE, "t"),
        "speech2-held": secrets(SECRET_HELD, "h"),
        "speech2-benign-tune": [{"family": "benign-tune", "text": t} for t in BENIGN_TUNE],
        "speech2-benign-held": [{"family": "benign-held", "text": t} for t in BENIGN_HELD],
    }
    global RNG
    RNG = random.Random(3233)
    doc["speech2-tune"] += secrets(TOOLS_TUNE, "tool")
    doc["speech2-benign-tune"] += [{"family": "benign-tune", "text": t} for t in TOOLS_BENIGN_TUNE]
    print(json.dumps(doc, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
