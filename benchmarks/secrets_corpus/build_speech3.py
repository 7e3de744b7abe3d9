"""Build ``speech3.json``: passwords said in eleven languages and their look-alikes, written before round 7's rules.

Issue 32, round 7. A tuning set (every miss and alteration may be read while
writing rules), written from how people leave credentials in notes, chat and
shell history, before any rule of that round was changed:

- ``speech3-tune``: passwords, PINs, passphrases, seed phrases and recovery codes
  in English, German, French, Spanish, Portuguese, Italian, Dutch, Polish,
  Japanese, Chinese and Korean ("pw is X", "the password for the NAS is X",
  "login admin / X", "use X to unlock", "X is the wifi key"), on command lines
  (``mysql -pX``, ``sshpass -p X``, ``--password=X``, ``PGPASSWORD=X psql``,
  ``curl -u u:X``, ``redis-cli -a X``, ``htpasswd -b f u X``, ``docker -e
  POSTGRES_PASSWORD=X``) and in URLs (``user:X@host``);
- ``speech3-benign-tune``: the same words with no secret in them, each of which
  must come out unchanged: sentences about a password (its policy, where it is
  kept, how it is reset) in the eleven languages, code that reads a password
  from somewhere (``PASSWORD := os.Getenv("PW")``, ``password: ${DB_PASSWORD}``),
  commands that prompt for one, pinned versions (``pin numpy==1.26.4``), issue
  keys (``Jira keys: INFRA-1203``) and tables whose header is not about accounts.

Values are random (fixed seed) in human shapes: random strong, Word+digits+symbol,
lowercase word+digits, dashed words, words with spaces; PINs of 4 to 8 digits;
seed phrases from the BIP-39 English list (a public standard); recovery codes in
GitHub's (``xxxxx-xxxxx``, hex) and Google's (``dddd dddd``) shapes. Run::

    python benchmarks/secrets_corpus/build_speech3.py > benchmarks/secrets_corpus/speech3.json

``speech3b-tune`` and ``speech3b-benign-tune``: a second batch of 58 and 40 in other phrasings,
written after the first batch's rules and committed before its own (tuned on too).
"""

from __future__ import annotations

import json
import random
import string

RNG = random.Random(3307)
_WORDS_TEXT = (
    "amber bison cactus dingo ember falcon garnet harbor iris jasper kiwi lotus marble nimbus orchid pepper quartz "
    "raven sable thistle umber velvet willow yarrow zinnia copper meadow granite lagoon sparrow"
)
WORDS = _WORDS_TEXT.split()
_BIP39_TEXT = (
    "abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve "
    "acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult "
    "advance advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album"
)
BIP39 = _BIP39_TEXT.split()
"""The first words of the BIP-39 English list (github.com/bitcoin/bips, bip-0039/english.txt: public)."""
SYMBOLS = "!@#%*-_+=?"


def strong() -> str:
    """A random strong password: 10 to 14 characters of every class."""
    n = RNG.randint(10, 14)
    chars = [RNG.choice(string.ascii_lowercase), RNG.choice(string.ascii_uppercase), RNG.choice(string.digits)]
    chars.append(RNG.choice(SYMBOLS))
    chars += [RNG.choice(string.ascii_letters + string.digits + SYMBOLS) for _ in range(n - 4)]
    RNG.shuffle(chars)
    while chars[0] in SYMBOLS:  # no value starts with a symbol, as a flag's next word would
        RNG.shuffle(chars)
    return "".join(chars)


def word() -> str:
    """Word+digits+symbol: ``Falcon2024!``."""
    return RNG.choice(WORDS).capitalize() + str(RNG.randint(10, 9999)) + RNG.choice("!#?*@")


def low() -> str:
    """A lowercase word and digits: ``garnet4471``."""
    return RNG.choice(WORDS) + str(RNG.randint(10, 9999))


def dash() -> str:
    """Three or four dashed words: ``ember-quartz-willow``."""
    return "-".join(RNG.sample(WORDS, RNG.choice((3, 4))))


def phrase() -> str:
    """Four words with spaces and a number: ``amber bison cactus 42``."""
    return " ".join(RNG.sample(WORDS, 3)) + f" {RNG.randint(10, 99)}"


