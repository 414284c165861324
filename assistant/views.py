"""The staff home page at ``/``: the system's state at a glance, every figure a link into the admin."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from assistant import charts, dashboard
from core.display import age


@staff_member_required  # anyone else goes to the admin's login page, and comes back here after
def home(request: HttpRequest) -> HttpResponse:
    state = dashboard.home(user=request.user)
    context = {
        **admin.site.each_context(request),  # the admin's header: user tools, "log out"
        "title": "How Mnemo is doing",
        "home": state,
        "oldest_queued_age": age(state.oldest_queued) if state.oldest_queued else None,
        "activity_chart": charts.bars(state.activity_by_day, unit=" added"),
        "rules_chart": charts.hbars([(f.label, f.value) for f in state.rules]),
        "latency_chart": charts.bars(state.latency["series"], width=480, unit=" ms", labels_every=10),
    }
    return render(request, "staff/home.html", context)
