#!/usr/bin/env python3
"""Validate a JSON document against a JSON Schema that uses only the keywords the T4
results schema uses (type, required, properties, items, enum, additionalProperties,
pattern, minimum), with nothing but the standard library, so that the check runs on a
plain Debian python3. A keyword this validator does not know fails the check (a newer
schema must not pass unchecked); annotations ($schema, description, examples, ...) are
ignored.

    jsonschema_subset.py SCHEMA.json DOC.json    exit 0 valid, 1 invalid (errors listed)
"""
import json
import re
import sys

ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "example", "examples",
               "default", "format"}
KEYWORDS = {"type", "required", "properties", "items", "enum", "additionalProperties",
            "pattern", "minimum"}


def is_type(value, name):
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "integer":  # JSON Schema: a number with no fractional part
        return (isinstance(value, int) and not isinstance(value, bool)) or \
            (isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    raise ValueError(f"unknown type '{name}' in the schema")


def equal(a, b):
    """JSON equality: 1 == 1.0, but True is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def validate(value, schema, path, errors):
    if not isinstance(schema, dict):
        raise ValueError(f"{path}: a schema is an object")
    unknown = set(schema) - KEYWORDS - ANNOTATIONS
    if unknown:
        raise ValueError(f"{path}: schema keywords not implemented: {sorted(unknown)}")
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(is_type(value, t) for t in types):
            errors.append(f"{path}: {json.dumps(value)[:60]} is not of type {schema['type']}")
            return
    if "enum" in schema and not any(equal(value, e) for e in schema["enum"]):
        errors.append(f"{path}: {json.dumps(value)[:60]} is not one of {schema['enum']}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        errors.append(f"{path}: '{value}' does not match {schema['pattern']}")
    if "minimum" in schema and is_type(value, "number") and value < schema["minimum"]:
        errors.append(f"{path}: {value} is below the minimum {schema['minimum']}")
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                errors.append(f"{path}: '{name}' is required")
        props = schema.get("properties", {})
        for name, item in value.items():
            if name in props:
                validate(item, props[name], f"{path}.{name}", errors)
            elif "additionalProperties" in schema:
                extra = schema["additionalProperties"]
                if extra is False:
                    errors.append(f"{path}: '{name}' is not allowed")
                elif isinstance(extra, dict):
                    validate(item, extra, f"{path}.{name}", errors)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            validate(item, schema["items"], f"{path}[{i}]", errors)


def main(schema_path, doc_path):
    with open(schema_path) as f:
        schema = json.load(f)
    with open(doc_path) as f:
        doc = json.load(f)
    errors = []
    validate(doc, schema, "$", errors)
    for e in errors[:20]:
        print(f"{doc_path}: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