def pin() -> str:
    """A PIN of 4 to 8 digits."""
    return "".join(RNG.choice(string.digits) for _ in range(RNG.choice((4, 4, 6, 6, 8))))


def seed(n: int = 12) -> str:
    """A seed phrase of ``n`` BIP-39 words."""
    return " ".join(RNG.choice(BIP39) for _ in range(n))


def gh_codes(n: int = 4) -> list[str]:
    """GitHub-shaped recovery codes: five hex, a dash, five hex."""
    h = "0123456789abcdef"
    return ["".join(RNG.choice(h) for _ in range(5)) + "-" + "".join(RNG.choice(h) for _ in range(5)) for _ in range(n)]


def g_codes(n: int = 3) -> list[str]:
    """Google-shaped backup codes: ``dddd dddd``."""
    return [f"{RNG.randint(1000, 9999)} {RNG.randint(1000, 9999)}" for _ in range(n)]


KINDS = {"s": strong, "w": word, "l": low, "d": dash, "p": phrase, "n": pin}

# Each template: (language, text); {s} strong, {w} Word+digits, {l} lowercase+digits, {d} dashed, {p} words with
# spaces, {n} a PIN, {seed}/{seed24} a seed phrase, {gh}/{g} recovery codes (joined as written).
SECRETS: list[tuple[str, str]] = [
    # English, said
    ("en", "pw is {s}"),
    ("en", "the password for the NAS is {w}"),
    ("en", "login admin / {s}"),
    ("en", "use {w} to unlock the laptop"),
    ("en", "{w} is the wifi key"),
    ("en", "{s} is the password for the guest account"),
    ("en", "router admin pass: {l}"),
    ("en", "the NAS root pw is {w}"),
    ("en", "Wifi password at the cabin: {l}"),
    ("en", "creds for grafana: admin / {s}"),
    ("en", "my bank PIN is {n}"),
    ("en", "garage door code: {n}"),
    ("en", "passcode for the ipad is {n}"),
    ("en", "the vault passphrase is {p}"),
    ("en", "new password for jira: {w} (changed today)"),
    ("en", "ssh pi@raspberrypi - password {s}"),
    ("en", "Mum's email password is {w}"),
    ("en", "1Password master password: {d}"),
    ("en", "ftp login: ftpuser / {s}"),
    ("en", "user: admin pass: {w}"),
    ("en", "Username bob, password {s}"),
    ("en", "the alarm code is {n}"),
    ("en", "PIN for the SIM: {n}"),
    ("en", "unlock code for the tablet is {n}"),
    ("en", "wifi: HomeNet / {l}"),
    ("en", "Guest wifi key is {w}"),
    ("en", "WPA2 key: {s}"),
    ("en", "reset Jen's password to {w}"),
    ("en", "temp password: {s}"),
    ("en", "initial password is {w}, change on first login"),
    ("en", "the pw for the shared gmail is {l}"),
    ("en", "pass: {s}"),
    ("en", "Login: maria.k@corp.example / {s}"),
    ("en", "passphrase for id_ed25519: {d}"),
    ("en", "ssh key passphrase is {w}"),
    ("en", "the printer's admin password is {l}"),
    ("en", "laptop login password = {w}"),
    ("en", "remember, the pw for the router is {d}"),
    ("en", "Password: {p}"),
    ("en", "the code for the office door is {n}"),
    ("en", "encrypted the backup disk with {s}"),
    ("en", "root / {w} on the old box"),
    ("en", "jenkins:{s}"),
    ("en", "kiosk login is kiosk / {l}"),
    ("en", "the wifi password is {p}"),
    ("en", "the new pw: {s}"),
    ("en", "admin password for the NAS -> {w}"),
    # English, seed phrases and codes
    ("en", "seed phrase: {seed}"),
    ("en", "the 12 word seed for the ledger: {seed}"),
    ("en", "my recovery phrase is {seed24}"),
    ("en", "mnemonic: {seed}"),
    ("en", "recovery codes: {gh}"),
    ("en", "GitHub recovery codes: {gh}"),
    ("en", "Google backup codes: {g}"),
    ("en", "2FA recovery codes for AWS root: {gh}"),
    # command lines
    ("cmd", "mysql -u root -p{s} shop"),
    ("cmd", "sshpass -p '{s}' ssh pi@10.0.0.7"),
    ("cmd", "sshpass -p {w} scp backup.tar nas:/srv"),
    ("cmd", "./deploy.sh --password={s}"),
    ("cmd", "PGPASSWORD={s} psql -h db -U app"),
    ("cmd", "curl -u admin:{s} https://nexus.local/service/rest/v1/status"),
    ("cmd", "redis-cli -h cache -a {s} ping"),
    ("cmd", "htpasswd -b .htpasswd alice {w}"),
    ("cmd", "docker run -e POSTGRES_PASSWORD={s} -d postgres:16"),
    ("cmd", "docker run -d -e MYSQL_ROOT_PASSWORD={w} mysql:8"),
    ("cmd", "git clone https://deploy:{s}@git.example.com/app.git"),
    ("cmd", "mongosh -u admin -p {s} --authenticationDatabase admin"),
    ("cmd", "docker login -u bot -p {s} registry.example.com"),
    ("cmd", "mysqldump -uroot -p'{s}' app > dump.sql"),
    ("cmd", "echo '{s}' | sudo -S apt upgrade"),
    ("cmd", "export DB_PASSWORD={s}"),
    ("cmd", "postgres://app:{s}@db.internal:5432/app"),
    ("cmd", "zip -P {w} backup.zip notes.txt"),
    ("cmd", "openssl enc -aes-256-cbc -k {s} -in a.tar -out a.enc"),
    ("cmd", "psql 'postgresql://report:{s}@10.1.2.3/report'"),
    ("cmd", "smbclient //nas/share -U admin%{s}"),
    ("cmd", "ldapsearch -x -D cn=admin,dc=example,dc=com -w {s} -b dc=example,dc=com"),
    ("cmd", "keytool -importkeystore -srckeystore a.p12 -storepass {s}"),
    ("cmd", "mysql --user=root --password={s} -e 'show databases'"),
    ("cmd", "wget --user=ci --password={s} https://files.example.com/a.zip"),
    ("cmd", "kubectl create secret generic db --from-literal=password={s}"),
    ("cmd", "helm install pg bitnami/postgresql --set auth.postgresPassword={s}"),
    ("cmd", "vault login -method=userpass username=ops password={s}"),
    ("cmd", "ansible-playbook site.yml -e ansible_become_pass={s}"),
    ("cmd", "mount -t cifs //nas/x /mnt/x -o username=bob,password={s}"),
    ("cmd", "sqlcmd -S db -U sa -P {s}"),
    ("cmd", "az login -u me@corp.example -p {s}"),
    ("cmd", "net use Z: \\\\nas\\share {s} /user:bob"),
    ("cmd", "7z x archive.7z -p{s}"),
    ("cmd", "unrar x -p{w} files.rar"),
    ("cmd", "gpg --batch --passphrase {s} -d secrets.gpg"),
    ("cmd", "RESTIC_PASSWORD={s} restic -r /srv/restic backup ~"),
    ("cmd", "BORG_PASSPHRASE={s} borg create ::today ~"),
    ("cmd", "ssh-keygen -t ed25519 -N '{s}' -f id_deploy"),
    ("cmd", "MYSQL_PWD={s} mysql -u app"),
    ("cmd", "mongodb+srv://admin:{s}@cluster0.abcd.mongodb.net/test"),
    ("cmd", "redis://:{s}@cache:6379/0"),
    ("cmd", "amqp://app:{s}@mq:5672/"),
    ("cmd", "https://admin:{s}@jenkins.local/job/build"),
    ("cmd", "rabbitmqctl change_password guest {s}"),
    ("cmd", "rabbitmqctl add_user app {w}"),
    ("cmd", "ipmitool -I lanplus -H 10.0.0.9 -U ADMIN -P {s} power status"),
    ("cmd", "xfreerdp /v:win01 /u:admin /p:{s}"),
    ("cmd", "docker exec -it db psql postgresql://app:{s}@localhost/app"),
    ("cmd", "curl -u 'deploy:{s}' -X POST https://ci.example.com/job/x/build"),
    ("cmd", "mysql -h db -u app -p{w} app_db"),
    ("cmd", "redis-cli -a '{s}' --no-auth-warning keys '*'"),
    ("cmd", "htpasswd -bc /etc/nginx/.htpasswd admin {s}"),
    ("cmd", "docker run -e POSTGRES_PASSWORD='{s}' postgres"),
    ("cmd", "pg_dump 'host=db user=app password={s} dbname=app'"),
    # German
    ("de", "Das Passwort für die Fritzbox ist {w}"),
    ("de", "WLAN-Passwort: {l}"),
    ("de", "PIN der EC-Karte: {n}"),
    ("de", "Zugangsdaten: admin / {s}"),
    ("de", "Kennwort vom Router lautet {w}"),
    ("de", "mein Passwort fürs Intranet ist jetzt {s}"),
    ("de", "Benutzer: verwaltung, Passwort: {w}"),
    ("de", "Wiederherstellungscodes: {gh}"),
    ("de", "Passwort ist {s}, bitte nicht weitergeben"),
    ("de", "das WLAN-Kennwort ist {p}"),
    # French
    ("fr", "Le mot de passe du wifi est {w}"),
    ("fr", "mdp : {s}"),
    ("fr", "identifiants : admin / {s}"),
    ("fr", "code PIN de la carte : {n}"),
    ("fr", "mon mot de passe pour la box c'est {w}"),
    ("fr", "Mot de passe Freebox : « {s} »"),
    ("fr", "codes de récupération : {gh}"),
    ("fr", "le mdp du serveur est {l}"),
    ("fr", "phrase de récupération : {seed}"),
    # Spanish
    ("es", "La contraseña del wifi es {w}"),
    ("es", "usuario: admin, contraseña: {s}"),
    ("es", "el PIN de la tarjeta es {n}"),
    ("es", "clave del router: {l}"),
    ("es", "mi contraseña de gmail es {s}"),
    ("es", "códigos de recuperación: {gh}"),
    ("es", "la clave de la alarma es {n}"),
    ("es", "frase semilla: {seed}"),
    # Portuguese
    ("pt", "A senha do wifi é {w}"),
    ("pt", "senha do banco: {s}"),
    ("pt", "login: admin / senha {s}"),
    ("pt", "o PIN do cartão é {n}"),
    ("pt", "palavra-passe do email: {w}"),
    ("pt", "códigos de backup: {g}"),
    ("pt", "a senha do servidor é {d}"),
    # Italian
    ("it", "La password del wifi è {w}"),
    ("it", "la password di root è {s}"),
    ("it", "il PIN del bancomat è {n}"),
    ("it", "credenziali: admin / {s}"),
    ("it", "password dell'email: {l}"),
    ("it", "codici di recupero: {gh}"),
    ("it", "la chiave del wifi è {w}"),
    ("it", "la parola d'ordine è {s}"),
    # Dutch
    ("nl", "Het wachtwoord van de wifi is {w}"),
    ("nl", "wachtwoord: {s}"),
    ("nl", "pincode van de bankpas is {n}"),
    ("nl", "inloggegevens: admin / {s}"),
    ("nl", "mijn wachtwoord voor de NAS is {l}"),
    ("nl", "herstelcodes: {gh}"),
    ("nl", "wifi-wachtwoord = {w}"),
    # Polish
    ("pl", "Hasło do wifi to {w}"),
    ("pl", "hasło: {s}"),
    ("pl", "PIN do karty: {n}"),
    ("pl", "login: admin, hasło {s}"),
    ("pl", "moje hasło do poczty to {l}"),
    ("pl", "kody odzyskiwania: {gh}"),
    ("pl", "hasło do routera: {d}"),
    # Japanese
    ("ja", "Wi-Fiのパスワードは{w}です"),
    ("ja", "パスワード：{s}"),
    ("ja", "暗証番号は{n}"),
    ("ja", "ルーターの管理者パスワード: {l}"),
    ("ja", "ログイン: admin / {s}"),
    ("ja", "リカバリーコード: {gh}"),
    ("ja", "パスコードは{n}です"),
    ("ja", "NASのパスワードは「{s}」"),
    # Chinese
    ("zh", "wifi密码是{w}"),
    ("zh", "数据库密码：{s}"),
    ("zh", "银行卡密码是{n}"),
    ("zh", "账号 admin 密码 {s}"),
    ("zh", "恢复码：{gh}"),
    ("zh", "我的邮箱密码是{l}"),
    ("zh", "助记词：{seed}"),
    ("zh", "路由器的管理密码为{s}"),
    # Korean
    ("ko", "와이파이 비밀번호는 {w}입니다"),
    ("ko", "비번: {s}"),
    ("ko", "공유기 관리자 비밀번호 {l}"),
    ("ko", "PIN 번호는 {n}"),
    ("ko", "복구 코드: {gh}"),
    ("ko", "내 이메일 비밀번호는 {s}야"),
    ("ko", "서버 암호: {s}"),
]

