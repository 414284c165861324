"""Root URLs: the admin, the API under /api/v1/, its schema and docs, the health probes and the
Mem0 entrance (/v1/, /v3/: the paths mem0ai's MemoryClient calls)."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from assistant.views import home
from config import health, observability
from contacts.views import contact_page
from core.errors import json_not_found
from toolrules import rpc

admin.site.site_header = "Mnemo administration"
admin.site.site_title = "Mnemo"
admin.site.index_title = "Memories, contacts and tool rules"
admin.site.site_url = "/"  # "View site": the staff home page
# The index already lists every model; at 1280-1440 px a second sidebar leaves lists too narrow.
admin.site.enable_nav_sidebar = False

urlpatterns = [
    path("", home, name="home"),
    # seed 000's deep_link, with or without a final slash
    re_path(r"^contacts/(?P<contact_id>[^/]+)/?$", contact_page, name="contact-page"),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", observability.metrics, name="metrics"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("memories.api.urls")),
    path("api/v1/", include("contacts.api.urls")),
    path("api/v1/assistant/", include("assistant.api.urls")),
    path("api/v1/", include("toolrules.api.urls")),
    path("api/v1/", include("core.urls")),
    path("rpc", rpc.view, name="rpc"),
    # The Mem0 entrance (memories.api.mem0_compat): the paths mem0ai's MemoryClient calls.
    path("", include("memories.api.mem0_urls")),
    # Anything else under /api/ is a JSON 404, also with DEBUG on.
    re_path(r"^api/", json_not_found),
]

handler400 = "core.errors.json_bad_request"
handler403 = "core.errors.json_permission_denied"
handler404 = "core.errors.json_not_found"
handler500 = "core.errors.json_server_error"
