#!/usr/bin/env python3
"""The protocol's JSON Schemas checked by python3-jsonschema (Debian), which implements draft 2020-12:

1. every file under docs/schema/ is a valid 2020-12 schema (against the draft's meta-schema), says so
   in "$schema", and uses only keywords the draft defines (an unknown keyword fails, loudly);
2. every "$ref" resolves to a file in docs/schema/;
3. every example in docs/protocol.md's ```json blocks validates against its message's schema
   (client/<type>.json or server/<type>.json by "type", events/<kind>.json or
   events/wire/<kind>.json by "kind").

Usage: schemas_test.py <repository root>. Prints each problem and "N passed, M failed"; exits 1 on any.
"""
import json
import pathlib
import re
import sys

from jsonschema import Draft202012Validator

DIALECT = "https://json-schema.org/draft/2020-12/schema"
# Keywords of the 2020-12 vocabularies that are not assertions (identifiers, annotations).
NON_ASSERTIONS = {"$schema", "$id", "$anchor", "$dynamicAnchor", "$defs", "$comment", "$vocabulary",
                  "title", "description", "default", "examples", "deprecated", "readOnly",
                  "writeOnly", "contentEncoding", "contentMediaType", "contentSchema"}
KNOWN = set(Draft202012Validator.VALIDATORS) | NON_ASSERTIONS
SCHEMA_MAPS = {"properties", "patternProperties", "$defs", "dependentSchemas"}
SCHEMA_LISTS = {"allOf", "anyOf", "oneOf", "prefixItems"}
ONE_SCHEMA = {"items", "additionalProperties", "not", "contains", "propertyNames", "if", "then",
              "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}


def unknown_keywords(node, at):
    """Every keyword in the schema `node` (and its subschemas) that 2020-12 does not define."""
    if not isinstance(node, dict):
        return []
    found = []
    for key, value in node.items():
        here = f"{at}/{key}"
        if key not in KNOWN:
            found.append(f"{here}: unknown keyword `{key}`")
        elif key in SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                found += unknown_keywords(sub, f"{here}/{name}")
        elif key in SCHEMA_LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                found += unknown_keywords(sub, f"{here}/{i}")
        elif key in ONE_SCHEMA:
            found += unknown_keywords(value, here)
    return found


def refs(node):
    """Every "$ref" value in a schema document."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def make_validator(schema, uri, store):
    """A 2020-12 validator for `schema` (whose address is `uri`) resolving $refs from `store`."""
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18
        registry = Registry().with_resources(
            (u, Resource.from_contents(s)) for u, s in store.items())
        # Through an absolute $ref, so that the file's relative $refs resolve against its address.
        return Draft202012Validator({"$ref": uri}, registry=registry)
    except ImportError:
        from jsonschema import RefResolver  # Debian 12's jsonschema 4.10
        return Draft202012Validator(schema, resolver=RefResolver(uri, schema, store=store))


def doc_examples(text):
    """The JSON values of every ```json block of a Markdown text, with their line numbers."""
    decoder = json.JSONDecoder()
    for block in re.finditer(r"```json\n(.*?)```", text, re.S):
        body, start = block.group(1), text.count("\n", 0, block.start(1)) + 1
        at = 0
        while True:
            while at < len(body) and body[at].isspace():
                at += 1
            if at >= len(body):
                break
            value, end = decoder.raw_decode(body, at)
            yield start + body.count("\n", 0, at), value
            at = end


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    schema_dir = root / "docs" / "schema"
    files = sorted(schema_dir.rglob("*.json"))
    store = {f.as_uri(): json.loads(f.read_text()) for f in files}
    passed, problems = 0, []

    for path in files:
        uri, schema = path.as_uri(), store[path.as_uri()]
        name = path.relative_to(schema_dir)
        found = []
        if schema.get("$schema") != DIALECT:
            found.append(f"{name}: $schema is not {DIALECT}")
        try:
            Draft202012Validator.check_schema(schema)
        except Exception as error:  # a SchemaError: the file breaks the meta-schema
            found.append(f"{name}: not a valid 2020-12 schema: {error.message}")
        found += [f"{name}{p}" for p in unknown_keywords(schema, "#")]
        for ref in refs(schema):
            target = (path.parent / ref.split("#")[0]).resolve().as_uri()
            if target not in store:
                found.append(f"{name}: $ref {ref} names no schema file")
        problems += found
        passed += not found

    validators = {}
    examples = 0
    for line, value in doc_examples((root / "docs" / "protocol.md").read_text()):
        examples += 1
        if "type" in value:
            candidates = [f"{d}/{value['type']}.json" for d in ("client", "server")]
        elif "kind" in value:
            # An event example shows either the stored form or the form as sent.
            candidates = [f"events/{value['kind']}.json", f"events/wire/{value['kind']}.json"]
        else:
            problems.append(f"docs/protocol.md:{line}: an example with neither type nor kind")
            continue
        candidates = [c for c in candidates if (schema_dir / c).exists()]
        if not candidates:
            problems.append(f"docs/protocol.md:{line}: no schema for {json.dumps(value)[:80]}")
            continue
        errors = []
        for c in candidates:
            uri = (schema_dir / c).as_uri()
            if uri not in validators:
                validators[uri] = make_validator(store[uri], uri, store)
            errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                      for e in validators[uri].iter_errors(value)]
            if not errors:
                break
        if errors:
            problems.append(f"docs/protocol.md:{line}: breaks {candidates[-1]}: {errors[0]}")
        else:
            passed += 1

    if len(files) < 40 or examples < 30:
        problems.append(f"only {len(files)} schema files and {examples} examples found")
    for p in problems:
        print(p)
    print(f"{passed} passed, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
