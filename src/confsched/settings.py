"""One settings module, read from the environment (see README: Configuration)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured


def _flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DATA_DIR = Path(os.environ.get("CONFSCHED_DATA_DIR", Path.cwd() / "var")).resolve()
DEBUG = _flag("DEBUG")
TESTING = "pytest" in sys.modules or _flag("CONFSCHED_TESTING")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG or TESTING:
        SECRET_KEY = "insecure-development-key-never-use-in-production"  # noqa: S105 - DEBUG only
    else:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it in the environment (make run does this for you), "
            "or set DEBUG=1 for a development server."
        )

ALLOWED_HOSTS = _list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = _list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "ninja",  # serves its API docs page from its own static files, not a CDN
    "axes",
    "csp",
    "django_tasks",
    "django_tasks_db",  # the task queue's tables: mails and search's embeddings wait there
    "confsched.programme",
    "confsched.teams",
    "confsched.search",
    "confsched.speakers",
    "confsched.agenda",
    "confsched.live",  # rooms that are full, announcements
    "confsched.push",  # Web Push
    "confsched.web",  # the serve command
    "confsched.web.site",  # shared page machinery, site chrome, template tags
    "confsched.web.schedule",
    "confsched.web.sessions",
    "confsched.web.agenda",
    "confsched.web.venue",
    "confsched.web.accounts",
    "confsched.web.staff",
    "confsched.web.speakers",
    # After our apps: our registration/* templates (log-in, password pages) win over its own.
    # Django's admin, with the site that lets event teams in (admin/site.py).
    "confsched.admin.apps.TeamAdminConfig",
    "confsched.admin",  # every domain's admin screens, above the domains
]

MIDDLEWARE = [
    # Outermost: a HEAD gets the GET's status and headers, and no body.
    "confsched.web.site.middleware.HeadMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Compresses what the middleware below made (ConditionalGet's ETags are of plain bodies).
    "confsched.web.site.compression.CompressionMiddleware",
    # Uploaded files (/media/, web/site/media.py) leave with no cookie and no Vary: Cookie,
    # whatever the session and CSRF middleware below did about a stale cookie.
    "confsched.web.site.media.SharedFileMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # ETag on every GET and 304 for If-None-Match: phones re-checking a page pay no body.
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A page shown to a person (their name, their stars) is private, no-store, whatever its view
    # said; its answer passes ConditionalGet's (above) with that said.
    "confsched.web.site.private.PersonalPagesMiddleware",
    # Before anything reads the body (CSRF reads POST in process_view, which comes after every
    # middleware's own call): an oversized one is refused unread. After authentication, which
    # reads none, since staff may send whole programmes to the admin's import page.
    "confsched.web.site.middleware.RequestBodyLimitMiddleware",
    # A NUL anywhere in the request is a 400: it reads the body (so after the limit) and comes
    # before the first query made with what the request sent (the language's session read).
    "confsched.web.site.middleware.NulCharacterMiddleware",
    # The person's language, else their browser's (among the event's, once the view found it).
    "confsched.web.site.languages.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "confsched.web.site.middleware.UnknownZoneMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into a clear 429 page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, the signed-in person read with one plain statement.
    "confsched.web.accounts.backends.AccountsBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Failed log-ins (web/accounts/login_throttle.py says why each limit is what it is): after
# CONFSCHED_LOGIN_FAILURE_LIMIT failures at one account from one address, that address may not
# log in to that account for the cool-off (the owner elsewhere still can); an address fails at
# most CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT times under any names, loose since a venue's
# attendees share a few NAT addresses; past CONFSCHED_LOGIN_ACCOUNT_FAILURE_LIMIT failures at
# one account from all addresses, each address gets one try at it per cool-off.
# Stored in the database, so every app process sees the same count. Behind a reverse proxy,
# set CONFSCHED_PROXY_COUNT (below), or every attendee has the proxy's address.
AXES_HANDLER = "confsched.web.accounts.login_throttle.PairFirstHandler"
AXES_FAILURE_LIMIT = int(os.environ.get("CONFSCHED_LOGIN_FAILURE_LIMIT", "5"))
CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT = int(
    os.environ.get("CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT", "300")
)
CONFSCHED_LOGIN_ACCOUNT_FAILURE_LIMIT = int(
    os.environ.get("CONFSCHED_LOGIN_ACCOUNT_FAILURE_LIMIT", "50")
)
AXES_COOLOFF_TIME = float(os.environ.get("CONFSCHED_LOGIN_COOLOFF_HOURS", "0.25"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The name as typed, cut to the 255 characters axes can store (a longer one answered 500).
AXES_USERNAME_CALLABLE = "confsched.web.accounts.login_throttle.recorded_username"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Behind N reverse proxies the visitor's address is the one the outermost proxy saw, read from
# X-Forwarded-For (axes's own reading needs django-ipware, which is not installed, so the
# setting once had no effect); an IPv6 address counts by its /64 (login_throttle.py).
CONFSCHED_PROXY_COUNT = int(os.environ.get("CONFSCHED_PROXY_COUNT") or 0)
AXES_CLIENT_IP_CALLABLE = "confsched.web.accounts.login_throttle.client_address"

# Mail (password reset): printed to the console unless SMTP is configured.
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _flag("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "confsched@localhost")
# Seconds an SMTP connection may wait: a mail server that stops answering fails that mail (the
# team's page shows it) instead of holding the worker, and every mail queued behind it, forever.
EMAIL_TIMEOUT = 30
# The site's address, where links in mails start (a seat freed by a cancellation, alerts,
# reminders, invitations). `confsched serve` sets it to the address it serves when unset and
# that address is one a reader can open (`make run`'s is http://127.0.0.1:8000); behind a
# proxy, set it to the public address. Empty: mails name the page without a link.
CONFSCHED_BASE_URL = os.environ.get("CONFSCHED_BASE_URL", "").strip().rstrip("/")
if CONFSCHED_BASE_URL and not re.fullmatch(r"https?://[^/\s]+(/\S*)?", CONFSCHED_BASE_URL):
    raise ImproperlyConfigured(
        "CONFSCHED_BASE_URL must be the site's http:// or https:// address, e.g. "
        f"https://schedule.example.org: {CONFSCHED_BASE_URL!r}"
    )

ROOT_URLCONF = "confsched.urls"
WSGI_APPLICATION = "confsched.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    }
]

# How long a write waits for SQLite's one write lock before its request fails: long enough for
# hundreds of attendees saving at the same moment, each holding the lock a few milliseconds.
CONFSCHED_SQLITE_WAIT_SECONDS = float(os.environ.get("CONFSCHED_SQLITE_WAIT_SECONDS", "20"))

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{DATA_DIR / 'confsched.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONFSCHED_DB_CONN_MAX_AGE", "60")),
        # A kept connection that the database closed (a restart) is replaced before use, not
        # found broken by the request's first query.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with the health check above made without a round trip (core/postgresql/).
    DATABASES["default"]["ENGINE"] = "confsched.core.postgresql"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default lives in the data folder: make it on first use, not a traceback.
    if not os.environ.get("DATABASE_URL"):
        DATA_DIR.mkdir(parents=True, exist_ok=True)
    # Connections are kept as on PostgreSQL: opening one (the file, the PRAGMAs below and
    # Django's SQL functions) cost a web request about a millisecond, as much as the rest of an
    # anonymous page. Between requests a kept connection holds no transaction, so no lock.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        # SQLite has one write lock. A transaction begun the default way (DEFERRED) reads
        # first and asks for the lock at its first write; if another writer committed in
        # between, its snapshot is stale and SQLite refuses at once ("database is locked"),
        # without waiting: 50 attendees saving at once lost 7-40 % of their writes. Every
        # transaction takes the lock at BEGIN instead, and waits for it (bench/writers.py).
        transaction_mode="IMMEDIATE",
        # How long a statement or BEGIN waits for the write lock (sqlite3's busy timeout).
        timeout=CONFSCHED_SQLITE_WAIT_SECONDS,
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The task queue (django-tasks) keeps its tasks in the site's own database, SQLite or PostgreSQL:
# nothing more to run than `confsched worker` (which `confsched serve` starts on the embedded
# default). "default" is the general queue (the speakers' mails; later thumbnails and pushes),
# which every worker runs; search by meaning's embeddings have their own, which a worker runs
# only with the semantic extra.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default", "embeddings"],
    }
}

if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            # A cache that may be away: pages are built without it rather than failing.
            "BACKEND": "confsched.core.caching.ForgivingRedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": "confsched",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 2},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 20000},  # a card per session, zone and layout
        }
    }

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
# The interface's translations: one folder per language, src/confsched/locale/<code>/, each
# with its django.po (and the django.mo compiled from it, committed: see docs/translating.md).
# A language is offered as soon as its folder is there; English is the source and needs none.
LOCALE_PATHS = [Path(__file__).resolve().parent / "locale"]


def _languages() -> list[tuple[str, str]]:
    from django.conf.locale import LANG_INFO

    found = sorted(
        path.parent.parent.name for path in LOCALE_PATHS[0].glob("*/LC_MESSAGES/django.mo")
    )
    return [("en", "English")] + [
        (code, LANG_INFO.get(code, {}).get("name_local", code)) for code in found if code != "en"
    ]


LANGUAGES = _languages()
LANGUAGE_COOKIE_NAME = "confsched_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = DATA_DIR / "static"


def _http_address(name: str) -> str:
    """An http(s) address from the environment, or "" (start-up stops on anything else)."""
    value = os.environ.get(name, "").strip()
    if value and not re.fullmatch(r"https?://[^/\s]+(/\S*)?", value):
        raise ImproperlyConfigured(f"{name} must be an http:// or https:// address: {value!r}")
    return value


# Files people upload (speakers' photos and slides; core/files.py). By default in the data
# folder, MEDIA_ROOT, which nginx serves at /media/ (deploy/nginx/); with CONFSCHED_S3_BUCKET,
# in an S3-compatible object store (AWS, SeaweedFS, MinIO, R2...) that every app server shares,
# with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or boto3's other ways: a role, a profile).
# CONFSCHED_MEDIA_URL is where browsers fetch them when it is not the site's own /media/ (the
# bucket's public address, a CDN); unset in S3 mode, the app's media view reads them from the
# bucket (web/site/media.py). Names are content-addressed, so every copy is immutable.
MEDIA_ROOT = DATA_DIR / "media"
CONFSCHED_MEDIA_URL = _http_address("CONFSCHED_MEDIA_URL")
if CONFSCHED_MEDIA_URL and not CONFSCHED_MEDIA_URL.endswith("/"):
    CONFSCHED_MEDIA_URL += "/"
MEDIA_URL = CONFSCHED_MEDIA_URL or "/media/"
CONFSCHED_S3_BUCKET = os.environ.get("CONFSCHED_S3_BUCKET", "").strip()
CONFSCHED_S3_ENDPOINT_URL = _http_address("CONFSCHED_S3_ENDPOINT_URL").rstrip("/")
CONFSCHED_S3_REGION = os.environ.get("CONFSCHED_S3_REGION", "").strip()
_S3_KEYS = [bool(os.environ.get(k)) for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")]
if (CONFSCHED_S3_ENDPOINT_URL or CONFSCHED_S3_REGION) and not CONFSCHED_S3_BUCKET:
    raise ImproperlyConfigured(
        "CONFSCHED_S3_ENDPOINT_URL or CONFSCHED_S3_REGION is set without CONFSCHED_S3_BUCKET: "
        "set the bucket to keep uploaded files in the object store, or unset both to keep "
        "them in the data folder."
    )
if CONFSCHED_S3_BUCKET and any(_S3_KEYS) and not all(_S3_KEYS):
    raise ImproperlyConfigured(
        "Set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the object store "
        "(CONFSCHED_S3_BUCKET), or neither to use boto3's other credentials (a role, a profile)."
    )
_MEDIA_SCHEME, _, _MEDIA_HOST_AND_PATH = CONFSCHED_MEDIA_URL.partition("://")
if CONFSCHED_S3_BUCKET:
    MEDIA_STORAGE: dict[str, object] = {
        "BACKEND": "confsched.core.object_storage.ObjectStorage",
        "OPTIONS": {
            "bucket_name": CONFSCHED_S3_BUCKET,
            "endpoint_url": CONFSCHED_S3_ENDPOINT_URL or None,
            "region_name": CONFSCHED_S3_REGION or None,
            # Self-hosted stores (SeaweedFS, MinIO) answer at one host, not one per bucket.
            "addressing_style": "path" if CONFSCHED_S3_ENDPOINT_URL else None,
            # A name taken is never replaced (names are content, core/files.py).
            "file_overwrite": False,
            # Without a public address, storage URLs are signed; the site links to /media/.
            "querystring_auth": not CONFSCHED_MEDIA_URL,
            "custom_domain": _MEDIA_HOST_AND_PATH.rstrip("/") or None,
            "url_protocol": f"{_MEDIA_SCHEME}:" if _MEDIA_HOST_AND_PATH else "https:",
            "default_acl": None,  # the bucket's own policy decides who reads
            # Stored on each object with its type and disposition (core/files.py), served by
            # the store or a CDN as they are.
            "object_parameters": {"CacheControl": "public, max-age=31536000, immutable"},
        },
    }
else:
    MEDIA_STORAGE = {
        "BACKEND": "confsched.core.storage.AtomicFileSystemStorage",
        "OPTIONS": {"location": MEDIA_ROOT, "base_url": MEDIA_URL},
    }
STORAGES = {
    "default": MEDIA_STORAGE,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "confsched.web.site.static_storage.StaticStorage"
        )
    },
}

# In development and tests WhiteNoise serves straight from the apps' static folders.
WHITENOISE_USE_FINDERS = DEBUG or TESTING
WHITENOISE_AUTOREFRESH = DEBUG or TESTING

# Django's database sessions, read with one plain statement (core/sessions.py).
SESSION_ENGINE = "confsched.core.sessions"
SESSION_COOKIE_HTTPONLY = True
# Visitors keep their stars in their session: long enough to plan months ahead.
SESSION_COOKIE_AGE = 180 * 24 * 3600
SESSION_COOKIE_SECURE = _flag("CONFSCHED_SECURE_COOKIES", not DEBUG and _flag("CONFSCHED_HTTPS"))
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if _flag("CONFSCHED_HTTPS"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Preloading is hard to undo (browsers ship the list): only when the operator asks, and
    # the deploy check's nudge towards it (security.W021) is answered by this choice.
    SECURE_HSTS_PRELOAD = _flag("CONFSCHED_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]

# Every page's scripts and styles are our own static files (htmx too), with no inline <script>
# or style= anywhere, so nothing else may run. The Django admin and the API docs page (django-
# ninja's own swagger-ui files) live within this too.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        # Speakers' pictures live on the sources' sites (Sched, Sessionize, pretalx): images,
        # and only images, may come from any https address.
        "img-src": ["'self'", "https:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Nothing the site takes from the web (sign-up, log-in, stars, the admin's forms) comes near a
# megabyte. RequestBodyLimitMiddleware answers 413 above this, and Django's own limits follow
# it, so such a body never spills to a temporary file.
CONFSCHED_MAX_REQUEST_BYTES = int(os.environ.get("CONFSCHED_MAX_REQUEST_BYTES", str(1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = CONFSCHED_MAX_REQUEST_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = CONFSCHED_MAX_REQUEST_BYTES
# Except the admin's import page, for staff: whole programmes (5,000 sessions are ~10 MB), as
# much as a URL may give (interchange.fetch.MAX_BYTES). Files past the limit above go to a
# temporary file while they are read, not to memory.
CONFSCHED_MAX_IMPORT_BYTES = int(
    os.environ.get("CONFSCHED_MAX_IMPORT_BYTES", str(50 * 1024 * 1024))
)
# The admin's biggest form, a full changelist page of editable positions, sends about 210.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 500
DATA_UPLOAD_MAX_NUMBER_FILES = 10

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("CONFSCHED_LOG_LEVEL", "WARNING")},
}

# Where the footer's "confsched" link leads (an http(s) address); unset, the site's /about/.
CONFSCHED_PROJECT_URL = os.environ.get("CONFSCHED_PROJECT_URL", "").strip()
if CONFSCHED_PROJECT_URL and not re.fullmatch(r"https?://[^/\s]+(/\S*)?", CONFSCHED_PROJECT_URL):
    raise ImproperlyConfigured(
        f"CONFSCHED_PROJECT_URL must be an http:// or https:// address: {CONFSCHED_PROJECT_URL!r}"
    )

# How search by meaning's worker runs its model: "auto" in bfloat16 where the CPU multiplies it
# in hardware (about 3x faster there; top-5 results as the float32 model's, tested), else in
# float32; "float32" always (search/encoder.py).
CONFSCHED_EMBEDDING_PRECISION = os.environ.get("CONFSCHED_EMBEDDING_PRECISION", "auto")
if CONFSCHED_EMBEDDING_PRECISION not in {"auto", "float32"}:
    raise ImproperlyConfigured(
        f"CONFSCHED_EMBEDDING_PRECISION must be auto or float32: {CONFSCHED_EMBEDDING_PRECISION!r}"
    )

# The event the site's root address leads to; the first event when unset.
CONFSCHED_DEFAULT_EVENT = os.environ.get("CONFSCHED_DEFAULT_EVENT", "")

# URL imports fetch only from public addresses unless the organizer allows their own network
# (loopback, private, link-local); `confsched import --allow-private-hosts` does it per import.
CONFSCHED_IMPORT_PRIVATE_HOSTS = _flag("CONFSCHED_IMPORT_PRIVATE_HOSTS")

# Web Push (push/): a device's endpoint must be an https URL on a public address, by the rule
# URL imports follow; CONFSCHED_PUSH_ALLOW_PRIVATE=1 admits loopback endpoints, for tests only.
CONFSCHED_PUSH_ALLOW_PRIVATE = _flag("CONFSCHED_PUSH_ALLOW_PRIVATE")
# The VAPID token's `sub`, a mailto: or https: address push services may write to; by default
# the site's https address (CONFSCHED_BASE_URL), else DEFAULT_FROM_EMAIL.
CONFSCHED_PUSH_CONTACT = os.environ.get("CONFSCHED_PUSH_CONTACT", "")
# A file of certificates the sender trusts instead of the system's: a test's local receiver.
CONFSCHED_PUSH_CA_BUNDLE = os.environ.get("CONFSCHED_PUSH_CA_BUNDLE", "")
# Notifications sent at once by a worker (push services answer in tens of milliseconds).
CONFSCHED_PUSH_THREADS = int(os.environ.get("CONFSCHED_PUSH_THREADS", "8"))

# Schedule pages are built once per schedule version, address and zone and filled in per
# request (web/site/stencils.py); off renders every request from scratch (tests compare the two).
CONFSCHED_PAGE_STENCILS = _flag("CONFSCHED_PAGE_STENCILS", True)

# Anonymous pages (no cookie of the site) are public for this many seconds, and a shared cache
# may serve them this many more while it fetches a fresh copy (web/site/shared_cache.py).
# Anonymous pages are fresh 5 s and never served stale while fresh ones can be had: a release
# reaches every visitor through a cache in front within 5 s, and the cache asks the app at most
# once per 5 s per page (a 304 when nothing changed). docs/caching.md.
CONFSCHED_PUBLIC_MAX_AGE = int(os.environ.get("CONFSCHED_PUBLIC_MAX_AGE", "5"))
CONFSCHED_PUBLIC_STALE = int(os.environ.get("CONFSCHED_PUBLIC_STALE", "0"))
