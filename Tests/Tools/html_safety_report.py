#!/usr/bin/python3
"""Parses every page and feed below a folder the way browsers and feed readers do, and lists what could run
script.

Usage: html_safety_report.py FOLDER
Prints JSON: {"pages": N, "executable": [[where, what], ...], "malformed": [where, ...],
"text": {"path": "all text of the page or feed"}}.

HTML pages are parsed with html5lib, as browsers parse them; Atom feeds and the sitemap as XML, and the HTML
that Atom `content` and JSON Feed `content_html` carry as HTML again, as a feed reader shows it.
Listed as executable are: an element outside the theme's and Markdown's vocabulary (script, style, iframe,
object, svg, ...; a JSON-LD script holding nothing but JSON is data, not script), an on* event attribute, a style attribute, a meta refresh, and a link whose scheme can run
code (javascript:, vbscript:, file:, or data: anywhere but an image's src). `what` describes the construct
with its attributes and text, so that a test can tell the theme's own (the search page's script) from
injections. An XML file that does not parse is listed as malformed.
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as XML

import html5lib

ALLOWED_ELEMENTS = {
    # The page around every page, and the theme's templates.
    "html", "head", "body", "meta", "title", "link", "header", "nav", "main", "footer", "section", "article",
    "aside", "div", "span", "p", "a", "ul", "ol", "li", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
    "img", "picture", "source", "figure", "figcaption", "blockquote", "time", "small", "noscript",
    # The phone's navigation menu.
    "details", "summary",
    # The search form and the contact-request form.
    "form", "label", "input", "select", "option", "fieldset", "legend", "button", "textarea",
    # What cmark-gfm writes for Markdown: emphasis, code, tables, strikethrough, task lists.
    "em", "strong", "code", "pre", "hr", "br", "del", "table", "thead", "tbody", "tr", "th", "td", "sup",
    # Feeds: quotations.
    "q", "cite",
}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "poster", "cite", "background", "data", "srcset", "xlink:href", "ping"}
SAFE_DATA_IMAGE = re.compile(r"data:image/(png|gif|jpeg|webp)[;,]")
ATOM = "{http://www.w3.org/2005/Atom}"


def runs_script(element, name, value):
    # Browsers ignore leading spaces and control characters, and tabs and newlines anywhere in a URL.
    url = re.sub(r"[\t\n\r]", "", value).lstrip("".join(chr(c) for c in range(0x21))).lower()
    if url.startswith(("javascript:", "vbscript:", "file:")):
        return True
    return url.startswith("data:") and not (element == "img" and name == "src" and SAFE_DATA_IMAGE.match(url))


def describe(tag, element):
    attributes = "".join(" %s=%r" % item for item in sorted(element.attrib.items()))
    return "<%s%s>%s" % (tag, attributes, "".join(element.itertext()))


def is_data_block(tag, element):
    """A JSON-LD script whose whole text is JSON: browsers never run a script of that type, and a value that
    broke out of it would leave its text cut short (and a script element of its own, listed as such)."""
    if tag != "script" or element.get("type", "").strip().lower() != "application/ld+json" or len(element.attrib) != 1:
        return False
    try:
        json.loads(element.text or "")
    except ValueError:
        return False
    return True


def check_tree(root):
    """What could run in a parsed HTML tree, and its text."""
    executable, text = [], []
    for element in root.iter():
        tag = element.tag if isinstance(element.tag, str) else "#comment"
        if element is root and tag == "DOCUMENT_FRAGMENT":
            tag = "#comment"  # html5lib's stand-in for the fragment's container: only its text counts
        if tag != "#comment" and tag not in ALLOWED_ELEMENTS and not is_data_block(tag, element):
            executable.append(describe(tag, element))
        for name, value in element.attrib.items():
            lowered = name.lower()
            if lowered.startswith("on") or lowered in ("style", "http-equiv"):
                executable.append("%s %s=%r" % (tag, name, value))
            elif lowered in URL_ATTRIBUTES:
                # srcset lists candidates: "url 320w, url 640w".
                urls = [part.strip().split(" ")[0] for part in value.split(",")] if lowered == "srcset" else [value]
                if any(runs_script(tag, lowered, url) for url in urls):
                    executable.append("%s %s=%r" % (tag, name, value))
        if tag != "#comment" or element is root:
            text.append(element.text or "")
        text.append(element.tail or "")
    return executable, "".join(text)


def check_fragment(html):
    # A fragment parsed in a <div>, as a feed reader places it in its page.
    return check_tree(html5lib.parseFragment(html, container="div", treebuilder="etree", namespaceHTMLElements=False))[0]


def main():
    root = sys.argv[1]
    report = {"pages": 0, "executable": [], "malformed": [], "text": {}}

    def add(where, executable):
        report["executable"] += [[where, what] for what in executable]

    for folder, _, names in os.walk(root):
        for name in sorted(names):
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root)
            if name.endswith(".html"):
                with open(path, "rb") as handle:
                    document = html5lib.parse(handle.read(), treebuilder="etree", namespaceHTMLElements=False)
                executable, text = check_tree(document)
                report["pages"] += 1
                add(relative, executable)
                report["text"][relative] = text
            elif name.endswith((".atom", ".xml")):
                try:
                    document = XML.parse(path).getroot()
                except XML.ParseError as error:
                    report["malformed"].append("%s: %s" % (relative, error))
                    continue
                report["text"][relative] = "".join(document.itertext())
                for index, content in enumerate(document.iter(ATOM + "content")):
                    if content.get("type") == "html":
                        add("%s content %d" % (relative, index + 1), check_fragment(content.text or ""))
            elif name.endswith(".json") and relative.startswith("feeds" + os.sep):
                with open(path, encoding="utf-8") as handle:
                    feed = json.load(handle)
                for index, item in enumerate(feed.get("items", [])):
                    add("%s item %d" % (relative, index + 1), check_fragment(item.get("content_html", "")))
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
