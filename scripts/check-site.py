#!/usr/bin/env python3
"""Checks the example site as the people who open it, and their tools, would (make check-site).

Usage: scripts/check-site.py NOTICEBOARD_BIN [--sabotage]

Builds content/ and templates/ into site-check/public (as of 2026-11-23), serves it with nginx on loopback
under /catalogue/, and checks:
- every HTML page and stylesheet with the W3C Nu HTML Checker: no errors; sitemap.xml against the
  sitemaps.org XSD (../shared/schemas/sitemap.xsd, skipped when absent); every Atom feed with feedparser;
- every JSON-LD block of every listing page with extruct (it parses, with a schema.org @type); the contact form on
  every cleaner's and rental's page; one form sent in Chromium to a recorder on loopback (site_check/structured.py);
- in headless Chromium, the home page, a cleaner's page, a facet value page, a chore board and the search page: no
  console errors, no serious or critical axe-core violations, nothing wider than a 375 or a 360 px phone (the page, or a
  box in it that scrolls sideways); screenshots at 1280, 375 and 360 px in site-check/screenshots/; the search page's filters, its use by keyboard alone, and a
  dropped connection (a file that failed to load is asked for again); on a phone, the navigation menu closed by
  Escape, with the focus back on its toggle (site_check/navigation.py);
- what the home and search pages transfer with everything they load; the search page's first results under
  100 kB in at most 8 requests;
- on a generated S catalogue (`noticeboard generate`, 4,000 listings) served with gzip: the requests and bytes
  until the first results of a one-word query with one facet show, within the same budget, the index's files
  and bytes, and the engine's filtering time per keystroke (under 16 ms) (site_check/search_weight.py);
- the quote of the day on the home page, with the browser's clock moved to just before a midnight: that day's
  pick, then the next day's once the clock passes midnight; on a copy of the site whose map tiles come from a
  tile server on loopback, one marker per GeoJSON feature on rentals/map/ (site_check/map_and_daily.py).
Prints PASS or FAIL per check, the figures, and "check-site: N passed, N failed"; exits 1 on any failure.

--sabotage runs the same checks on a copy of the site with the faults in site_check/sabotage.py put in on
purpose, into site-check/sabotage/; it passes only when every check meant to catch a fault failed.
"""
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from urllib.parse import urljoin

from selenium.common.exceptions import TimeoutException

from site_check import browser, documents, map_and_daily, navigation, sabotage, search_page, search_weight, structured
from site_check.report import Report

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUB_PATH = "/catalogue/"
NOW = "2026-11-23"
SITEMAP_XSD = os.path.join(ROOT, "..", "shared", "schemas", "sitemap.xsd")
SEARCH_BUDGET = search_weight.BUDGET_BYTES  # bytes the search page may transfer until its first results show
SEARCH_REQUESTS = search_weight.BUDGET_REQUESTS
# The generated catalogue on which the search's transfer is measured (bench/run.py's S).
GENERATED = {"cleaners": 1000, "rentals": 1000, "quotes": 2000}
SERIOUS = ("serious", "critical")


def build(noticeboard, root, public):
    shutil.rmtree(public, ignore_errors=True)
    os.makedirs(os.path.dirname(public), exist_ok=True)
    subprocess.run([noticeboard, "build", "--root", root, "--output", public, "--now", NOW, "--quiet"], check=True)


@contextlib.contextmanager
def served(public):
    """The site's address while nginx serves `public` on loopback under SUB_PATH."""
    with tempfile.TemporaryDirectory() as work:
        address = subprocess.run([os.path.join(ROOT, "scripts", "serve-site.sh"), public, SUB_PATH, work],
                                 check=True, capture_output=True, text=True).stdout.strip()
        try:
            yield address
        finally:
            with open(os.path.join(work, "nginx.pid"), encoding="ascii") as pid:
                subprocess.run(["kill", pid.read().strip()], check=True)


@contextlib.contextmanager
def chromium():
    driver = browser.start_chromium()
    try:
        yield driver
    finally:
        driver.quit()


def pages(public):
    """(name, address below the site) of each page opened in the browser."""
    with open(os.path.join(public, "api/cleaners.json"), encoding="utf-8") as handle:
        cleaner = json.load(handle)["items"][0]
    return [("home", ""), ("cleaner", cleaner["path"]), ("facet", f"cleaners/county/{search_page.COUNTY.lower()}/"),
            ("rental", "rentals/kayak/"),
            # The widest chore table: its five columns must fit a small phone.
            ("chore-board", "houses/quay-street-flat/"),
            # With a query, so that the index, the facet selects and results are on the page.
            ("search", f"search/?q={search_page.WORD}&kind=cleaners"),
            # A list page with the map's link, and the quote of the day's archive (map_and_daily.py).
            ("list", "rentals/"), ("daily-archive", "quotes/daily/"), ("daily-day", f"quotes/daily/{NOW}/")]


