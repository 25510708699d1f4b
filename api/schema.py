"""drf-spectacular extensions for shapes a plain serializer cannot express."""

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import build_array_type, build_basic_type, build_object_type
from drf_spectacular.types import OpenApiTypes


class TokenScheme(KnoxTokenScheme):
    """Our knox authentication (api.tokens) is documented as knox's own: the same header, the same scheme."""

    target_class = "api.tokens.TokenAuthentication"


class ValidationErrorExtension(OpenApiSerializerExtension):
    target_class = "api.serializers.ValidationErrorSerializer"

    def get_name(self, auto_schema, direction):
        return "ValidationError"

    def map_serializer(self, auto_schema, direction):
        return build_object_type(
            description="Field name (or non_field_errors) -> messages (for a field holding several values, "
            "each value's key -> messages); a body that is not JSON at all gets `detail` with "
            "one message instead.",
            additionalProperties={
                "anyOf": [
                    build_array_type(build_basic_type(OpenApiTypes.STR)),
                    build_basic_type(OpenApiTypes.STR),
                    # A field holding several values (e.g. orders by side): each value's key -> messages.
                    build_object_type(additionalProperties=build_array_type(build_basic_type(OpenApiTypes.STR))),
                ]
            },
        )


class StrictSerializerExtension(OpenApiSerializerExtension):
    """Request bodies that refuse fields they do not know say so: additionalProperties false."""

    target_class = "api.serializers.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        schema = {**schema, "additionalProperties": False}
        # "Exactly one of these fields" (e.g. a new deadline or hours to move it by).
        one_of = getattr(self.target, "exactly_one_of", None)
        if one_of:
            schema["oneOf"] = [{"required": [name]} for name in one_of]
        return schema
