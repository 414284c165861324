"""Whether the processes that embed load the model when they start (MNEMO_WARM_EMBEDDER).

One switch, read by gunicorn's hooks (config/gunicorn.py: the web processes) and by the Celery
worker's start (config/celery.py). Read from the environment, not Django's settings: gunicorn's
arbiter asks before Django is set up."""

from __future__ import annotations

import os


def warm_embedder() -> bool:
    """MNEMO_WARM_EMBEDDER (default true): the model ready before the first request or task, or
    left to the first one that embeds."""
    return os.environ.get("MNEMO_WARM_EMBEDDER", "true").lower() in {"1", "true", "yes"}
