"""Structured data and the contact path, as search engines and visitors meet them: every JSON-LD block of
every listing page read with extruct (it parses and names a schema.org @type); the contact-request form on
every listing page of the kinds the example's site.yaml gives one (cleaners and rentals); and, in Chromium,
one form filled in and sent to a recorder on loopback, which must receive the listing's slug."""
import contextlib
import json
import os
import re
import shutil
from urllib.parse import parse_qs

import extruct
import lxml.html
from selenium.common.exceptions import TimeoutException

from site_check import browser, loopback

CONTACT_KINDS = ("cleaners", "rentals")
SCHEMA_ORG = ("https://schema.org", "http://schema.org", "https://schema.org/", "http://schema.org/")


def listing_pages(public, sub_path):
    """(kind, slug, file) of every listing page, from each kind's API list (listings with a page have a path)."""
    with open(os.path.join(public, "api", "index.json"), encoding="utf-8") as handle:
        kinds = [kind["name"] for kind in json.load(handle)["kinds"]]
    for kind in kinds:
        with open(os.path.join(public, "api", f"{kind}.json"), encoding="utf-8") as handle:
            items = json.load(handle)["items"]
        for item in items:
            if item.get("path"):
                yield kind, item["slug"], os.path.join(public, item["path"].removeprefix(sub_path), "index.html")


def json_ld(public, sub_path, report):
    """Every JSON-LD block parses and has a schema.org @context and an @type."""
    pages, blocks, problems = 0, 0, []
    for kind, slug, path in listing_pages(public, sub_path):
        with open(path, encoding="utf-8") as handle:
            html = handle.read()
        pages += 1
        found = html.count('<script type="application/ld+json">')
        try:
            items = extruct.extract(html, syntaxes=["json-ld"], uniform=False)["json-ld"]
        except ValueError as error:  # json.JSONDecodeError is a ValueError
            problems.append(f"{kind}/{slug}: a block does not parse ({error})")
            continue
        blocks += len(items)
        if len(items) != found:
            problems.append(f"{kind}/{slug}: {found} blocks, {len(items)} read")
        for item in items:
            if item.get("@context") not in SCHEMA_ORG or not isinstance(item.get("@type"), str) or not item["@type"]:
                problems.append(f"{kind}/{slug}: no schema.org @context and @type in {str(item)[:80]}")
    report.figure("JSON-LD", f"{blocks} blocks on {pages} listing pages")
    report.check("json-ld: every block of every listing page parses and has a schema.org @type",
                 not problems and blocks > 0, "; ".join(problems[:5]) or "no JSON-LD at all")


def contact_forms(public, sub_path, endpoint, report):
    """The contact-request form on every listing page of CONTACT_KINDS, posting kind and slug to `endpoint`,
    every visible field labelled."""
    pages, problems = 0, []
    for kind, slug, path in listing_pages(public, sub_path):
        if kind not in CONTACT_KINDS:
            continue
        pages += 1
        forms = lxml.html.parse(path).getroot().xpath('//form[@class="contact-form"]')
        if len(forms) != 1:
            problems.append(f"{kind}/{slug}/: {len(forms)} contact forms")
            continue
        form = forms[0]
        hidden = {field.get("name"): field.get("value") for field in form.xpath('.//input[@type="hidden"]')}
        if form.get("method") != "post" or form.get("action") != endpoint:
            problems.append(f"{kind}/{slug}/: posts ({form.get('method')}) to {form.get('action')}")
        if hidden.get("kind") != kind or hidden.get("slug") != slug:
            problems.append(f"{kind}/{slug}/: names kind {hidden.get('kind')!r} and slug {hidden.get('slug')!r}")
        labelled = {label.get("for") for label in form.xpath(".//label")}
        unlabelled = [field.get("name") for field in form.xpath('.//input[not(@type="hidden")] | .//textarea')
                      if field.get("id") not in labelled]
        if unlabelled:
            problems.append(f"{kind}/{slug}/: no label for {unlabelled}")
    report.figure("contact forms", f"on {pages} listing pages of {', '.join(CONTACT_KINDS)}")
    report.check("contact: every cleaners and rentals listing page has the form with its slug",
                 not problems and pages > 0, "; ".join(problems) or "no listing pages")


def site_endpoint(root):
    """The endpoint the site's site.yaml gives its contact form."""
    with open(os.path.join(root, "content", "site.yaml"), encoding="utf-8") as handle:
        return re.search(r"^contact:\n(?:  .*\n)*?  endpoint: (\S+)$", handle.read(), re.MULTILINE).group(1)


@contextlib.contextmanager
def recorder():
    """(address, requests) while a tiny HTTP server on loopback records each form posted to it, as a dict."""
    received = []

    class Record(loopback.Handler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode("utf-8")
            received.append({name: values[0] for name, values in parse_qs(body).items()})
            self.reply("text/html; charset=utf-8", b"<!DOCTYPE html><html lang=en><title>Request sent</title><p>Thank you.</p>")

    with loopback.serving(Record) as address:
        yield f"{address}/contact", received


def contact_post(build, served, chromium, root, out, sub_path, report):
    """A copy of the site whose contact endpoint is a loopback recorder; one cleaner's form filled in and sent
    in Chromium; the recorder must receive that cleaner's kind and slug with what was typed."""
    site, public = os.path.join(out, "contact", "site"), os.path.join(out, "contact", "public")
    shutil.rmtree(site, ignore_errors=True)
    for folder in ("content", "templates"):
        shutil.copytree(os.path.join(root, folder), os.path.join(site, folder))
    config = os.path.join(site, "content", "site.yaml")
    with recorder() as (endpoint, received):
        with open(config, encoding="utf-8") as handle:
            text = handle.read().replace(f"  endpoint: {site_endpoint(root)}\n", f"  endpoint: {endpoint}\n")
        with open(config, "w", encoding="utf-8") as handle:
            handle.write(text)
        build(site, public)
        slug = next(slug for kind, slug, _ in listing_pages(public, sub_path) if kind == "cleaners")
        with served(public) as address, chromium() as driver:
            browser.load(driver, f"{address}cleaners/{slug}/")
            typed = {"contact-name": "Check Site", "contact-email": "visitor@example.net", "contact-message": f"Hello {slug}"}
            for field, text in typed.items():
                driver.find_element("id", field).send_keys(text)
            driver.find_element("css selector", "form.contact-form button[type=submit]").click()
            try:
                browser.wait_for(driver, lambda: received, seconds=15)
            except TimeoutException:
                pass  # the check below says what arrived: nothing
    posted = received[0] if received else {}
    report.figure("contact form posted", json.dumps(posted, sort_keys=True))
    report.check("contact: a form filled in and sent in Chromium reaches the endpoint with the listing's slug",
                 posted.get("slug") == slug and posted.get("kind") == "cleaners" and posted.get("message") == f"Hello {slug}"
                 and posted.get("email") == "visitor@example.net", f"expected slug {slug!r}, received {posted or 'nothing'}")
