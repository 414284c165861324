"""The database router: opted-in reads to the read replica while it is healthy, the rest to the primary.

See core/replica.py for which reads opt in and how the replica's health is judged.
"""

from __future__ import annotations

from core.replica import read_alias


class ReplicaRouter:
    """Writes, migrations and ordinary reads: ``default``. Reads in a ``use_replica()`` block
    (searches, list routes): ``replica`` when one is configured, reachable and not lagging."""

    def db_for_read(self, model, **hints):
        return read_alias() or "default"

    def db_for_write(self, model, **hints):
        return "default"

    def allow_relation(self, obj1, obj2, **hints):
        return True  # the replica is a copy of the primary: same rows

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == "default"


class ReplicaReadsMiddleware:
    """Requests to the read-only routes in ``MNEMO_REPLICA_ROUTES`` read from the replica.

    If such a request fails with a database error while the replica was in use (a 503 from the
    error envelope), the replica is marked down and the request runs once more on the primary:
    these routes only read, so running them twice is safe.
    """

    def __init__(self, get_response):
        from django.conf import settings

        self.get_response = get_response
        self.routes = {tuple(item.split(":", 1)) for item in settings.MNEMO_REPLICA_ROUTES}
        self.enabled = "replica" in settings.DATABASES and bool(self.routes)

    def __call__(self, request):
        if not self.enabled:
            return self.get_response(request)
        from django.urls import Resolver404, resolve

        from core.replica import mark_replica_down, use_replica

        try:
            name = resolve(request.path_info).url_name
        except Resolver404:
            return self.get_response(request)
        if (name, request.method) not in self.routes:
            return self.get_response(request)
        with use_replica():
            used_replica = read_alias() is not None
            response = self.get_response(request)
        if used_replica and response.status_code == 503:
            mark_replica_down()
            response = self.get_response(request)
        return response
