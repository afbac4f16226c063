"""Two small network helpers for the test settings, the tests and the benchmarks (plain Python, no
Django): whether something listens on a port, and a free port to start a server on."""

from __future__ import annotations

import socket


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    """Whether a TCP connection to host:port is accepted within `timeout` seconds."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def free_port() -> int:
    """A loopback port nothing listens on now (the system's choice), for a server about to start."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
