"""``client_left`` reads a connection numbered 1,024 or more (select.select raised ValueError there).

A long-lived process holds descriptors: each open store watches up to 64 replaced files' old inodes
(docs/architecture.md §3), so a write server's connection can be numbered past select()'s FD_SETSIZE.
"""

from __future__ import annotations

import os
import resource
import socket

import pytest

from memrepo.cli.writeserver import client_left

HIGH_FD = 1500


def test_client_left_reads_a_connection_past_fd_setsize() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= HIGH_FD:
        pytest.skip(f"the hard limit on open files ({hard}) is below descriptor {HIGH_FD}")
    if soft != resource.RLIM_INFINITY and soft <= HIGH_FD:
        resource.setrlimit(resource.RLIMIT_NOFILE, (HIGH_FD + 1, hard))
    ours, peer = socket.socketpair()
    try:
        os.dup2(ours.fileno(), HIGH_FD)
        ours.close()
        conn = socket.socket(fileno=HIGH_FD)
        try:
            assert not client_left(conn)  # the client is still there
            peer.close()
            assert client_left(conn)  # it closed its end: the write must not happen
        finally:
            conn.close()
    finally:
        peer.close()
        if soft != resource.RLIM_INFINITY and soft <= HIGH_FD:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
