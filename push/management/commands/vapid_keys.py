"""Print a new VAPID key pair for production, as the two environment variables."""

from __future__ import annotations

from cryptography.hazmat.primitives import serialization
from django.core.management.base import BaseCommand
from py_vapid import Vapid

from push.keys import b64url


class Command(BaseCommand):
    help = "Print a new VAPID key pair (VAPID_PRIVATE_KEY=..., VAPID_PUBLIC_KEY=...) for the environment."

    def handle(self, *args, **options) -> None:
        vapid = Vapid()
        vapid.generate_keys()
        private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
        public = vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.stdout.write(f"VAPID_PRIVATE_KEY={b64url(private)}\nVAPID_PUBLIC_KEY={b64url(public)}\n")
