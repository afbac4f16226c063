"""The API's documentation page, /api/v1/docs, drawn from the OpenAPI schema with a Django template:
the site's frame (its language, viewport, colours), no script, no CDN, so it passes the
same accessibility bars as the site's pages under its strict CSP. The schema stays /api/v1/openapi.json."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from api.api import api

DEFAULT_SCOPE = {"get": "read"}  # any other method: "play" ("bot" for a bot account), unless x-scope says


def type_words(schema: dict[str, Any]) -> str:
    """A JSON schema as a few words: "integer", "list of SeatIn", "one of a, b"."""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return " or ".join(type_words(part) for part in schema[key])
    if "const" in schema:
        return repr(schema["const"]).replace("'", '"')
    if "enum" in schema:
        return "one of " + ", ".join(str(value) for value in schema["enum"])
    kind = schema.get("type", "any")
    if kind == "array":
        return "list of " + type_words(schema.get("items", {}))
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return "object of " + type_words(schema["additionalProperties"])
    limits = [f"{word} {schema[key]}" for key, word in (("minimum", "≥"), ("maximum", "≤")) if key in schema]
    return " ".join([kind, *limits])


def _anchor(*parts: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", " ".join(parts).lower()).strip("-")


def _operation(path: str, method: str, op: dict[str, Any]) -> dict[str, Any]:
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    return {
        "method": method.upper(),
        "path": path,
        "anchor": _anchor(method, path),
        "summary": op.get("summary", ""),
        "description": op.get("description", ""),
        "scope": op.get("x-scope") or DEFAULT_SCOPE.get(method, "play"),
        "parameters": [
            {
                "name": p["name"],
                "where": p["in"],
                "required": p.get("required", False),
                "type": type_words(p.get("schema", {})),
                "description": p.get("description", "") or p.get("schema", {}).get("description", ""),
            }
            for p in op.get("parameters", [])
        ],
        "body": type_words(body) if body else "",
        "responses": [(code, answer.get("description", "")) for code, answer in op.get("responses", {}).items()],
    }


def _schema_part(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    required = set(schema.get("required", []))
    return {
        "name": name,
        "anchor": _anchor("schema", name),
        "description": schema.get("description", ""),
        "type": "" if "properties" in schema else type_words(schema),
        "properties": [
            {
                "name": key,
                "type": type_words(value),
                "required": key in required,
                "description": value.get("description", ""),
            }
            for key, value in schema.get("properties", {}).items()
        ],
    }


def context() -> dict[str, Any]:
    schema = api.get_openapi_schema()
    groups: dict[str, list[dict[str, Any]]] = {}
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            tag = (op.get("tags") or ["matches"])[0]
            groups.setdefault(tag, []).append(_operation(path, method, op))
    parts = schema.get("components", {}).get("schemas", {})
    return {
        "info": schema["info"],
        "groups": [{"name": tag, "anchor": _anchor("group", tag), "operations": ops} for tag, ops in groups.items()],
        "schemas": [_schema_part(name, part) for name, part in sorted(parts.items())],
    }


def page(request: HttpRequest) -> HttpResponse:
    return render(request, "api/docs.html", context())
