#!/usr/bin/env python3
"""Checks a built site the way an app or crawler would read it.

Usage: validate-output.py PUBLIC_DIR BASE_URL [SITEMAP_XSD]

- every .json and .geojson file validates against the JSON Schema its "$schema" names
  (the site's own schemas under api/schema/, resolved locally through their $id), read strictly: an object
  may hold only the properties its schema lists and an open enum only the values it lists, so the schemas
  describe today's documents exactly; as published they must also accept a property added later;
- api/sync/: the tree lists every file of the default set with its size and SHA-256, its buckets' and the
  head's digests are right, and every change list the head names has its size and digest;
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

def strict(node):
    """The schema as today's documents match it exactly: objects closed, open enums (today's values, or any
    string) reduced to today's values."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    options = node.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and "enum" in options[0] and options[1] == {"type": "string"}:
        return {"enum": options[0]["enum"]}
    result = {key: strict(value) for key, value in node.items()}
    if "properties" in node and "additionalProperties" not in node:
        result["additionalProperties"] = False
    return result

strict_schemas = {uri: strict(schema) for uri, schema in schemas.items()}
registry = Registry().with_resources((uri, Resource.from_contents(schema)) for uri, schema in strict_schemas.items())
published = Registry().with_resources((uri, Resource.from_contents(schema)) for uri, schema in schemas.items())
tried_addition = set()

for path in sorted(files()):
    if not (path.endswith(".json") or path.endswith(".geojson")) or path.startswith("api/schema/"):
        continue
    with open(os.path.join(public, path), encoding="utf-8") as handle:
        document = json.load(handle)
    # JSON Feed allows keys of its own only when they start with "_", so a feed names no "$schema".
    schema_url = base_url + "api/schema/jsonfeed.json" if path.startswith("feeds/") else document.get("$schema")
    if schema_url not in schemas:
        problems.append(f"{path}: $schema {schema_url!r} is not one of the published schemas")
        continue
    validator = jsonschema.Draft202012Validator(strict_schemas[schema_url], registry=registry, format_checker=jsonschema.FormatChecker())
    for error in validator.iter_errors(document):
        problems.append(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
    checked += 1
    if schema_url not in tried_addition and isinstance(document, dict):
        tried_addition.add(schema_url)
        added = dict(document, field_added_later={"any": ["value"]})
        open_validator = jsonschema.Draft202012Validator(schemas[schema_url], registry=published)
        if not open_validator.is_valid(added):
            problems.append(f"{path}: the published schema {schema_url} refuses a property added later")

def sha256_of(path):
    with open(os.path.join(public, path), "rb") as handle:
        data = handle.read()
    return len(data), hashlib.sha256(data).hexdigest()

def load(path):
    with open(os.path.join(public, path), encoding="utf-8") as handle:
        return json.load(handle)

def relative(url):
    return url[len(base_url):] if url.startswith(base_url) else url

def synced(path):
    return (path.startswith("api/") and path.endswith(".json") and not path.startswith("api/sync/") and not path.startswith("api/search/")
            and (path == "api/index.json" or "/" in path[4:]))

if os.path.exists(os.path.join(public, "api/sync/head.json")):
    head = load("api/sync/head.json")
    tree_size, tree_digest = sha256_of("api/sync/tree.json")
    if head["root"] != tree_digest or head["tree"]["sha256"] != tree_digest or head["tree"]["size"] != tree_size:
        problems.append("api/sync/head.json: the tree's digest or size is wrong")
    listed = {}
    for bucket in load("api/sync/tree.json")["buckets"]:
        path = relative(bucket["url"])
        if sha256_of(path) != (bucket["size"], bucket["sha256"]):
            problems.append(f"api/sync/tree.json: wrong size or digest for {path}")
        for entry in load(path)["files"]:
            listed[entry["path"]] = (entry["size"], entry["sha256"])
    expected = {path for path in files() if synced(path)}
    if set(listed) != expected:
        problems.append(f"api/sync/tree: lists {len(listed)} files, the default set has {len(expected)}: differing {sorted(set(listed) ^ expected)[:10]}")
    for path in expected & set(listed):
        if sha256_of(path) != listed[path]:
            problems.append(f"api/sync/tree: wrong size or digest for {path}")
    for change in head["changes"]:
        if sha256_of(relative(change["url"])) != (change["size"], change["sha256"]):
            problems.append(f"api/sync/head.json: wrong size or digest for {change['url']}")
    if head["changes"] and head["changes"][0]["to"] != head["root"]:
        problems.append("api/sync/head.json: the newest change list does not lead to this build's tree")

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
