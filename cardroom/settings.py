"""The one settings module of the card room, driven by the environment.

Every variable is listed in the README's configuration table. With nothing set, the system runs
on SQLite with an embedded Celery broker (SQLAlchemy transport on a local SQLite file), which is
what `make run` and `make test` use on a bare machine. Nothing exists only in production: the
production-like check in CI uses this module with different environment variables.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from cardroom.converters import LARGEST as LARGEST_PATH_NUMBER
from cardroom.env import env_bool, env_list, env_networks
from cardroom.schedule import BEAT_SCHEDULE

BASE_DIR = Path(__file__).resolve().parent.parent
# Local state of the embedded default (SQLite files, the beat schedule), never committed.
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)


DEBUG = env_bool("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off. On a development checkout, "
            "export DJANGO_DEBUG=1 (make run and make test do, and so do manage.py's development "
            "commands such as runserver, migrate and shell)."
        )
    SECRET_KEY = "insecure-development-key-only-used-with-debug-on"  # noqa: S105

PLAYER_IDENTITY_KEY = os.environ.get("PLAYER_IDENTITY_KEY", "").strip()  # GDP-1, see players/seal.py

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")


# The proxies in front of the site (addresses or networks), whose X-Forwarded-For is believed
# when the limits that count by address look for the device's address, and whose
# X-Forwarded-Proto says the device's connection was HTTPS (cardroom/network.py).
TRUSTED_PROXIES = env_networks("DJANGO_TRUSTED_PROXIES")

# The address players' phones open the public pages by (https://room.example.com): the room's
# screens show it as a QR code. Empty: the address the screen itself was opened by.
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "").strip().rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "django_filters",
    "django_htmx",
    "csp",
    "axes",
    "cardroom",
    "players",
    "cashier",
    "chips",
    "tournaments",
    "leagues",
    "loyalty",
    "notices",
    "cashgame",
    "cage",
    "reports",
    "devices",
    "dealers",
    "screens",
    "ops",
    "printing",
]

MIDDLEWARE = [
    # Outermost: times every request, and answers /health/ and /metrics itself (ops/middleware.py).
    "ops.middleware.OpsMiddleware",
    # /v/<slug>/... is the venue `slug`'s page: the prefix moves to the script prefix before
    # anything reads the path (VEN-1).
    "cardroom.middleware.VenuePathMiddleware",
    # An API answer is never an HTML error page; a lost database is a 503 that says sending the
    # request again is safe (cardroom/failures.py).
    "cardroom.middleware.FailureMiddleware",
    # Then X-Forwarded-Proto only from the trusted proxies, before anything asks is_secure().
    "cardroom.middleware.ProxyHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header on every response (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Before anything reads the session or the user (both are lazy until then) or a device: a NUL
    # character anywhere in the request is a 400, never a database error.
    "cardroom.middleware.InputGuardMiddleware",
    # After authentication: a paired dealer tablet's cookie makes the request its device's (ROL-2).
    "devices.middleware.DeviceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "cardroom.middleware.VenueMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into its lockout response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "cardroom.urls"
WSGI_APPLICATION = "cardroom.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "cardroom.context_processors.shell",
            ],
        },
    },
]

# Database: SQLite by default, anything dj-database-url understands otherwise
# (postgres://postgres@127.0.0.1:5432/cardroom in CI and production).
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'cardroom.sqlite3'}"),
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "0")),
        # A kept connection that the server dropped while idle is noticed and reopened before a
        # request or a task uses it, instead of failing that request.
        conn_health_checks=True,
    )
}
DATABASE_IS_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")
if not DATABASE_IS_POSTGRES:
    # Several processes (web, worker, beat) share the file: wait for a lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    # Axes first, so a locked-out user name and address never reach the password check.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Staff sessions end after 12 hours, or when the browser closes on a shared tablet.
SESSION_COOKIE_AGE = int(os.environ.get("SESSION_COOKIE_AGE", str(12 * 3600)))
SESSION_EXPIRE_AT_BROWSER_CLOSE = True

# Internationalisation: English and Slovak; times shown in the venue's zone.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("sk", _("Slovak"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Bratislava"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Tests and `make run` serve static files straight from the source folders.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Security: production-grade unless the environment relaxes it for local HTTP.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Believed only from DJANGO_TRUSTED_PROXIES (cardroom.middleware.ProxyHeadersMiddleware).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts only from the site's own files, so an injected
# <script> or onclick="..." never runs. The pages say what a control does in data attributes
# (static/js/shell.js); htmx runs without eval and without its own <style> (templates/_htmx.html);
# json_script's <script type="application/json"> is data, not script. Styles: <style> elements
# and stylesheets only from the site (style-src-elem), but style="..." attributes are allowed
# (style-src-attr): the pages place seats round a table and paint chip colours with them, from
# numbers and colours the server checked. style-src is the fallback of browsers without the two.
# The API's documentation page (cardroom/urls.py) loads Swagger UI from its CDN and widens this.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "style-src-elem": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SESSION_COOKIE_HTTPONLY = True
# Requests above 2.5 MB are refused before a view parses them.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# django-axes: lock a (user name, address) pair after 5 failures for 15 minutes, so a flood
# against one user from one address never locks out another user or another desk.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_ENABLED = env_bool("AXES_ENABLED", True)
# The device's address behind the proxy, as every other limit that counts by address sees it.
AXES_CLIENT_IP_CALLABLE = "cardroom.network.client_address"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "cardroom.authentication.TokenAuthentication",
    ],
    # Fail closed: an API view that forgets its permission still needs a logged-in staff member.
    "DEFAULT_PERMISSION_CLASSES": ["cardroom.roles.IsStaffMember"],
    # JSON read with a depth limit and no NUL characters (cardroom/parsers.py); forms as DRF reads them.
    "DEFAULT_PARSER_CLASSES": [
        "cardroom.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "cardroom.schema.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # Every list a page at a time, one paginator for all (its page sizes are in cardroom/api.py).
    "DEFAULT_PAGINATION_CLASS": "cardroom.api.Pagination",
    "EXCEPTION_HANDLER": "cardroom.api.exception_handler",
    "COERCE_DECIMAL_TO_STRING": True,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Card room floor management API",
    "DESCRIPTION": "Tournaments, cash games, the cashier ledger and reports of a live poker room.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["cardroom.roles.IsStaffMember"],
    "COMPONENT_SPLIT_REQUEST": True,
    # SER-1: what a desk pays with (cash, card) and how a transaction was paid (also a ticket).
    "ENUM_NAME_OVERRIDES": {
        "DeskMethodEnum": "cashier.models.DESK_METHODS",
        "PaymentMethodEnum": "cashier.models.PaymentMethod",
        # Two choice sets of fields named "kind": the cage's keeps the name it always had.
        "KindEnum": "cashier.models.TransactionKind",
        "LoyaltyMovementKindEnum": "loyalty.models.MovementKind",
    },
    # cardroom.converters: a path's number has at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {"number": {"type": "integer", "minimum": 0, "maximum": LARGEST_PATH_NUMBER}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "cardroom.schema.add_error_responses",
    ],
}

# Celery: Redis when REDIS_URL (or CELERY_BROKER_URL) is set, else an embedded broker on a
# local SQLite file through kombu's SQLAlchemy transport, so `make run` needs no server.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = os.environ.get(
    "CELERY_BROKER_URL",
    REDIS_URL or f"sqlalchemy+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}",
)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# No results are kept, so beat has none to clean up: without this it adds its own
# `celery.backend_cleanup` entry to the room's schedule, a task that has nothing to do.
CELERY_RESULT_EXPIRES = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 50
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# ETAs are kept well under half of this (STYLE.md), so an unacked ETA message is never
# redelivered while it still waits.
# (The embedded SQLAlchemy transport hands its options to create_engine, so it gets none.)
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {"visibility_timeout": 3600} if CELERY_BROKER_URL.startswith(("redis", "rediss")) else {}
)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER")
# A worker that loses Redis while it holds unacknowledged messages (every pending ETA message of
# the clock and the seat holds) dies with "Unrecoverable error: AttributeError" in kombu 5.7 when
# it also consumes a fanout queue: remote control's (off here) or gossip's (`--without-gossip`).
# Without them it reconnects, and the reconcilers catch up (tests/faults/test_clock_faults.py).
CELERY_WORKER_ENABLE_REMOTE_CONTROL = False
# Exactly one beat sends the schedule, however many servers run one (OPS-2): with Redis, a beat
# waits for the beat lock there and takes over when its holder stops (cardroom/beat.py); on the
# embedded default it is Celery's own persistent scheduler. ops/scheduler.py adds its heartbeat.
CELERY_BEAT_SCHEDULER = "ops.scheduler:Scheduler"
# The dealer rotation runs this many times faster (drills and the fault tests: 600 makes a
# 30-minute push 3 seconds); 1 in a room.
DEALERS_TIME_SCALE = int(os.environ.get("DEALERS_TIME_SCALE", "1"))
# The room's periodic work: the reconcilers (every 2 s) and the daily closes (cardroom/schedule.py).
CELERY_BEAT_SCHEDULE = BEAT_SCHEDULE

# NOT-1 notices to a closed phone. Web Push signs with the venue's VAPID key: the private key
# (base64url of the raw P-256 key, as `manage.py notices_vapid_keys` prints it) and a contact the
# push services may write to ("mailto:floor@room.example"). No key: no push, SMS only.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "").strip()
# Push endpoints are https addresses of a public push service; these prefixes are let through as
# well (the tests' local push service, "http://127.0.0.1:"). Empty in a room.
PUSH_ENDPOINT_ALLOW_PREFIXES = env_list("PUSH_ENDPOINT_ALLOW_PREFIXES")
# SMS: "console" (the log; development and tests) or "twilio" (its REST API: TWILIO_ACCOUNT_SID,
# TWILIO_AUTH_TOKEN and SMS_FROM, the sender number or name). See notices/sms.py.
SMS_BACKEND = os.environ.get("SMS_BACKEND", "console").strip()
SMS_FROM = os.environ.get("SMS_FROM", "").strip()
TWILIO_ACCOUNT_SID = os.environ.get("TWILIO_ACCOUNT_SID", "").strip()
TWILIO_AUTH_TOKEN = os.environ.get("TWILIO_AUTH_TOKEN", "").strip()

CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"axes": {"level": "WARNING"}},
}

# OPS-2 (ops/): who may read /metrics (nobody else may); errors to Sentry or GlitchTip, scrubbed.
METRICS_ALLOWED_ADDRESSES = env_networks("METRICS_ALLOWED_ADDRESSES")
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
if METRICS_TOKEN and len(METRICS_TOKEN) < 24:
    raise ImproperlyConfigured("METRICS_TOKEN: use at least 24 random characters.")
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    # Imported here, not at the top: only a room that reports its errors loads the Sentry SDK, and
    # it must start before the apps load, as the SDK asks.
    from ops.sentry import sentry_init

    sentry_init(dsn=SENTRY_DSN, environment=os.environ.get("SENTRY_ENVIRONMENT", ""))