def weigh(name, sizes, report):
    total = sum(size for _, size in sizes)
    report.figure(f"{name} page weight", f"{total} bytes in {len(sizes)} files: "
                  + ", ".join(f"{url.split(SUB_PATH, 1)[-1] or '/'} {size}" for url, size in sizes))
    if name == "search":
        shown = [(url, size) for url, size in sizes if not url.split("?")[0].endswith(search_weight.IMAGE_ENDINGS)]
        weight = sum(size for _, size in shown)
        report.check(f"search: the page weighs under {SEARCH_BUDGET} bytes in {SEARCH_REQUESTS} requests with its first results",
                     weight < SEARCH_BUDGET and len(shown) <= SEARCH_REQUESTS, f"{weight} bytes in {len(shown)} requests")


def visit(driver, site, name, path, screenshots, report, public=None):
    browser.load(driver, urljoin(site, path))
    if name == "map":
        map_and_daily.wait_for_map(driver, map_and_daily.feature_count(public))
    if name == "search":
        search_page.wait_for_index(driver)
        wait_for_results(driver)
    sizes = browser.transferred(driver, before_mark=search_weight.RESULTS_MARK if name == "search" else None)
    errors = browser.console_errors(driver)
    report.check(f"{name}: no console errors", not errors, errors)
    violations = browser.accessibility_violations(driver)
    report.figure(f"axe-core on {name}", ", ".join(f"{v['id']} ({v['impact']}, {len(v['nodes'])} elements)"
                                                   for v in violations) or "no violations")
    serious = [f"{v['id']}: {v['help']} ({[node['target'] for node in v['nodes']]})"
               for v in violations if v["impact"] in SERIOUS]
    report.check(f"{name}: no serious or critical accessibility violations", not serious, serious)
    for label, metrics in (("desktop", browser.DESKTOP), ("mobile", browser.MOBILE), ("narrow", browser.NARROW)):
        overflow = browser.screenshot(driver, os.path.join(screenshots, f"{name}-{label}.png"), metrics)
        report.check(f"{name}: nothing wider than the {metrics['width']} px {label} viewport", overflow <= 0,
                     f"{overflow} px too wide")
    return sizes


def wait_for_results(driver):
    try:
        browser.wait_for(driver, lambda: search_weight.results_shown(driver), seconds=20)
    except TimeoutException:
        pass  # the checks then fail with what the page shows


def check_generated_search(noticeboard, out, report):
    """The search's transfer and speed on a generated catalogue (S), served with gzip."""
    site, public = os.path.join(out, "generated", "site"), os.path.join(out, "generated", "public")
    shutil.rmtree(site, ignore_errors=True)
    subprocess.run([noticeboard, "generate", "--output", site, "--example", ROOT, "--seed", "1"]
                   + [f"--{kind}={count}" for kind, count in GENERATED.items()], check=True, stdout=subprocess.DEVNULL)
    build(noticeboard, site, public)
    files, raw, gzipped = search_weight.index_size(os.path.join(public, "api", "search"))
    report.figure("S search index", f"{files} files, {raw} bytes, {gzipped} bytes gzipped")
    with served(public) as address, chromium() as driver:
        first = search_weight.first_results(driver, address)
        counts = search_weight.counts_cost(driver)
        times = search_weight.keystroke_times(driver, address)
    report.figure(f"S first results of ?{search_weight.TYPICAL_QUERY}",
                  f"{first['requests']} requests, {first['bytes']} bytes (index {first['index_requests']} requests, "
                  f"{first['index_bytes']} bytes; thumbnails apart: {first['images']}, {first['image_bytes']} bytes); "
                  f"'{first['status']}': " + ", ".join(f"{url.split(SUB_PATH, 1)[-1] or '/'} {size}" for url, size in first["files"]))
    report.figure("S then the facet counts", f"{len(counts)} requests, {sum(size for _, size in counts)} bytes: "
                  + ", ".join(f"{url.split(SUB_PATH, 1)[-1]} {size}" for url, size in counts))
    report.figure("S filtering per keystroke", ", ".join(f"{ms:.1f} ms" for ms in times))
    report.check(f"S search: first results in at most {SEARCH_REQUESTS} requests and under {SEARCH_BUDGET} bytes",
                 first["requests"] <= SEARCH_REQUESTS and first["bytes"] < SEARCH_BUDGET and "result" in first["status"],
                 f"{first['requests']} requests, {first['bytes']} bytes, '{first['status']}'")
    # The counts need the chosen kind's facet files (for values of other facets than the one chosen) and nothing else.
    report.check("S search: the facet counts fetch only facet files, after the first results",
                 counts and all("/api/search/facets/" in url for url, _ in counts), counts)
    report.check(f"S search: filtering takes under {search_weight.BUDGET_KEYSTROKE_MS} ms a keystroke",
                 max(times) < search_weight.BUDGET_KEYSTROKE_MS, times)


