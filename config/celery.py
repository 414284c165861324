"""The Celery app. Settings come from Django settings under the CELERY_ prefix (config/settings)."""

import os

from celery import Celery
from celery.signals import task_failure, task_retry, task_success

from config import broker

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