BENIGN: list[tuple[str, str]] = [
    # named in the brief
    ("code", 'PASSWORD := os.Getenv("PW")'),
    ("code", "password: ${DB_PASSWORD}"),
    ("en", "the password is rotated monthly"),
    ("en", "reset the password via the portal"),
    ("ids", "Jira keys: INFRA-1203"),
    ("ids", "pin numpy==1.26.4"),
    # English about passwords
    ("en", "the wifi password is on the fridge"),
    ("en", "password is in 1Password under 'NAS'"),
    ("en", "ask Tom for the root password"),
    ("en", "pw is stored in the .env file"),
    ("en", "the seed phrase is written on paper in the safe"),
    ("en", "store recovery codes offline"),
    ("en", "backup codes: 10 left"),
    ("en", "PIN length must be 6 digits"),
    ("en", "the PIN was changed last week"),
    ("en", "password expires every 90 days"),
    ("en", "min password length: 14"),
    ("en", "passwords must contain a digit and a symbol"),
    ("en", "password hash: bcrypt, cost 12"),
    ("en", "use SSO to log in"),
    ("en", "use Touch ID to unlock the laptop"),
    ("en", "use keepassxc-cli to unlock the database"),
    ("en", "login with Google"),
    ("en", "log in with your SSO account"),
    ("en", "credentials are in Vault at secret/data/app"),
    ("en", "the default login is admin / admin"),
    ("en", "passlib 1.7.4 for password hashing"),
    ("en", "pass the token via header"),
    ("en", "pass: 142/142 tests"),
    ("en", "first pass: lint-only"),
    ("en", "the guest wifi password changes every Monday"),
    ("en", "password reset emails come from no-reply@example.com"),
    ("en", "the recovery phrase never leaves the hardware wallet"),
    ("en", "we wrote the 24 words on a steel plate"),
    ("en", "the BIP39 wordlist has 2048 words"),
    ("en", "recovery codes regenerated on 2024-05-01"),
    ("en", "2FA is enforced for every admin account"),
    ("en", "the password manager is Bitwarden since 2023"),
    ("en", "wifi key is printed on the back of the router"),
    ("en", "the NAS password is the same as the router's"),
    ("en", "password for user admin2 expired"),
    ("en", "SIM PIN disabled"),
    ("en", "door code changes on the 1st of each month"),
    ("en", "the alarm code is known to Sam and Priya"),
    ("en", "the PIN pad on door B3 is broken"),
    ("en", "locked out after 5 wrong passwords"),
    ("en", "use the staging account to test the login flow"),
    ("en", "passphrase-protected keys only, per policy SEC-12"),
    ("en", "ssh password auth is disabled on bastion-02"),
    ("en", "password: see the team vault"),
    ("en", "pw: ask in #ops"),
    ("en", "login admin / <password>"),
    ("en", "root / ******** (masked)"),
    ("en", "creds for grafana: admin / $GRAFANA_ADMIN_PASSWORD"),
    ("en", "the router's admin page is at 192.168.1.1"),
    # identifiers and versions
    ("ids", "pin: numpy==1.26.4, pandas==2.2.2"),
    ("ids", "pinned versions: requests==2.32.3"),
    ("ids", "Jira keys: OPS-12, INFRA-1203"),
    ("ids", "ticket keys: PLAT-4471 and PLAT-4472"),
    ("ids", "pin the action to actions/checkout@v4"),
    ("ids", "pin python to 3.12.3"),
    ("ids", "GPIO pin 17 drives the LED"),
    ("ids", "pins: GPIO17, GPIO27"),
    ("ids", "keys: ARROW-LEFT, ARROW-RIGHT"),
    ("ids", "Primary key: order_id"),
    ("ids", "sort key: created_at"),
    ("ids", "partition keys: tenant-42, tenant-43"),
    ("ids", "Jira key: SEC-2210"),
    ("ids", "license: Apache-2.0"),
    ("ids", "pin torch==2.3.1+cu121"),
    ("ids", "pin: node 20.11.1"),
    ("ids", "project keys: WEB, API, INFRA"),
    ("ids", "Linear keys: ENG-981, ENG-982"),
    # commands that prompt or read a password from elsewhere
    ("cmd", "mysql -u root -p shop"),
    ("cmd", "mysql -h db -P 3306 -u app -p app_db"),
    ("cmd", "sshpass -f ~/.pw ssh host"),
    ("cmd", "sshpass -e ssh pi@10.0.0.7"),
    ("cmd", "PGPASSWORD=$(cat ~/.pgpass) psql -h db"),
    ("cmd", 'curl -u "$API_USER:$API_TOKEN" https://api.example.com'),
    ("cmd", "curl -u admin https://nexus.local/"),
    ("cmd", 'redis-cli -a "$REDIS_PASSWORD" ping'),
    ("cmd", "htpasswd -B -c .htpasswd alice"),
    ("cmd", "docker run -e POSTGRES_PASSWORD_FILE=/run/secrets/pg postgres:16"),
    ("cmd", "docker run -e POSTGRES_PASSWORD=$PG_PW postgres:16"),
    ("cmd", "docker run -e POSTGRES_PASSWORD postgres:16"),
    ("cmd", "docker run -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16"),
    ("cmd", "git clone https://github.com/org/app.git"),
    ("cmd", "git clone https://deploy@git.example.com/app.git"),
    ("cmd", "echo $CR_PAT | docker login ghcr.io -u bot --password-stdin"),
    ("cmd", "export PGPASSWORD"),
    ("cmd", "export DB_PASSWORD=$(vault kv get -field=pw secret/db)"),
    ("cmd", "kubectl create secret generic db --from-file=password=./pw.txt"),
    ("cmd", "helm install app ./chart --set auth.existingSecret=pg-secret"),
    ("cmd", "ansible-vault encrypt --vault-password-file ~/.vault_pass vars.yml"),
    ("cmd", "mysql --defaults-extra-file=~/.my.cnf shop"),
    ("cmd", "pg_dump --password -U app app > app.sql"),
    ("cmd", "psql -W -U app -h db"),
    ("cmd", "redis-cli --askpass"),
    ("cmd", "gpg --passphrase-file ~/.gpgpass -d secrets.gpg"),
    ("cmd", "openssl rsa -in key.pem -passin env:KEY_PASS -out key.nopass.pem"),
    ("cmd", "ssh-keygen -t ed25519 -N '' -f id_ci"),
    ("cmd", "zip -e backup.zip notes.txt"),
    ("cmd", "7z a -p archive.7z docs/"),
    ("cmd", "vault kv get -field=password secret/db"),
    ("cmd", "passwd alice"),
    ("cmd", "sudo passwd -l guest"),
    # code
    ("code", 'pw := os.Getenv("DB_PASSWORD")'),
    ("code", 'password = config.get("db", "password")'),
    ("code", "const password = process.env.DB_PASSWORD;"),
    ("code", 'password: "${DB_PASSWORD:-}"'),
    ("code", "DB_PASSWORD=${DB_PASSWORD:?missing}"),
    ("code", "if password == confirm_password:"),
    ("code", "self.password = password"),
    ("code", "password=settings.DB_PASSWORD,"),
    ("code", 'PASSWORD = env("DB_PASSWORD", default=None)'),
    ("code", "let pw = read_password()?;"),
    ("code", 'password := flag.String("password", "", "db password")'),
    ("code", '$password = $_POST["password"];'),
    ("code", "user.set_password(new_password)"),
    ("code", "PASSWORD_MIN_LENGTH = 12"),
    ("code", "password = getpass.getpass()"),
    ("code", "password = os.environ['DB_PASSWORD']"),
    ("code", 'password: "{{ vault_db_password }}"'),
    ("code", 'SECRET := os.Getenv("APP_SECRET")'),
    ("code", 'DB_PASS := mustEnv("DB_PASS")'),
    ("code", "password = kwargs.pop('password', None)"),
    # other languages, about a password
    ("de", "Das Passwort muss mindestens 12 Zeichen lang sein."),
    ("de", "Das WLAN-Passwort hängt am Kühlschrank."),
    ("de", "Passwort vergessen? Bitte beim Helpdesk melden."),
    ("de", "Das Passwort für den Server wird vom Admin verwaltet."),
    ("de", "Das Kennwort läuft alle 90 Tage ab."),
    ("de", "Passwort: siehe Tresor"),
    ("de", "Die PIN wurde gestern geändert."),
    ("fr", "Le mot de passe doit contenir au moins 12 caractères."),
    ("fr", "Le mot de passe est stocké dans Bitwarden."),
    ("fr", "Le mot de passe du wifi est affiché sur la box."),
    ("fr", "mdp : voir avec Julie"),
    ("fr", "mot de passe oublié ? cliquez sur le lien"),
    ("fr", "Le mot de passe expire tous les trois mois."),
    ("es", "La contraseña debe tener al menos 12 caracteres."),
    ("es", "La contraseña del wifi está en la nevera."),
    ("es", "La contraseña se cambia cada mes."),
    ("pt", "A senha expira a cada 90 dias."),
    ("pt", "A senha do wifi está atrás do roteador."),
    ("pt", "senha: pedir ao João"),
    ("it", "La password deve essere cambiata ogni tre mesi."),
    ("it", "La password del wifi è scritta sul router."),
    ("it", "la password è nel gestore di password"),
    ("nl", "Het wachtwoord moet minstens 12 tekens bevatten."),
    ("nl", "Het wachtwoord van de wifi staat op de router."),
    ("nl", "wachtwoord vergeten? vraag het aan IT"),
    ("pl", "Hasło musi mieć co najmniej 12 znaków."),
    ("pl", "Hasło do wifi jest na routerze."),
    ("pl", "hasło zmieniane co miesiąc"),
    ("ja", "パスワードは90日ごとに変更してください"),
    ("ja", "パスワードは管理者に聞いてください"),
    ("ja", "暗証番号は4桁です"),
    ("zh", "密码每90天更换一次"),
    ("zh", "密码请找管理员要"),
    ("zh", "密码长度至少12位"),
    ("ko", "비밀번호는 90일마다 변경해야 합니다"),
    ("ko", "비밀번호는 팀장에게 문의"),
    ("ko", "비번은 냉장고에 붙어 있음"),
    # tables whose header is not about accounts
    ("table", "| Host | Role | Region |\n|---|---|---|\n| web01 | admin | eu-west-1a |"),
    ("table", "| Service | Owner | Ticket |\n|---|---|---|\n| billing | admin | OPS-4411 |"),
    ("table", "| Component | Account | Version |\n|---|---|---|\n| gateway | root | v2.4.1-rc1 |"),
    ("table", "| Env | User | Branch |\n|---|---|---|\n| staging | deploy | feature-2041x |"),
    ("table", "| Box | Login | Image |\n| --- | --- | --- |\n| db1 | postgres | pg16-replica |"),
    ("table", "| Name | Role | Team |\n|------|------|------|\n| Ana | admin | core-42 |"),
    ("table", "| Password policy | Value |\n|---|---|\n| Minimum length | 14 |\n| Rotation | 90 days |"),
    ("table", "| Key | Meaning |\n|---|---|\n| INFRA-1203 | disk alert |"),
]


