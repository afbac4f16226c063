"""Settings for Dizzysite, read from the environment (see docs/running.md: "Configuration").

Defaults run a whole site on one machine with no server installed: SQLite and kombu's
filesystem broker. Production sets DEBUG=false, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL
(PostgreSQL), CELERY_BROKER_URL (redis://) and the SMTP settings.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF

from dizzysite.env import BadSetting, env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("DIZZY_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise BadSetting("SECRET_KEY must be set when DEBUG is false")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "dizzysite.apps.DizzyAdminConfig",  # django.contrib.admin, warning when the worker stops
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "csp",
    "template_partials",
    "allauth",
    "allauth.account",
    "allauth.mfa",  # two-factor sign-in: an authenticator app's codes, and recovery codes
    "allauth.usersessions",  # the list of one's signed-in sessions, "sign out everywhere else"
    "accounts",
    "games",
    "notifications",
    "moderation",
    "ratings",
    "ninja",  # django-ninja: its Swagger UI from our static files (no CDN, see the CSP)
    "api",
    "push",
    "tournaments",
    "learn",  # the tutorials
    "live",  # Server-Sent Events (after the apps whose changes it hears)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "dizzysite.static_files.StaticFilesMiddleware",  # WhiteNoise, quiet under ASGI
    # Pages compressed by the app, so the site is small without a proxy's help (static files are
    # compressed by WhiteNoise). The CSRF token is masked per response, which defeats BREACH on it.
    "live.middleware.GZipExceptEventsMiddleware",  # Django's, but event streams pass as they are
    "games.middleware.private_cache_middleware",  # before sessions, to see their Vary: Cookie
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the language cookie (set by the switch), else Accept-Language, else English;
    # accounts.middleware.UserLanguageMiddleware then applies a member's own setting.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "allauth.usersessions.middleware.UserSessionsMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "dizzysite.overload.OverloadMiddleware",  # a database or Redis out of reach: 503, never a 500
]

ROOT_URLCONF = "dizzysite.urls"
WSGI_APPLICATION = "dizzysite.wsgi.application"
ASGI_APPLICATION = "dizzysite.asgi.application"  # uvicorn serves it: the live streams need async views

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.turn_count",
            ],
        },
    },
    {
        # The board pages (jinja2_templates/): see dizzysite/jinja2.py.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "jinja2_templates"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "dizzysite.jinja2.environment", "autoescape": True, "trim_blocks": True},
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
# Under ASGI a request runs in a thread of its own and must not keep its connection (CONN_MAX_AGE=0),
# so each request connected anew: a pool per process (DATABASE_POOL_SIZE connections at most, psycopg's)
# lends them instead. A request that waits longer than DATABASE_POOL_WAIT for one is answered 503.
DATABASE_POOL_SIZE = env_int("DATABASE_POOL_SIZE", 0)
if DATABASE_POOL_SIZE and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 1, "max_size": DATABASE_POOL_SIZE, "timeout": env_int("DATABASE_POOL_WAIT", 10)}
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite drops the covering indexes' INCLUDE columns (PostgreSQL's, for speed at scale): nothing to
    # do about it on one machine, and the warning at every start of `make run` only alarmed newcomers.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]
    # The web process and the worker write at once (a page's presence mark, a bot's move): take the
    # write lock when a transaction starts and wait for it, instead of failing with "locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
# The cache holds who is looking at which board (games/presence.py), so it must be shared by the web
# processes and the workers: Redis in production (one connection pool a process, dizzysite.redis_cache),
# files under var/ on one machine.
_cache_url = env_str("CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "dizzysite.redis_cache.SharedPoolRedisCache", "LOCATION": _cache_url}
    if _cache_url
    else {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(VAR_DIR / "cache")}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "accounts.backends.ReopenClosedAccountBackend",  # signing in within the grace period reopens
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# django-allauth: username or email to log in; email verified before the first move (checked in
# games.actions); the confirmation link shows a page with a button, never confirms on GET.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
# The old address is told when the new one is verified, so a stolen session cannot quietly take the account.
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_RATE_LIMITS = {
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "confirm_email": "1/3m/key",
    "reset_password": "20/m/ip,5/m/key",
    "change_password": "5/m/user",
}
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Dizzysite] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_ADAPTER = "notifications.adapter.AccountAdapter"  # allauth's emails go out like ours
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}  # the browser's time zone for a new account
# Two-factor sign-in (allauth.mfa): time-based codes from an authenticator app, recovery codes, and
# passkeys (WebAuthn), which also sign in on their own from the login page. WebAuthn checks that the
# page's origin is https; only a development or test server on http://localhost is let off.
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = DEBUG
MFA_FORMS = {"add_webauthn": "accounts.forms.AddPasskeyForm", "edit_webauthn": "accounts.forms.RenamePasskeyForm"}
MFA_TOTP_ISSUER = "Dizzysite"
USERSESSIONS_TRACK_ACTIVITY = False  # no write at every page view: a session is recorded when it signs in
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "account_login"

LANGUAGE_CODE = "en"
# English and Dutch: the site's catalogue is locale/nl/LC_MESSAGES/django.po, and each game
# package that speaks Dutch carries its own words in games/engines/<game>/locale/, and the words the games
# share (games/engines/dizzy_phrases.py) are in games/engines/locale/; the compiled .mo files are
# committed. A member's own setting (User.language) wins over the browser's.
LANGUAGES = [("en", "English"), ("nl", "Nederlands")]
LOCALE_PATHS = [
    BASE_DIR / "locale",
    BASE_DIR / "games" / "engines" / "locale",
    *sorted((BASE_DIR / "games" / "engines").glob("*/locale")),
]
FORMAT_MODULE_PATH = ["dizzysite.formats"]  # the site's one date style, per language
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Email: files in var/mail by default (make run prints where); SMTP in production.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = VAR_DIR / "mail"
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Dizzysite <noreply@dizzysite.invalid>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Celery: kombu's filesystem transport by default (no server needed), Redis in production.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task leaves the message for another
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "broker"
    # kombu's filesystem transport with whole-file writes (dizzysite/broker.py; kombu's own lets a
    # reader see an empty message and the worker die of it, celery/kombu#1551).
    CELERY_BROKER_TRANSPORT = "dizzysite.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        # The folder is looked at this often (kombu's default is 1 s, which made every bot's
        # answer and every short deadline wait up to a second more: bench/bench_worker_bots.py).
        "polling_interval": 0.1,
    }
else:
    # Redis: a message a worker took but never acknowledged (it died) returns to the queue after this.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600)}
    if env_str("CELERY_KEY_PREFIX", ""):  # several sites (or test runs) on one Redis keep apart
        CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = env_str("CELERY_KEY_PREFIX", "")
# Live events (live/broadcast.py): fanned out through Redis pub/sub when LIVE_REDIS_URL is
# set (production: every web process and worker sees every event), else in the one server process.
LIVE_REDIS_URL = env_str("LIVE_REDIS_URL", "")
# Pub/sub channels ignore Redis's database numbers: sites (or test runs) sharing a Redis need prefixes.
LIVE_CHANNEL_PREFIX = env_str("LIVE_CHANNEL_PREFIX", env_str("CELERY_KEY_PREFIX", "") + "live:")
LIVE_MAX_STREAMS_PER_USER = env_int("LIVE_MAX_STREAMS_PER_USER", 8)  # a 9th open stream gets 429
LIVE_HEARTBEAT_SECONDS = env_int("LIVE_HEARTBEAT_SECONDS", 15)
# The worker and beat write a heartbeat to the cache every few seconds (dizzysite/heartbeat.py):
# /healthz answers 503 and the admin warns when one is older than HEARTBEAT_STALE_SECONDS.
CELERY_BEAT_SCHEDULER = "dizzysite.heartbeat:HeartbeatScheduler"
CELERY_BEAT_MAX_LOOP_INTERVAL = 5  # beat wakes at least this often, so its heartbeat stays fresh
HEARTBEAT_INTERVAL_SECONDS = env_int("HEARTBEAT_INTERVAL_SECONDS", 5)
HEARTBEAT_STALE_SECONDS = env_int("HEARTBEAT_STALE_SECONDS", 60)
CELERY_BEAT_SCHEDULE: dict = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 60.0},
    "send-reminders": {"task": "games.tasks.send_reminders", "schedule": 60.0},
    "end-used-up-vacations": {"task": "games.tasks.end_used_up_vacations", "schedule": 600.0},
    "end-suspensions": {"task": "moderation.tasks.end_suspensions", "schedule": 600.0},
    "resend-waiting-notifications": {"task": "notifications.tasks.resend_waiting_notifications", "schedule": 300.0},
    "send-digests": {"task": "notifications.tasks.send_digests", "schedule": crontab(hour=7, minute=0)},
    "resend-waiting-pushes": {"task": "push.tasks.resend_waiting_pushes", "schedule": 300.0},
    "sweep-tournaments": {"task": "tournaments.tasks.sweep_tournaments", "schedule": 60.0},
    "archive-ended-matches": {"task": "games.tasks.archive_ended_matches", "schedule": 600.0},
    "erase-closed-accounts": {"task": "accounts.tasks.erase_closed_accounts", "schedule": 3600.0},
}
# An ended match's moves go into one row (games.tasks.archive_ended_matches) this long
# after its end, this many matches a sweep.
MOVE_ARCHIVE_AFTER_SECONDS = env_int("MOVE_ARCHIVE_AFTER_SECONDS", 3600)
MOVE_ARCHIVE_BATCH = env_int("MOVE_ARCHIVE_BATCH", 500)

# Web push (push/): VAPID keys from the environment in production; with DEBUG and none set, a pair
# is made once and kept in VAR_DIR (push/keys.py). Without keys and DEBUG off, push is switched off.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "mailto:noreply@dizzysite.invalid")
VAPID_DEV_KEY_FILE = str(VAR_DIR / "vapid_private.pem") if DEBUG else ""
# The worker posts to the endpoint a browser gives: only https push services on the internet, unless
# this allows http on the loopback address (make run and the tests' own push service).
PUSH_ALLOW_LOCAL_ENDPOINTS = env_bool("PUSH_ALLOW_LOCAL_ENDPOINTS", DEBUG)
# The browsers' push services: Chrome (and Opera, Samsung Internet), Firefox, Edge, Safari.
# An endpoint elsewhere is refused when a browser subscribes and again when the worker sends, and
# so is a name that resolves into our own network ("*.name": any name under it).
PUSH_SERVICE_HOSTS = env_list(
    "PUSH_SERVICE_HOSTS",
    ["fcm.googleapis.com", "updates.push.services.mozilla.com", "*.notify.windows.com", "web.push.apple.com"],
)

# Security: strict in production, and `manage.py check --deploy` stays quiet.
SESSION_COOKIE_SECURE = not DEBUG
LANGUAGE_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a load balancer or monitor may probe /healthz over plain HTTP
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_PROXY", False) else None
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Only our own scripts and styles: no inline script, no CDN (htmx is served from our static files).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    }
}

DIZZY_MAX_ACTIVE_MATCHES = env_int("DIZZY_MAX_ACTIVE_MATCHES", 50)
DIZZY_POLL_SECONDS = env_int("DIZZY_POLL_SECONDS", 5)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}

for _folder in (
    VAR_DIR,
    VAR_DIR / "mail",
    VAR_DIR / "broker" / "processed",
    VAR_DIR / "broker" / "control",
    STATIC_ROOT,
):
    _folder.mkdir(parents=True, exist_ok=True)
