"""The map page and the quote of the day as a visitor's browser runs them.

- The map: a copy of the site is built whose `map.tiles` points at a tile server on loopback that draws plain
  PNG tiles (no network); rentals/map/ must show one marker per feature of api/rentals.geojson, over tiles that
  came from that server.
- The quote of the day: the browser's clock is moved (Date replaced before any page script runs, through
  Chromium's Page.addScriptToEvaluateOnNewDocument) to two seconds before a midnight inside the days the build
  covers; the home page must show that day's pick from api/quotes/daily/, then, once the clock passes midnight
  and without a reload, the next day's.
"""
import contextlib
import datetime
import json
import os
import re
import shutil
import struct
import zlib

from selenium.common.exceptions import TimeoutException

from site_check import browser, loopback

MAP_PAGE = "rentals/map/"
GEOJSON = "api/rentals.geojson"
# The day before the midnight the check passes; the build (as of 2026-11-23) covers it and the next day.
EVENING = (2026, 11, 24)
TIME_ZONE = "Europe/Dublin"


def tile_png():
    """A 256 × 256 PNG of one pale colour, made with zlib alone."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\xe4\xee\xe0" * 256 for _ in range(256))
    header = struct.pack(">IIBBBBB", 256, 256, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


@contextlib.contextmanager
def tile_server():
    """(tile URL template, list of the tile paths asked for) while a tile server answers on loopback."""
    png, asked = tile_png(), []

    class Tiles(loopback.Handler):
        def do_GET(self):
            if not re.fullmatch(r"/tiles/\d+/\d+/\d+\.png", self.path):
                self.send_error(404)
                return
            asked.append(self.path)
            self.reply("image/png", png)

    with loopback.serving(Tiles) as address:
        yield f"{address}/tiles/{{z}}/{{x}}/{{y}}.png", asked


def site_with_tiles(root, destination, tiles):
    """content/ and templates/ of the site at `root`, copied with `map.tiles` set to `tiles`."""
    shutil.rmtree(destination, ignore_errors=True)
    for folder in ("content", "templates"):
        shutil.copytree(os.path.join(root, folder), os.path.join(destination, folder))
    path = os.path.join(destination, "content", "site.yaml")
    with open(path, encoding="utf-8") as handle:
        config = handle.read()
    config, count = re.subn(r"(?m)^  tiles: .*$", f"  tiles: {tiles}", config)
    if count != 1:
        raise SystemExit("map_and_daily: content/site.yaml has no 'map: tiles:' line to point at the test's tiles")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(config)


def markers_shown(driver):
    return driver.execute_script("return document.querySelectorAll('.leaflet-marker-icon').length")


def wait_for_map(driver, features):
    """Until the page shows `features` markers and a tile; a map that never does is for the checks to report."""
    try:
        browser.wait_for(driver, lambda: markers_shown(driver) >= features
                         and driver.execute_script("return document.querySelectorAll('.leaflet-tile-loaded').length") > 0,
                         seconds=20)
    except TimeoutException:
        pass


def feature_count(public):
    with open(os.path.join(public, GEOJSON), encoding="utf-8") as handle:
        return len(json.load(handle)["features"])


def check_map(driver, site, public, asked, report):
    """The map page shows one marker per GeoJSON feature, over tiles from the test's server."""
    with open(os.path.join(public, GEOJSON), encoding="utf-8") as handle:
        features = json.load(handle)["features"]
    browser.load(driver, site + MAP_PAGE)
    wait_for_map(driver, len(features))
    titles = sorted(driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('.leaflet-marker-icon'), function (m) { return m.alt; })"))
    expected = sorted(feature["properties"]["title"] for feature in features)
    report.figure("map markers", f"{len(titles)} markers for {len(features)} GeoJSON features, {len(asked)} tiles served")
    report.check("map: one marker per GeoJSON feature", titles == expected,
                 f"{len(titles)} markers for {len(features)} features; missing {sorted(set(expected) - set(titles))}")
    report.check("map: tiles come from the configured tile server", len(asked) > 0, f"{len(asked)} tiles asked for")
    # Reached with Tab, a marker shows the theme's focus ring, as links do (Leaflet's own style gives none).
    ring = driver.execute_script("""
        var marker = document.querySelector('.leaflet-marker-icon');
        if (!marker) return null;
        marker.focus({focusVisible: true});
        var style = getComputedStyle(marker);
        return document.activeElement === marker ? style.outlineStyle + ' ' + style.outlineWidth : 'not focused';""")
    report.check("map: a marker that has the focus shows a focus ring", ring is not None and ring.startswith("solid 3px"), ring)


def clock_script(year, month, day, hour, minute, second):
    """Replaces Date, before any page script runs, with one whose clock reads this local time now and runs on."""
    return """(function () {
  var RealDate = Date;
  var offset = new RealDate(%d, %d, %d, %d, %d, %d).getTime() - RealDate.now();
  function MovedDate() {
    if (!(this instanceof MovedDate)) return new RealDate(RealDate.now() + offset).toString();
    if (arguments.length) return new (Function.prototype.bind.apply(RealDate, [null].concat([].slice.call(arguments))))();
    return new RealDate(RealDate.now() + offset);
  }
  MovedDate.prototype = RealDate.prototype;
  MovedDate.now = function () { return RealDate.now() + offset; };
  MovedDate.UTC = RealDate.UTC;
  MovedDate.parse = RealDate.parse;
  window.Date = MovedDate;
})();""" % (year, month - 1, day, hour, minute, second)


def shown_quote(driver):
    return driver.execute_script(
        "var e = document.querySelector('[data-daily] [data-entry=\"text\"]'); return e ? e.textContent : null;")


def check_midnight(driver, site, public, report):
    """The home page shows the pick of the browser's date, and the next day's once its clock passes midnight."""
    year, month, day = EVENING
    evening = datetime.date(year, month, day).isoformat()
    morning = (datetime.date(year, month, day) + datetime.timedelta(days=1)).isoformat()
    picks = {}
    for date in (evening, morning):
        with open(os.path.join(public, "api", "quotes", "daily", date + ".json"), encoding="utf-8") as handle:
            picks[date] = json.load(handle)["entry"]["text"]
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": TIME_ZONE})
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                   {"source": clock_script(year, month, day, 23, 59, 57)})
    try:
        browser.load(driver, site)
        try:
            browser.wait_for(driver, lambda: shown_quote(driver) == picks[evening], seconds=2)
        except TimeoutException:
            pass
        before = shown_quote(driver)
        try:
            browser.wait_for(driver, lambda: shown_quote(driver) == picks[morning], seconds=10)
        except TimeoutException:
            pass
        after = shown_quote(driver)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
    report.figure("quote of the day", f"at {evening} 23:59:57 ({TIME_ZONE}): {before!r}; after midnight: {after!r}")
    report.check(f"quote of the day: {evening} shows that day's pick", before == picks[evening],
                 f"expected {picks[evening]!r}, shown {before!r}")
    report.check("quote of the day: changes when the clock passes midnight", after == picks[morning] and after != before,
                 f"expected {picks[morning]!r}, shown {after!r}")