# A second batch (``speech3b``), written after the first batch's rules and committed before its own: other
# phrasings ("it's now <pw>", "<pw> on the mysql box"), codes and PINs said without "PIN", the same look-alikes.
SECRETS_B = [
    "fyi the pw changed, it's now {s}",
    "pw for the vpn = {w}",
    "Tom's laptop: user tom, pwd {s}",
    "office wifi → {w}",
    "wifi pw {l}",
    "the router is admin/{s}",
    "grafana admin:{s} (change me!)",
    "DB creds - user: app_rw pass: {s}",
    "Password - {w}",
    "pass = {s}",
    "password={s}",
    "logged into the NAS with {s}",
    "the passphrase we agreed on: {p}",
    "key for the safe: {n}",
    "locker combination is {n}",
    "my iPhone code is {n}",
    "SIM PUK: {n}",
    "card pin {n}",
    "mfa backup code {gh}",
    "otp recovery: {gh}",
    "Bitwarden emergency kit recovery code: {gh}",
    "seed: {seed}",
    "wallet words: {seed}",
    "12 words: {seed}",
    "ssh root@10.0.0.5 pw {s}",
    "sudo password is {w}",
    "enable secret on the switch: {s}",
    "the zip is protected with {w}",
    "archive password: {d}",
    "pdf password is {l}",
    "psql -h db -U app -W  # pw {s}",
    "mysql://root:{s}@localhost/shop",
    "--db-password {s}",
    "-p{s} on the mysql box",
    "smbclient -U 'bob%{s}' //nas/x",
    "ftp://backup:{s}@files.local/",
    "the password ist {s}",
    "Kennwort fürs VPN: {w}",
    "mot de passe VPN : {s}",
    "contraseña VPN: {s}",
    "senha da VPN: {s}",
    "password VPN: {s}",
    "wachtwoord VPN: {s}",
    "hasło VPN: {s}",
    "VPNのパスワード：{s}",
    "VPN密码：{s}",
    "VPN 비밀번호: {s}",
    "La mia password è {w}",
    "De code van het alarm is {n}",
    "Kod do alarmu: {n}",
    "Le code de la porte est {n}",
    "Der Türcode ist {n}",
    "El código de la puerta es {n}",
    "O código do portão é {n}",
    "creds: bob / {s}",
    "username=bob password={s}",
    "user bob pw {s}",
    "login bob pass {s}",
]
BENIGN_B = [
    "fyi the pw changed, ask Tom",
    "pw for the vpn is in 1Password",
    "office wifi → ask reception",
    "wifi pw on the fridge",
    "the router is admin/admin by default",
    "Password - see vault",
    "pass = None",
    "password=None",
    "logged into the NAS with my SSO account",
    "key for the safe is with Maria",
    "locker combination changes monthly",
    "my iPhone code is 6 digits",
    "seed: 42 for the random generator",
    "seed=1234 for numpy",
    "12 words per line max",
    "ssh root@10.0.0.5 with key auth",
    "enable secret is set on all switches",
    "the zip is protected with AES-256",
    "archive password: see ticket OPS-4411",
    "mysql://root@localhost/shop",
    "--db-password-file /run/secrets/db",
    "Kennwort fürs VPN: siehe KeePass",
    "mot de passe VPN : voir Bitwarden",
    "contraseña VPN: en el gestor",
    "VPNのパスワード：管理者に確認",
    "VPN密码：问管理员",
    "VPN 비밀번호: 관리자에게 문의",
    "La mia password è nel gestore",
    "Der Türcode ist bei der Rezeption",
    "user bob has no password",
    "login bob via sso",
    "username=bob",
    "random seed 20240501",
    "pin 3 on the arduino",
    "PIN entry timeout 30 seconds",
    "code review for the door sensor is done",
    "combination lock model 7700",
    "use 2 spaces to indent",
    "version 12 words",
    "the wifi password changed 2024-05-01",
]


