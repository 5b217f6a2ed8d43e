"""The site's navigation as a phone shows it: a menu that the keyboard opens, and Escape closes, giving the
focus back to its toggle."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from site_check import browser

MENU_STATE = """
var menu = document.querySelector('details.nav-narrow'), focused = document.activeElement;
return {open: menu.open, focus: focused === menu.querySelector('summary') ? 'toggle' : focused.tagName + ' ' + focused.textContent};
"""


def check_menu_escape(driver, site, report):
    """On a phone, the menu opened with Enter and its first link reached with TAB closes on Escape, and the
    focus is back on its toggle."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", browser.MOBILE)
    try:
        browser.load(driver, site)
        toggle = driver.find_element(By.CSS_SELECTOR, "details.nav-narrow summary")
        toggle.send_keys(Keys.ENTER)
        ActionChains(driver).send_keys(Keys.TAB).perform()
        opened = driver.execute_script(MENU_STATE)
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        closed = driver.execute_script(MENU_STATE)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    report.check("menu: Escape closes the phone's navigation menu and gives the focus back to its toggle",
                 opened["open"] and opened["focus"] != "toggle" and closed == {"open": False, "focus": "toggle"},
                 f"opened with Enter and TAB: {opened}; after Escape: {closed}; expected closed with the focus on the toggle")
