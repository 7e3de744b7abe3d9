#!/usr/bin/env python3
"""notes5 generator: blind benchmark data for memrepo's secret redaction.

Written without reading any rule, corpus or test. Templates are numbered in
definition order; odd numbers = "held", even = "tune". The split is computed
from the numbering alone, before any random value is drawn. Values come from a
per-(kind, template, instance) seeded random.Random so the file is reproducible.
"""

import base64
import hashlib
import json
import random
import string
import struct
import sys
import zlib

from mnemonic import Mnemonic  # BIP39 english wordlist + checksum (pip install mnemonic)

OUT = sys.argv[1] if len(sys.argv) > 1 else "notes5.json"  # benchmarks/secrets_corpus/notes5.json
R = random.Random(0)
BIP = Mnemonic("english")

# ---------------------------------------------------------------- helpers
DIG = string.digits
LOW = string.ascii_lowercase
UP = string.ascii_uppercase
A62 = DIG + UP + LOW
ALNUM = UP + LOW + DIG
URLS = ALNUM + "-_"
HEX = "0123456789abcdef"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def hx(n):
    return rs(HEX, n)


def rb(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def b64(n, pad=True):
    s = base64.b64encode(rb(n)).decode()
    return s if pad else s.rstrip("=")


def b64u(n):
    return base64.urlsafe_b64encode(rb(n)).decode().rstrip("=")


def b64of(data):
    return base64.b64encode(data if isinstance(data, bytes) else data.encode()).decode()


def b64uof(data):
    return base64.urlsafe_b64encode(data if isinstance(data, bytes) else data.encode()).decode().rstrip("=")


def uuid4():
    b = bytearray(rb(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def base62(n):
    s = ""
    while n:
        n, d = divmod(n, 62)
        s = A62[d] + s
    return s or "0"


def crc_tok(prefix, nrand=30):
    """GitHub / npm style: prefix + 30 random base62 + 6-char base62 CRC32 of the random part."""
    body = rs(A62, nrand)
    return prefix + body + base62(zlib.crc32(body.encode())).rjust(6, "0")


def b58enc(data):
    n = int.from_bytes(data, "big")
    s = ""
    while n:
        n, d = divmod(n, 58)
        s = B58[d] + s
    pad = len(data) - len(data.lstrip(b"\0"))
    return "1" * pad + s


def b58check(payload):
    chk = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58enc(payload + chk)


def wif():
    return b58check(b"\x80" + rb(32) + b"\x01")


def btc_addr():
    return b58check(b"\x00" + rb(20))


def seed_phrase(words=12):
    return BIP.to_mnemonic(rb(16 if words == 12 else 32))


def pin(n=4):
    while True:
        p = rs(DIG, n)
        if len(set(p)) > 2 and p not in ("1234", "123456", "0000"):
            return p


WORDS = [
    "maple",
    "harbor",
    "falcon",
    "cobalt",
    "meadow",
    "pepper",
    "orbit",
    "lantern",
    "willow",
    "granite",
    "saffron",
    "tundra",
    "velvet",
    "ember",
    "quartz",
    "juniper",
    "nebula",
    "otter",
    "cactus",
    "violet",
    "copper",
    "glacier",
    "mango",
    "rocket",
    "thistle",
    "walnut",
    "zephyr",
]
SYM = "!@%^*-_+=."


def pw():
    """A human or generated password, shell-quote-safe (no quotes, $, backslash, backtick, space)."""
    st = R.randrange(5)
    if st == 0:
        return R.choice(WORDS).capitalize() + R.choice("!@%*") + R.choice(WORDS) + rs(DIG, 2)
    if st == 1:
        return rs(ALNUM + SYM, R.randint(14, 22))
    if st == 2:
        return "-".join(R.choice(BIP.wordlist) for _ in range(3)) + "-" + rs(DIG, R.randint(1, 3))
    if st == 3:
        w = R.choice(WORDS)
        leet = w.replace("a", "4").replace("e", "3").replace("o", "0")
        return leet.capitalize() + rs(DIG, 4) + R.choice("!%*")
    return rs(ALNUM, R.randint(16, 24))


def upw():
    """URL/connection-string safe password."""
    if R.random() < 0.4:
        return R.choice(WORDS).capitalize() + rs(DIG, 3) + R.choice("-_.") + R.choice(WORDS)
    return rs(ALNUM + "-_.", R.randint(14, 24))


USERS = [
    "deploy",
    "jmartin",
    "svc_etl",
    "app_rw",
    "ci-bot",
    "mlopez",
    "kchen",
    "ops",
    "backup",
    "analytics",
    "priya",
    "root",
    "grafana",
    "webapp",
    "reporter",
    "tom.w",
]
ORGS = ["acme", "northwind", "globex", "initech", "umbrella-labs", "brightpath", "kestrel", "lumen"]
ENVS = ["staging", "prod", "dev", "qa", "eu", "us-east"]
SVCS = ["db", "pg", "mysql", "redis", "mq", "api", "auth", "billing", "search", "metrics"]
TLDS = ["io", "com", "net", "dev", "cloud"]


def user():
    return R.choice(USERS)


def org():
    return R.choice(ORGS)


def host(svc=None):
    return f"{svc or R.choice(SVCS)}-{R.choice(ENVS)}.{R.choice(ORGS).replace('-', '')}.internal"


def pubhost(svc=None):
    return f"{svc or R.choice(SVCS)}.{R.choice(ORGS).replace('-', '')}.{R.choice(TLDS)}"


def ip():
    return f"10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(2, 254)}"


def repo():
    return R.choice(["api", "web", "infra", "ml-pipeline", "mobile", "docs", "etl", "platform"])


def kind():
    return R.choice(["fact", "fact", "fact", "reminder", "config", "note"])


def date():
    return f"2025-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"


def jwt(payload, alg="HS256"):
    h = b64uof(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")))
    p = b64uof(json.dumps(payload, separators=(",", ":")))
    sig = b64u(32 if alg.startswith("HS") else 256)
    return f"{h}.{p}.{sig}"


def lines(s, w=64):
    return "\n".join(s[i : i + w] for i in range(0, len(s), w))


def rsa_pkcs1_body():
    der = bytes.fromhex("308204a40201000282010100") + rb(1180)
    return lines(base64.b64encode(der).decode())


def rsa_pkcs8_body():
    der = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100") + rb(1170)
    return base64.b64encode(der).decode()


def ec_pkcs8_body():
    der = (
        bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420")
        + rb(32)
        + bytes.fromhex("a144034200")
        + b"\x04"
        + rb(64)
    )
    return lines(base64.b64encode(der).decode())


def sshstr(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def ed25519_pub_blob(pub=None):
    return sshstr("ssh-ed25519") + sshstr(pub or rb(32))


def openssh_ed25519_private(comment):
    pub = rb(32)
    priv = rb(32)
    blob = ed25519_pub_blob(pub)
    chk = rb(4)
    sec = chk + chk + sshstr("ssh-ed25519") + sshstr(pub) + sshstr(priv + pub) + sshstr(comment)
    i = 1
    while len(sec) % 8:
        sec += bytes([i])
        i += 1
    data = (
        b"openssh-key-v1\0"
        + sshstr("none")
        + sshstr("none")
        + sshstr(b"")
        + struct.pack(">I", 1)
        + sshstr(blob)
        + sshstr(sec)
    )
    return lines(base64.b64encode(data).decode(), 70), base64.b64encode(blob).decode()


def ssh_ed25519_pub():
    return "ssh-ed25519 " + base64.b64encode(ed25519_pub_blob()).decode()


def ssh_rsa_pub():
    blob = sshstr("ssh-rsa") + sshstr(b"\x01\x00\x01") + sshstr(b"\x00" + rb(256))
    return "ssh-rsa " + base64.b64encode(blob).decode()


def aws_id():
    return "AKIA" + rs(UP + "234567", 16)


def aws_secret():
    return rs(ALNUM + "/+", 40)


def ghp():
    return crc_tok("ghp_")


def gh_fine():
    return "github_pat_11" + rs(UP + DIG, 20) + "_" + rs(ALNUM, 59)


def npm_tok():
    return crc_tok("npm_")


def openai_key():
    if R.random() < 0.5:
        return "sk-proj-" + rs(URLS, 74) + "T3BlbkFJ" + rs(URLS, 74)
    return "sk-" + rs(ALNUM, 20) + "T3BlbkFJ" + rs(ALNUM, 20)


def anthropic_key():
    return "sk-ant-api03-" + rs(URLS, 93) + "AA"


def stripe_sk(kind_="sk", mode="live"):
    return f"{kind_}_{mode}_51" + rs(ALNUM, 22) + rs(ALNUM, 75)


def slack_bot():
    return f"xoxb-{rs(DIG, 11)}-{rs(DIG, 13)}-{rs(ALNUM, 24)}"


def slack_user():
    return f"xoxp-{rs(DIG, 11)}-{rs(DIG, 11)}-{rs(DIG, 13)}-{hx(32)}"


def slack_hook():
    return f"https://hooks.slack.com/services/T{rs(UP + DIG, 10)}/B{rs(UP + DIG, 10)}/{rs(ALNUM, 24)}"


def snowflake():
    return str(R.randint(10**17, 13 * 10**17))


def discord_bot():
    return b64uof(snowflake()) + "." + rs(URLS, 6) + "." + rs(URLS, 38)


def telegram():
    return f"{R.randint(10**9, 8 * 10**9)}:AA{rs(URLS, 33)}"


def gapi():
    return "AIza" + rs(URLS, 35)


def gclient_id():
    return f"{rs(DIG, 12)}-{rs(LOW + DIG, 32)}.apps.googleusercontent.com"


def azure_client_secret():
    return rs(ALNUM, 3) + "8Q~" + rs(ALNUM + "_~.-", 34)


def pypi_tok():
    return "pypi-AgEIcHlwaS5vcmc" + rs(URLS, 160)


def sendgrid():
    return f"SG.{rs(URLS, 22)}.{rs(URLS, 43)}"


def hf():
    return "hf_" + rs(UP + LOW, 34)


def base32(n=32):
    return rs(B32, n)


def bech(n):
    return rs(BECH, n)


def semver():
    return f"{R.randint(0, 9)}.{R.randint(0, 30)}.{R.randint(0, 20)}"


def sha1():
    return hx(40)


def langpw():
    return pw()


# ---------------------------------------------------------------- templates
SECRET, BENIGN = [], []


def S(f):
    SECRET.append(f)
    return f


def B(f):
    BENIGN.append(f)
    return f


def out(text, secrets, keep=()):
    return text, list(secrets), list(keep)


# ===== secret templates (numbered 1.. in order) =====
@S
def _():  # plain bullet, staging DB password
    p = pw()
    return out(f"- The staging DB password is {p} [kind: {kind()}]", [p])


@S
def _():  # user / pass / host bullet with backticks
    u, p, h = user(), pw(), host("pg")
    return out(f"- Prod Postgres: user `{u}` / pass `{p}` on {h} [kind: fact]", [p], [u, h])


@S
def _():  # chat-like wifi reminder
    ssid = R.choice(["Acme-Office", "NW-Staff", "Globex_5G", "Kestrel-HQ"]) + "-" + rs(DIG, 2)
    p = pw()
    return out(f'Remember: the wifi at the office is "{ssid}", password {p}. Guests use the other one.', [p], [ssid])


@S
def _():  # phone PIN
    p = pin(R.choice([4, 6]))
    return out(f"- My phone PIN is {p} (don't share) [kind: fact]", [p])


@S
def _():  # door code
    p = pin(R.choice([4, 5, 6]))
    room = R.choice(["server room", "lab B2", "the storage cage", "rack room"])
    return out(f"- Door code for {room}: {p}# — changes every quarter [kind: fact]", [p], [room])


@S
def _():  # .env openai with org id
    k = openai_key()
    o = "org-" + rs(ALNUM, 24)
    return out(
        f"# .env (local only)\nOPENAI_API_KEY={k}\nOPENAI_ORG_ID={o}\nOPENAI_MODEL=gpt-4o-mini", [k], [o, "gpt-4o-mini"]
    )


@S
def _():  # .env anthropic
    k = anthropic_key()
    return out(f"ANTHROPIC_API_KEY={k}\nANTHROPIC_MAX_TOKENS=4096", [k], ["ANTHROPIC_MAX_TOKENS=4096"])


@S
def _():  # github classic PAT bullet
    t = ghp()
    return out(
        f"- GitHub token for the CI bot: {t} (scopes: repo, workflow; expires {date()}) [kind: fact]",
        [t],
        ["scopes: repo, workflow"],
    )


@S
def _():  # git remote URL with token
    u, t, o, r_ = user(), ghp(), org(), repo()
    return out(f"git remote set-url origin https://{u}:{t}@github.com/{o}/{r_}.git", [t], [f"github.com/{o}/{r_}.git"])


@S
def _():  # fine-grained PAT export
    t = gh_fine()
    return out(f"export GH_TOKEN={t}\ngh pr list --repo {org()}/{repo()}", [t], ["gh pr list"])


@S
def _():  # aws credentials file
    i, s = aws_id(), aws_secret()
    reg = R.choice(["eu-west-1", "us-east-1", "ap-southeast-2"])
    prof = R.choice(["default", "prod", "billing-ro"])
    return out(
        f"~/.aws/credentials\n[{prof}]\naws_access_key_id = {i}\naws_secret_access_key = {s}\nregion = {reg}",
        [s],
        [reg, f"[{prof}]"],
    )


@S
def _():  # aws configure set
    s = aws_secret()
    prof = R.choice(["ci", "sandbox", "data"])
    return out(f"aws configure set aws_secret_access_key {s} --profile {prof}", [s], [f"--profile {prof}"])


@S
def _():  # Java BasicAWSCredentials
    i, s = aws_id(), aws_secret()
    return out(
        f'AWSCredentials creds = new BasicAWSCredentials("{i}", "{s}");\nAmazonS3 s3 = AmazonS3ClientBuilder.standard().withCredentials(new AWSStaticCredentialsProvider(creds)).build();',
        [s],
        ["AmazonS3ClientBuilder"],
    )


@S
def _():  # stripe node
    k = stripe_sk()
    return out(
        f"const stripe = require('stripe')('{k}');\nconst session = await stripe.checkout.sessions.create({{ mode: 'payment' }});",
        [k],
    )


@S
def _():  # stripe webhook secret
    k = "whsec_" + rs(ALNUM, 32)
    return out(
        f"STRIPE_WEBHOOK_SECRET={k}  # from `stripe listen`, endpoint /api/webhooks/stripe",
        [k],
        ["/api/webhooks/stripe"],
    )


@S
def _():  # stripe restricted key yaml
    k = stripe_sk("rk")
    return out(
        f'payments:\n  provider: stripe\n  restricted_key: {k}\n  api_version: "2024-06-20"', [k], ["2024-06-20"]
    )


@S
def _():  # slack bot token python
    t = slack_bot()
    return out(
        f'from slack_sdk import WebClient\nclient = WebClient(token="{t}")\nclient.chat_postMessage(channel="#deploys", text="done")',
        [t],
        ["#deploys"],
    )


@S
def _():  # slack webhook url
    u = slack_hook()
    return out(f"- Alerts go to the #oncall webhook {u} [kind: fact]", [u.split("/services/")[1]], ["#oncall"])


@S
def _():  # discord bot token env
    t = discord_bot()
    return out(f"DISCORD_TOKEN={t}\nDISCORD_GUILD_ID={snowflake()}", [t], ["DISCORD_GUILD_ID="])


@S
def _():  # discord webhook
    wid, wt = snowflake(), rs(URLS, 68)
    return out(
        f"curl -X POST -H 'Content-Type: application/json' -d '{{\"content\":\"build ok\"}}' https://discord.com/api/webhooks/{wid}/{wt}",
        [wt],
        ["https://discord.com/api/webhooks/"],
    )


@S
def _():  # telegram bot curl
    t = telegram()
    chat = "-100" + rs(DIG, 10)
    return out(f'curl "https://api.telegram.org/bot{t}/sendMessage?chat_id={chat}&text=backup%20finished"', [t], [chat])


@S
def _():  # google api key
    k = gapi()
    return out(f"- Maps/Geocoding key (server-side, unrestricted!): {k} [kind: fact]", [k])


@S
def _():  # gcp service account json
    body = rsa_pkcs8_body()
    esc = "\\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    proj = org() + "-" + R.choice(ENVS) + "-" + rs(DIG, 4)
    email = f"{R.choice(['terraform', 'bq-loader', 'ci'])}@{proj}.iam.gserviceaccount.com"
    txt = (
        '{\n  "type": "service_account",\n  "project_id": "'
        + proj
        + '",\n  "private_key_id": "'
        + hx(40)
        + '",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\n'
        + esc
        + '\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "'
        + email
        + '",\n  "client_id": "'
        + rs(DIG, 21)
        + '"\n}'
    )
    return out(txt, [esc], [email, proj])


@S
def _():  # google oauth client secret
    cid = gclient_id()
    sec = "GOCSPX-" + rs(URLS, 28)
    return out(f"GOOGLE_CLIENT_ID={cid}\nGOOGLE_CLIENT_SECRET={sec}", [sec], [cid])


@S
def _():  # azure storage conn string
    acct = org().replace("-", "") + R.choice(["prod", "logs", "media"]) + rs(DIG, 2)
    k = b64(64)
    return out(
        f'"AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={k};EndpointSuffix=core.windows.net"',
        [k],
        [f"AccountName={acct}"],
    )


@S
def _():  # azure SAS URL
    acct = org().replace("-", "") + "files"
    sig = b64(32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    url = f"https://{acct}.blob.core.windows.net/exports/report.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-03-01T00:00:00Z&st=2025-12-01T00:00:00Z&spr=https&sig={sig}"
    return out(
        f"- Share link for the finance export (valid till March): {url}",
        [sig],
        [f"https://{acct}.blob.core.windows.net/exports/report.csv"],
    )


@S
def _():  # az login service principal
    app, ten, sec = uuid4(), uuid4(), azure_client_secret()
    return out(f"az login --service-principal -u {app} -p {sec} --tenant {ten}", [sec], [app, ten])


@S
def _():  # azure openai key C#
    k = hx(32)
    ep = f"https://{org().replace('-', '')}-oai.openai.azure.com/"
    return out(f'var client = new AzureOpenAIClient(new Uri("{ep}"), new AzureKeyCredential("{k}"));', [k], [ep])


@S
def _():  # sendgrid php
    k = sendgrid()
    return out(f"$sendgrid = new \\SendGrid('{k}');\n$response = $sendgrid->send($email);", [k])


@S
def _():  # twilio python
    sid, tok = "AC" + hx(32), hx(32)
    return out(
        f'from twilio.rest import Client\nclient = Client("{sid}", "{tok}")  # account sid, auth token', [tok], [sid]
    )


@S
def _():  # mailgun curl
    k = "key-" + hx(32)
    dom = "mg." + org().replace("-", "") + ".com"
    return out(
        f"curl -s --user 'api:{k}' https://api.mailgun.net/v3/{dom}/messages -F from='ops@{dom}' -F to=me@example.com -F text='test'",
        [k],
        [dom],
    )


@S
def _():  # huggingface login
    t = hf()
    return out(f"huggingface-cli login --token {t} --add-to-git-credential", [t], ["--add-to-git-credential"])


@S
def _():  # npmrc
    t = npm_tok()
    return out(
        f"# ~/.npmrc\n//registry.npmjs.org/:_authToken={t}\n@{org()}:registry=https://registry.npmjs.org/",
        [t],
        ["//registry.npmjs.org/:_authToken="],
    )


@S
def _():  # pypirc
    t = pypi_tok()
    return out(
        f"[distutils]\nindex-servers = pypi\n\n[pypi]\n  username = __token__\n  password = {t}",
        [t],
        ["username = __token__"],
    )


@S
def _():  # gitlab clone with PAT
    t = "glpat-" + rs(URLS, 20)
    path = f"{org()}/{repo()}"
    return out(f"git clone https://oauth2:{t}@gitlab.com/{path}.git", [t], [f"gitlab.com/{path}.git"])


@S
def _():  # gitlab runner token
    t = "glrt-" + rs(URLS, 20)
    url = "https://gitlab." + org().replace("-", "") + ".com"
    return out(
        f"gitlab-runner register --non-interactive --url {url} --token {t} --executor docker --docker-image alpine:3.20",
        [t],
        [url, "alpine:3.20"],
    )


@S
def _():  # docker login -p
    u, p = user(), pw()
    reg = f"registry.{org().replace('-', '')}.io"
    return out(f"docker login -u {u} -p '{p}' {reg}", [p], [reg])


@S
def _():  # docker hub PAT stdin
    t = "dckr_pat_" + rs(URLS, 27)
    u = user().replace(".", "").replace("_", "")
    return out(f"echo {t} | docker login -u {u} --password-stdin", [t], ["--password-stdin"])


@S
def _():  # kubectl create secret from-literal
    p = pw()
    ns = R.choice(["payments", "default", "data"])
    return out(
        f"kubectl -n {ns} create secret generic db-creds --from-literal=username=app --from-literal=password='{p}'",
        [p],
        ["db-creds", f"-n {ns}"],
    )


@S
def _():  # k8s secret data base64
    p = upw()
    enc = b64of(p)
    return out(
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: mysql-auth\ntype: Opaque\ndata:\n  username: {b64of('root')}\n  password: {enc}",
        [enc],
        ["mysql-auth"],
    )


@S
def _():  # k8s stringData
    t = rs(ALNUM, 40)
    return out(
        f'apiVersion: v1\nkind: Secret\nmetadata:\n  name: webhook-token\nstringData:\n  API_TOKEN: "{t}"',
        [t],
        ["webhook-token"],
    )


@S
def _():  # docker-compose env
    p = pw()
    return out(
        f'services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: "{p}"\n    ports:\n      - "5432:5432"',
        [p],
        ["postgres:16", "POSTGRES_USER: app"],
    )


@S
def _():  # helm --set
    p = upw()
    return out(
        f"helm upgrade --install cache bitnami/redis -n infra --set auth.password={p} --set architecture=standalone",
        [p],
        ["bitnami/redis"],
    )


@S
def _():  # mysql cli
    h, p = host("mysql"), pw()
    return out(f"mysql -h {h} -u root -p'{p}' shop_production", [p], [h, "shop_production"])


@S
def _():  # PGPASSWORD psql
    h, p, u = host("pg"), pw(), user()
    return out(f"PGPASSWORD='{p}' psql -h {h} -U {u} -d analytics -c 'select count(*) from events'", [p], [h])


@S
def _():  # DATABASE_URL postgres
    h, p, u = host("pg"), upw(), user().replace(".", "_")
    return out(f"DATABASE_URL=postgresql://{u}:{p}@{h}:5432/app_{R.choice(ENVS).replace('-', '_')}", [p], [h])


@S
def _():  # mongodb+srv
    u, p = user().replace(".", ""), upw()
    cl = f"cluster0.{rs(LOW + DIG, 5)}.mongodb.net"
    return out(f'MONGO_URI="mongodb+srv://{u}:{p}@{cl}/?retryWrites=true&w=majority"', [p], [cl])


@S
def _():  # redis url
    p = rs(ALNUM, 32)
    h = pubhost("cache")
    return out(f"- Upstash/Redis for rate limiting: rediss://default:{p}@{h}:6379 [kind: fact]", [p], [h])


@S
def _():  # amqp
    u, p, h = "svc_" + R.choice(["orders", "mailer", "worker"]), upw(), host("mq")
    return out(f"CELERY_BROKER_URL = 'amqp://{u}:{p}@{h}:5672/prod'", [p], [h, u])


@S
def _():  # spring properties
    h, p = host("mysql"), pw()
    return out(
        f"spring.datasource.url=jdbc:mysql://{h}:3306/shop\nspring.datasource.username=shop\nspring.datasource.password={p}\nspring.jpa.hibernate.ddl-auto=validate",
        [p],
        [h],
    )


@S
def _():  # .NET appsettings conn string
    srv = f"{org().replace('-', '')}-sql.database.windows.net"
    p = upw()
    return out(
        '{\n  "ConnectionStrings": {\n    "Default": "Server=tcp:'
        + srv
        + ",1433;Initial Catalog=crm;User ID=sqladmin;Password="
        + p
        + ';Encrypt=True;"\n  }\n}',
        [p],
        [srv, "User ID=sqladmin"],
    )


@S
def _():  # smtp yaml
    p = pw()
    h = "smtp." + R.choice(["sendgrid.net", "mailgun.org", "office365.com", "gmail.com"])
    return out(
        f"mail:\n  host: {h}\n  port: 587\n  username: alerts@{org()}.com\n  password: '{p}'\n  starttls: true",
        [p],
        [h],
    )


@S
def _():  # sshpass
    p, i_ = pw(), ip()
    return out(
        f"sshpass -p '{p}' ssh -o StrictHostKeyChecking=no deploy@{i_} 'sudo systemctl restart api'",
        [p],
        [f"deploy@{i_}"],
    )


@S
def _():  # curl basic auth
    p = pw()
    h = f"jenkins.{org().replace('-', '')}.internal"
    return out(f"curl -u admin:{p} https://{h}/api/json?pretty=true", [p], [h])


@S
def _():  # curl bearer
    t = rs(ALNUM, 40)
    h = pubhost("api")
    return out(f'curl -H "Authorization: Bearer {t}" https://{h}/v1/reports?limit=10', [t], [h])


@S
def _():  # x-api-key header
    k = hx(32)
    h = pubhost("api")
    return out(f"curl https://{h}/v2/search -H 'x-api-key: {k}' -H 'accept: application/json'", [k], [h])


@S
def _():  # raw HTTP basic
    u, p = user(), upw()
    enc = b64of(f"{u}:{p}")
    return out(
        f"GET /admin/metrics HTTP/1.1\nHost: {pubhost('metrics')}\nAuthorization: Basic {enc}",
        [enc],
        ["GET /admin/metrics HTTP/1.1"],
    )


@S
def _():  # python requests token header
    t = hx(40)
    return out(f'resp = requests.get(url, headers={{"Authorization": "Token {t}"}}, timeout=10)', [t])


@S
def _():  # Go const datadog
    k = hx(32)
    a = hx(40)
    return out(
        f'const (\n\tddAPIKey = "{k}"\n\tddAppKey = "{a}"\n\tddSite   = "datadoghq.eu"\n)', [k, a], ["datadoghq.eu"]
    )


@S
def _():  # Rust vault token
    t = "hvs." + rs(ALNUM, 24)
    addr = f"https://vault.{org().replace('-', '')}.internal:8200"
    return out(
        f'let client = VaultClient::new(VaultClientSettingsBuilder::default()\n    .address("{addr}")\n    .token("{t}")\n    .build()?)?;',
        [t],
        [addr],
    )


@S
def _():  # Ruby octokit
    t = ghp()
    return out(f"client = Octokit::Client.new(access_token: '{t}')\nclient.user.login", [t])


@S
def _():  # wp-config
    p = pw()
    salt = rs(ALNUM + "!@%^*-_+=.[]{}<>?|~", 64)
    return out(
        f"define( 'DB_NAME', 'wordpress' );\ndefine( 'DB_USER', 'wp_user' );\ndefine( 'DB_PASSWORD', '{p}' );\ndefine( 'AUTH_KEY', '{salt}' );",
        [p, salt],
        ["wp_user"],
    )


@S
def _():  # django secret
    k = "django-insecure-" + rs(LOW + DIG + "!@#$%^&*(-_=+)", 50)
    return out(f"SECRET_KEY = '{k}'\nDEBUG = False\nALLOWED_HOSTS = ['{pubhost('app')}']", [k], ["DEBUG = False"])


@S
def _():  # laravel app key
    k = "base64:" + b64(32)
    return out(
        f"APP_NAME=Portal\nAPP_ENV=production\nAPP_KEY={k}\nAPP_DEBUG=false",
        [k.split(":", 1)[1]],
        ["APP_ENV=production"],
    )


@S
def _():  # flask secret
    k = hx(64)
    return out(f"app = Flask(__name__)\napp.secret_key = bytes.fromhex('{k}')", [k])


@S
def _():  # nextauth
    k = b64(32)
    return out(f"NEXTAUTH_URL=https://{pubhost('app')}\nNEXTAUTH_SECRET={k}", [k], ["NEXTAUTH_URL=https://"])


@S
def _():  # JWT_SECRET human-ish
    k = "-".join(R.choice(BIP.wordlist) for _ in range(5)) + "-" + rs(DIG, 4)
    return out(f"- JWT_SECRET for the auth service is {k}; same value in api and worker [kind: fact]", [k])


@S
def _():  # bearer JWT stored
    now = R.randint(1735000000, 1760000000)
    t = jwt({"sub": str(R.randint(1000, 99999)), "role": "admin", "iat": now, "exp": now + 86400 * 7})
    return out(f"- Admin session token (expires Friday), use for manual API calls:\n  {t}", [t])


@S
def _():  # supabase service role JWT
    ref = rs(LOW, 20)
    now = R.randint(1700000000, 1750000000)
    t = jwt({"iss": "supabase", "ref": ref, "role": "service_role", "iat": now, "exp": now + 315360000})
    return out(
        f"NEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co\nSUPABASE_SERVICE_ROLE_KEY={t}",
        [t],
        [f"https://{ref}.supabase.co"],
    )


@S
def _():  # fernet key
    k = base64.urlsafe_b64encode(rb(32)).decode()
    return out(f"from cryptography.fernet import Fernet\nf = Fernet(b'{k}')", [k])


@S
def _():  # aes key hex yaml
    k = hx(64)
    return out(
        f'crypto:\n  algorithm: aes-256-gcm\n  encryption_key: "{k}"\n  key_version: 3',
        [k],
        ["aes-256-gcm", "key_version: 3"],
    )


@S
def _():  # openssh private key
    body, _pub = openssh_ed25519_private(f"{user()}@laptop")
    return out(
        f"deploy key for the runner (~/.ssh/id_ed25519):\n-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----",
        [body],
    )


@S
def _():  # RSA pkcs1
    body = rsa_pkcs1_body()
    return out(f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----", [body])


@S
def _():  # EC pkcs8 in a note
    body = ec_pkcs8_body()
    return out(
        f"- APNs signing key (AuthKey_{rs(UP + DIG, 10)}.p8):\n```\n-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----\n```",
        [body],
        ["APNs signing key"],
    )


@S
def _():  # PGP private key
    body = lines(b64(R.randint(600, 800)))
    crc = "=" + b64(3)
    return out(f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{body}\n{crc}\n-----END PGP PRIVATE KEY BLOCK-----", [body])


@S
def _():  # seed 12
    s = seed_phrase(12)
    return out(f"- Ledger recovery phrase: {s} [kind: fact]", [s])


@S
def _():  # seed 24 numbered
    ws = seed_phrase(24).split()
    rows = "\n".join(f"{i + 1}. {w}" for i, w in enumerate(ws))
    return out(f"MetaMask seed words:\n{rows}", [f"{i + 1}. {w}" for i, w in enumerate(ws)])


@S
def _():  # eth private key hardhat
    k = "0x" + hx(64)
    addr = "0x" + hx(40)
    return out(
        f"# deployer {addr}\nPRIVATE_KEY={k}\nRPC_URL=https://sepolia.infura.io/v3/${{INFURA_PROJECT_ID}}",
        [k],
        [addr, "${INFURA_PROJECT_ID}"],
    )


@S
def _():  # bitcoin WIF
    k = wif()
    a = btc_addr()
    return out(f"- Cold wallet: address {a}, WIF {k} [kind: fact]", [k], [a])


@S
def _():  # age secret key
    k = "AGE-SECRET-KEY-1" + bech(58).upper()
    p = "age1" + bech(58)
    return out(f"# created: {date()}T10:21:07Z\n# public key: {p}\n{k}", [k], [p])


@S
def _():  # wireguard config
    priv, pub = b64(32), b64(32)
    return out(
        f"[Interface]\nAddress = 10.8.0.{R.randint(2, 250)}/24\nPrivateKey = {priv}\n\n[Peer]\nPublicKey = {pub}\nEndpoint = vpn.{org().replace('-', '')}.net:51820\nAllowedIPs = 0.0.0.0/0",
        [priv],
        [pub],
    )


@S
def _():  # otpauth TOTP
    s = base32(32)
    svc = R.choice(["AWS", "GitHub", "Okta", "Cloudflare"])
    u = user()
    return out(f"otpauth://totp/{svc}:{u}?secret={s}&issuer={svc}&digits=6", [s], [f"issuer={svc}"])


@S
def _():  # backup codes
    codes = [f"{rs(DIG, 4)}-{rs(DIG, 4)}" for _ in range(R.choice([6, 8]))]
    return out(
        f"{R.choice(['GitHub', 'Google', 'Proton'])} 2FA backup codes:\n" + "\n".join(f"- {c}" for c in codes), codes
    )


@S
def _():  # GH actions hardcoded sonar token
    t = "squ_" + hx(40)
    return out(
        f"jobs:\n  scan:\n    runs-on: ubuntu-latest\n    env:\n      SONAR_TOKEN: {t}\n      SONAR_HOST_URL: https://sonar.{org().replace('-', '')}.io",
        [t],
        ["runs-on: ubuntu-latest"],
    )


@S
def _():  # codecov uuid token in gitlab ci
    t = uuid4()
    return out(
        f'variables:\n  CODECOV_TOKEN: "{t}"\ncoverage:\n  script: ./scripts/upload-coverage.sh',
        [t],
        ["./scripts/upload-coverage.sh"],
    )


@S
def _():  # heroku api key uuid
    t = uuid4()
    return out(
        f"- HEROKU_API_KEY={t} (from `heroku authorizations:create`) [kind: fact]",
        [t],
        ["heroku authorizations:create"],
    )


@S
def _():  # doctl
    t = "dop_v1_" + hx(64)
    return out(f"doctl auth init --context {org()} -t {t}", [t])


@S
def _():  # shopify TS
    t = "shpat_" + hx(32)
    store = f"{org()}-store.myshopify.com"
    return out(
        f"const res = await fetch('https://{store}/admin/api/2024-10/graphql.json', {{\n  method: 'POST',\n  headers: {{ 'X-Shopify-Access-Token': '{t}', 'Content-Type': 'application/json' }},\n}});",
        [t],
        [store],
    )


@S
def _():  # cloudflare token + account id
    t = rs(URLS, 40)
    acc = hx(32)
    return out(f"CLOUDFLARE_ACCOUNT_ID={acc}\nCLOUDFLARE_API_TOKEN={t}", [t], [acc])


@S
def _():  # terraformrc
    t = rs(ALNUM, 14) + ".atlasv1." + rs(ALNUM, 67)
    return out(f'credentials "app.terraform.io" {{\n  token = "{t}"\n}}', [t], ['credentials "app.terraform.io"'])


@S
def _():  # terraform aws provider inline
    i, s = aws_id(), aws_secret()
    return out(
        f'provider "aws" {{\n  region     = "eu-central-1"\n  access_key = "{i}"\n  secret_key = "{s}"\n}}',
        [s],
        ['region     = "eu-central-1"'],
    )


@S
def _():  # vault token export
    t = "hvs." + rs(ALNUM, 24)
    addr = f"https://vault.{org().replace('-', '')}.io:8200"
    return out(f"export VAULT_ADDR={addr}\nexport VAULT_TOKEN={t}", [t], [addr])


@S
def _():  # doppler
    t = "dp.st.prd." + rs(ALNUM, 43)
    return out(f"- Doppler service token for prod (read-only): {t}", [t])


@S
def _():  # linear
    t = "lin_api_" + rs(ALNUM, 40)
    return out(f"User wants issues filed automatically. Linear API key: {t} (workspace: {org()})", [t])


@S
def _():  # notion
    t = R.choice(["ntn_" + rs(DIG, 11) + rs(ALNUM, 35), "secret_" + rs(ALNUM, 43)])
    return out(f'notion = Client(auth="{t}")\ndb_id = "{hx(32)}"', [t])


@S
def _():  # postman
    t = f"PMAK-{hx(24)}-{hx(34)}"
    return out(f'newman run collection.json --env-var "postman_api_key={t}"', [t], ["collection.json"])


@S
def _():  # databrickscfg
    t = "dapi" + hx(32)
    h = f"https://adb-{rs(DIG, 16)}.{R.randint(1, 19)}.azuredatabricks.net"
    return out(f"[DEFAULT]\nhost  = {h}\ntoken = {t}", [t], [h])


@S
def _():  # datadog.yaml
    k = hx(32)
    return out(
        f"## /etc/datadog-agent/datadog.yaml\napi_key: {k}\nsite: datadoghq.com\nlogs_enabled: true",
        [k],
        ["site: datadoghq.com"],
    )


@S
def _():  # new relic
    lic = hx(36) + "NRAL"
    uk = "NRAK-" + rs(UP + DIG, 27)
    return out(
        f"NEW_RELIC_LICENSE_KEY={lic}\nNEW_RELIC_API_KEY={uk}\nNEW_RELIC_APP_NAME=checkout-svc",
        [lic, uk],
        ["NEW_RELIC_APP_NAME=checkout-svc"],
    )


@S
def _():  # sentryclirc
    t = "sntryu_" + hx(64)
    return out(f"# .sentryclirc\n[auth]\ntoken={t}\n\n[defaults]\norg={org()}\nproject=web", [t], ["project=web"])


@S
def _():  # grafana sa token
    t = "glsa_" + rs(ALNUM, 32) + "_" + hx(8)
    return out(f"- Grafana service account token (Editor) for dashboards-as-code: {t} [kind: fact]", [t])


@S
def _():  # atlassian token curl
    t = "ATATT3xFfGF0" + rs(URLS, 170) + "=" + rs("0123456789ABCDEF", 8)
    em = f"{R.choice(['anna', 'jmartin', 'ops'])}@{org()}.com"
    return out(
        f"curl -u {em}:{t} -H 'Accept: application/json' https://{org()}.atlassian.net/rest/api/3/myself", [t], [em]
    )


@S
def _():  # okta SSWS
    t = "00" + rs(URLS, 40)
    o = org()
    return out(f"Authorization: SSWS {t}\n(Okta admin API, org {o}.okta.com)", [t], [f"{o}.okta.com"])


@S
def _():  # airtable
    t = "pat" + rs(ALNUM, 14) + "." + hx(64)
    return out(f"const base = new Airtable({{ apiKey: '{t}' }}).base('app{rs(ALNUM, 14)}');", [t])


@S
def _():  # figma
    t = "figd_" + rs(URLS, 40)
    return out(
        f"curl -H 'X-Figma-Token: {t}' https://api.figma.com/v1/files/{rs(ALNUM, 22)}",
        [t],
        ["https://api.figma.com/v1/files/"],
    )


@S
def _():  # mapbox secret
    payload = b64uof(json.dumps({"u": user().replace(".", ""), "a": rs(LOW + DIG, 25)}, separators=(",", ":")))
    t = f"sk.{payload}.{rs(URLS, 22)}"
    return out(f"MAPBOX_DOWNLOADS_TOKEN={t}  # secret scope DOWNLOADS:READ for the iOS SDK", [t], ["DOWNLOADS:READ"])


@S
def _():  # algolia admin
    app = rs(UP + DIG, 10)
    k = hx(32)
    return out(f"const client = algoliasearch('{app}', '{k}'); // admin key, server only", [k], [app])


@S
def _():  # FCM legacy server key
    k = "AAAA" + rs(URLS, 7) + ":APA91b" + rs(URLS, 134)
    return out(
        f'curl -X POST https://fcm.googleapis.com/fcm/send -H "Authorization: key={k}" -H "Content-Type: application/json" -d @push.json',
        [k],
        ["https://fcm.googleapis.com/fcm/send"],
    )


@S
def _():  # square
    t = "EAAA" + rs(URLS, 60)
    return out(f"SQUARE_ENVIRONMENT=production\nSQUARE_ACCESS_TOKEN={t}", [t], ["SQUARE_ENVIRONMENT=production"])


@S
def _():  # paypal
    cid, sec = "A" + rs(URLS, 79), "E" + rs(URLS, 79)
    return out(f"paypal:\n  mode: live\n  client_id: {cid}\n  client_secret: {sec}", [sec], [cid])


@S
def _():  # mailchimp
    k = hx(32) + f"-us{R.randint(1, 21)}"
    return out(f'mailchimp.setConfig({{ apiKey: "{k}", server: "{k.split("-")[1]}" }});', [k.split("-")[0]], [])


@S
def _():  # openai python legacy
    k = openai_key()
    return out(
        f'import openai\nopenai.api_key = "{k}"\nresp = openai.chat.completions.create(model="gpt-4o", messages=msgs)',
        [k],
        ['model="gpt-4o"'],
    )


@S
def _():  # anthropic TS
    k = anthropic_key()
    return out(f"const anthropic = new Anthropic({{ apiKey: '{k}' }});", [k])


@S
def _():  # groq
    k = "gsk_" + rs(ALNUM, 52)
    return out(f"- Groq key for the eval harness: {k}", [k])


@S
def _():  # replicate
    k = "r8_" + rs(ALNUM, 37)
    return out(f"REPLICATE_API_TOKEN={k} python run_sdxl.py --steps 30", [k], ["python run_sdxl.py --steps 30"])


@S
def _():  # markdown table of creds
    rows = [
        (s, u, pw())
        for s, u in [
            (R.choice(["Grafana", "Kibana", "pgAdmin"]), "admin"),
            (R.choice(["Jenkins", "ArgoCD", "Portainer"]), user()),
        ]
    ]
    t = "| service | user | password |\n|---|---|---|\n" + "\n".join(f"| {a} | {b} | {c} |" for a, b, c in rows)
    return out(t, [c for _, _, c in rows], [rows[0][0], rows[1][0]])


@S
def _():  # router multi-line
    p = pw()
    return out(
        f"Home router\n- URL: http://192.168.{R.choice([0, 1, 178])}.1\n- login: admin\n- pass: {p}\n- firmware {semver()}",
        [p],
        ["- login: admin"],
    )


@S
def _():  # ldapsearch
    p = pw()
    dn = f"cn=admin,dc={org().replace('-', '')},dc=local"
    return out(
        f'ldapsearch -x -H ldaps://ldap.{org().replace("-", "")}.local -D "{dn}" -w \'{p}\' -b "ou=people,dc=corp,dc=local" "(uid=jdoe)"',
        [p],
        [dn],
    )


@S
def _():  # kafka jaas
    u, p = "svc-" + R.choice(["ingest", "billing", "audit"]), upw()
    return out(
        f'sasl.mechanism=PLAIN\nsecurity.protocol=SASL_SSL\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="{u}" password="{p}";',
        [p],
        [u],
    )


@S
def _():  # elastic docker run
    p = pw()
    return out(
        f"docker run -d --name es01 -e ELASTIC_PASSWORD='{p}' -e discovery.type=single-node -p 9200:9200 docker.elastic.co/elasticsearch/elasticsearch:8.15.1",
        [p],
        ["docker.elastic.co/elasticsearch/elasticsearch:8.15.1"],
    )


@S
def _():  # rabbitmq.conf
    p = pw()
    return out(
        f"# rabbitmq.conf\ndefault_user = orders\ndefault_pass = {p}\nlisteners.tcp.default = 5672",
        [p],
        ["default_user = orders"],
    )


@S
def _():  # ansible inventory
    p = pw()
    i_ = ip()
    return out(f"[web]\nweb01 ansible_host={i_} ansible_user=ubuntu ansible_become_pass={p}", [p], [i_])


@S
def _():  # pip.conf artifactory
    t = "AKCp" + rs(ALNUM, 69)
    u = user().replace(".", "")
    o = org()
    return out(
        f"[global]\nindex-url = https://{u}:{t}@{o}.jfrog.io/artifactory/api/pypi/pypi-remote/simple",
        [t],
        [f"{o}.jfrog.io/artifactory/api/pypi/pypi-remote/simple"],
    )


@S
def _():  # yarnrc
    t = npm_tok()
    return out(
        f'npmScopes:\n  {org()}:\n    npmRegistryServer: "https://npm.pkg.github.com"\n    npmAuthToken: "{t}"',
        [t],
        ["https://npm.pkg.github.com"],
    )


@S
def _():  # git credentials bitbucket
    t = "ATBB" + rs(ALNUM, 32)
    u = user().replace(".", "")
    return out(f"~/.git-credentials:\nhttps://{u}:{t}@bitbucket.org", [t], ["@bitbucket.org"])


@S
def _():  # net use
    p = pw()
    share = f"\\\\fs01.{org().replace('-', '')}.local\\finance"
    return out(f"net use Z: {share} /user:CORP\\jdoe {p} /persistent:yes", [p], [share])


@S
def _():  # powershell securestring
    p = pw()
    return out(
        f'$pass = ConvertTo-SecureString "{p}" -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential ("svc_backup", $pass)',
        [p],
        ["svc_backup"],
    )


@S
def _():  # my.cnf
    p = pw()
    return out(f"# ~/.my.cnf\n[client]\nuser=reporter\npassword={p}\nhost={host('mysql')}", [p], ["user=reporter"])


@S
def _():  # pgpass
    h, p = host("pg"), pw().replace(":", "")
    return out(f"{h}:5432:billing:billing_ro:{p}", [p], [h])


@S
def _():  # netrc
    t = uuid4() if R.random() < 0.5 else rs(ALNUM, 40)
    return out(f"machine api.heroku.com\n  login ops@{org()}.com\n  password {t}", [t], ["machine api.heroku.com"])


@S
def _():  # ssh key passphrase
    p = "-".join(R.choice(BIP.wordlist) for _ in range(4))
    return out(f'- Passphrase for ~/.ssh/id_ed25519_work is "{p}" [kind: fact]', [p], ["~/.ssh/id_ed25519_work"])


@S
def _():  # deepl key
    k = uuid4() + ":fx"
    return out(f'translator = deepl.Translator("{k}")', [k])


@S
def _():  # SIM PUK / bank card PIN list
    puk, p = rs(DIG, 8), pin(4)
    return out(f"Phone stuff:\n- SIM PIN: {p}\n- PUK: {puk}", [p, puk])


@S
def _():  # oracle sqlplus
    p = upw()
    return out(f"sqlplus system/{p}@//{host('ora')}:1521/ORCLPDB1", [p], ["ORCLPDB1"])


@S
def _():  # ftp url
    p = upw()
    u = user().replace(".", "")
    return out(
        f"lftp -e 'mirror -R ./dist /public_html; quit' ftp://{u}:{p}@ftp.{org().replace('-', '')}.com",
        [p],
        ["mirror -R ./dist /public_html"],
    )


@S
def _():  # redis-cli -a
    p = pw()
    return out(f"redis-cli -h {host('redis')} -p 6380 --tls -a '{p}' INFO memory", [p], ["INFO memory"])


@S
def _():  # java JDBC in code
    p = upw()
    return out(
        f'Connection conn = DriverManager.getConnection("jdbc:postgresql://{host("pg")}:5432/inventory", "inventory_app", "{p}");',
        [p],
        ["inventory_app"],
    )


@S
def _():  # C# SmtpClient credentials
    p = pw()
    return out(
        f'var smtp = new SmtpClient("smtp.office365.com", 587) {{\n    Credentials = new NetworkCredential("noreply@{org()}.com", "{p}"),\n    EnableSsl = true\n}};',
        [p],
        ["smtp.office365.com"],
    )


@S
def _():  # TOML config
    k = rs(ALNUM, 32)
    p = upw()
    return out(
        f'[database]\nurl = "postgres://app@{host("pg")}/app"\npassword = "{p}"\n\n[api]\nkey = "{k}"',
        [p, k],
        ["[database]"],
    )


# ---- non-English secret templates
@S
def _():  # German wifi
    p = pw()
    return out(f"- Das WLAN-Passwort für das Büro lautet {p} [kind: fact]", [p])


@S
def _():  # French root password
    h, p = host("web"), pw()
    return out(f"- Le mot de passe root du serveur {h} est {p} (à changer après la migration)", [p], [h])


@S
def _():  # Spanish reminder
    p = pw()
    return out(
        f"Recordatorio: la contraseña de la base de datos de producción es «{p}». No compartirla por Slack.", [p]
    )


@S
def _():  # Portuguese admin panel
    u, p = user(), pw()
    return out(f"- A senha do painel admin é {p} (usuário: {u}) [kind: fact]", [p], [f"usuário: {u}"])


@S
def _():  # Italian card PIN
    p = pin(R.choice([4, 5]))
    return out(f"- Il PIN della carta aziendale è {p}, non salvarlo altrove.", [p])


@S
def _():  # Dutch NAS
    p = pw()
    return out(f"- Het wachtwoord van de NAS (Synology, admin) is {p}", [p], ["Synology, admin"])


@S
def _():  # Polish AWS root
    p = pw()
    return out(f"- Hasło do konta root AWS: {p} (MFA na telefonie Kasi)", [p])


@S
def _():  # Japanese prod server
    p = pw()
    return out(f"- 本番サーバーのパスワードは {p} です [kind: fact]", [p])


@S
def _():  # Chinese API key
    k = "sk-" + hx(32)
    return out(f"- 测试环境的 API 密钥：{k}（DeepSeek，余额不多）", [k])


@S
def _():  # Korean admin pw
    p = pw()
    return out(f"- 관리자 비밀번호: {p} (다음 달에 변경 예정)", [p])


@S
def _():  # Russian mail
    p = pw()
    em = f"{user().replace('_', '.')}@{org()}.ru"
    return out(f"- Пароль от почты {em}: {p}", [p], [em])


@S
def _():  # Turkish server
    p = pw()
    i_ = ip()
    return out(f"- Sunucu şifresi ({i_}): {p} — kimseyle paylaşma", [p], [i_])


@S
def _():  # German DeepL / API key
    k = hx(32)
    return out(f"API-Schlüssel für den Wetterdienst (OpenWeatherMap): {k}", [k], ["OpenWeatherMap"])


@S
def _():  # French seed phrase
    s = seed_phrase(12)
    return out(f"Phrase de récupération du portefeuille : {s}", [s])


@S
def _():  # Spanish .env comment
    k = stripe_sk()
    return out(f"# clave secreta de Stripe (modo real)\nSTRIPE_SECRET_KEY={k}", [k])


@S
def _():  # Japanese github token
    t = ghp()
    return out(f"GitHubのトークン: {t}（有効期限は{R.randint(1, 12)}月末）", [t])


@S
def _():  # Chinese bank PIN
    p = pin(6)
    return out(f"- 银行卡密码是 {p}，别告诉别人", [p])


@S
def _():  # Russian connection string
    p = upw()
    h = host("pg")
    return out(f"Строка подключения: Host={h};Port=5432;Database=crm;Username=crm_app;Password={p}", [p], [h])


@S
def _():  # Portuguese token
    t = "glpat-" + rs(URLS, 20)
    return out(f"- Token do GitLab para o pipeline de deploy: {t}", [t])


@S
def _():  # Italian connection string
    p = upw()
    h = host("mysql")
    return out(f"Stringa di connessione: mysql://gestionale:{p}@{h}:3306/gestionale", [p], [h])


@S
def _():  # Dutch alarm code
    p = pin(4)
    return out(f"- Alarmcode kantoor: {p} (daarna op 'uit' drukken)", [p])


@S
def _():  # Polish telegram
    t = telegram()
    return out(f"Token bota Telegram do powiadomień: {t}", [t])


@S
def _():  # Korean API key
    k = openai_key()
    return out(f"OpenAI API 키: {k}", [k])


@S
def _():  # Turkish wifi
    p = pw()
    return out(f"Ev Wi-Fi şifresi: {p}", [p])


@S
def _():  # German SSH passphrase
    p = pw()
    return out(f"- Passphrase für den Deploy-Key: {p}", [p])


@S
def _():  # French TOTP secret
    s = " ".join(base32(32)[i : i + 4].lower() for i in range(0, 32, 4))
    return out(f"Clé secrète 2FA (saisie manuelle dans l'appli) : {s}", [s])


@S
def _():  # German .env comment
    p = upw()
    return out(
        f"# Zugangsdaten für die Staging-DB (nicht committen!)\nDB_USER=staging_app\nDB_PASSWORD={p}",
        [p],
        ["DB_USER=staging_app"],
    )


@S
def _():  # French mistral key
    k = rs(ALNUM, 32)
    return out(f"# clé API Mistral pour les tests\nexport MISTRAL_API_KEY={k}", [k])


@S
def _():  # Spanish psql
    p = pw()
    h = host("pg")
    return out(f"Para conectarte a la réplica: PGPASSWORD='{p}' psql -h {h} -U lectura ventas", [p], [h])


@S
def _():  # Japanese seed phrase
    s = seed_phrase(12)
    return out(f"ウォレットの復元フレーズ（絶対に共有しない）: {s}", [s])


@S
def _():  # Chinese mysql url
    p = upw()
    h = host("mysql")
    return out(f"数据库连接串：mysql://root:{p}@{h}:3306/shop?charset=utf8mb4", [p], [h])


@S
def _():  # Korean AWS secret
    s = aws_secret()
    return out(f"- AWS 시크릿 액세스 키: {s} (리전 ap-northeast-2)", [s], ["ap-northeast-2"])


@S
def _():  # Russian discord token
    t = discord_bot()
    return out(f"Токен бота Discord: {t}", [t])


@S
def _():  # Italian wifi
    p = pw()
    return out(f"- La password del Wi-Fi di casa è {p} [kind: fact]", [p])


@S
def _():  # Dutch Mollie key
    k = "live_" + rs(ALNUM, 30)
    return out(f"- API-sleutel van Mollie (live): {k}", [k])


@S
def _():  # Polish card PIN
    p = pin(4)
    return out(f"- PIN do karty firmowej: {p}", [p])


@S
def _():  # Turkish github token
    t = ghp()
    return out(f"GitHub erişim belirteci (CI için): {t}", [t])


@S
def _():  # Portuguese multi-line
    p = pw()
    u = user()
    return out(
        f"Acesso ao servidor de homologação\n- host: {ip()}\n- usuário: {u}\n- senha: {p}", [p], [f"usuário: {u}"]
    )


# ===== benign templates (numbered 1.. in order) =====
def sha():
    return hx(40)


@B
def _():
    return f"- Fix landed in commit {sha()} on main [kind: {kind()}]"


@B
def _():
    return f"Reverted {hx(7)} (broke the login page); see PR #{R.randint(100, 4000)}."


@B
def _():
    return f"commit {sha()}\nAuthor: {R.choice(['Ana Silva', 'Tom Weber', 'Li Wei'])} <dev@{org()}.com>\nDate:   Tue Oct {R.randint(1, 28)} 14:02:11 2025 +0200\n\n    fix(auth): refresh token rotation race"


@B
def _():
    return f"- Support ticket request id: {uuid4()} [kind: fact]"


@B
def _():
    return f"image: ghcr.io/{org()}/api@sha256:{hx(64)}"


@B
def _():
    return f'"node_modules/lodash": {{\n  "version": "4.17.21",\n  "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",\n  "integrity": "sha512-{b64(64)}"\n}}'


@B
def _():
    return f"requests==2.32.3 \\\n    --hash=sha256:{hx(64)} \\\n    --hash=sha256:{hx(64)}"


@B
def _():
    return f"github.com/{org()}/{repo()} v{semver()} h1:{b64(32)}"


@B
def _():
    return f'[[package]]\nname = "serde"\nversion = "1.0.{R.randint(150, 215)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{hx(64)}"'


@B
def _():
    alg = R.choice(["RS256", "ES256", "HS256"])
    h = b64uof(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")))
    return f'- A JWT header always starts like {h} — that is just base64url of {{"alg":"{alg}","typ":"JWT"}}.'


@B
def _():
    s = R.choice(["hello world", "build passed", "deploy to staging", "meeting at 10"])
    return f'echo {b64of(s)} | base64 -d   # prints "{s}"'


@B
def _():
    return f"STRIPE_PUBLISHABLE_KEY=pk_live_51{rs(ALNUM, 22)}{rs(ALNUM, 75)}"


@B
def _():
    return f"<script>const stripe = Stripe('pk_test_51{rs(ALNUM, 97)}');</script>"


@B
def _():
    t = rs(ALNUM, 4)
    return f"- OpenAI key is the one ending in {t}; dashboard shows it as sk-...{t} [kind: fact]"


@B
def _():
    return f"Rotated Stripe key, new one shown as sk_live_••••••••••••{rs(ALNUM, 4)} in the dashboard."


@B
def _():
    return "OPENAI_API_KEY=YOUR_API_KEY\nANTHROPIC_API_KEY=YOUR_ANTHROPIC_API_KEY"


@B
def _():
    return f'curl -H "Authorization: Bearer <token>" https://{pubhost("api")}/v1/me'


@B
def _():
    return "AWS_ACCESS_KEY_ID=xxxxxxxxxxxxxxxxxxxx\nAWS_SECRET_ACCESS_KEY=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"


@B
def _():
    return f'psql "postgresql://app:$DB_PASSWORD@{host("pg")}:5432/app"'


@B
def _():
    return "      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}"


@B
def _():
    return "    environment:\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set in .env}\n      REDIS_URL: redis://redis:6379/0"


@B
def _():
    return "        env:\n          - name: DB_PASSWORD\n            valueFrom:\n              secretKeyRef:\n                name: db-creds\n                key: password"


@B
def _():
    return 'stripe.api_key = os.environ["STRIPE_SECRET_KEY"]\nwebhook_secret = os.getenv("STRIPE_WEBHOOK_SECRET")'


@B
def _():
    return "const octokit = new Octokit({ auth: process.env.GITHUB_TOKEN });"


@B
def _():
    return f"- Password policy: min {R.choice([12, 14, 16])} chars, 1 symbol, no reuse of last 5, rotate every 90 days [kind: fact]"


@B
def _():
    return f"- Token endpoint: https://login.{org()}.com/oauth2/v2.0/token (client credentials grant) [kind: fact]"


@B
def _():
    return f"- Signing key id (kid) currently in JWKS: {hx(16)} [kind: fact]"


@B
def _():
    return (
        '{"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"' + hx(16) + '","n":"' + b64u(256) + '","e":"AQAB"}]}'
    )


@B
def _():
    return f"- My laptop's SSH public key: {ssh_ed25519_pub()} {user()}@mbp [kind: fact]"


@B
def _():
    return f"The key fingerprint is SHA256:{b64(32, pad=False)} {user()}@build-01 (ED25519)"


@B
def _():
    f = hx(40).upper()
    return f"GPG key fingerprint: {' '.join(f[i : i + 4] for i in range(0, 40, 4))}"


@B
def _():
    return f"Public cert for the SAML IdP:\n-----BEGIN CERTIFICATE-----\n{lines(base64.b64encode(bytes.fromhex('308203') + rb(700)).decode())}\n-----END CERTIFICATE-----"


@B
def _():
    return f"-----BEGIN PUBLIC KEY-----\n{lines(base64.b64encode(bytes.fromhex('3059301306072a8648ce3d020106082a8648ce3d03010703420004') + rb(64)).decode())}\n-----END PUBLIC KEY-----"


@B
def _():
    return f"[Peer]\n# laptop\nPublicKey = {b64(32)}\nAllowedIPs = 10.8.0.{R.randint(2, 250)}/32"


@B
def _():
    return f"- Backups are encrypted to age recipient age1{bech(58)} [kind: fact]"


@B
def _():
    return f"- Treasury multisig address: 0x{hx(40)} (Safe, 2-of-3) [kind: fact]"


@B
def _():
    return f"Donations: BTC {btc_addr()}"


@B
def _():
    return f"- Deploy tx: 0x{hx(64)} (block {R.randint(18000000, 21000000)}) [kind: fact]"


@B
def _():
    a = rs(DIG, 12)
    return f"- Deploy role: arn:aws:iam::{a}:role/github-actions-deploy (account {a}) [kind: fact]"


@B
def _():
    return f"DB password lives in arn:aws:secretsmanager:eu-west-1:{rs(DIG, 12)}:secret:prod/db-password-{rs(ALNUM, 6)}"


@B
def _():
    return f"i-0{hx(16)} (ami-0{hx(16)}) in subnet-0{hx(16)}, sg-0{hx(16)}"


@B
def _():
    return f"aws s3 cp ./dist s3://{org()}-web-assets-{R.choice(ENVS)}/ --recursive --cache-control max-age=31536000"


@B
def _():
    return f"- OAuth client id for the web app: {gclient_id()} (public, fine to ship) [kind: fact]"


@B
def _():
    return f'tenant_id       = "{uuid4()}"\nsubscription_id = "{uuid4()}"'


@B
def _():
    return f"DbPassword=@Microsoft.KeyVault(SecretUri=https://kv-{org()}.vault.azure.net/secrets/DbPassword/{hx(32)})"


@B
def _():
    return "vault kv get -field=password secret/prod/postgres"


@B
def _():
    return f"- OpenAI org id org-{rs(ALNUM, 24)}, project proj_{rs(ALNUM, 24)} [kind: fact]"


@B
def _():
    return "- Default models: gpt-4o-2024-08-06 for chat, claude-3-5-sonnet-20241022 for code, text-embedding-3-small for search"


@B
def _():
    return (
        f"Upgraded to v{semver()} (build {R.randint(20240101, 20251231)}.{R.randint(1, 9)}); rollback tag v{semver()}"
    )


@B
def _():
    return f"FROM node:{R.randint(18, 22)}.{R.randint(0, 15)}.{R.randint(0, 5)}-alpine3.{R.randint(17, 20)} AS build"


@B
def _():
    return f"- Post release notes in Slack channel C0{rs(UP + DIG, 9)}, ping user U0{rs(UP + DIG, 9)} [kind: fact]"


@B
def _():
    return f"Discord #announcements channel id {snowflake()}, guild {snowflake()}"


@B
def _():
    return f"Refund for customer cus_{rs(ALNUM, 14)}, payment pi_{rs(ALNUM, 24)}, price price_{rs(ALNUM, 24)}"


@B
def _():
    return f"- Twilio Account SID (not secret): AC{hx(32)} [kind: fact]"


@B
def _():
    return f'<script async src="https://www.googletagmanager.com/gtag/js?id=G-{rs(UP + DIG, 10)}"></script>'


@B
def _():
    payload = b64uof(json.dumps({"u": user().replace(".", ""), "a": rs(LOW + DIG, 25)}, separators=(",", ":")))
    return f"mapboxgl.accessToken = 'pk.{payload}.{rs(URLS, 22)}'; // public token, URL-restricted"


@B
def _():
    return f'db.orders.find({{ _id: ObjectId("{hx(24)}") }})'


@B
def _():
    return f"event id {rs('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 26)} (ULID) in the audit log"


@B
def _():
    return f"https://x.com/{R.choice(['rustlang', 'vercel', 'github'])}/status/{R.randint(10**18, 2 * 10**18)}"


@B
def _():
    return f"- Talk recording: https://www.youtube.com/watch?v={rs(URLS, 11)} [kind: note]"


@B
def _():
    return f"- Roadmap doc: https://docs.google.com/document/d/{rs(URLS, 44)}/edit [kind: fact]"


@B
def _():
    return f"Notion page: https://www.notion.so/{org()}/Onboarding-{hx(32)}"


@B
def _():
    return f"Designs: https://www.figma.com/design/{rs(ALNUM, 22)}/Checkout-v2?node-id={R.randint(1, 900)}-{R.randint(1, 900)}"


@B
def _():
    return f"- Blocked by {R.choice(['PLAT', 'API', 'WEB'])}-{R.randint(100, 9999)} and #{R.randint(100, 9999)} [kind: fact]"


@B
def _():
    return (
        f"Printer MAC {':'.join(hx(2) for _ in range(6))}, IPv6 fe80::{hx(4)}:{hx(4)}:{hx(4)}:{hx(4)}, v4 {ip()}:9100"
    )


@B
def _():
    return f"Content-Security-Policy: script-src 'self' 'sha256-{b64(32)}'"


@B
def _():
    return f'<script src="https://cdn.jsdelivr.net/npm/alpinejs@3.14.1/dist/cdn.min.js" integrity="sha384-{b64(48)}" crossorigin="anonymous"></script>'


@B
def _():
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{hx(64)}\nsize {R.randint(10000, 90000000)}"


@B
def _():
    return f"Pinned on IPFS: ipfs://bafybei{rs('abcdefghijklmnopqrstuvwxyz234567', 52)}"


@B
def _():
    return f"{hx(32)}  release-{semver()}.tar.gz"


@B
def _():
    return f"sha1: {hx(40)}  installer.msi\nsha256: {hx(64)}  installer.msi"


@B
def _():
    return f"oci://ghcr.io/{org()}/charts/api:{semver()}\nDigest: sha256:{hx(64)}"


@B
def _():
    return f'metadata:\n  name: api-7d9f{hx(4)}-{rs(LOW + DIG, 5)}\n  uid: {uuid4()}\n  resourceVersion: "{R.randint(100000, 9999999)}"'


@B
def _():
    return f"traceparent: 00-{hx(32)}-{hx(16)}-01"


@B
def _():
    return f"x-amzn-RequestId: {uuid4()}\nx-amz-cf-id: {rs(URLS, 56)}=="


@B
def _():
    return f"CloudFront distribution E{rs(UP + DIG, 13)}, hosted zone Z{rs(UP + DIG, 20)}"


@B
def _():
    return f"gcloud config set project {org()}-prod-{rs(DIG, 6)}   # project number {rs(DIG, 12)}"


@B
def _():
    return f'"serial": {R.randint(1, 400)},\n"lineage": "{uuid4()}",\n"terraform_version": "1.{R.randint(5, 9)}.{R.randint(0, 5)}"'


@B
def _():
    return "def get_access_token(refresh_token: str, client_secret_ref: str) -> str:\n    ..."


@B
def _():
    return "interface AuthConfig {\n  apiKey: string;\n  secretKeyRef?: string;\n  tokenUrl: string;\n}"


@B
def _():
    return "CREATE TABLE users (\n  id UUID PRIMARY KEY,\n  password_hash VARCHAR(255) NOT NULL,\n  api_key_id UUID REFERENCES api_keys(id)\n);"


@B
def _():
    return (
        f"- Refresh token TTL is {R.choice([14, 30, 60])} days; access token {R.choice([5, 15, 60])} min [kind: fact]"
    )


@B
def _():
    return f"- Rotate the Datadog API key every 90 days (last rotated {date()}) [kind: reminder]"


@B
def _():
    return (
        f"Password reset link expires after {R.choice([15, 30, 60])} minutes; max {R.choice([3, 5])} attempts per hour."
    )


@B
def _():
    return "# .env.example\nOPENAI_API_KEY=\nDATABASE_URL=\nSESSION_SECRET=   # generate with: openssl rand -hex 32"


@B
def _():
    return "DB_PASSWORD=<your-password-here>\nAPI_TOKEN=REPLACE_ME\nSMTP_PASS=<smtp-password>"


@B
def _():
    return f"| name | key | created |\n|---|---|---|\n| ci | sk-proj-...{rs(ALNUM, 4)} | {date()} |\n| notebook | sk-proj-...{rs(ALNUM, 4)} | {date()} |"


@B
def _():
    return 'db:\n  user: app\n  password: "********"   # masked in the export\napi_key: [REDACTED]'


@B
def _():
    return f":root {{ --color-primary: #{hx(6)}; --color-muted: #{hx(6)}; }}"


@B
def _():
    return f'<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQ{b64(90)}" alt="logo">'


@B
def _():
    return "- For checkout tests use card 4242 4242 4242 4242, any future date, any CVC [kind: fact]"


@B
def _():
    return f"Stripe sent evt_{rs(ALNUM, 24)} (invoice.paid) twice; handler is idempotent."


@B
def _():
    dom = f"{R.choice(['happy', 'brave', 'quiet'])}-{R.choice(['otter', 'falcon', 'lemur'])}-{R.randint(10, 99)}.clerk.accounts.dev$"
    return f"NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=pk_test_{b64of(dom).rstrip('=')}"


@B
def _():
    return "Stripe-Version: 2024-06-20\nIdempotency-Key: " + uuid4()


@B
def _():
    return f"- Order #{rs(DIG, 8)} shipped, UPS tracking 1Z{rs(UP + DIG, 16)} [kind: fact]"


@B
def _():
    return f"- IT helpdesk is ext. {rs(DIG, 4)}, room {R.randint(1, 5)}.{R.randint(10, 40)} [kind: fact]"


@B
def _():
    return f"Postgres listens on 5432 (pid {R.randint(1000, 65000)}), pgbouncer on 6432, max_connections={R.choice([100, 200, 500])}"


@B
def _():
    return f"- Incident INC{rs(DIG, 7)} closed on {date()} [kind: fact]"


@B
def _():
    return "- Use `gh auth login` and paste a token when prompted; never put it in the repo [kind: preference]"


@B
def _():
    return "- Ctrl+K opens the command palette; the key binding is in keybindings.json [kind: preference]"


@B
def _():
    return "- Primary key of usage_events is (tenant_id, user_id, ts); add a secondary key on api_key_id [kind: fact]"


@B
def _():
    return f'redis-cli GET "session:{uuid4()}"'


@B
def _():
    return f"Uploads go to s3://{org()}-uploads/avatars/2025/{R.randint(1, 12):02d}/{uuid4()}.png"


@B
def _():
    return "{t('auth.password.forgotten')} · {t('auth.token.expired')} · {t('settings.apiKeys.title')}"


@B
def _():
    return f"Feature flag key: new-checkout-flow (LaunchDarkly project {org()}-web)"


@B
def _():
    return '<input type="hidden" name="csrf_token" value="{{ csrf_token() }}">'


@B
def _():
    return f"scope=openid%20profile%20email%20offline_access&client_id={uuid4()}&redirect_uri=https%3A%2F%2F{org()}.com%2Fcallback"


@B
def _():
    return f"code_challenge={b64u(32)}&code_challenge_method=S256"


@B
def _():
    return f"SAML entity ID: https://{org()}.com/saml/metadata ; ACS URL https://{org()}.com/saml/acs"


@B
def _():
    return f"Cert thumbprint: {hx(40).upper()} (expires {date()})"


@B
def _():
    return f"ACME account: https://acme-v02.api.letsencrypt.org/acme/acct/{R.randint(10**8, 10**9)}"


@B
def _():
    return f"git.{org()}.internal {ssh_ed25519_pub()}"


@B
def _():
    return f"# ~/.ssh/authorized_keys\n{ssh_rsa_pub()} ci@runner-{R.randint(1, 9)}"


@B
def _():
    return "The pod reads its token from /var/run/secrets/kubernetes.io/serviceaccount/token (projected, auto-rotated)."


@B
def _():
    return "secrets:\n  db_password:\n    file: ./secrets/db_password.txt\n  api_key:\n    external: true"


@B
def _():
    return f"permissions:\n  id-token: write\n  contents: read\nsteps:\n  - uses: actions/checkout@{sha()} # v4.2.2"


@B
def _():
    return f"Bump lodash from 4.17.20 to 4.17.21 (#{R.randint(100, 3000)})\n\nSigned-off-by: dependabot[bot] <support@github.com>"


@B
def _():
    return (
        "- Hash passwords with argon2id (m=64MiB, t=3, p=1); bcrypt cost 12 for the legacy service [kind: preference]"
    )


@B
def _():
    return "The API key goes in the X-API-Key header, e.g. `X-API-Key: <api-key>`."


@B
def _():
    return f"- Prod DB password is in 1Password, vault 'Infra', item 'prod-db-{R.choice(ENVS)}' [kind: fact]"


@B
def _():
    return 'export PGPASSWORD="$(op read "op://Infra/prod-db/password")"'


@B
def _():
    return "aws secretsmanager get-secret-value --secret-id prod/db --query SecretString --output text"


@B
def _():
    return "gcloud secrets versions access latest --secret=stripe-secret-key --project=payments-prod"


@B
def _():
    return "kubectl get secret db-creds -o jsonpath='{.data.password}' | base64 -d"


@B
def _():
    return f"- gpt-4o context is 128k tokens; last run used {R.randint(1000, 90000):,} input tokens and {R.randint(100, 4000)} output tokens"


@B
def _():
    return f"Design token color.brand.primary = #{hx(6)}; spacing token space.4 = 16px"


@B
def _():
    return "match tok.kind {\n    TokenKind::Ident => parse_ident(tok),\n    TokenKind::Secret => unreachable!(),\n    _ => Err(ParseError::Unexpected(tok)),\n}"


@B
def _():
    return "- The secret to fast CI builds was caching ~/.cache/pip and node_modules [kind: note]"


@B
def _():
    return f"Short link for the survey: https://bit.ly/{rs(ALNUM, 7)}"


@B
def _():
    return f"- Office network SSID: {org().capitalize()}-Guest-5G (password is on the whiteboard) [kind: fact]"


@B
def _():
    return f"VPC CIDR 10.{R.randint(0, 200)}.0.0/16, private subnets 10.x.{R.randint(1, 9)}0.0/20"


@B
def _():
    return "- sshd: PasswordAuthentication no, PubkeyAuthentication yes on all hosts [kind: preference]"


@B
def _():
    return f'api_key_id = "{uuid4()}"   # id only, the key itself is in Vault'


@B
def _():
    return f"- The AWS access key for ci-bot was deactivated on {date()}; new one issued via Terraform [kind: fact]"


# ---- non-English benign
@B
def _():
    return f"- Passwortrichtlinie: mindestens {R.choice([12, 14])} Zeichen, Ablauf nach 90 Tagen [kind: fact]"


@B
def _():
    return f"- Le jeton d'accès expire après 3600 secondes ; l'endpoint est https://auth.{org()}.fr/oauth/token"


@B
def _():
    return f"- El ID del commit con el arreglo es {sha()}"


@B
def _():
    return f"- A chave pública SSH do servidor: {ssh_ed25519_pub()} root@srv{R.randint(1, 9)}"


@B
def _():
    return "- La password è salvata in Bitwarden, cartella 'Lavoro', voce 'NAS ufficio'."


@B
def _():
    return f"- De image digest van de release is sha256:{hx(64)}"


@B
def _():
    return f"- Identyfikator klucza (key id): {hx(16)} — sam klucz jest w KMS"


@B
def _():
    return "- APIキーは環境変数 OPENAI_API_KEY から読み込む（コードに直書きしない）"


@B
def _():
    return f"- 订单号：{rs(DIG, 12)}，请求 ID：{uuid4()}"


@B
def _():
    return f"- 공개 키(publishable key): pk_live_51{rs(ALNUM, 97)}"


@B
def _():
    return f"- Хеш коммита с исправлением: {sha()}"


@B
def _():
    return f"- API anahtarı maskelenmiş görünüyor: sk-...{rs(ALNUM, 4)}"


@B
def _():
    return f"Versionsnummer {semver()}, Build {hx(7)}, Prüfsumme sha256:{hx(64)}"


@B
def _():
    return "Variable : ${DB_PASSWORD} — ne jamais commiter la valeur réelle."


@B
def _():
    return "OPENAI_API_KEY=TU_API_KEY_AQUI   # reemplazar por tu clave"


@B
def _():
    return "- パスワードポリシー：12文字以上、記号を1つ以上含める"


@B
def _():
    return f"- 令牌端点：https://auth.{org()}.cn/oauth2/token，授权端点：/oauth2/authorize"


@B
def _():
    return f"- ID арендатора (tenant id): {uuid4()}"


@B
def _():
    return "- Klucz główny tabeli to (org_id, id); indeks na token_hash"


@B
def _():
    return f"- Token-Endpunkt: https://login.{org()}.de/realms/main/protocol/openid-connect/token"


@B
def _():
    return f"- 토큰 만료 시간: 액세스 토큰 {R.choice([15, 30])}분, 리프레시 토큰 {R.choice([14, 30])}일"


@B
def _():
    return f"- Yeni sürüm v{semver()} yayınlandı, commit {hx(7)}"


@B
def _():
    return f"- O ID da assinatura é sub_{rs(ALNUM, 24)} (Stripe)"


@B
def _():
    return "- Sleutel-ID van de KMS-sleutel: alias/prod-backups (de sleutel zelf verlaat KMS nooit)"


@B
def _():
    return f"- Der Commit-Hash des Hotfixes ist {sha()}"


@B
def _():
    return f"Empreinte de la clé SSH : SHA256:{b64(32, pad=False)}"


@B
def _():
    return f"- ID de la solicitud para soporte: {uuid4()}"


@B
def _():
    return f"- Il digest dell'immagine è sha256:{hx(64)}"


@B
def _():
    return "DB_SENHA=SENHA_AQUI   # substitua pela senha real localmente"


@B
def _():
    return f"- API 密钥（已打码）：sk-****{rs(ALNUM, 4)}"


@B
def _():
    return f"- コミット {hx(7)} をリバートした（ログイン画面が壊れたため）"


@B
def _():
    return f"- 비밀번호 정책: 최소 {R.choice([10, 12])}자, 특수문자 포함"


@B
def _():
    return "- Переменная окружения $DB_PASSWORD задаётся в настройках CI, не в репозитории"


@B
def _():
    return f"- Anahtar kimliği (key id): {hx(16)}"


@B
def _():
    return "- Het wachtwoord staat in de kluis (Bitwarden, map 'Team')."


@B
def _():
    return f"- Token wygasa po 3600 s; endpoint tokenu: https://auth.{org()}.pl/oauth/token"


# ---------------------------------------------------------------- build
def split_for(templates):
    nums = list(range(1, len(templates) + 1))
    return [n for n in nums if n % 2 == 1], [n for n in nums if n % 2 == 0]


def main():
    global R
    # 1) the split is fixed from template numbers alone, before any value is drawn
    s_held, s_tune = split_for(SECRET)
    b_held, b_tune = split_for(BENIGN)
    top = max(len(SECRET), len(BENIGN))
    held = [n for n in range(1, top + 1) if n % 2 == 1]
    tune = [n for n in range(1, top + 1) if n % 2 == 0]

    # 2) draw values
    parts = {"notes5-tune": [], "notes5-held": [], "notes5-benign-tune": [], "notes5-benign-held": []}
    errors = []
    for num, f in enumerate(SECRET, 1):
        ninst = 2
        for inst in range(ninst):
            R = random.Random(f"notes5|secret|{num}|{inst}")
            text, secrets, keep = f()
            sid = f"t{num:03d}-{'ab'[inst]}"
            for s in secrets:
                if not s or s not in text:
                    errors.append(f"{sid}: secret not in text: {s!r}")
            masked = text
            for s in sorted(secrets, key=len, reverse=True):
                masked = masked.replace(s, "\0")
            for k in keep:
                if k not in text:
                    errors.append(f"{sid}: keep not in text: {k!r}")
                elif k not in masked:
                    errors.append(f"{sid}: keep only inside a secret: {k!r}")
            rec = {"id": sid, "template": num, "text": text, "secrets": secrets, "keep": keep}
            parts["notes5-held" if num % 2 else "notes5-tune"].append(rec)
    for num, f in enumerate(BENIGN, 1):
        prev = None
        for inst in range(2):
            R = random.Random(f"notes5|benign|{num}|{inst}")
            text = f()
            if inst and text == prev:
                continue  # constant template: one instance only
            prev = text
            rec = {"id": f"b{num:03d}-{'ab'[inst]}", "template": num, "text": text}
            parts["notes5-benign-held" if num % 2 else "notes5-benign-tune"].append(rec)

    # duplicate text check
    seen = {}
    for p in parts.values():
        for rec in p:
            if rec["text"] in seen:
                errors.append(f"duplicate text {rec['id']} == {seen[rec['text']]}")
            seen[rec["text"]] = rec["id"]

    doc = {
        "source": "notes5: written blind on 2026-12-07 by a helper that read no rule, corpus or test; "
        "templates numbered and split odd=held / even=tune before values were drawn",
        "split": {"held": held, "tune": tune},
        "split_detail": {
            "numbering": "secret templates (ids tNNN) and benign templates (ids bNNN) are numbered separately, "
            "each from 1 in definition order in make.py; the parity rule applies to both",
            "secret": {"held": s_held, "tune": s_tune},
            "benign": {"held": b_held, "tune": b_tune},
            "template_counts": {"secret": len(SECRET), "benign": len(BENIGN)},
            "instances_per_template": 2,
            "generator": "/tmp/notes5/make.py (seeded random.Random per kind/template/instance)",
        },
        **parts,
    }
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, ensure_ascii=False, indent=1)
    # reload to validate
    with open(OUT, encoding="utf-8") as fh:
        back = json.load(fh)
    for name in parts:
        print(f"{name}: {len(back[name])}")
    print(
        f"secret templates: {len(SECRET)} (held {len(s_held)}, tune {len(s_tune)}); "
        f"benign templates: {len(BENIGN)} (held {len(b_held)}, tune {len(b_tune)})"
    )
    if errors:
        print("ERRORS:", *errors, sep="\n  ")
        sys.exit(1)
    print("validation ok")


if __name__ == "__main__":
    main()
