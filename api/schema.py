"""drf-spectacular extensions for shapes a plain serializer cannot express."""
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import build_array_type, build_basic_type, build_object_type
from drf_spectacular.types import OpenApiTypes


class ValidationErrorExtension(OpenApiSerializerExtension):
    target_class = "api.serializers.ValidationErrorSerializer"

    def get_name(self, auto_schema, direction):
        return "ValidationError"

    def map_serializer(self, auto_schema, direction):
        return build_object_type(
            description="Field name (or non_field_errors) -> messages.",
            additionalProperties=build_array_type(build_basic_type(OpenApiTypes.STR)),
        )
