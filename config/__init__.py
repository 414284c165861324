"""Mnemo's wiring: settings, URLs, the Celery app and the embedded-database bootstrap."""

from .celery import app as celery_app

__all__ = ("celery_app",)