def fill(text: str) -> tuple[str, list[str]]:
    """``text`` with each placeholder filled by a fresh value, and the secret pieces it holds."""
    secrets: list[str] = []
    for key, make in KINDS.items():
        while "{" + key + "}" in text:
            value = make()
            text = text.replace("{" + key + "}", value, 1)
            secrets.append(value)
    for key, n in (("{seed24}", 24), ("{seed}", 12)):
        if key in text:
            value = seed(n)
            text = text.replace(key, value)
            secrets.append(value)
    if "{gh}" in text:
        codes = gh_codes()
        text = text.replace("{gh}", " ".join(codes))
        secrets += codes
    if "{g}" in text:
        codes = g_codes()
        text = text.replace("{g}", ", ".join(codes))
        secrets += codes
    return text, secrets


def main() -> None:
    tune = []
    for lang, template in SECRETS:
        text, secrets = fill(template)
        tune.append({"family": lang, "text": text, "secrets": secrets})
    benign = [{"family": fam, "text": text} for fam, text in BENIGN]
    RNG.seed(99)
    tune_b = []
    for template in SECRETS_B:
        text, secrets = fill(template)
        tune_b.append({"family": "b", "text": text, "secrets": secrets})
    benign_b = [{"family": "b", "text": text} for text in BENIGN_B]
    print(
        json.dumps(
            {
                "source": "benchmarks/secrets_corpus/build_speech3.py (issue 32 round 7; every part tuned on)",
                "speech3-tune": tune,
                "speech3-benign-tune": benign,
                "speech3b-tune": tune_b,
                "speech3b-benign-tune": benign_b,
            },
            ensure_ascii=False,
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
