"""Debian's headless Chromium driven through chromium-driver: pages loaded as a visitor loads them, with
their console errors, transfer sizes, axe-core's accessibility findings and screenshots."""
import os

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

DESKTOP = {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}
# A phone's width (a tester found the chore table 10 px too wide at 375 px).
MOBILE = {"width": 375, "height": 812, "deviceScaleFactor": 1, "mobile": True}
# The narrowest width common among phones (many Android phones' 360 CSS px; a reviewer found a chore table 5 px
# too wide there).
NARROW = {"width": 360, "height": 780, "deviceScaleFactor": 1, "mobile": True}
# Taller pages are cut here in screenshots, to keep the files small.
SCREENSHOT_MAX_HEIGHT = 4000
# How many CSS pixels the page, or any box in it that scrolls sideways (a table in an `overflow: auto` box, which
# the page's own width does not show), is wider than it shows.
OVERFLOW = """
var widest = document.documentElement.scrollWidth - window.innerWidth;
document.querySelectorAll('body *').forEach(function (element) {
  var overflow = getComputedStyle(element).overflowX;
  if (overflow === 'auto' || overflow === 'scroll') widest = Math.max(widest, element.scrollWidth - element.clientWidth);
});
return widest;
"""


def start_chromium():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # As root in a container Chromium runs only without its sandbox; /dev/shm there is small.
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # Naming the driver keeps Selenium Manager from looking for one on the network.
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    # Every load fetches everything again, so transfer sizes count every file a page needs.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    return driver


def wait_for(driver, condition, seconds=20):
    """Waits until condition() is true; a page still changing under it just means not yet."""
    ignored = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, seconds, ignored_exceptions=ignored).until(lambda _: condition())


def load(driver, url):
    driver.get(url)
    wait_for(driver, lambda: driver.execute_script("return document.readyState") == "complete")


def console_errors(driver):
    """The console's errors since the last call (Chromium's log is drained on every read)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def transferred(driver, before_mark=None, after_mark=None):
    """(URL, bytes over the wire) of the page itself and of every file it has loaded so far; with `before_mark`,
    of those it started to load before the page first set that user-timing mark, and with `after_mark`, after
    it set that one. The site icon is left out: Chromium fetches it on its own schedule and caches it apart, so
    it is listed only now and then."""
    return driver.execute_script("""
        var icon = document.querySelector('link[rel~="icon"]');
        var time = function (name) { var mark = name && performance.getEntriesByName(name, 'mark')[0]; return mark ? mark.startTime : null; };
        var before = time(arguments[0]), after = time(arguments[1]);
        return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
            .filter(function (entry) { return !icon || entry.name !== icon.href; })
            .filter(function (entry) { return (before === null || entry.startTime <= before) && (after === null || entry.startTime > after); })
            .map(function (entry) { return [entry.name, entry.transferSize]; });""", before_mark, after_mark)


def accessibility_violations(driver):
    axe = Axe(driver)
    axe.inject()
    return axe.run(options="{resultTypes: ['violations']}")["violations"]


def screenshot(driver, path, metrics):
    """The whole page (up to SCREENSHOT_MAX_HEIGHT) as it looks in a viewport of these metrics.
    Returns how many CSS pixels the page, or a box in it that scrolls sideways, is wider than it shows (0 when
    nothing overflows)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    overflow = driver.execute_script(OVERFLOW)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           dict(metrics, height=min(max(height, metrics["height"]), SCREENSHOT_MAX_HEIGHT)))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    driver.save_screenshot(path)
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return overflow
