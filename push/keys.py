"""The VAPID key pair (RFC 8292) that signs every push: from the environment in production; with
DEBUG and none set, made once and kept in VAR_DIR so `make run`'s web process and worker share it."""

from __future__ import annotations

import base64
import functools
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid


@dataclass(frozen=True)
class VapidKeys:
    vapid: Vapid
    public_key: str  # base64url of the uncompressed point: the browser's applicationServerKey
    subject: str


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@functools.cache
def vapid_keys() -> VapidKeys | None:
    """The site's keys, or None when push is switched off (no keys in production)."""
    if settings.VAPID_PRIVATE_KEY:
        vapid = Vapid.from_string(settings.VAPID_PRIVATE_KEY)
    elif settings.VAPID_DEV_KEY_FILE:
        vapid = _kept_dev_key(Path(settings.VAPID_DEV_KEY_FILE))
    else:
        return None
    point = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    public_key = b64url(point)
    if settings.VAPID_PUBLIC_KEY and settings.VAPID_PUBLIC_KEY.rstrip("=") != public_key:
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY")
    return VapidKeys(vapid, public_key, settings.VAPID_SUBJECT)


def _kept_dev_key(path: Path) -> Vapid:
    """Read the kept key, or make it: written aside and linked into place, so when the web process
    and the worker start together one key wins and both read it."""
    if not path.exists():
        fresh = Vapid()
        fresh.generate_keys()
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".vapid-")
        with os.fdopen(handle, "wb") as file:
            file.write(fresh.private_pem())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another process made it first: use theirs
        finally:
            os.unlink(temporary)
    return Vapid.from_file(str(path))
