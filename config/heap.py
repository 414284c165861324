"""The cyclic garbage collector in Mnemo's long-lived processes (the web workers, the Celery worker).

Why it is tuned at all: after start-up a web process holds about 210,000 objects the collector
tracks (Django, DRF, the URLconf, the tokenizer's and onnxruntime's Python side), none of which
will ever be garbage. CPython's full collection traverses every one of them: 60 to 90 ms of one
core, a pause for whichever request is running (bench/NOTES.md, issue 25). ``gc.freeze()`` moves
what exists at that moment to a generation no collection looks at; later garbage is collected as
before (a frozen object that does become garbage is merely kept, which start-up objects never do).
"""

from __future__ import annotations

import gc
import os


def settle() -> None:
    """Once the process is warm (models loaded, URLconf imported): collect, then freeze what is
    left. MNEMO_GC_FREEZE=false leaves the collector as CPython sets it."""
    if os.environ.get("MNEMO_GC_FREEZE", "true").lower() not in {"1", "true", "yes"}:
        return
    gc.collect()
    gc.freeze()
    threshold = os.environ.get("MNEMO_GC_THRESHOLD0")
    if threshold:
        gc.set_threshold(int(threshold), *gc.get_threshold()[1:])
