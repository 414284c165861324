"""The Celery app. Settings come from Django settings under the CELERY_ prefix (config/settings)."""

import os

from celery import Celery
from celery.signals import task_failure, task_retry, task_success, worker_init

from config import broker
from config.warmup import warm_embedder

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

# sqla+ URLs (the default broker: Mnemo's own PostgreSQL) use config/broker.py's transport.
broker.install()

app = Celery("mnemo")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _count(outcome: str, sender) -> None:
    from core.observability import TASKS

    TASKS.labels(task=getattr(sender, "name", None) or str(sender), outcome=outcome).inc()


@task_success.connect
def _on_success(sender=None, **kwargs):
    _count("success", sender)


@task_failure.connect
def _on_failure(sender=None, **kwargs):
    _count("failure", sender)


@task_retry.connect
def _on_retry(sender=None, **kwargs):
    _count("retry", sender)


@worker_init.connect
def _prepare_worker(sender=None, **kwargs):
    """Before the worker takes its first task: each task's share of the cores, then the embedder
    loaded and run once (MNEMO_WARM_EMBEDDER, as gunicorn's post_worker_init does for the web
    processes). Why: otherwise the first tasks after a start load the model themselves, about a
    second of CPU (bench/NOTES.md, 2026-12-08: 488 queued memories ready in 3.0 s from a cold
    worker against 1.7 s from a warm one), and every memory queued meanwhile waits for it."""
    _embedder_threads_per_task(sender)
    if warm_embedder():
        from memories.embedding import get_embedder

        get_embedder().embed(["warm up"])


def _embedder_threads_per_task(sender=None, **kwargs):
    """Several tasks at once in one worker (the threads pool): each embeds on its share of the
    cores, so the tasks do not fight over them (onnxruntime's default is a spinning thread per
    core for every run). An explicit MNEMO_EMBEDDER_THREADS wins; the solo pool keeps every core."""
    from django.conf import settings

    concurrency = int(getattr(sender, "concurrency", 1) or 1)
    threaded = "thread" in str(getattr(sender, "pool_cls", "")).lower()
    if threaded and concurrency > 1 and "MNEMO_EMBEDDER_THREADS" not in os.environ:
        settings.MNEMO_EMBEDDER_THREADS = max(1, (os.cpu_count() or 1) // concurrency)
