"""Memory API views: thin. Validate the input serializer, call one service or selector, answer.

Permissions are decided in ``memories.permissions`` only; views never check them themselves.
"""

from __future__ import annotations

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import validated
from memories import operations, permissions, selectors, services
from memories.api import serializers as s
from memories.api.filters import MemoryFilter
from memories.models import Memory, Namespace


class WhoAmIView(APIView):
    """Who the token belongs to: the simplest way for an agent to check its credentials."""

    @extend_schema(
        responses=inline_serializer("WhoAmI", {"ok": serializers.BooleanField(), "username": serializers.CharField()})
    )
    def get(self, request: Request) -> Response:
        return Response({"ok": True, "username": request.user.get_username()})


class RememberView(APIView):
    """Seed 003 ``remember``: store one durable fact, synchronously."""

    @extend_schema(
        request=s.RememberInput,
        responses={201: s.RememberOutput, 200: s.RememberOutput},
        examples=[
            OpenApiExample(
                "seed 003",
                value={"text": "My son Colby lives in Los Angeles.", "tags": ["family"], "capture_mode": "explicit"},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        result = operations.remember(user=request.user, data=validated(s.RememberInput, request))
        body = s.remember_body(result)
        created = result.message == "Ok"
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class MemoryListCreateView(generics.ListAPIView):
    """GET: memories the caller may see, filtered and paginated. POST: seed 002 ``add_memory``."""

    serializer_class = s.MemoryOutput
    filter_backends = [DjangoFilterBackend]
    filterset_class = MemoryFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user, no query
            return Memory.objects.none()
        return permissions.visible_memories(self.request.user).select_related("created_by")

    @extend_schema(
        request=s.AddMemoryInput,
        responses={202: s.AddMemoryOutput, 201: s.AddMemoryOutput},
        examples=[
            OpenApiExample(
                "seed 002",
                value={
                    "content": "User prefers meetings scheduled in the afternoon",
                    "metadata": {"category": "preferences", "type": "scheduling"},
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = validated(s.AddMemoryInput, request)
        memory = operations.add_memory(user=request.user, data=data)
        state, message = s.add_memory_answer(memory, queued=data["async"])
        body = {"ok": True, "id": memory.id, "event_id": memory.event_id, "status": state, "message": message}
        code = status.HTTP_202_ACCEPTED if data["async"] else status.HTTP_201_CREATED
        return Response(s.AddMemoryOutput(body).data, status=code)


class SearchView(APIView):
    """Seed 002 ``search_memory``: hybrid (meaning + keywords) search, best first."""

    @extend_schema(
        request=s.SearchInput,
        responses=s.SearchOutput,
        examples=[OpenApiExample("seed 002", value={"query": "scheduling preferences", "limit": 3}, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        data = validated(s.SearchInput, request)
        _, hits = operations.search(user=request.user, data=data)
        if data["format"] == "text":
            return Response({"ok": True, "text": selectors.format_results_text(hits)})
        return Response({"ok": True, "results": s.search_results(hits)})  # SearchOutput's results, as dicts


class MemoryDetailView(APIView):
    """One memory: read, change (new text is re-embedded), delete (a tombstone, out of recall)."""

    @extend_schema(responses=s.MemoryOutput)
    def get(self, request: Request, memory_id: int) -> Response:
        memory = permissions.get_memory(request.user, memory_id)
        return Response(s.MemoryOutput(memory).data)

    @extend_schema(request=s.MemoryPatchInput, responses=s.MemoryOutput)
    def patch(self, request: Request, memory_id: int) -> Response:
        memory = permissions.get_memory(request.user, memory_id, write=True)
        data = validated(s.MemoryPatchInput, request)
        memory = services.update_memory(actor=request.user, memory=memory, **data)
        return Response(s.MemoryOutput(memory).data)

    @extend_schema(request=None, responses={200: s.ForgetOutput})
    def delete(self, request: Request, memory_id: int) -> Response:
        memory = permissions.get_memory(request.user, memory_id, write=True)
        tombstone = services.forget_memory(actor=request.user, memory=memory, reason="deleted", kind="deleted")
        return Response({"ok": True, "tombstone": s.TombstoneOutput(tombstone).data})


class ForgetView(APIView):
    """Forget a memory: out of recall, kept as a tombstone with the reason."""

    @extend_schema(request=s.ForgetInput, responses=s.ForgetOutput)
    def post(self, request: Request, memory_id: int) -> Response:
        memory = permissions.get_memory(request.user, memory_id, write=True)
        data = validated(s.ForgetInput, request)
        tombstone = services.forget_memory(actor=request.user, memory=memory, reason=data["reason"])
        return Response({"ok": True, "tombstone": s.TombstoneOutput(tombstone).data})


class CorrectView(APIView):
    """Correct a memory: a new memory replaces it; the old one becomes a tombstone pointing to it."""

    @extend_schema(request=s.CorrectInput, responses={201: s.CorrectOutput})
    def post(self, request: Request, memory_id: int) -> Response:
        memory = permissions.get_memory(request.user, memory_id, write=True)
        data = validated(s.CorrectInput, request)
        new, tombstone = services.correct_memory(
            actor=request.user, memory=memory, text=data["text"], reason=data["reason"]
        )
        return Response(
            {"ok": True, "memory": s.MemoryOutput(new).data, "tombstone": s.TombstoneOutput(tombstone).data},
            status=status.HTTP_201_CREATED,
        )


class ConfirmView(APIView):
    """The fact still holds: ``last_confirmed_at`` becomes now."""

    @extend_schema(request=None, responses=s.MemoryOutput)
    def post(self, request: Request, memory_id: int) -> Response:
        memory = permissions.get_memory(request.user, memory_id, write=True)
        memory = services.confirm_memory(actor=request.user, memory=memory)
        return Response(s.MemoryOutput(memory).data)


class HistoryView(APIView):
    """Every add, update, forget, correct and confirm of one memory, oldest first."""

    @extend_schema(responses=s.HistoryOutput)
    def get(self, request: Request, memory_id: int) -> Response:
        memory = permissions.get_memory(request.user, memory_id)
        events = selectors.memory_history(memory=memory)
        return Response({"ok": True, "memory_id": memory.id, "events": s.EventOutput(events, many=True).data})


class EventStatusView(APIView):
    """Where an asynchronous add stands: queued, ready or failed."""

    @extend_schema(responses={200: s.EventStatusOutput})
    def get(self, request: Request, event_id: str) -> Response:
        # A foreign event answers exactly like a missing one (and neither names the memory).
        memory = permissions.get_memory_by_event(request.user, event_id)
        body = {
            "ok": True,
            "event_id": memory.event_id,
            "status": memory.status,
            "memory_id": memory.id,
            "error": memory.error or None,
        }
        return Response(s.EventStatusOutput(body).data)


class NamespaceListView(generics.ListAPIView):
    """The namespaces the caller may read, and whether it may write them."""

    serializer_class = s.NamespaceOutput
    pagination_class = None

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Namespace.objects.none()
        return selectors.namespaces_for(user=self.request.user)
