"""The test suite: a throwaway embedded cluster in a temporary folder, fast password hashing.

With DATABASE_URL set, tests use that server instead (it must have pgvector). The temporary data
folder is exported through the environment so that processes the tests start (a Celery worker)
attach to the same server.
"""

import os
import tempfile
from pathlib import Path

from kombu import Queue

from .base import *  # noqa: F403
from .base import env

DEBUG = False
SECRET_KEY = "test-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
ALLOWED_HOSTS = ["*"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if MNEMO_EMBEDDED_DB:  # noqa: F405
    if not os.environ.get("MNEMO_DATA_DIR"):
        os.environ["MNEMO_DATA_DIR"] = tempfile.mkdtemp(prefix="mnemo-test-")
        os.environ["MNEMO_TEST_DATA_DIR_OWNER"] = str(os.getpid())
    MNEMO_DATA_DIR = Path(os.environ["MNEMO_DATA_DIR"])
    # The process that made the temporary cluster deletes it when it is the last one out.
    owner = os.environ.get("MNEMO_TEST_DATA_DIR_OWNER")
    MNEMO_EMBEDDED_CLEANUP = "delete" if owner == str(os.getpid()) else "stop"

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LOGGING["root"]["level"] = env("MNEMO_LOG_LEVEL", default="WARNING")  # type: ignore[index]  # noqa: F405

# A queue of its own per test run, so a run never takes (or leaves) another run's messages on the
# shared brokers; exported so that the workers the tests start listen on it too. RabbitMQ drops
# the queue ten minutes after its last consumer leaves.
if not os.environ.get("CELERY_QUEUE"):
    os.environ["CELERY_QUEUE"] = f"mnemo-test-{os.getpid()}"
CELERY_TASK_DEFAULT_QUEUE = os.environ["CELERY_QUEUE"]
CELERY_TASK_QUEUES = [Queue(CELERY_TASK_DEFAULT_QUEUE, queue_arguments={"x-expires": 600_000})]

# A worker started by a test must use the test database, not the one named in settings.
if os.environ.get("MNEMO_TEST_WORKER_DB"):
    DATABASES["default"]["NAME"] = os.environ["MNEMO_TEST_WORKER_DB"]  # noqa: F405
    MNEMO_EMBEDDED_DB_NAME = os.environ["MNEMO_TEST_WORKER_DB"]

STATIC_ROOT = Path(os.environ.get("MNEMO_DATA_DIR", tempfile.gettempdir())) / "static"
# Derived model graphs outlive a run's temporary data folder: one derivation serves every run
# (the cache is keyed by its inputs and written atomically, so concurrent runs share it safely).
MNEMO_EMBED_CACHE_DIR = Path(
    env("MNEMO_EMBED_CACHE_DIR", default=str(Path(tempfile.gettempdir()) / "mnemo-test-models"))
)
STATIC_ROOT.mkdir(parents=True, exist_ok=True)

MNEMO_SMS_BACKEND = "contacts.sms.LocMemSmsBackend"

# Tasks run in process unless a test (or CELERY_BROKER_URL) names a broker, and connections are
# not pooled unless MNEMO_DB_POOL says so: the serving tests start the real stack for that.
if not os.environ.get("CELERY_BROKER_URL"):
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    MNEMO_BROKER_IS_DATABASE = False
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600)}
if not os.environ.get("MNEMO_DB_POOL"):
    for _alias in DATABASES.values():  # noqa: F405
        _alias["OPTIONS"].pop("pool", None)
        _alias["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
        _alias["CONN_HEALTH_CHECKS"] = True

# Error bodies without the request id, so that tests compare whole bodies (tests/serving checks
# the request id in the envelope on the real stack, with this on).
MNEMO_ERROR_REQUEST_ID = env.bool("MNEMO_ERROR_REQUEST_ID", default=False)
# Every token lookup reads the database (tests that change users or permissions around Django's
# signals see it at once); the cache and its access version have tests of their own.
MNEMO_TOKEN_CACHE_SECONDS = env.float("MNEMO_TOKEN_CACHE_SECONDS", default=0.0)
