#!/usr/bin/env python3
"""Checks a built site the way an app or crawler would read it.

Usage: validate-output.py PUBLIC_DIR BASE_URL [SITEMAP_XSD]

- every .json and .geojson file validates against the JSON Schema its "$schema" names
  (the site's own schemas under api/schema/, resolved locally through their $id);
- api/manifest.json lists every other file with its true size and SHA-256;
- every Atom feed is well-formed Atom with an id, title and updated time per entry;
- sitemap.xml validates against the sitemaps.org XSD when one is given (xmllint).
Prints one line per problem and a summary line; exits 1 when anything failed.
"""
import hashlib
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import jsonschema
from referencing import Registry, Resource

public, base_url = sys.argv[1], sys.argv[2]
xsd = sys.argv[3] if len(sys.argv) > 3 else None
problems = []
checked = 0

def files():
    for folder, _, names in os.walk(public):
        for name in names:
            yield os.path.relpath(os.path.join(folder, name), public)

schemas = {}
for path in files():
    if path.startswith("api/schema/"):
        with open(os.path.join(public, path), encoding="utf-8") as handle:
            schema = json.load(handle)
        schemas[schema["$id"]] = schema
        jsonschema.Draft202012Validator.check_schema(schema)
registry = Registry().with_resources((uri, Resource.from_contents(schema)) for uri, schema in schemas.items())

for path in sorted(files()):
    if not (path.endswith(".json") or path.endswith(".geojson")) or path.startswith("api/schema/"):
        continue
    with open(os.path.join(public, path), encoding="utf-8") as handle:
        document = json.load(handle)
    schema_url = document.get("$schema")
    if schema_url not in schemas:
        problems.append(f"{path}: $schema {schema_url!r} is not one of the published schemas")
        continue
    validator = jsonschema.Draft202012Validator(schemas[schema_url], registry=registry, format_checker=jsonschema.FormatChecker())
    for error in validator.iter_errors(document):
        problems.append(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
    checked += 1

with open(os.path.join(public, "api/manifest.json"), encoding="utf-8") as handle:
    manifest = {entry["path"]: entry for entry in json.load(handle)["files"]}
on_disk = set(files()) - {"api/manifest.json"}
if set(manifest) != on_disk:
    problems.append(f"manifest lists {len(manifest)} files, the folder holds {len(on_disk)}: differing {sorted(set(manifest) ^ on_disk)[:10]}")
for path in on_disk & set(manifest):
    with open(os.path.join(public, path), "rb") as handle:
        data = handle.read()
    if manifest[path]["size"] != len(data) or manifest[path]["sha256"] != hashlib.sha256(data).hexdigest():
        problems.append(f"manifest: wrong size or hash for {path}")

atom = "{http://www.w3.org/2005/Atom}"
for path in files():
    if path.endswith(".atom"):
        feed = ET.parse(os.path.join(public, path)).getroot()
        if feed.tag != atom + "feed":
            problems.append(f"{path}: root element is {feed.tag}, not an Atom feed")
        for entry in feed.findall(atom + "entry"):
            for child in ("id", "title", "updated"):
                if entry.find(atom + child) is None:
                    problems.append(f"{path}: an entry has no {child}")

if xsd:
    result = subprocess.run(["xmllint", "--noout", "--schema", xsd, os.path.join(public, "sitemap.xml")], capture_output=True, text=True)
    if result.returncode != 0:
        problems.append("sitemap.xml: " + result.stderr.strip()[:500])

for problem in problems:
    print(problem)
print(f"validate-output: {checked} JSON files against their schemas, {len(manifest)} manifest entries, {len(problems)} problems")
sys.exit(1 if problems else 0)
