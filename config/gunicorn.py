"""gunicorn's configuration for ``make run`` (``gunicorn -c config/gunicorn.py config.asgi:application``).

ASGI with uvicorn workers: the MCP endpoint is an ASGI app and is served by the same processes.
Django runs each request in one of the process's ``MNEMO_WEB_THREADS`` threads (config/asgi.py),
so one process serves several requests at once (each holding a pooled connection), but the CPU
work shares one interpreter lock per process: cores are used by processes, ``MNEMO_WEB_WORKERS``
(default: 2 per core, at least 2, at most 8). Each process opens at most
``MNEMO_DB_POOL_SIZE`` database connections and loads the embedder once (at boot, so the first
request is not slow).
"""

import os

_cores = os.cpu_count() or 1

# One CPU thread per query embedding in a web process: parallelism comes from the processes.
# onnxruntime's default (a thread per core, spinning between runs) embedded a query in 4.7 instead
# of 6.5 ms but burned 20 ms of CPU doing it, which the other requests, PostgreSQL and the worker
# on the same cores then lacked: search throughput at concurrency 8 rose by a fifth with one
# thread (docs/benchmarks.md). An explicit MNEMO_EMBEDDER_THREADS wins.
os.environ.setdefault("MNEMO_EMBEDDER_THREADS", "1")

bind = os.environ.get("MNEMO_BIND", f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("MNEMO_WEB_WORKERS") or max(2, min(8, 2 * _cores)))
worker_class = "uvicorn_worker.UvicornWorker"
# Not preloaded: the arbiter never touches the database or the model, so nothing it holds is
# shared by fork, and each worker attaches to the embedded PostgreSQL itself.
preload_app = False
timeout = int(os.environ.get("MNEMO_WEB_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("MNEMO_WEB_GRACEFUL_TIMEOUT", "20"))
keepalive = 5
# Whose X-Forwarded-For / X-Forwarded-Proto the server believes: MNEMO_TRUSTED_PROXIES (comma-separated
# addresses or networks of your reverse proxies), nobody by default. uvicorn's own default believes
# any request from loopback, so a local client could name any address it liked in the header and be
# judged by it (/metrics decides by the client's address).
forwarded_allow_ips = os.environ.get("MNEMO_TRUSTED_PROXIES", "")
# Django writes the access log (with request ids); gunicorn's own messages go to stderr.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("MNEMO_LOG_LEVEL", "info").lower()
proc_name = "mnemo-web"


def _exit_normally(signum, frame):
    raise SystemExit(0)


def on_starting(server):
    """Derive the embedder's graph once, in a child process, before the workers start (as
    ``make run`` does before it starts gunicorn: MNEMO_EMBEDDER_PREPARED). Without it, on a first
    start every worker derives the graph for itself at the same moment, each peaking at about
    1 GB and keeping some 300 MB of it (memories/graph_prepare.py). A failure is logged; the
    workers then derive for themselves."""
    from config.warmup import warm_embedder

    if os.environ.get("MNEMO_EMBEDDER_PREPARED") or not warm_embedder():
        return
    from memories.graph_prepare import prepare_in_child

    try:
        source = prepare_in_child()
    except Exception as exc:  # the workers will derive or report it themselves
        server.log.warning("the embedding model's graph could not be prepared: %s", exc)
        return
    if source == "derived":
        server.log.info("derived the embedding model's graph once, before the workers start")


def post_worker_init(worker):
    """Exit normally on SIGTERM; load the application and the embedder before the first request.

    uvicorn hands a SIGTERM it caught back to the handler that was there before it started
    serving, once it has finished; the uvicorn worker leaves that at the default, which kills
    the process without its exit handlers (and the embedded PostgreSQL would outlive it).
    """
    import signal

    from config.warmup import warm_embedder

    signal.signal(signal.SIGTERM, _exit_normally)
    if warm_embedder():
        import django

        django.setup()
        from memories.embedding import get_embedder

        get_embedder().embed(["warm up"])


def worker_exit(server, worker):
    """A worker leaves the embedded PostgreSQL's holders (its exit handlers may not run)."""
    from config.embedded_pg import release

    release()


def child_exit(server, worker):
    """prometheus-client multiprocess mode: a dead worker's live gauges are dropped."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