def check_contact_post(noticeboard, root, out, report):
    structured.contact_post(lambda site, public: build(noticeboard, site, public), served, chromium, root, out, SUB_PATH, report)


def check(public, screenshots, report):
    documents.nu_checker(public, report)
    documents.sitemap(public, SITEMAP_XSD, report)
    documents.atom_feeds(public, report)
    structured.json_ld(public, SUB_PATH, report)
    structured.contact_forms(public, SUB_PATH, structured.site_endpoint(ROOT), report)
    with served(public) as site, chromium() as driver:
        for name, path in pages(public):
            sizes = visit(driver, site, name, path, screenshots, report)
            if name in ("home", "search"):
                weigh(name, sizes, report)
        navigation.check_menu_escape(driver, site, report)
        search_page.check_filters(driver, site, public, report)
        search_page.check_keyboard(driver, site, report)
        search_page.check_unknown_value(driver, site, report)
        search_page.check_show_more_focus(driver, site, report)
        search_page.check_facet_counts(driver, site, public, report)
        search_page.check_range_typing(driver, site, report)
        errors = browser.console_errors(driver)
        report.check("search, filtered and used by keyboard: no console errors", not errors, errors)
        search_page.check_failed_downloads_are_retried(driver, site, report)
        map_and_daily.check_midnight(driver, site, public, report)


def check_map(noticeboard, root, out, screenshots, report):
    """The map page of a copy of the site at `root` whose tiles come from a tile server on loopback."""
    with map_and_daily.tile_server() as (tiles, asked):
        copy, public = os.path.join(out, "map", "site"), os.path.join(out, "map", "public")
        map_and_daily.site_with_tiles(root, copy, tiles)
        build(noticeboard, copy, public)
        with served(public) as site, chromium() as driver:
            map_and_daily.check_map(driver, site, public, asked, report)
            visit(driver, site, "map", map_and_daily.MAP_PAGE, screenshots, report, public=public)


def main():
    noticeboard = os.path.abspath(sys.argv[1])
    out = os.path.join(ROOT, "site-check")
    report = Report()
    if "--sabotage" in sys.argv[2:]:
        out = os.path.join(out, "sabotage")
        shutil.rmtree(out, ignore_errors=True)
        print("Checking a copy of the site with faults put in on purpose: the FAILs below are expected.")
        sabotage.sabotaged_copy(ROOT, os.path.join(out, "site"))
        build(noticeboard, os.path.join(out, "site"), os.path.join(out, "public"))
        check(os.path.join(out, "public"), os.path.join(out, "screenshots"), report)
        check_map(noticeboard, os.path.join(out, "site"), out, os.path.join(out, "screenshots"), report)
        check_contact_post(noticeboard, os.path.join(out, "site"), out, report)
        report.print_figures()
        print("\nThe faults put in on purpose, and whether the checks caught them:")
        outcomes = list(sabotage.caught(report))
        for fault, was_caught in outcomes:
            print(f"{'CAUGHT' if was_caught else 'MISSED'} {fault}")
        caught = sum(1 for _, was_caught in outcomes if was_caught)
        print(f"sabotage: {caught} passed, {len(outcomes) - caught} failed")
        return 0 if caught == len(outcomes) else 1
    build(noticeboard, ROOT, os.path.join(out, "public"))
    check(os.path.join(out, "public"), os.path.join(out, "screenshots"), report)
    check_map(noticeboard, ROOT, out, os.path.join(out, "screenshots"), report)
    check_contact_post(noticeboard, ROOT, out, report)
    check_generated_search(noticeboard, out, report)
    report.print_figures()
    report.print_summary()
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
