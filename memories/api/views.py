"""Memory API views: thin, validate → one service or selector → serialize."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class WhoAmIView(APIView):
    """Who the token belongs to: the simplest way for an agent to check its credentials."""

    @extend_schema(
        responses=inline_serializer(
            "WhoAmI", {"ok": serializers.BooleanField(), "username": serializers.CharField()}
        )
    )
    def get(self, request: Request) -> Response:
        return Response({"ok": True, "username": request.user.get_username()})
