"""What the in-process benchmarks share: Django's WSGI handler called directly in this process
(no server), thread-CPU timers wrapped around named pieces of the code, and the remember
request's body in the corpus's shape. Used by bench/web_split.py (search), bench/remember_split.py
and bench/remember_sql.py (remember)."""

from __future__ import annotations

import functools
import importlib
import io
import json
import sys
import time
from collections.abc import Callable
from typing import Any


def time_piece(acc: dict[str, float], module: str, qualified: str, *, calls: dict[str, int] | None = None) -> str:
    """Replace ``qualified`` in ``module`` (and where other modules imported it) by a wrapper that
    adds its thread CPU to ``acc`` (and its calls to ``calls``) under the key returned,
    ``module.qualified``. A nested piece is counted inside its parent too."""
    owner: Any = importlib.import_module(module)
    *path, name = qualified.split(".")
    for part in path:
        owner = getattr(owner, part)
    original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
    key = f"{module}.{qualified}"

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            acc[key] = acc.get(key, 0.0) + time.thread_time() - started
            if calls is not None:
                calls[key] = calls.get(key, 0) + 1

    setattr(owner, name, wrapper)
    if not isinstance(owner, type):
        for other in list(sys.modules.values()):
            if other is not owner and getattr(other, name, None) is original:
                setattr(other, name, wrapper)
    return key


def post(app: Callable[..., Any], path: str, body: bytes, token: str, *, expect: str) -> None:
    """POST ``body`` (JSON) to ``path`` through the WSGI ``app`` with ``token``; the response is
    read whole and closed; a status not starting with ``expect`` fails the run."""

    def start_response(status: str, headers: Any, exc_info: Any = None) -> None:
        assert status.startswith(expect), status

    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "HTTP_HOST": "127.0.0.1",
        "HTTP_AUTHORIZATION": f"Token {token}",
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    response = app(environ, start_response)
    b"".join(response)
    response.close()


def remember_body(text: str, i: int, *, source: str) -> bytes:
    """A remember request with every scanned field of its contract filled: a new text (``text``
    numbered ``i``), ``dedup_policy`` "ask", tags, a source and a small metadata object."""
    return json.dumps(
        {
            "text": f"{text} #{i}",
            "dedup_policy": "ask",
            "tags": ["work", "Project Alpha"],
            "source_provider": "bench",
            "metadata": {"source": source, "turn": i},
        }
    ).encode()
