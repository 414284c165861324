"""The caller's API tokens over REST: list, create (the key is in that answer only), revoke.

Thin, like every view: the input contract, one service or selector, the output serializer.
Another user's token answers NOT_FOUND, exactly like a missing one (``core.permissions``).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import tokens
from core.api import StrictSerializer, validated
from core.fields import AwareDateTimeField, BoundedIntegerField, TextField
from core.models import ApiToken
from core.permissions import get_for_user


class TokenInput(StrictSerializer):
    """A new token: its name, and optionally when it expires and how many requests per minute it
    may make."""

    name = TextField(max_length=100, help_text="what the token is for, e.g. the agent that uses it")
    expires_at = AwareDateTimeField(
        required=False, allow_null=True, default=None, help_text="when it stops working; null: never"
    )
    rate_limit_per_minute = BoundedIntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=tokens.MAX_RATE_LIMIT,
        help_text="requests per minute; more answer 429 RATE_LIMITED; null: no limit",
    )


class TokenOutput(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "expires_at", "last_used_at", "rate_limit_per_minute"]
        read_only_fields = fields


class TokenCreatedOutput(TokenOutput):
    key = serializers.CharField(help_text="the token itself: shown in this answer only, never again")

    class Meta(TokenOutput.Meta):
        fields = [*TokenOutput.Meta.fields, "key"]
        read_only_fields = fields


class TokenListView(APIView):
    """The caller's live tokens (never their keys), and new ones."""

    @extend_schema(responses=TokenOutput(many=True))
    def get(self, request: Request) -> Response:
        return Response(TokenOutput(tokens.tokens_of(user=request.user), many=True).data)

    @extend_schema(
        request=TokenInput,
        responses={201: TokenCreatedOutput},
        examples=[
            OpenApiExample(
                "an agent's token", value={"name": "gmail agent", "rate_limit_per_minute": 120}, request_only=True
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = validated(TokenInput, request)
        made_with = request.auth if isinstance(request.auth, ApiToken) else None
        issued = tokens.issue_token(user=request.user, made_with=made_with, **data)
        body = {**TokenOutput(issued.token).data, "key": issued.key}
        return Response(body, status=status.HTTP_201_CREATED)


class TokenDetailView(APIView):
    """Revoke one of the caller's tokens (the one this request came with too): it stops working
    at once, in every process."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, token_id: int) -> Response:
        token = get_for_user(
            ApiToken.objects.filter(revoked_at__isnull=True),
            request.user,
            "delete",
            not_found=f"Token {token_id} not found.",
            pk=token_id,
        )
        tokens.revoke_token(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)
