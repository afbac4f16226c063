"""A push service of the tests' own on 127.0.0.1: it takes what the worker posts, checks the VAPID
signature, decrypts the body with the subscription's private key (RFC 8291) and answers a chosen status."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class DeviceKeys:
    """What a browser keeps for one subscription: the private half never leaves it."""

    private: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth, version="aes128gcm"))


def vapid_signed(authorization: str) -> bool:
    """The Authorization header is `vapid t=<JWT>, k=<public key>` with a valid signature."""
    scheme, _, rest = authorization.partition(" ")
    parts = dict(item.strip().split("=", 1) for item in rest.split(","))
    header_and_claims, signature = parts["t"].rsplit(".", 1)
    key = Vapid02.from_raw_public(parts["k"].encode())
    return scheme == "vapid" and key.verify_token(header_and_claims.encode(), signature)


class PushEndpoint:
    """Received pushes per path: each a dict with the decrypted payload and the request's headers."""

    def __init__(self) -> None:
        self.devices: dict[str, DeviceKeys] = {}
        self.received: list[dict] = []
        self.status = 201
        self.location = ""  # sent as Location (a redirect) when set
        self.lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                device = endpoint.devices.get(self.path)
                headers = {name.lower(): value for name, value in self.headers.items()}
                entry = {"path": self.path, "headers": headers, "status": endpoint.status}
                entry["signed"] = vapid_signed(self.headers.get("Authorization", ""))
                entry["payload"] = device.decrypt(body) if device else None
                with endpoint.lock:
                    endpoint.received.append(entry)
                self.send_response(endpoint.status)
                if endpoint.location:
                    self.send_header("Location", endpoint.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def new_device(self, name: str) -> tuple[str, DeviceKeys]:
        """A subscription's endpoint and keys, as PushManager.subscribe() would give a browser."""
        keys = DeviceKeys()
        path = f"/push/{name}"
        self.devices[path] = keys
        return self.url + path, keys

    def to(self, endpoint: str) -> list[dict]:
        with self.lock:
            return [entry for entry in self.received if self.url + entry["path"] == endpoint]

    def __enter__(self) -> PushEndpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def device_for(user, endpoint: PushEndpoint, name: str):
    """A device of `user` subscribed at `endpoint` (a PushSubscription row, as the view would save it)."""
    from push.models import PushSubscription

    url, keys = endpoint.new_device(name)
    return PushSubscription.objects.create(
        user=user, endpoint=url, p256dh=keys.p256dh, auth=b64url(keys.auth), label="Test browser"
    )
