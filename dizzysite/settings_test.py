"""Settings for the test suite: PostgreSQL when there is one (CI has one), else SQLite.

TEST_DATABASE_URL or DATABASE_URL choose the database; without either the suite looks for
PostgreSQL on 127.0.0.1:5432 and falls back to SQLite, except with CI=true, where a missing
PostgreSQL fails the run.
"""

import os

import dj_database_url

from dizzysite.netutil import port_open

os.environ.setdefault("DEBUG", "true")
os.environ["DIZZY_VAR_DIR"] = os.environ.get("DIZZY_TEST_VAR_DIR", f"/tmp/dizzysite-test-var-{os.getpid()}")

from dizzysite.settings import *  # noqa: E402, F403
from dizzysite.settings import DATABASES  # noqa: E402

IN_CI = os.environ.get("CI", "").lower() == "true"
_url = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL")
if not _url:
    if port_open("127.0.0.1", 5432):
        _url = "postgres://postgres@127.0.0.1:5432/postgres"
    elif IN_CI:
        raise RuntimeError("CI=true but PostgreSQL is not reachable on 127.0.0.1:5432")
    else:
        _url = "sqlite:///:memory:"
DATABASES["default"] = dj_database_url.parse(_url)
# One test database per run, so two checkouts (or a fresh clone and CI) can test side by side.
DATABASES["default"]["TEST"] = {"NAME": os.environ.get("TEST_DATABASE_NAME", f"test_dizzysite_{os.getpid()}")}

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
# The site's settings choose dizzysite.broker for their filesystem:// default; a transport named here
# would win over any URL a test gives Celery (tests/integration/conftest.py points it at Redis).
CELERY_BROKER_TRANSPORT = None
STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}  # noqa: F405
ACCOUNT_RATE_LIMITS = False
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
