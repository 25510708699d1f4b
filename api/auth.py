"""API tokens (django-rest-knox): log in for an expiring token, log out one token or all.

A token is sent as ``Authorization: Token <token>``; only its hash is stored; it expires
after REST_KNOX's TOKEN_TTL and dies at logout and whenever the user's password changes
(``campaigns.accounts``). Logging in goes through the same lockout as the web login
(django-axes, by username and client address), answered here with 429 instead of DRF's
400, plus a per-address throttle on attempts.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from knox import views as knox_views
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from campaigns.accounts import LoginAttemptThrottle

from . import serializers as s
from .tokens import TokenAuthentication

TOKEN = inline_serializer(
    "IssuedToken",
    {
        "token": serializers.CharField(help_text="Send it as `Authorization: Token <token>`."),
        "expiry": serializers.DateTimeField(help_text="When the token stops working."),
    },
)
LOCKED = OpenApiResponse(
    s.ErrorSerializer,
    description="Too many failed attempts for this username from your address, or too many attempts from it: wait.",
)
NO_TOKEN = OpenApiResponse(s.ErrorSerializer, description="No valid token: not logged in, expired or revoked.")


class LoginView(knox_views.LoginView):
    """knox's LoginView authenticates with the API's token classes; here the credentials come in
    the body instead, checked with the request passed to authenticate() so django-axes sees the
    attempt. Wrong credentials are 401 (the request was well formed; it did not authenticate)."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [LoginAttemptThrottle]  # one budget per address with the web login

    @extend_schema(
        summary="Log in: an API token for a username and password",
        description="The token expires (see `expiry`) and is revoked by logging out or by a change of password. "
        "After repeated wrong passwords for a username from one address, that pair is locked out "
        "for a while (429), even with the right password.",
        request=s.LoginRequestSerializer,
        responses={
            200: TOKEN,
            400: OpenApiResponse(s.ValidationErrorSerializer, description="Missing or blank fields."),
            401: OpenApiResponse(s.ErrorSerializer, description="Wrong username or password."),
            403: OpenApiResponse(
                s.ErrorSerializer, description="Too many live tokens: log out of some (or everywhere) first."
            ),
            429: LOCKED,
        },
        auth=[],
    )
    def post(self, request, format=None):
        creds = s.LoginRequestSerializer(data=request.data)
        creds.is_valid(raise_exception=True)
        user = authenticate(request=request, **creds.validated_data)
        if getattr(request, "axes_locked_out", False):
            # axes flags DRF's Request, which AxesMiddleware never sees.
            return Response(
                {"detail": "Too many failed login attempts: try again later."}, status=settings.AXES_HTTP_RESPONSE_CODE
            )
        if user is None:
            return Response(
                {"detail": "Unable to log in with the username and password given."},
                status=status.HTTP_401_UNAUTHORIZED,
                headers={"WWW-Authenticate": "Token"},
            )
        request.user = user
        response = super().post(request, format)
        if response.status_code == status.HTTP_403_FORBIDDEN:  # knox's token limit, in our error shape
            response.data = {
                "detail": "Too many live API tokens for this user (REST_KNOX TOKEN_LIMIT_PER_USER): "
                "log out of some, or everywhere, first."
            }
        return response


_LOGOUT = {204: OpenApiResponse(description="Done: the token no longer works."), 401: NO_TOKEN}


class LogoutView(knox_views.LogoutView):
    authentication_classes = (TokenAuthentication,)  # knox's names its own; ours is one query (api.tokens)

    @extend_schema(summary="Log out: revoke the token this request is made with", request=None, responses=_LOGOUT)
    def post(self, request, format=None):
        return super().post(request, format)


class LogoutAllView(knox_views.LogoutAllView):
    authentication_classes = (TokenAuthentication,)

    @extend_schema(summary="Log out everywhere: revoke every token of mine", request=None, responses=_LOGOUT)
    def post(self, request, format=None):
        return super().post(request, format)
