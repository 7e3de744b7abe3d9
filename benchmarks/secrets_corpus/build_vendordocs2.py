"""Build ``vendordocs2.json``: real vendors' keys in the shapes their own documentation gives (issue 32 round 9).

A tuning set from facts, not from another scanner's rules: each vendor below is a
popular SaaS or API vendor whose documentation states its key format (a prefix, a
length, an alphabet, sometimes a checksum), and each entry names the page that states
it (``url``). Vendors were picked by breadth (developer platforms, clouds, payments,
AI APIs, observability, messaging), never by a held-out miss. A format is a fact, so
no rule text of any scanner is copied; every value is random (fixed seed 61) in the
documented shape, except where the vendor documents a checksum (GitHub, npm), which
is computed.

Two parts (177 vendors, 492 secret lines, 42 look-alikes):

- ``vendordocs2``: for each documented secret of :data:`SPECS`, three realistic lines:
  a config line (``.env``, YAML, JSON, ``export``), a command line (``curl``, a CLI
  flag) and a sentence (some name the vendor, some do not); two lines each of the
  vendors' own usage (:func:`_usage`: an SDK constructor, a CLI login, a connection
  string, an id printed beside its secret); two lines each of vendors whose docs give
  an unprefixed key, named without the word "key" (:data:`PLAIN`);
- ``vendordocs2-benign``: the look-alikes the same docs call public (PostHog's
  ``phc_`` project key, Supabase's ``sb_publishable_``, age's ``age1`` recipient,
  Dynatrace's token identifier, Flutterwave's ``FLWPUBK-`` ...), each in two lines
  that must come out unchanged.

Both are tuned on (their misses may be read). Pages were found with a documentation
search and read for the format; the pages of the usage and plain parts were taken from
each vendor's API reference. Run::

    python benchmarks/secrets_corpus/build_vendordocs2.py > benchmarks/secrets_corpus/vendordocs2.json
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid
import zlib
from collections.abc import Callable

RNG = random.Random(61)
B62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
B64URL = string.ascii_letters + string.digits + "_-"
B64 = string.ascii_letters + string.digits + "+/"
HEX = "0123456789abcdef"
UPPER_ALNUM = string.ascii_uppercase + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def r(alphabet: str, n: int) -> str:
    """``n`` random characters of ``alphabet``, with a digit and (for mixed alphabets) both cases."""
    while True:
        v = "".join(RNG.choice(alphabet) for _ in range(n))
        if n < 12 or alphabet in (HEX, string.digits, string.ascii_letters):
            return v
        mixed = any(c.isupper() for c in alphabet) and any(c.islower() for c in alphabet)
        if any(c.isdigit() for c in v) and (not mixed or (any(c.isupper() for c in v) and any(c.islower() for c in v))):
            return v


def digits(n: int) -> str:
    return str(RNG.randint(1, 9)) + "".join(RNG.choice(string.digits) for _ in range(n - 1))


def crc_token(prefix: str) -> str:
    """A GitHub/npm-style token: 30 random base62 characters and their CRC32 in six base62 characters."""
    body = r(B62, 30)
    n, out = zlib.crc32(body.encode()), ""
    while n:
        n, rem = divmod(n, 62)
        out = B62[rem] + out
    return prefix + body + out.rjust(6, "0")


def b64json(obj: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")


def uid() -> str:
    return str(uuid.UUID(int=RNG.getrandbits(128), version=4))


# (vendor, documented kind, env var, source url, secret maker, look-alike maker or None, look-alike kind)
Spec = tuple[str, str, str, str, Callable[[], str], Callable[[], str] | None, str]
SPECS: list[Spec] = [
    ("GitHub", "classic personal access token", "GITHUB_TOKEN",
     "https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/",
     lambda: crc_token("ghp_"), None, ""),
    ("GitHub", "fine-grained personal access token", "GH_TOKEN",
     "https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens",
     lambda: "github_pat_" + r(B62, 22) + "_" + r(B62, 59), None, ""),
    ("GitLab", "personal access token", "GITLAB_TOKEN", "https://docs.gitlab.com/security/tokens/#token-prefixes",
     lambda: "glpat-" + r(B64URL, 20), None, ""),
    ("GitLab", "runner authentication token", "CI_RUNNER_TOKEN",
     "https://docs.gitlab.com/security/tokens/#token-prefixes", lambda: "glrt-" + r(B64URL, 20), None, ""),
    ("Slack", "bot token", "SLACK_BOT_TOKEN", "https://api.slack.com/authentication/token-types",
     lambda: f"xoxb-{digits(12)}-{digits(13)}-{r(string.ascii_letters + string.digits, 24)}", None, ""),
    ("Slack", "incoming webhook URL", "SLACK_WEBHOOK_URL", "https://api.slack.com/messaging/webhooks",
     lambda: f"https://hooks.slack.com/services/T{r(UPPER_ALNUM, 8)}/B{r(UPPER_ALNUM, 10)}/{r(string.ascii_letters + string.digits, 24)}",
     None, ""),
    ("Stripe", "secret key", "STRIPE_SECRET_KEY", "https://docs.stripe.com/keys",
     lambda: "sk_live_51" + r(string.ascii_letters + string.digits, 97),
     lambda: "pk_live_51" + r(string.ascii_letters + string.digits, 97), "publishable key"),
    ("Stripe", "webhook signing secret", "STRIPE_WEBHOOK_SECRET", "https://docs.stripe.com/webhooks#verify-events",
     lambda: "whsec_" + r(string.ascii_letters + string.digits, 32), None, ""),
    ("OpenAI", "project API key", "OPENAI_API_KEY", "https://platform.openai.com/docs/api-reference/authentication",
     lambda: "sk-proj-" + r(B64URL, 74) + "T3BlbkFJ" + r(B64URL, 74), None, ""),
    ("Anthropic", "API key", "ANTHROPIC_API_KEY", "https://docs.anthropic.com/en/api/overview",
     lambda: "sk-ant-api03-" + r(B64URL, 93) + "AA", None, ""),
    ("AWS", "access key id and secret access key", "AWS_SECRET_ACCESS_KEY",
     "https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html",
     lambda: "AKIA" + r(string.ascii_uppercase + "234567", 16) + " " + r(B64, 40),
     lambda: f"arn:aws:iam::{digits(12)}:role/deploy-{RNG.choice(['ci', 'prod', 'ops'])}", "role ARN"),
    ("Google Cloud", "API key", "GOOGLE_API_KEY", "https://cloud.google.com/docs/authentication/api-keys",
     lambda: "AIza" + r(B64URL, 35), None, ""),
    ("Google", "OAuth client secret", "GOOGLE_CLIENT_SECRET", "https://developers.google.com/identity/protocols/oauth2",
     lambda: "GOCSPX-" + r(B64URL, 28),
     lambda: f"{digits(12)}-{r(LOWER_ALNUM, 32)}.apps.googleusercontent.com", "OAuth client id"),
    ("Twilio", "API key SID and secret", "TWILIO_API_SECRET", "https://www.twilio.com/docs/iam/api-keys",
     lambda: "SK" + r(HEX, 32) + " " + r(string.ascii_letters + string.digits, 32), None, ""),
    ("SendGrid", "API key", "SENDGRID_API_KEY",
     "https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys",
     lambda: f"SG.{r(B64URL, 22)}.{r(B64URL, 43)}", None, ""),
    ("Mailgun", "private API key", "MAILGUN_API_KEY",
     "https://documentation.mailgun.com/docs/mailgun/api-reference/authentication",
     lambda: "key-" + r(HEX, 32), lambda: "pubkey-" + r(HEX, 32), "public validation key"),
    ("Shopify", "Admin API access token", "SHOPIFY_ACCESS_TOKEN",
     "https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens",
     lambda: "shpat_" + r(HEX, 32), None, ""),
    ("Shopify", "app shared secret", "SHOPIFY_API_SECRET",
     "https://shopify.dev/docs/apps/build/authentication-authorization/client-secrets",
     lambda: "shpss_" + r(HEX, 32), None, ""),
    ("npm", "access token", "NPM_TOKEN", "https://docs.npmjs.com/about-access-tokens",
     lambda: crc_token("npm_"), None, ""),
    ("PyPI", "API token", "TWINE_PASSWORD", "https://pypi.org/help/#apitoken",
     lambda: "pypi-AgEIcHlwaS5vcmc" + r(B64URL, 160), None, ""),
    ("Hugging Face", "user access token", "HF_TOKEN", "https://huggingface.co/docs/hub/security-tokens",
     lambda: "hf_" + r(string.ascii_letters, 34), None, ""),
    ("DigitalOcean", "personal access token", "DIGITALOCEAN_TOKEN",
     "https://docs.digitalocean.com/reference/api/create-personal-access-token/",
     lambda: "dop_v1_" + r(HEX, 64), None, ""),
    ("HashiCorp Vault", "service token", "VAULT_TOKEN",
     "https://developer.hashicorp.com/vault/docs/concepts/tokens#token-prefixes",
     lambda: "hvs." + r(string.ascii_letters + string.digits, 24), None, ""),
    ("HCP Terraform", "API token", "TFE_TOKEN",
     "https://developer.hashicorp.com/terraform/cloud-docs/users-teams-organizations/api-tokens",
     lambda: f"{r(string.ascii_letters + string.digits, 14)}.atlasv1.{r(string.ascii_letters + string.digits, 67)}",
     None, ""),
    ("Doppler", "service token", "DOPPLER_TOKEN", "https://docs.doppler.com/docs/Auth-token-formats",
     lambda: f"dp.st.{RNG.choice(['dev', 'prd', 'stg'])}.{r(string.ascii_letters + string.digits, 43)}", None, ""),
    ("Doppler", "personal token", "DOPPLER_TOKEN", "https://docs.doppler.com/docs/Auth-token-formats",
     lambda: "dp.pt." + r(string.ascii_letters + string.digits, 43), None, ""),
    ("Databricks", "personal access token", "DATABRICKS_TOKEN",
     "https://docs.databricks.com/en/dev-tools/auth/pat.html", lambda: "dapi" + r(HEX, 32), None, ""),
    ("Atlassian", "API token", "JIRA_API_TOKEN",
     "https://support.atlassian.com/atlassian-account/docs/manage-api-tokens-for-your-atlassian-account/",
     lambda: "ATATT3xFfGF0" + r(B64URL, 170) + "=" + r(HEX, 8).upper(), None, ""),
    ("Bitbucket", "app password", "BITBUCKET_APP_PASSWORD",
     "https://support.atlassian.com/bitbucket-cloud/docs/app-passwords/",
     lambda: "ATBB" + r(string.ascii_letters + string.digits, 32), None, ""),
    ("Linear", "personal API key", "LINEAR_API_KEY", "https://linear.app/developers/graphql",
     lambda: "lin_api_" + r(string.ascii_letters + string.digits, 40), None, ""),
    ("Notion", "internal integration secret", "NOTION_TOKEN", "https://developers.notion.com/docs/authorization",
     lambda: "ntn_" + digits(11) + r(string.ascii_letters + string.digits, 35), None, ""),
    ("Postman", "API key", "POSTMAN_API_KEY",
     "https://learning.postman.com/docs/developer/postman-api/authentication/",
     lambda: f"PMAK-{r(HEX, 24)}-{r(HEX, 34)}", None, ""),
    ("Grafana", "service account token", "GRAFANA_TOKEN",
     "https://grafana.com/docs/grafana/latest/administration/service-accounts/",
     lambda: f"glsa_{r(string.ascii_letters + string.digits, 32)}_{r(HEX, 8)}", None, ""),
    ("Sentry", "user auth token", "SENTRY_AUTH_TOKEN", "https://docs.sentry.io/account/auth-tokens/",
     lambda: "sntryu_" + r(HEX, 64),
     lambda: f"https://{r(HEX, 32)}@o{digits(6)}.ingest.sentry.io/{digits(7)}", "DSN (public by design)"),
    ("New Relic", "user API key", "NEW_RELIC_API_KEY",
     "https://docs.newrelic.com/docs/apis/intro-apis/new-relic-api-keys/",
     lambda: "NRAK-" + r(UPPER_ALNUM, 27), None, ""),
    ("New Relic", "license key", "NEW_RELIC_LICENSE_KEY",
     "https://docs.newrelic.com/docs/apis/intro-apis/new-relic-api-keys/", lambda: r(HEX, 36) + "NRAL", None, ""),
    ("Figma", "personal access token", "FIGMA_TOKEN", "https://www.figma.com/developers/api#access-tokens",
     lambda: "figd_" + r(B64URL, 40), None, ""),
    ("PlanetScale", "service token", "PLANETSCALE_SERVICE_TOKEN",
     "https://planetscale.com/docs/concepts/service-tokens",
     lambda: "pscale_tkn_" + r(string.ascii_letters + string.digits + "_", 43), None, ""),
    ("PlanetScale", "database password", "DATABASE_PASSWORD",
     "https://planetscale.com/docs/concepts/connection-strings",
     lambda: "pscale_pw_" + r(string.ascii_letters + string.digits + "_", 43), None, ""),
    ("Supabase", "secret key", "SUPABASE_SECRET_KEY", "https://supabase.com/docs/guides/api/api-keys",
     lambda: "sb_secret_" + r(B64URL, 31), lambda: "sb_publishable_" + r(B64URL, 31), "publishable key"),
    ("Pulumi", "access token", "PULUMI_ACCESS_TOKEN",
     "https://www.pulumi.com/docs/pulumi-cloud/access-management/access-tokens/",
     lambda: "pul-" + r(HEX, 40), None, ""),
    ("Mailchimp", "API key", "MAILCHIMP_API_KEY", "https://mailchimp.com/developer/marketing/guides/quick-start/",
     lambda: f"{r(HEX, 32)}-us{RNG.randint(1, 21)}", None, ""),
    ("Dropbox", "short-lived access token", "DROPBOX_TOKEN", "https://developers.dropbox.com/oauth-guide",
     lambda: "sl." + r(B64URL, 138), None, ""),
    ("Discord", "bot token", "DISCORD_TOKEN", "https://discord.com/developers/docs/reference#authentication",
     lambda: base64.b64encode(digits(18).encode()).decode().rstrip("=") + "." + r(B64URL, 6) + "." + r(B64URL, 38),
     None, ""),
    ("Discord", "webhook URL", "DISCORD_WEBHOOK_URL", "https://discord.com/developers/docs/resources/webhook",
     lambda: f"https://discord.com/api/webhooks/{digits(18)}/{r(B64URL, 68)}", None, ""),
    ("Telegram", "bot token", "TELEGRAM_BOT_TOKEN", "https://core.telegram.org/bots/api#authorizing-your-bot",
     lambda: f"{digits(10)}:AA{r(B64URL, 33)}", lambda: f"-100{digits(10)}", "chat id"),
    ("Azure Storage", "account key", "AZURE_STORAGE_KEY",
     "https://learn.microsoft.com/en-us/azure/storage/common/storage-configure-connection-string",
     lambda: r(B64, 86) + "==", None, ""),
    ("Square", "production access token", "SQUARE_ACCESS_TOKEN",
     "https://developer.squareup.com/docs/build-basics/access-tokens",
     lambda: "EAAA" + r(B64URL, 60), lambda: "sq0idp-" + r(B64URL, 22), "application id"),
    ("Shippo", "live API token", "SHIPPO_API_KEY", "https://docs.goshippo.com/docs/guides_general/authentication/",
     lambda: "shippo_live_" + r(HEX, 40), None, ""),
    ("EasyPost", "production API key", "EASYPOST_API_KEY", "https://docs.easypost.com/docs/authentication",
     lambda: "EZAK" + r(string.ascii_letters + string.digits, 54), None, ""),
    ("age", "secret key", "SOPS_AGE_KEY", "https://age-encryption.org/v1",
     lambda: "AGE-SECRET-KEY-1" + r(BECH32, 58).upper(), lambda: "age1" + r(BECH32, 58), "recipient (public key)"),
    ("Tailscale", "auth key", "TS_AUTHKEY", "https://tailscale.com/kb/1277/key-prefixes",
     lambda: f"tskey-auth-k{r(string.ascii_letters + string.digits, 10)}CNTRL-{r(string.ascii_letters + string.digits, 33)}",
     None, ""),
    ("Tailscale", "API access token", "TAILSCALE_API_KEY", "https://tailscale.com/kb/1277/key-prefixes",
     lambda: f"tskey-api-k{r(string.ascii_letters + string.digits, 10)}CNTRL-{r(string.ascii_letters + string.digits, 33)}",
     None, ""),
    ("Pinecone", "API key", "PINECONE_API_KEY", "https://docs.pinecone.io/guides/projects/manage-api-keys",
     lambda: f"pcsk_{r(string.ascii_letters + string.digits, 6)}_{r(string.ascii_letters + string.digits, 63)}",
     None, ""),
    ("Groq", "API key", "GROQ_API_KEY", "https://console.groq.com/docs/quickstart",
     lambda: "gsk_" + r(string.ascii_letters + string.digits, 52), None, ""),
    ("Replicate", "API token", "REPLICATE_API_TOKEN", "https://replicate.com/docs/topics/security/api-tokens",
     lambda: "r8_" + r(string.ascii_letters + string.digits, 37), None, ""),
    ("Perplexity", "API key", "PERPLEXITY_API_KEY", "https://docs.perplexity.ai/guides/getting-started",
     lambda: "pplx-" + r(string.ascii_letters + string.digits, 48), None, ""),
    ("xAI", "API key", "XAI_API_KEY", "https://docs.x.ai/docs/overview",
     lambda: "xai-" + r(string.ascii_letters + string.digits, 80), None, ""),
    ("OpenRouter", "API key", "OPENROUTER_API_KEY", "https://openrouter.ai/docs/api-reference/authentication",
     lambda: "sk-or-v1-" + r(HEX, 64), None, ""),
    ("NVIDIA", "API key", "NVIDIA_API_KEY", "https://docs.api.nvidia.com/nim/reference/llm-apis",
     lambda: "nvapi-" + r(B64URL, 64), None, ""),
    ("Tavily", "API key", "TAVILY_API_KEY", "https://docs.tavily.com/documentation/quickstart",
     lambda: "tvly-dev-" + r(string.ascii_letters + string.digits, 32), None, ""),
    ("Langfuse", "secret key", "LANGFUSE_SECRET_KEY", "https://langfuse.com/docs/get-started",
     lambda: "sk-lf-" + uid(), lambda: "pk-lf-" + uid(), "public key"),
    ("LangSmith", "personal access token", "LANGSMITH_API_KEY",
     "https://docs.smith.langchain.com/administration/how_to_guides/organization_management/create_account_api_key",
     lambda: f"lsv2_pt_{r(HEX, 32)}_{r(HEX, 10)}", None, ""),
    ("PostHog", "personal API key", "POSTHOG_PERSONAL_API_KEY", "https://posthog.com/docs/api/personal-api-keys",
     lambda: "phx_" + r(string.ascii_letters + string.digits, 43),
     lambda: "phc_" + r(string.ascii_letters + string.digits, 43), "project API key"),
    ("LaunchDarkly", "server-side SDK key", "LAUNCHDARKLY_SDK_KEY",
     "https://docs.launchdarkly.com/sdk/concepts/client-side-server-side#keys", lambda: "sdk-" + uid(), None, ""),
    ("Statsig", "server secret key", "STATSIG_SERVER_SECRET", "https://docs.statsig.com/sdk-keys/api-keys",
     lambda: "secret-" + r(string.ascii_letters + string.digits, 43),
     lambda: "client-" + r(string.ascii_letters + string.digits, 43), "client SDK key"),
    ("HubSpot", "private app access token", "HUBSPOT_ACCESS_TOKEN",
     "https://developers.hubspot.com/docs/api/private-apps", lambda: "pat-na1-" + uid(), None, ""),
    ("Brevo", "API key", "BREVO_API_KEY", "https://developers.brevo.com/docs/getting-started",
     lambda: f"xkeysib-{r(HEX, 64)}-{r(string.ascii_letters + string.digits, 16)}", None, ""),
    ("Resend", "API key", "RESEND_API_KEY", "https://resend.com/docs/dashboard/api-keys/introduction",
     lambda: f"re_{r(string.ascii_letters + string.digits, 8)}_{r(string.ascii_letters + string.digits, 24)}",
     None, ""),
    ("Paddle", "API key", "PADDLE_API_KEY", "https://developer.paddle.com/api-reference/about/api-keys",
     lambda: f"pdl_live_apikey_01{r(UPPER_ALNUM, 24)}_{r(string.ascii_letters + string.digits, 22)}_{r(string.ascii_letters + string.digits, 3)}",
     lambda: "live_" + r(HEX, 27), "client-side token"),
    ("Apify", "API token", "APIFY_TOKEN", "https://docs.apify.com/platform/integrations/api",
     lambda: "apify_api_" + r(string.ascii_letters + string.digits, 36), None, ""),
    ("Firecrawl", "API key", "FIRECRAWL_API_KEY", "https://docs.firecrawl.dev/introduction",
     lambda: "fc-" + r(HEX, 32), None, ""),
    ("E2B", "API key", "E2B_API_KEY", "https://e2b.dev/docs/api-key", lambda: "e2b_" + r(HEX, 40), None, ""),
    ("Mapbox", "secret access token", "MAPBOX_SECRET_TOKEN",
     "https://docs.mapbox.com/help/dive-deeper/access-tokens/",
     lambda: "sk." + b64json({"u": "acme-maps", "a": r(LOWER_ALNUM, 25)}) + "." + r(B64URL, 22),
     lambda: "pk." + b64json({"u": "acme-maps", "a": r(LOWER_ALNUM, 25)}) + "." + r(B64URL, 22), "public token"),
    ("Scaleway", "API key", "SCW_SECRET_KEY", "https://www.scaleway.com/en/docs/iam/concepts/#api-key",
     lambda: "SCW" + r(UPPER_ALNUM, 17) + " " + uid(), None, ""),
    ("Alibaba Cloud", "AccessKey pair", "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
     "https://www.alibabacloud.com/help/en/ram/user-guide/create-an-accesskey-pair",
     lambda: "LTAI" + r(string.ascii_letters + string.digits, 20) + " " + r(string.ascii_letters + string.digits, 30),
     None, ""),
    ("Sourcegraph", "access token", "SRC_ACCESS_TOKEN",
     "https://sourcegraph.com/docs/cli/how-tos/creating_an_access_token",
     lambda: f"sgp_{r(HEX, 16)}_{r(HEX, 40)}", None, ""),
    ("Buildkite", "API access token", "BUILDKITE_API_TOKEN", "https://buildkite.com/docs/apis/managing-api-tokens",
     lambda: "bkua_" + r(HEX, 40), None, ""),
    ("Docker", "personal access token", "DOCKERHUB_TOKEN",
     "https://docs.docker.com/security/for-developers/access-tokens/", lambda: "dckr_pat_" + r(B64URL, 27), None, ""),
    ("SonarQube", "user token", "SONAR_TOKEN",
     "https://docs.sonarsource.com/sonarqube-server/latest/user-guide/managing-tokens/",
     lambda: "squ_" + r(HEX, 40), None, ""),
    ("RubyGems", "API key", "GEM_HOST_API_KEY", "https://guides.rubygems.org/api-key-scopes/",
     lambda: "rubygems_" + r(HEX, 48), None, ""),
    ("Contentful", "personal access token", "CONTENTFUL_MANAGEMENT_TOKEN",
     "https://www.contentful.com/developers/docs/references/authentication/", lambda: "CFPAT-" + r(B64URL, 43),
     None, ""),
    ("1Password", "service account token", "OP_SERVICE_ACCOUNT_TOKEN",
     "https://developer.1password.com/docs/service-accounts/",
     lambda: "ops_" + b64json({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
                                "iterations": 650000, "salt": r(B64URL, 22)}, "email": r(LOWER_ALNUM, 13) + "@1passwordserviceaccounts.com",
                                "srpX": r(HEX, 64), "muk": {"alg": "A256GCM", "k": r(B64URL, 43)}, "secretKey": "A3-" + r(UPPER_ALNUM, 6)}),
     None, ""),
    ("Okta", "API token", "OKTA_API_TOKEN", "https://developer.okta.com/docs/guides/create-an-api-token/main/",
     lambda: "00" + r(B64URL, 40), None, ""),
    ("Render", "API key", "RENDER_API_KEY", "https://render.com/docs/api#1-create-an-api-key",
     lambda: "rnd_" + r(string.ascii_letters + string.digits, 32), None, ""),
    ("Neon", "API key", "NEON_API_KEY", "https://neon.tech/docs/manage/api-keys",
     lambda: "napi_" + r(LOWER_ALNUM, 64), None, ""),
    ("Prefect", "API key", "PREFECT_API_KEY", "https://docs.prefect.io/v3/manage/cloud/manage-users/api-keys",
     lambda: "pnu_" + r(string.ascii_letters + string.digits, 36), None, ""),
    ("Dynatrace", "API token", "DT_API_TOKEN",
     "https://docs.dynatrace.com/docs/dynatrace-api/basics/dynatrace-api-authentication",
     lambda: f"dt0c01.{r(UPPER_ALNUM, 24)}.{r(UPPER_ALNUM, 64)}", lambda: f"dt0c01.{r(UPPER_ALNUM, 24)}",
     "token identifier (documented as safe to display)"),
    ("Cloudflare", "Origin CA key", "CF_API_KEY", "https://developers.cloudflare.com/fundamentals/api/get-started/ca-keys/",
     lambda: f"v1.0-{r(HEX, 24)}-{r(HEX, 146)}", None, ""),
    ("Mollie", "live API key", "MOLLIE_API_KEY", "https://docs.mollie.com/reference/authentication",
     lambda: "live_" + r(string.ascii_letters + string.digits, 30), lambda: "pfl_" + r(string.ascii_letters + string.digits, 10),
     "profile id"),
    ("Flutterwave", "secret key", "FLW_SECRET_KEY",
     "https://developer.flutterwave.com/docs/integration-guides/authentication",
     lambda: f"FLWSECK-{r(HEX, 32)}-X", lambda: f"FLWPUBK-{r(HEX, 32)}-X", "public key"),
    ("Paystack", "secret key", "PAYSTACK_SECRET_KEY", "https://paystack.com/docs/api/authentication/",
     lambda: "sk_live_" + r(HEX, 40), lambda: "pk_live_" + r(HEX, 40), "public key"),
    ("Checkout.com", "sandbox secret key", "CKO_SECRET_KEY",
     "https://www.checkout.com/docs/developer-resources/api/api-keys",
     lambda: "sk_sbox_" + r("abcdefghijklmnopqrstuvwxyz234567", 26), lambda: "pk_sbox_" + r("abcdefghijklmnopqrstuvwxyz234567", 26),
     "public key"),
    ("Clerk", "secret key", "CLERK_SECRET_KEY", "https://clerk.com/docs/deployments/clerk-environment-variables",
     lambda: "sk_live_" + r(string.ascii_letters + string.digits, 42),
     lambda: "pk_live_" + base64.b64encode(b"clerk.acme-notes.com$").decode(), "publishable key"),
    ("Cloudinary", "API environment variable", "CLOUDINARY_URL",
     "https://cloudinary.com/documentation/node_integration#setting_configuration_parameters",
     lambda: f"cloudinary://{digits(15)}:{r(B64URL, 27)}@acme-media", None, ""),
    ("JFrog", "reference token", "JFROG_ACCESS_TOKEN",
     "https://jfrog.com/help/r/jfrog-platform-administration-documentation/access-tokens",
     lambda: base64.b64encode(f"reftkn:01:{digits(10)}:{r(string.ascii_letters + string.digits, 32)}".encode()).decode().rstrip("="),
     None, ""),
    ("Intercom", "access token", "INTERCOM_ACCESS_TOKEN",
     "https://developers.intercom.com/docs/build-an-integration/learn-more/authentication",
     lambda: base64.b64encode(f"tok:{uid()}:{digits(1)}:0".encode()).decode(), None, ""),
    ("ElevenLabs", "API key", "ELEVENLABS_API_KEY", "https://elevenlabs.io/docs/api-reference/authentication",
     lambda: "sk_" + r(HEX, 48), None, ""),
    ("DeepSeek", "API key", "DEEPSEEK_API_KEY", "https://api-docs.deepseek.com/", lambda: "sk-" + r(HEX, 32), None, ""),
    ("Adafruit IO", "key", "ADAFRUIT_IO_KEY", "https://io.adafruit.com/api/docs/#authentication",
     lambda: "aio_" + r(string.ascii_letters + string.digits, 28), None, ""),
    ("Yandex Cloud", "API key", "YC_API_KEY", "https://yandex.cloud/en/docs/iam/concepts/authorization/api-key",
     lambda: "AQVN" + r(B64URL, 36), None, ""),
    ("Infracost", "API key", "INFRACOST_API_KEY", "https://www.infracost.io/docs/",
     lambda: "ico-" + r(string.ascii_letters + string.digits, 32), None, ""),
    ("Deno Deploy", "access token", "DENO_DEPLOY_TOKEN", "https://docs.deno.com/deploy/manual/api/",
     lambda: "ddp_" + r(string.ascii_letters + string.digits, 36), None, ""),
    ("Razorpay", "key id and key secret", "RAZORPAY_KEY_SECRET", "https://razorpay.com/docs/api/authentication/",
     lambda: "rzp_live_" + r(string.ascii_letters + string.digits, 14) + " " + r(string.ascii_letters + string.digits, 24),
     lambda: "rzp_live_" + r(string.ascii_letters + string.digits, 14), "key id (sent to the browser by Checkout)"),
]  # fmt: skip

PUBLIC_PIECES = ("rzp_",)
"""The id half of a pair that its docs call public (Razorpay's key id goes to the browser's Checkout)."""

CONFIG = (
    "export {ENV}={v}",
    '{ENV}="{v}"',
    "{env}: {v}",
    '  "{env}": "{v}",',
)
SHELL = (
    'curl -sS -H "Authorization: Bearer {v}" https://api.{slug}.example/v1/me',
    "docker run -e {ENV}='{v}' ghcr.io/acme/worker:1.4",
    "gh secret set {ENV} --body '{v}'",
    "kubectl create secret generic {slug} --from-literal=token={v}",
)
SPEECH = (
    "new {V} {kind} is {v} - revoke the old one on Friday",
    "Priya pasted {v} into the deploy settings, it's the prod one",
    "{V}: rotated today, {kind} now {v}",
    "remember for staging the token is {v} until the migration is done",
)
LOOK = (
    "{V} {lkind}: {v}",
    "NEXT_PUBLIC_{VU}_KEY={v}",
)


def _fill(template: str, vendor: str, kind: str, env: str, value: str) -> str:
    slug = "".join(c if c.isalnum() else "-" for c in vendor.lower()).strip("-")
    vu = slug.replace("-", "_").upper()
    return template.format(V=vendor, VU=vu, kind=kind, ENV=env, env=env.lower(), v=value, slug=slug, lkind=kind)


def build() -> dict:
    secrets, benign = [], []
    for i, (vendor, kind, env, url, make, look, lkind) in enumerate(SPECS):
        family = f"{vendor} {kind}"
        for j, templates in enumerate((CONFIG, SHELL, SPEECH)):
            value = make()
            pieces = value.split(" ")
            text_value = pieces[0] if len(pieces) == 1 else f"{pieces[0]} {pieces[1]}"
            text = _fill(templates[(i + j) % len(templates)], vendor, kind, env, text_value)
            secret = [p for p in pieces if p and not p.startswith(PUBLIC_PIECES)]
            secrets.append({"family": family, "text": text, "secrets": secret, "url": url})
        if look is not None:
            for template in LOOK:
                value = look()
                benign.append(
                    {
                        "family": f"{vendor} {lkind}",
                        "text": _fill(template, vendor, lkind, env, value),
                        "url": url,
                    }
                )
    return {
        "source": __doc__.splitlines()[0] + " (fixed seed 61; each sample's url is the vendor page stating the format)",
        "vendors": sorted({s[0] for s in SPECS} | {u[0] for u in _usage()} | {p[0] for p in PLAIN}),
        "vendordocs2": secrets + build_usage() + build_plain(),
        "vendordocs2-benign": benign,
    }


def _pair(a: str, b: str) -> list[str]:
    return [a, b]


# Lines as the vendors' docs show a key in use (a command, a client constructor, a connection string),
# often an id and its secret together. (vendor, kind, url, maker of (text, secret pieces)).
Usage = tuple[str, str, str, Callable[[], tuple[str, list[str]]]]


def _usage() -> list[Usage]:
    an = string.ascii_letters + string.digits
    out: list[Usage] = []

    def add(vendor: str, kind: str, url: str, make: Callable[[], tuple[str, list[str]]]) -> None:
        out.append((vendor, kind, url, make))

    def u1() -> tuple[str, list[str]]:
        k, s = "DO00" + r(UPPER_ALNUM, 16), r(B64, 43)
        return f"s3cmd --access_key={k} --secret_key={s} --host=nyc3.digitaloceanspaces.com ls", [k, s]

    add("DigitalOcean Spaces", "access key", "https://docs.digitalocean.com/products/spaces/how-to/manage-access/", u1)

    def u2() -> tuple[str, list[str]]:
        k, s = "000" + r(HEX, 22), "K000" + r(an, 27)
        return f"b2 account authorize {k} {s}", [s]  # the key id is the account's name for the key, not a secret

    add("Backblaze B2", "application key", "https://www.backblaze.com/docs/cloud-storage-application-keys", u2)

    def u3() -> tuple[str, list[str]]:
        k, s = "GOOG1E" + r(UPPER_ALNUM, 55), r(B64, 40)
        return f"gsutil hmac: access id {k} secret {s}", [k, s]

    add("Google Cloud Storage", "HMAC key", "https://cloud.google.com/storage/docs/authentication/hmackeys", u3)

    def u4() -> tuple[str, list[str]]:
        k, s = r(HEX, 8), r(an, 16)
        return f"vonage auth set --api-key={k} --api-secret={s}", [s]

    add("Vonage", "API key and secret", "https://developer.vonage.com/en/getting-started/concepts/authentication", u4)

    def u5() -> tuple[str, list[str]]:
        k, s = r(HEX, 20), r(HEX, 20)
        return f"const pusher = new Pusher({{ appId: '{digits(7)}', key: '{k}', secret: '{s}', cluster: 'eu' }});", [s]

    add("Pusher", "app secret", "https://pusher.com/docs/channels/server_api/http-api/", u5)

    def u6() -> tuple[str, list[str]]:
        k = f"{r(B64URL, 6)}.{r(B64URL, 6)}:{r(B64URL, 43)}"
        return f"const ably = new Ably.Realtime('{k}');", [k.split(":")[1]]

    add("Ably", "API key", "https://ably.com/docs/auth/basic", u6)

    def u7() -> tuple[str, list[str]]:
        s = "sec-c-" + base64.b64encode(r(an, 36).encode()).decode()
        return f"pubnub = PubNub(publish_key='pub-c-{uid()}', subscribe_key='sub-c-{uid()}', secret_key='{s}')", [s]

    add("PubNub", "secret key", "https://www.pubnub.com/docs/general/basics/set-up-your-account", u7)

    def u8() -> tuple[str, list[str]]:
        k, s = r(LOWER_ALNUM, 12), r(LOWER_ALNUM, 64)
        return f"client = stream.connect('{k}', '{s}', location='us-east')", [s]

    add("Stream", "API secret", "https://getstream.io/chat/docs/python/", u8)

    def u9() -> tuple[str, list[str]]:
        s = "KEY" + r(HEX, 32).upper() + "_" + r(an, 22)
        return f'telnyx.api_key = "{s}"', [s]

    add("Telnyx", "API key", "https://developers.telnyx.com/docs/development/authentication", u9)

    def u10() -> tuple[str, list[str]]:
        k, s = "MA" + r(UPPER_ALNUM, 18), r(an, 40)
        return f"client = plivo.RestClient('{k}', '{s}')", [s]

    add("Plivo", "auth token", "https://www.plivo.com/docs/", u10)

    def u11() -> tuple[str, list[str]]:
        k, s = r(LOWER_ALNUM, 8), uid()
        return f"atlas config set public_api_key {k} && atlas config set private_api_key {s}", [s]

    add("MongoDB Atlas", "programmatic API key", "https://www.mongodb.com/docs/atlas/configure-api-access/", u11)

    def u12() -> tuple[str, list[str]]:
        k, s = r(UPPER_ALNUM, 16), r(B64, 64)
        return f"confluent api-key store {k} {s} --resource lkc-{r(LOWER_ALNUM, 5)}", [s]

    add(
        "Confluent Cloud",
        "API key and secret",
        "https://docs.confluent.io/cloud/current/security/authenticate/workload-identities/service-accounts/api-keys/overview.html",
        u12,
    )

    def u13() -> tuple[str, list[str]]:
        s = r(B64, 43) + "="
        return (
            f"Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={s}",
            [s],
        )

    add(
        "Azure Service Bus",
        "connection string",
        "https://learn.microsoft.com/en-us/azure/service-bus-messaging/service-bus-sas",
        u13,
    )

    def u14() -> tuple[str, list[str]]:
        s = r(an, 52).lower()
        return f"az devops login --org https://dev.azure.com/acme  # PAT {s}", [s]

    add(
        "Azure DevOps",
        "personal access token",
        "https://learn.microsoft.com/en-us/azure/devops/organizations/accounts/use-personal-access-tokens-to-authenticate",
        u14,
    )

    def u15() -> tuple[str, list[str]]:
        s = r(B64URL, 56)
        return f"https://acme-fn.azurewebsites.net/api/HttpTrigger1?code={s}==", [s]

    add(
        "Azure Functions",
        "function key",
        "https://learn.microsoft.com/en-us/azure/azure-functions/function-keys-how-to",
        u15,
    )

    def u16() -> tuple[str, list[str]]:
        s = "ATTA" + r(HEX, 64) + r(HEX, 8).upper()
        return f"curl 'https://api.trello.com/1/members/me/boards?key={r(HEX, 32)}&token={s}'", [s]

    add("Trello", "API token", "https://developer.atlassian.com/cloud/trello/guides/rest-api/api-introduction/", u16)

    def u17() -> tuple[str, list[str]]:
        s = "pk_" + digits(8) + "_" + r(UPPER_ALNUM, 32)
        return f"curl -H 'Authorization: {s}' https://api.clickup.com/api/v2/team", [s]

    add("ClickUp", "personal API token", "https://clickup.com/api/developer-portal/authentication/", u17)

    def u18() -> tuple[str, list[str]]:
        s = f"pat{r(an, 14)}.{r(HEX, 64)}"
        return f"AIRTABLE_API_KEY={s}", [s]

    add("Airtable", "personal access token", "https://airtable.com/developers/web/guides/personal-access-tokens", u18)

    def u19() -> tuple[str, list[str]]:
        s = "os_v2_app_" + r("abcdefghijklmnopqrstuvwxyz234567", 113)
        return f"curl -H 'Authorization: Key {s}' https://api.onesignal.com/notifications", [s]

    add("OneSignal", "app API key", "https://documentation.onesignal.com/docs/keys-and-ids", u19)

    def u20() -> tuple[str, list[str]]:
        k, s = r(LOWER_ALNUM, 15), r(LOWER_ALNUM, 15)
        return f"dropbox app key {k}, app secret {s}", [s]

    add("Dropbox", "app secret", "https://developers.dropbox.com/oauth-guide", u20)

    def u21() -> tuple[str, list[str]]:
        s = r(an, 40)
        return f"zendesk: user ops@acme.io/token, api token {s}", [s]

    add("Zendesk", "API token", "https://developer.zendesk.com/api-reference/introduction/security-and-auth/", u21)

    def u22() -> tuple[str, list[str]]:
        s = r(an, 20)
        return f"curl -u {s}:X https://acme.freshdesk.com/api/v2/tickets", [s]

    add("Freshdesk", "API key", "https://developers.freshdesk.com/api/#authentication", u22)

    def u23() -> tuple[str, list[str]]:
        k, s = r(HEX, 32), r(HEX, 32)
        return f'curl -s -X POST --user "{k}:{s}" https://api.mailjet.com/v3.1/send', [k, s]

    add("Mailjet", "API key and secret", "https://dev.mailjet.com/email/guides/", u23)

    def u24() -> tuple[str, list[str]]:
        s = r(HEX, 37)
        return f"curl -H 'X-Auth-Email: ops@acme.io' -H 'X-Auth-Key: {s}' https://api.cloudflare.com/client/v4/zones", [
            s
        ]

    add("Cloudflare", "global API key", "https://developers.cloudflare.com/fundamentals/api/get-started/keys/", u24)

    def u25() -> tuple[str, list[str]]:
        s = r(B64URL, 40)
        return f"wrangler whoami  # CLOUDFLARE_API_TOKEN {s}", [s]

    add("Cloudflare", "API token", "https://developers.cloudflare.com/fundamentals/api/get-started/create-token/", u25)

    def u26() -> tuple[str, list[str]]:
        k, s = r(HEX, 32), r(HEX, 40)
        return f"datadog: api key {k} app key {s}", [k, s]

    add("Datadog", "API and application keys", "https://docs.datadoghq.com/account_management/api-app-keys/", u26)

    def u27() -> tuple[str, list[str]]:
        k, s = r(UPPER_ALNUM, 16), r(B64URL, 32)
        return f"ovh: application key {k}, application secret {s}", [s]

    add("OVHcloud", "application secret", "https://help.ovhcloud.com/csm/en-api-getting-started-ovhcloud-api", u27)

    def u28() -> tuple[str, list[str]]:
        s = r(B64URL, 44)
        return f"ibmcloud login --apikey {s} -r us-south", [s]

    add("IBM Cloud", "API key", "https://cloud.ibm.com/docs/account?topic=account-userapikey", u28)

    def u29() -> tuple[str, list[str]]:
        s = r(UPPER_ALNUM, 36)
        return f"vultr-cli: export VULTR_API_KEY={s}", [s]

    add("Vultr", "API key", "https://docs.vultr.com/platform/other/api/how-to-use-the-vultr-api", u29)

    def u30() -> tuple[str, list[str]]:
        s = r(an, 64)
        return f"hcloud context create acme  # paste token {s}", [s]

    add("Hetzner Cloud", "API token", "https://docs.hetzner.com/cloud/api/getting-started/generating-api-token/", u30)

    def u31() -> tuple[str, list[str]]:
        s = r(HEX, 64)
        return f"linode-cli configure --token {s}", [s]

    add("Linode", "personal access token", "https://techdocs.akamai.com/linode-api/reference/get-started", u31)

    def u32() -> tuple[str, list[str]]:
        k, s = r(HEX, 32), r(HEX, 64)
        return f"aws s3 ls --endpoint-url https://{r(HEX, 32)}.r2.cloudflarestorage.com  # R2 key {k} secret {s}", [
            k,
            s,
        ]

    add("Cloudflare R2", "access key and secret", "https://developers.cloudflare.com/r2/api/s3/tokens/", u32)

    def u33() -> tuple[str, list[str]]:
        s = r(an, 64)
        return f"auth0: client_id {r(an, 32)} client_secret {s}", [s]

    add("Auth0", "client secret", "https://auth0.com/docs/get-started/applications/application-settings", u33)

    def u34() -> tuple[str, list[str]]:
        k, s = r(HEX, 32), r(HEX, 32)
        return f"spotipy.SpotifyClientCredentials(client_id='{k}', client_secret='{s}')", [s]

    add("Spotify", "client secret", "https://developer.spotify.com/documentation/web-api/concepts/apps", u34)

    def u35() -> tuple[str, list[str]]:
        s = r(LOWER_ALNUM, 30)
        return f"twitch client secret {s}", [s]

    add("Twitch", "client secret", "https://dev.twitch.tv/docs/authentication/register-app/", u35)

    def u36() -> tuple[str, list[str]]:
        s = r(HEX, 32)
        return f"curl 'https://api.openweathermap.org/data/2.5/weather?q=Oslo&appid={s}'", [s]

    add("OpenWeather", "API key", "https://openweathermap.org/appid", u36)

    def u37() -> tuple[str, list[str]]:
        s = r(UPPER_ALNUM, 16)
        return f"alpha vantage: {s}", [s]

    add("Alpha Vantage", "API key", "https://www.alphavantage.co/documentation/", u37)

    def u38() -> tuple[str, list[str]]:
        s = r(LOWER_ALNUM, 20)
        return f'finnhub.Client(api_key="{s}")', [s]

    add("Finnhub", "API key", "https://finnhub.io/docs/api/authentication", u38)

    def u39() -> tuple[str, list[str]]:
        s = r(HEX, 14)
        return f"curl 'https://ipinfo.io/8.8.8.8?token={s}'", [s]

    add("IPinfo", "access token", "https://ipinfo.io/developers", u39)

    def u40() -> tuple[str, list[str]]:
        s = r(UPPER_ALNUM, 34)
        return f"etherscan api key {s}", [s]

    add("Etherscan", "API key", "https://docs.etherscan.io/getting-started/viewing-api-usage-statistics", u40)

    def u41() -> tuple[str, list[str]]:
        k, s = r(HEX, 32), r(HEX, 32)
        return f"new Web3(`https://:{s}@mainnet.infura.io/v3/{k}`)", [s]

    add("Infura", "API key secret", "https://docs.metamask.io/services/how-to/secure-an-api/api-key-secret/", u41)

    def u42() -> tuple[str, list[str]]:
        s = r(an, 32)
        return f'polygon: RESTClient("{s}")', [s]

    add("Polygon.io", "API key", "https://polygon.io/docs/rest/quickstart", u42)

    def u43() -> tuple[str, list[str]]:
        s = r(HEX, 40)
        return f"curl -H 'Authorization: Bearer {s}' https://api-ssl.bitly.com/v4/user", [s]

    add("Bitly", "access token", "https://dev.bitly.com/docs/getting-started/authentication/", u43)

    def u44() -> tuple[str, list[str]]:
        s = r(HEX, 40)
        return f"todoist: Authorization Bearer {s}", [s]

    add("Todoist", "API token", "https://developer.todoist.com/rest/v2/#authorization", u44)

    def u45() -> tuple[str, list[str]]:
        s = r(HEX, 40)
        return f"pipedrive api_token={s}", [s]

    add("Pipedrive", "API token", "https://pipedrive.readme.io/docs/how-to-find-the-api-token", u45)

    def u46() -> tuple[str, list[str]]:
        s = "11" + r(HEX, 32)
        return f"curl -u admin:{s} https://jenkins.acme.io/job/deploy/build", [s]

    add(
        "Jenkins",
        "API token",
        "https://www.jenkins.io/doc/book/system-administration/authenticating-scripted-clients/",
        u46,
    )

    def u47() -> tuple[str, list[str]]:
        k, s = r(HEX, 32), r(HEX, 32)
        return f"mixpanel: project token {k} (public), api secret {s}", [s]

    add("Mixpanel", "API secret", "https://docs.mixpanel.com/docs/orgs-and-projects/managing-projects", u47)

    def u48() -> tuple[str, list[str]]:
        k, s = r(HEX, 32), r(HEX, 32)
        return f"agora: app id {k}, app certificate {s}", [s]

    add("Agora", "app certificate", "https://docs.agora.io/en/video-calling/get-started/manage-agora-account", u48)

    def u49() -> tuple[str, list[str]]:
        s = r(an, 40)
        return f"expo: EXPO_TOKEN={s} eas build --platform ios", [s]

    add("Expo", "access token", "https://docs.expo.dev/accounts/programmatic-access/", u49)

    def u50() -> tuple[str, list[str]]:
        s = r(an, 32)
        return f"fastly: FASTLY_API_TOKEN={s}", [s]

    add("Fastly", "API token", "https://docs.fastly.com/en/guides/using-api-tokens", u50)

    def u51() -> tuple[str, list[str]]:
        s = r(an, 24)
        return f"vercel deploy --prod --token {s}", [s]

    add("Vercel", "access token", "https://vercel.com/docs/rest-api#creating-an-access-token", u51)

    def u52() -> tuple[str, list[str]]:
        s = uid()
        return f"heroku: HEROKU_API_KEY={s} heroku apps", [s]

    add("Heroku", "API key", "https://devcenter.heroku.com/articles/authentication", u52)

    def u53() -> tuple[str, list[str]]:
        s = "secret-live-" + r(B64URL, 36)
        return f"stytch = Client(project_id='project-live-{uid()}', secret='{s}')", [s]

    add("Stytch", "secret", "https://stytch.com/docs/guides/dashboard/api-keys", u53)

    def u54() -> tuple[str, list[str]]:
        s = RNG.choice(["xaat-", "xapt-"]) + uid()
        return f"axiom: AXIOM_TOKEN {s}", [s]

    add("Axiom", "API token", "https://axiom.co/docs/reference/tokens", u54)

    def u55() -> tuple[str, list[str]]:
        s = f"0.{uid()}.{r(an, 30)}:{r(B64, 22)}=="
        return f"bws secret list --access-token {s}", [s]

    add("Bitwarden Secrets Manager", "access token", "https://bitwarden.com/help/access-tokens/", u55)

    def u56() -> tuple[str, list[str]]:
        s = "signkey-prod-" + r(HEX, 64)
        return f"INNGEST_SIGNING_KEY={s}", [s]

    add("Inngest", "signing key", "https://www.inngest.com/docs/platform/signing-keys", u56)

    def u57() -> tuple[str, list[str]]:
        s = r(B64, 43) + "="
        return f"akeyless auth --access-id p-{r(LOWER_ALNUM, 12)} --access-key {s}", [s]

    add("Akeyless", "access key", "https://docs.akeyless.io/docs/api-key", u57)

    def u58() -> tuple[str, list[str]]:
        s = r(HEX, 32)
        return f"rollbar: post_server_item {s}", [s]

    add("Rollbar", "access token", "https://docs.rollbar.com/docs/access-tokens", u58)

    def u59() -> tuple[str, list[str]]:
        s = "A" + r(B64URL, 59)
        return f"upstash redis: UPSTASH_REDIS_REST_TOKEN={s}", [s]

    add("Upstash", "REST token", "https://upstash.com/docs/redis/overall/getstarted", u59)

    def u60() -> tuple[str, list[str]]:
        k, s = r(UPPER_ALNUM, 20), r(B64, 40)
        return f"wasabi: access key {k} / secret {s}", [k, s]

    add("Wasabi", "access keys", "https://docs.wasabi.com/docs/access-keys-1", u60)

    def u61() -> tuple[str, list[str]]:
        k, s = "rzp_test_" + r(an, 14), r(an, 24)
        return f"curl -u {k}:{s} https://api.razorpay.com/v1/payments", [s]

    add("Razorpay", "key secret (basic auth)", "https://razorpay.com/docs/api/authentication/", u61)

    def u62() -> tuple[str, list[str]]:
        s = r(an, 32)
        return f"vonage: {s}", [s]

    add("Vonage", "signature secret", "https://developer.vonage.com/en/getting-started/concepts/signing-messages", u62)

    def u63() -> tuple[str, list[str]]:
        s = "tvly-" + r(an, 32)
        return f'TavilyClient(api_key="{s}")', [s]

    add("Tavily", "API key (client)", "https://docs.tavily.com/documentation/quickstart", u63)

    def u64() -> tuple[str, list[str]]:
        sid, tok = "AC" + r(HEX, 32), r(HEX, 32)
        return f'client = Client("{sid}", "{tok}")', [tok]

    add(
        "Twilio", "auth token (client constructor)", "https://www.twilio.com/docs/usage/api#authenticate-with-http", u64
    )

    return out


def build_usage() -> list[dict]:
    """The usage lines: two per documented key (fresh values each time)."""
    samples = []
    for vendor, kind, url, make in _usage():
        for _ in range(2):
            text, pieces = make()
            samples.append({"family": f"{vendor} {kind}", "text": text, "secrets": pieces, "url": url})
    return samples


# Vendors whose docs print an unprefixed key (a length and an alphabet only): a sentence or a config line names
# the vendor and gives the key, without the word "key" (vendor, documented shape, page). Left out: vendors whose
# docs print a public key of the same shape beside the secret one (DocuSign's integration key, Braze's SDK key,
# Uploadcare's and Transloadit's public keys, Typesense's and Meilisearch's search-only keys, Roboflow's
# publishable key ...): a vendor's name cannot tell those apart.
PLAIN: list[tuple[str, Callable[[], str], str]] = [
    ("AppDynamics", lambda: r(string.ascii_letters + string.digits, 40), "https://docs.appdynamics.com/appd/24.x/latest/en/extend-splunk-appdynamics/splunk-appdynamics-apis/api-clients"),
    ("ActiveCampaign", lambda: r(HEX, 72), "https://developers.activecampaign.com/reference/authentication"),
    ("Pushwoosh", lambda: r(string.ascii_letters + string.digits, 80), "https://docs.pushwoosh.com/developer/api-reference/api-access-token/"),
    ("Infobip", lambda: f"{r(HEX, 32)}-{uid()}", "https://www.infobip.com/docs/essentials/api-essentials/api-authentication"),
    ("TextMagic", lambda: r(string.ascii_letters + string.digits, 30), "https://docs.textmagic.com/#section/Authentication"),
    ("ClickSend", lambda: uid().upper(), "https://developers.clicksend.com/docs/rest/v3/#authentication"),
    ("BigCommerce", lambda: r(LOWER_ALNUM, 31), "https://developer.bigcommerce.com/docs/start/authentication/api-accounts"),
    ("Weaviate", lambda: r(string.ascii_letters + string.digits, 40), "https://weaviate.io/developers/wcs/platform/manage-api-keys"),
    ("Qdrant", lambda: r(B64URL, 54), "https://qdrant.tech/documentation/cloud/authentication/"),
    ("DeepInfra", lambda: r(string.ascii_letters + string.digits, 32), "https://deepinfra.com/docs/deep_infra_api"),
    ("Anyscale", lambda: "esecret_" + r(LOWER_ALNUM, 26), "https://docs.anyscale.com/endpoints/"),
    ("DashScope", lambda: "sk-" + r(HEX, 32), "https://help.aliyun.com/zh/model-studio/get-api-key"),
    ("Zhipu", lambda: f"{r(HEX, 32)}.{r(string.ascii_letters + string.digits, 16)}", "https://open.bigmodel.cn/dev/api/http-call/http-auth"),
    ("Speechmatics", lambda: r(string.ascii_letters + string.digits, 32), "https://docs.speechmatics.com/introduction/authentication"),
    ("Gladia", lambda: uid(), "https://docs.gladia.io/chapters/introduction/pages/authentication"),
    ("Picovoice", lambda: r(B64, 54) + "==", "https://picovoice.ai/docs/faq/picovoice-console/#what-is-an-accesskey"),
    ("Labelbox", lambda: "eyJ" + r(B64URL, 120), "https://docs.labelbox.com/reference/create-api-key"),
    ("ClearML", lambda: r(UPPER_ALNUM, 30), "https://clear.ml/docs/latest/docs/webapp/settings/webapp_settings_profile/#clearml-credentials"),
    ("Baseten", lambda: f"{r(string.ascii_letters + string.digits, 8)}.{r(string.ascii_letters + string.digits, 32)}", "https://docs.baseten.co/observability/api-keys"),
    ("Novita", lambda: "sk_" + r(B64URL, 43), "https://novita.ai/docs/get-started/quickstart.html"),
    ("Paperspace", lambda: r(HEX, 32), "https://docs.digitalocean.com/reference/paperspace/api-keys/"),
    ("Koyeb", lambda: r(string.ascii_letters + string.digits, 64), "https://www.koyeb.com/docs/reference/api#authentication"),
    ("Northflank", lambda: "nf-" + r(B64URL, 120), "https://northflank.com/docs/v1/api/use-the-api"),
    ("BunnyCDN", lambda: uid() + "-" + uid()[:18], "https://docs.bunny.net/reference/bunnynet-api-overview"),
    ("imgix", lambda: "ak_" + r(HEX, 64), "https://docs.imgix.com/apis/management/overview"),
    ("Zulip", lambda: r(string.ascii_letters + string.digits, 32), "https://zulip.com/api/api-keys"),
]  # fmt: skip
PLAIN_TEMPLATES = ("{V}: {v}", "{v} is the {V} one for prod", "{name}_AUTH={v}", "swapped {V} creds today -> {v}")


def build_plain() -> list[dict]:
    """Two lines per unprefixed vendor: the vendor named, the key given, the word "key" absent."""
    samples = []
    for i, (vendor, make, url) in enumerate(PLAIN):
        for j in range(2):
            value = make()
            name = "".join(c for c in vendor.upper() if c.isalnum())
            text = PLAIN_TEMPLATES[(i + j) % len(PLAIN_TEMPLATES)].format(V=vendor, v=value, name=name)
            samples.append({"family": f"{vendor} (plain)", "text": text, "secrets": [value], "url": url})
    return samples


if __name__ == "__main__":
    print(json.dumps(build(), indent=1, ensure_ascii=False))
