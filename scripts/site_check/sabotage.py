"""Faults put on purpose into a copy of the site, each with the check that must catch it: the site checks'
own test, so a check that could no longer fail would be noticed."""
import hashlib
import os
import shutil

# A comment that gzip cannot shrink much (the site is served gzipped): 256 kB of hash digits.
HEAVY_COMMENT = "/*" + "".join(hashlib.sha256(str(i).encode()).hexdigest() for i in range(4000)) + "*/\n"

# (file, text in it, what replaces it, [(the check that must fail, a piece of what that check must say)])
FAULTS = [
    ("templates/home.mustache", '<p class="lead">{{site.description}}</p>',
     '<p class="lead"><div>{{site.description}}</div></p>',
     [("nu-html-checker", "No “p” element in scope")]),
    ("templates/cleaners/listing.mustache", ' alt="Portrait of {{listing.name}}"', "",
     [("nu-html-checker", "An “img” element must have an “alt” attribute"),
      ("cleaner: no serious or critical accessibility violations", "image-alt")]),
    ("templates/assets/style.css", "--muted: #566074;", "--muted: #a9b0bc;",
     [("facet: no serious or critical accessibility violations", "color-contrast")]),
    ("templates/search.mustache", 'data-index="{{index_url}}"', 'data-index="{{index_url}}.gone"',
     [("search: no console errors", "404"), ("search: 'oven' lists exactly", "expected")]),
    ("templates/assets/search.js", "(function () {", HEAVY_COMMENT + "(function () {",
     [("search: the page weighs under", "bytes")]),
    # The quote of the day no longer looks again at midnight; the map no longer finds its places.
    ("templates/assets/daily.js", "    setTimeout(refresh, midnight - now + 500);\n", "",
     [("quote of the day: changes when the clock passes midnight", "expected")]),
    ("templates/map.mustache", 'data-geojson="{{geojson}}"', 'data-geojson="{{geojson}}.gone"',
     [("map: one marker per GeoJSON feature", "markers")]),
    # Escape no longer closes the phone's navigation menu.
    ("templates/assets/menu.js", "    menu.open = false;\n", "",
     [("menu: Escape closes the phone's navigation menu", "expected closed")]),
    # JSON-LD inserted HTML-escaped: &quot; is not JSON.
    ("templates/partials/head.mustache", "{{{json_ld}}}", "{{json_ld}}",
     [("json-ld: every block of every listing page parses", "does not parse")]),
    ("templates/rentals/listing.mustache", "{{> partials/contact}}", "",
     [("contact: every cleaners and rentals listing page has the form", "rentals/kayak/: 0 contact forms")]),
    ("templates/partials/contact.mustache", 'name="slug" value="{{slug}}"', 'name="slug" value="{{title}}"',
     [("contact: every cleaners and rentals listing page has the form", "names kind 'cleaners' and slug"),
      ("contact: a form filled in and sent in Chromium reaches the endpoint", "expected slug")]),
]


def sabotaged_copy(root, destination):
    """content/ and templates/ of the site at `root`, copied to `destination` with every fault in place."""
    for folder in ("content", "templates"):
        shutil.copytree(os.path.join(root, folder), os.path.join(destination, folder))
    for path, text, replacement, _ in FAULTS:
        with open(os.path.join(destination, path), encoding="utf-8") as handle:
            source = handle.read()
        if text not in source:
            raise SystemExit(f"sabotage: {path} no longer contains {text!r}; update site_check/sabotage.py")
        with open(os.path.join(destination, path), "w", encoding="utf-8") as handle:
            handle.write(source.replace(text, replacement))


def caught(report):
    """Each fault with whether the check meant for it failed and said what it should."""
    for path, _, _, expectations in FAULTS:
        for check, words in expectations:
            details = [detail for name, detail in report.failures if name.startswith(check)]
            yield f"{path}: '{check}' reports '{words}'", any(words in str(detail) for detail in details)
