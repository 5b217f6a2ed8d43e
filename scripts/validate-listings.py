#!/usr/bin/env python3
"""Validates every listing file of a site against the JSON Schemas `noticeboard schema` wrote.

Usage: validate-listings.py CONTENT_DIR SCHEMA_DIR
YAML is read as editors' YAML 1.2 tooling reads it: dates stay text. Prints one line per problem and
a summary; exits 1 when any listing does not match its kind's schema.
"""
import glob
import json
import os
import sys

import jsonschema
import yaml

content, schema_dir = sys.argv[1], sys.argv[2]


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML without YAML 1.1 timestamps, so 2026-11-23 stays a string as in YAML 1.2."""


Yaml12Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}

problems, checked = [], 0
for schema_path in sorted(glob.glob(os.path.join(schema_dir, "*.schema.json"))):
    kind = os.path.basename(schema_path)[: -len(".schema.json")]
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for listing in sorted(glob.glob(os.path.join(content, kind, "*.yaml"))):
        with open(listing, encoding="utf-8") as handle:
            document = yaml.load(handle, Loader=Yaml12Loader)
        for error in validator.iter_errors(document):
            problems.append(f"{listing}: {'/'.join(map(str, error.absolute_path))}: {error.message[:200]}")
        checked += 1
for problem in problems:
    print(problem)
print(f"validate-listings: {checked} listings, {len(problems)} problems")
sys.exit(1 if problems or checked == 0 else 0)
