"""Credentials for the sync remote: where they come from, and the callbacks that hand them to libgit2.

An SSH key comes from the agent or a key file; an HTTPS token from an
environment variable (``[sync]`` settings, docs/architecture.md §11). A host
libgit2 could not verify is never trusted: memory is never pushed to an impostor.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2.enums import CredentialType

from memrepo.engine.errors import UnreachableRemote

from .common import mask_url

MAX_AUTH_TRIES = 3
"""libgit2 asks again after a refused credential; stop after this many tries."""


@dataclass(frozen=True, slots=True)
class Credentials:
    """Where credentials come from (``[sync]`` settings, docs/architecture.md §11).

    Attributes:
        ssh_key: path of a private key file; empty: ask the SSH agent.
        ssh_passphrase_env: environment variable holding the key's passphrase; empty: none.
        token_env: environment variable holding an HTTPS token.
        https_user: user name sent with the token.
    """

    ssh_key: str = ""
    ssh_passphrase_env: str = ""
    token_env: str = "MEMREPO_GIT_TOKEN"
    https_user: str = "x-access-token"


class Callbacks(pygit2.RemoteCallbacks):
    """libgit2 callbacks: hand out credentials, note refused ref updates."""

    def __init__(self, creds: Credentials) -> None:
        super().__init__()
        self._creds = creds
        self._tries = 0
        self.rejected: str | None = None
        self.untrusted_host: str | None = None

    def credentials(self, url: str, username_from_url: str | None, allowed_types: CredentialType):
        self._tries += 1
        if self._tries > MAX_AUTH_TRIES:
            raise UnreachableRemote(mask_url(f"the remote refused the credentials for {url}", url))
        creds = self._creds
        if allowed_types & CredentialType.SSH_KEY:
            user = username_from_url or "git"
            if creds.ssh_key:
                key = Path(os.path.expanduser(creds.ssh_key))
                if not key.is_file():
                    raise UnreachableRemote(f"the SSH key file {key} named in [sync] ssh_key does not exist")
                pub = key.with_name(key.name + ".pub")
                phrase = os.environ.get(creds.ssh_passphrase_env, "") if creds.ssh_passphrase_env else ""
                return pygit2.Keypair(user, str(pub) if pub.is_file() else None, str(key), phrase)
            return pygit2.KeypairFromAgent(user)
        if allowed_types & CredentialType.USERPASS_PLAINTEXT:
            token = os.environ.get(creds.token_env, "") if creds.token_env else ""
            if not token:
                raise UnreachableRemote(
                    mask_url(
                        f"{url} asks for a password: put a token in the environment variable "
                        f"{creds.token_env or '(see [sync] token_env)'}",
                        url,
                    )
                )
            return pygit2.UserPass(username_from_url or creds.https_user, token)
        if allowed_types & CredentialType.USERNAME:
            return pygit2.Username(username_from_url or "git")
        raise UnreachableRemote(mask_url(f"{url} asks for a kind of credential memrepo cannot give", url))

    def certificate_check(self, certificate: None, valid: bool, host: bytes) -> bool:
        """Trust a server only when libgit2 verified it: TLS for HTTPS, ``~/.ssh/known_hosts`` for SSH.

        pygit2's default lets every SSH host key through; memory must never
        be pushed to an impostor, so an unknown or changed host key stops
        the connection (:class:`UnreachableRemote` names the fix).
        """
        if not valid:
            self.untrusted_host = host.decode("utf-8", "replace") if isinstance(host, bytes) else str(host)
        return bool(valid)

    def push_update_reference(self, refname: str, message: str | None) -> None:
        if message:
            self.rejected = message
