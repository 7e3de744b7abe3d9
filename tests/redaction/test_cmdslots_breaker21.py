"""Passwords in a command's or a config syntax's password slot (breaker21 B21-1, B21-2, B21-3, B21-7; :mod:`.cmdslots`).

The look-alikes come first: the same commands and syntaxes holding no secret (a
variable, a placeholder, a bind parameter, a port, a default SNMP community, a
public region) must come out unchanged. Then each slot with a password in it,
the breaker's own repros and the others of its class.
"""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import redact

PW = "Xk9#mQ2" + "$vL7p"
PW2 = "Vx9qLm2" + "Tz8Rp"

LOOK_ALIKES = [
    "Users are identified by their email address.",
    "CREATE USER app IDENTIFIED BY :new_password;",
    "CREATE USER 'app'@'%' IDENTIFIED BY '<password>';",
    "CREATE USER app IDENTIFIED EXTERNALLY;",
    "CREATE USER 'app'@'localhost' IDENTIFIED WITH auth_socket;",
    "ALTER USER app IDENTIFIED BY '${DB_PASS}';",
    'cursor.execute("CREATE USER %s IDENTIFIED BY %s", (user, pw))',
    "ALTER USER app IDENTIFIED BY ?;",
    "aws ssm put-parameter --name /app/port --value 8080 --type String",
    "aws ssm get-parameter --name /prod/db/pw --with-decryption",
    'aws ssm put-parameter --name /prod/db/pw --value "$DB_PW" --type SecureString',
    "aws ssm put-parameter --name /prod/db/pw --value file://pw.txt --type SecureString",
    'variable "db_password" { type = string, sensitive = true }',
    'variable "region" { default = "eu-west-1" }',
    'variable "instance_type" {\n  default = "t3.micro"\n}',
    "const port = process.env.PORT || 3000;",
    'const host = process.env.DB_HOST || "localhost";',
    "const pw = process.env.DB_PASSWORD || config.password;",
    'const password = process.env.APP_DEV_PASSWORD || "not-set"',
    'variable "db_password" { default = "change-me" }',
    "DB_PASSWORD=${DB_PASSWORD:-your_password_here}",
    "ALTER USER 'root'@'localhost' IDENTIFIED BY 'new_password';",
    "GRANT ALL ON db.* TO 'u'@'%' IDENTIFIED BY 'your_password';",
    "TOKEN_TTL=${TOKEN_TTL:-3600}",
    'const ttl = process.env.TOKEN_TTL || "3600";',
    'variable "token_ttl" { default = "3600" }',
    "AUTH_TOKEN_HEADER=${AUTH_TOKEN_HEADER:-X-Auth-Token}",
    'const header = process.env.TOKEN_HEADER || "Authorization";',
    "image: postgres:${POSTGRES_VERSION:-16}",
    "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}",
    "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}",
    "spring.datasource.url=${DB_URL:jdbc:postgresql://localhost/app}",
    "mosquitto_pub -h mqtt -t sensors/temp -m 21.5 -q 1",
    "mosquitto_pub -h mqtt -p 8883 -t x -m y",
    "snmpwalk -v2c -c public 10.0.0.1",
    'snmpwalk -v3 -l authPriv -u bob -a SHA -A "$AUTH_PASS" -x AES -X "$PRIV_PASS" host',
    "echo $PASSWORD | kinit bob@CORP.EXAMPLE",
    "kinit -kt /etc/krb5.keytab bob@CORP.EXAMPLE",
    'echo "hello world" | sudo tee /etc/motd',
    "printf '%s\\n' \"$PW\" | sudo -S true",
    "echo 'deb http://deb.example stable main' | sudo tee /etc/apt/sources.list.d/x.list",
    "ansible-vault view --vault-password-file ~/.vault_pass vars.yml",
    "az keyvault secret show --vault-name kv --name dbpw",
    'az keyvault secret set --vault-name kv --name dbpw --value "$DB_PW"',
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_stay_verbatim(text: str) -> None:
    assert redact(text) == (text, [])


SLOTS = [
    (f"CREATE USER 'app'@'%' IDENTIFIED BY '{PW}';", PW),
    (f"GRANT ALL PRIVILEGES ON app.* TO 'app'@'localhost' IDENTIFIED BY '{PW2}';", PW2),
    (f"CREATE USER app IDENTIFIED BY {PW2};", PW2),
    (f"the mysql user app was created IDENTIFIED BY '{PW2}'", PW2),
    (f"ALTER USER app IDENTIFIED BY '{PW}';", PW),
    (f"create user scott identified by {PW2};", PW2),
    (f"aws ssm put-parameter --name /prod/db/pw --value '{PW}' --type SecureString", PW),
    (f"aws ssm put-parameter --type SecureString --name /app/key --value={PW2}", PW2),
    (f"aws ssm put-parameter --name /prod/db/password --value {PW2} --overwrite", PW2),
    (f"az keyvault secret set --vault-name kv --name dbpw --value '{PW}'", PW),
    (f"security add-generic-password -a bob -s svc -w '{PW}'", PW),
    (f'variable "db_password" {{ default = "{PW}" }}', PW),
    (f'variable "db_password" {{\n  default = "{PW2}"\n}}', PW2),
    (f'terraform: variable "db_password" {{ default = "{PW}" }}', PW),
    (f'variable "api" {{\n  type      = string\n  sensitive = true\n  default   = "{PW}"\n}}', PW),
    (f'const pw = process.env.DB_PASSWORD || "{PW}";', PW),
    (f"const pw = process.env.DB_PASSWORD ?? '{PW}';", PW),
    (f"url: jdbc:postgresql://db/app?user=app&password=${{DB_PASSWORD:{PW}}}", PW),
    (f"spring.datasource.password=${{DB_PASSWORD:{PW}}}", PW),
    (f"SECRET_KEY=${{APP_SECRET_KEY:-{PW2}}}", PW2),
    (f'DB_PASSWORD="${{DB_PASSWORD:-{PW}}}"', PW),
    (f"  POSTGRES_PASSWORD: ${{POSTGRES_PASSWORD:-{PW}}}", PW),
    (f"mosquitto_pub -h mqtt -u bob -P {PW} -t x -m y", PW),
    (f"mosquitto_sub -h mqtt -u bob --pw {PW} -t x", PW),
    (f"snmpwalk -v3 -u bob -a SHA -A {PW} -x AES -X {PW2} host", PW),
    (f"snmpwalk -v3 -u bob -a SHA -A {PW2} -x AES -X {PW} host", PW),
    (f"snmpwalk -v2c -c {PW2} 10.0.0.1", PW2),
    (f"echo {PW} | kinit bob@CORP.EXAMPLE", PW),
    (f"printf '%s\\n' '{PW}' | sudo -S systemctl restart app", PW),
    (f"echo {PW2} | passwd --stdin bob", PW2),
    (f"echo 'bob:{PW}' | chpasswd", PW),
    (f"echo '{PW}' | gpg --batch --passphrase-fd 0 -d a.gpg", PW),
    (f"cryptsetup open /dev/sdb1 data <<< '{PW}'", PW),
    (f"ansible-vault view --vault-password-file <(echo {PW2}) vars.yml", PW2),
    (f"lftp -u bob,{PW} sftp://host", PW),
]


@pytest.mark.parametrize(("text", "secret"), SLOTS)
def test_a_password_in_its_slot_is_redacted(text: str, secret: str) -> None:
    out, types = redact(text)
    assert secret not in out and types, out


def test_only_the_value_goes() -> None:
    out, _ = redact(f"CREATE USER 'app'@'%' IDENTIFIED BY '{PW}';")
    assert out == "CREATE USER 'app'@'%' IDENTIFIED BY '[REDACTED:password]';"
    out, _ = redact(f"mosquitto_pub -h mqtt -u bob -P {PW} -t x -m y")
    assert out == "mosquitto_pub -h mqtt -u bob -P [REDACTED:password] -t x -m y"
