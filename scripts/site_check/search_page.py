"""The search page used as a visitor uses it: words typed, a kind and a facet chosen, the keyboard alone.
What it should find is worked out from the site's own JSON (api/cleaners.json), not from the search index."""
import json
import os
import re
import unicodedata
from urllib.parse import urlencode

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from site_check.browser import load, wait_for
from site_check.search_weight import results_shown

WORD = "oven"
COUNTY = "Kerry"
# How many TAB presses may pass before the keyboard reaches the search box, then a result.
MAX_TABS = 30


def fold(text):
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).lower()


def result_titles(driver):
    return {link.text for link in driver.find_elements(By.CSS_SELECTOR, "#search-results a")}


def wait_for_index(driver):
    """Waits until the page shows the outcome of its query (or has given up on its index)."""
    try:
        wait_for(driver, lambda: results_shown(driver))
    except TimeoutException:
        pass  # the checks then fail with what the page shows


def open_search(driver, site):
    load(driver, site + "search/")
    wait_for_index(driver)


def choose(select, text, report):
    """Picks an option with the arrow keys, as a keyboard user does: Chromium then fires the input event the
    page listens to, which choosing through WebDriver's option click does not."""
    # A facet's options show their counts: "Kerry (3)".
    options = [re.sub(r" \(\d+\)$", "", option.text) for option in Select(select).options]
    if text in options:
        select.send_keys(Keys.HOME + Keys.ARROW_DOWN * options.index(text))
    chosen = re.sub(r" \(\d+\)$", "", Select(select).first_selected_option.text)
    report.check(f"search: '{text}' can be chosen in #{select.get_attribute('id')}", chosen == text,
                 f"got '{chosen}' of {options}")
    return chosen == text


def settles_on(driver, expected, among=None):
    """Whether the results (those of them `among` these titles, when given) become exactly `expected` (a set
    of titles) within the wait."""
    try:
        wait_for(driver, lambda: (result_titles(driver) & among if among else result_titles(driver)) == expected,
                 seconds=10)
        return True
    except TimeoutException:
        return False


def mentions(cleaner, word):
    """Whether a word of the cleaner's own text starts with `word`, as search matches words."""
    return any(piece.startswith(word) for piece in re.findall(r"[^\W_]+", own_text(cleaner)))


def own_text(cleaner):
    """The folded text of a cleaner's own fields, as the search index holds it: not links, not the derived
    reviews (objects), not the rendered HTML."""
    pieces = []
    for key, value in cleaner.items():
        if key in ("slug", "url", "path", "photo") or key.endswith("_html"):
            continue
        items = value if isinstance(value, list) else [value]
        pieces += [item for item in items if isinstance(item, str)]
    return fold(" ".join(pieces))


def check_filters(driver, site, public, report):
    with open(os.path.join(public, "api/cleaners.json"), encoding="utf-8") as handle:
        cleaners = json.load(handle)["items"]
    names = {c["name"] for c in cleaners}
    by_word = {c["name"] for c in cleaners if mentions(c, WORD)}
    in_county = {c["name"] for c in cleaners if c["county"] == COUNTY}
    # A county where the word finds someone, so that words and facet together have something to find.
    word_county = min(c["county"] for c in cleaners if c["name"] in by_word) if by_word else None
    both = {c["name"] for c in cleaners if c["name"] in by_word and c["county"] == word_county}

    open_search(driver, site)
    words = driver.find_element(By.ID, "search-words")
    words.send_keys(WORD)
    report.check(f"search: '{WORD}' lists exactly the cleaners who mention it", bool(by_word) and settles_on(
        driver, by_word, among=names), f"expected {sorted(by_word)}, shown {sorted(result_titles(driver))}")

    words.clear()
    if not choose(driver.find_element(By.ID, "search-kind"), "Cleaners", report):
        return
    labels = driver.find_elements(By.XPATH, "//div[@id='search-facets']//label[text()='County']")
    report.check("search: choosing Cleaners shows a County select", bool(labels),
                 driver.find_element(By.ID, "search-facets").text)
    if not labels:
        return
    county_select = driver.find_element(By.ID, labels[0].get_attribute("for"))
    if not choose(county_select, COUNTY, report):
        return
    report.check(f"search: kind Cleaners, County {COUNTY} lists exactly the {COUNTY} cleaners",
                 bool(in_county) and settles_on(driver, in_county),
                 f"expected {sorted(in_county)}, shown {sorted(result_titles(driver))}")

    if word_county and not choose(county_select, word_county, report):
        return
    words.send_keys(WORD)
    report.check(f"search: '{WORD}' with County {word_county} lists the cleaners there who mention it",
                 bool(both) and settles_on(driver, both), f"expected {sorted(both)}, shown {sorted(result_titles(driver))}")
    report.check("search: the query is kept in the address", "kind=cleaners" in driver.current_url
                 and f"q={WORD}" in driver.current_url, driver.current_url)
    # Back undoes the typing: the words go, the kind and County stay, and the results follow.
    driver.back()
    in_word_county = {c["name"] for c in cleaners if c["county"] == word_county}
    restored = settles_on(driver, in_word_county)
    # The page builds its facet selects again from the address.
    label = driver.find_element(By.XPATH, "//div[@id='search-facets']//label[text()='County']")
    county = Select(driver.find_element(By.ID, label.get_attribute("for"))).first_selected_option.text
    report.check("search: Back restores the state before the words were typed",
                 restored and words.get_attribute("value") == "" and county.startswith(word_county),
                 f"{driver.current_url}: words '{words.get_attribute('value')}', County '{county}', "
                 f"shown {sorted(result_titles(driver))}")


def tab_until(driver, matches):
    """Presses TAB until the focused element matches; returns what was focused on the way."""
    visited = []
    for _ in range(MAX_TABS):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        focused = driver.switch_to.active_element
        visited.append(focused.get_attribute("id") or focused.text.split("\n")[0][:40] or focused.tag_name)
        if matches(focused):
            return focused, visited
    return None, visited


def check_keyboard(driver, site, report):
    """From the top of the page: TAB to the search box, type, TAB to a result, Enter opens it."""
    open_search(driver, site)
    box, visited = tab_until(driver, lambda element: element.get_attribute("id") == "search-words")
    report.check("keyboard: the first TAB reaches the skip link", visited[:1] == ["Skip to content"], visited[:1])
    report.check("keyboard: TAB reaches the search box", box is not None, f"focused in turn: {visited}")
    if box is None:
        return
    ActionChains(driver).send_keys(WORD).perform()
    in_results = "return document.getElementById('search-results').contains(arguments[0])"
    link, visited = tab_until(driver, lambda element: driver.execute_script(in_results, element))
    report.check("keyboard: TAB goes on from the search box to a result", link is not None,
                 f"focused in turn: {visited}")
    if link is None:
        return
    title = link.text
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    try:
        wait_for(driver, lambda: driver.find_element(By.TAG_NAME, "h1").text == title, seconds=10)
        opened = True
    except TimeoutException:
        opened = False
    report.check("keyboard: Enter on a result opens its page", opened, f"wanted '{title}' at {driver.current_url}")


def check_unknown_value(driver, site, report):
    """A link asking for a facet value no listing has (mistyped, or from an older build) finds nothing and says
    so, with the value shown, rather than dropping it and listing every listing of the kind."""
    load(driver, site + "search/?kind=cleaners&county=Nowhere")
    wait_for_index(driver)
    label = driver.find_elements(By.XPATH, "//div[@id='search-facets']//label[text()='County']")
    chosen = Select(driver.find_element(By.ID, label[0].get_attribute("for"))).first_selected_option.text if label else None
    status = driver.find_element(By.ID, "search-status").text
    report.check("search: an unknown facet value in the address finds nothing and stays chosen",
                 chosen == "Nowhere (0)" and status.startswith("Nothing matches.") and not result_titles(driver),
                 f"County '{chosen}', status '{status}', shown {sorted(result_titles(driver))}")
    # It says what to try instead: the query without that value, which finds every cleaner.
    try:
        wait_for(driver, lambda: "without County \u2018Nowhere\u2019" in status_text(driver), seconds=10)
    except TimeoutException:
        pass
    report.check("search: a query that finds nothing suggests leaving out the value that finds nothing",
                 bool(re.fullmatch(r"Nothing matches\. Try without County \u2018Nowhere\u2019 \([0-9]+ results\)\.", status_text(driver))),
                 status_text(driver))
    # Counted, every language finds nothing there and is disabled; the chosen county stays as it is. A page
    # that never counts (a broken site, in the sabotage pass) fails the check rather than stopping the run.
    try:
        wait_for(driver, lambda: driver.execute_script(
            "return performance.getEntriesByName('noticeboard-search-counts', 'mark').length > 0"), seconds=10)
    except TimeoutException:
        report.check("search: the unknown value stays enabled once counted, and the values it leaves nothing for do not",
                     False, "the page showed no counts")
        return
    disabled = disabled_values(driver)
    languages = {option.get_attribute("value") for option in
                 Select(driver.find_element(By.NAME, "languages")).options[1:]}
    report.check("search: the unknown value stays enabled once counted, and the values it leaves nothing for do not",
                 "Nowhere" not in disabled["county"] and languages and disabled["languages"] == languages, disabled)
    # Another county chosen from the keyboard (the one above), the unknown value finds nothing like any
    # other, and is disabled.
    driver.find_element(By.NAME, "county").send_keys(Keys.UP)
    try:
        wait_for(driver, lambda: "Nowhere" in disabled_values(driver)["county"], seconds=10)
        left = True
    except TimeoutException:
        left = False
    report.check("search: the unknown value, once another is chosen, is disabled as a value that finds nothing", left, disabled_values(driver))


def check_show_more_focus(driver, site, report):
    """Each "Show more" pressed from the keyboard puts the focus on the first result it added, also the last
    press, which hides the button: the focus is never dropped to the page's start."""
    open_search(driver, site)
    more = driver.find_element(By.ID, "search-more")
    pressed, lost = 0, []
    while more.is_displayed() and pressed < 10:
        count = len(driver.find_elements(By.CSS_SELECTOR, "#search-results > li"))
        more.send_keys(Keys.ENTER)
        pressed += 1
        try:
            wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#search-results > li")) > count, seconds=10)
        except TimeoutException:
            lost.append(f"press {pressed}: no results added")
            break
        first_new = driver.find_elements(By.CSS_SELECTOR, "#search-results > li")[count].find_element(By.TAG_NAME, "a")
        focused = driver.switch_to.active_element
        if focused != first_new:
            lost.append(f"press {pressed}: focus on {focused.tag_name} '{focused.text[:30]}'")
    report.check("keyboard: Show more focuses the first result it adds", pressed >= 1 and not lost,
                 f"{pressed} presses; {lost}")


def facet_counts(driver):
    """The counts the page shows, by facet select name and value: {"county": {"Kerry": 3, ...}, ...}."""
    counts = {}
    for select in driver.find_elements(By.CSS_SELECTOR, "#search-facets select"):
        shown = [re.fullmatch(r"(.*) \((\d+)\)", option.text) for option in Select(select).options[1:]]
        counts[select.get_attribute("name")] = {match[1]: int(match[2]) for match in shown if match}
    return counts


def expected_counts(cleaners, word, chosen):
    """What choosing each value would find, worked out from api/cleaners.json: the cleaners who mention the word
    and have the other facets' chosen values, tallied by the facet's values."""
    counts = {}
    for facet in ("county", "languages"):
        tally = {}
        for cleaner in cleaners:
            others = all(value in as_list(cleaner.get(name)) for name, value in chosen.items() if name != facet)
            if others and mentions(cleaner, word):
                for value in as_list(cleaner.get(facet)):
                    tally[value] = tally.get(value, 0) + 1
        counts[facet] = tally
    return counts


def as_list(value):
    return value if isinstance(value, list) else [] if value is None else [value]


def check_facet_counts(driver, site, public, report):
    """A facet value's count says what choosing it would find, given the words and the other facets chosen:
    with a county chosen, each language shows those there who mention the word and speak it, and each county
    those who mention the word and speak the chosen language there."""
    with open(os.path.join(public, "api/cleaners.json"), encoding="utf-8") as handle:
        cleaners = json.load(handle)["items"]
    # A cleaner who mentions the word and speaks more than English gives the choices, so that each count
    # shown for them is at least 1.
    chooser = min((c for c in cleaners if mentions(c, WORD) and set(c["languages"]) - {"English"}), key=lambda c: c["name"])
    county, language = chooser["county"], min(set(chooser["languages"]) - {"English"})
    chosen = {"county": county, "languages": language}
    everything = expected_counts(cleaners, "", {})
    load(driver, site + "search/?" + urlencode({"q": WORD, "kind": "cleaners", "county": county, "languages": language}))
    expected = shows_counts(driver, expected_counts(cleaners, WORD, chosen), everything)
    report.check(f"search: facet counts follow the words and the other facet ('{WORD}', {county}, {language})",
                 expected == True and facet_counts(driver)["county"][county] != everything["county"][county], expected)
    check_nothing_to_find_is_greyed(driver, with_zeros(expected_counts(cleaners, WORD, chosen), everything), chosen,
                                    f"'{WORD}', {county}, {language}", report)
    # Typing counts again: with the words gone, each value counts what the other facet's choice leaves.
    words = driver.find_element(By.ID, "search-words")
    words.send_keys(Keys.END + Keys.BACKSPACE * len(WORD))
    report.check(f"search: facet counts follow the words as they are deleted ({county}, {language})",
                 shows_counts(driver, expected_counts(cleaners, "", chosen), everything))


def check_nothing_to_find_is_greyed(driver, counts, chosen, query, report):
    """Once counted, a value whose count is 0 is disabled, as choosing it would find nothing, unless it is the
    value chosen; every other value can be chosen."""
    expected = {facet: {value for value, count in values.items() if count == 0} - {chosen.get(facet)}
                for facet, values in counts.items()}
    shown = disabled_values(driver)
    report.check(f"search: values that would find nothing are disabled, a chosen one never ({query})",
                 shown == expected and any(expected.values()), {"disabled": shown, "expected": expected})


def disabled_values(driver):
    """The values the page's facet selects disable, by facet: {"county": {"Kerry", ...}, ...}."""
    return {select.get_attribute("name"): {option.get_attribute("value") for option in Select(select).options[1:]
                                           if not option.is_enabled()}
            for select in driver.find_elements(By.CSS_SELECTOR, "#search-facets select")}


def with_zeros(counts, everything):
    """`counts` with 0 for each value in `everything` it leaves out."""
    return {facet: {value: counts[facet].get(value, 0) for value in everything[facet]} for facet in counts}


def shows_counts(driver, expected, everything):
    """True once the page shows these counts (within the wait), with 0 for the values in `everything` left out;
    else what differs, as {facet: {value: (shown, expected)}}."""
    expected = with_zeros(expected, everything)
    try:
        wait_for(driver, lambda: facet_counts(driver) == expected, seconds=10)
        return True
    except TimeoutException:
        shown = facet_counts(driver)
        return {facet: {value: (count, expected[facet].get(value)) for value, count in values.items()
                        if count != expected[facet].get(value)} for facet, values in shown.items()}


def check_range_typing(driver, site, report):
    """Typing a price range takes one history entry for From and one for To, not one a keystroke, so Back
    twice returns to the page before the range; choosing another kind empties the range (another field's)."""
    load(driver, site + "search/?kind=cleaners&county=" + COUNTY)
    wait_for_index(driver)
    if not driver.find_element(By.ID, "search-min").is_displayed():
        report.check("search: Back twice undoes typing From then To, one entry each", False, "no From box is shown")
        return
    driver.find_element(By.ID, "search-min").send_keys("15")
    driver.find_element(By.ID, "search-max").send_keys("22")
    wait_for_index(driver)
    typed = driver.current_url
    driver.back()
    driver.back()
    try:
        wait_for(driver, lambda: "min=" not in driver.current_url, seconds=5)
    except TimeoutException:
        pass
    restored = driver.current_url
    report.check("search: Back twice undoes typing From then To, one entry each",
                 "min=15&max=22" in typed and "min=" not in restored and "max=" not in restored
                 and driver.find_element(By.ID, "search-min").get_attribute("value") == "",
                 f"typed {typed}, after Back twice {restored}")
    driver.forward()
    driver.forward()
    wait_for_index(driver)
    choose(driver.find_element(By.ID, "search-kind"), "Rentals", report)
    wait_for_index(driver)
    report.check("search: another kind starts with an empty range",
                 "min=" not in driver.current_url and driver.find_element(By.ID, "search-min").get_attribute("value") == "",
                 driver.current_url)


def status_text(driver):
    return driver.find_element(By.ID, "search-status").text


def settles(driver, condition, seconds=10):
    """Whether `condition()` comes true within the wait (a page that never gets there fails its check)."""
    try:
        wait_for(driver, condition, seconds=seconds)
        return True
    except TimeoutException:
        return False


def check_failed_downloads_are_retried(driver, site, report):
    """On a connection that drops, a file of the index that failed to load is asked for again by the next
    change to the search, and results shown before the failure go. When the first file fails, the words asked
    for stay in the box and the links to browse without search show. Each failure is made by blocking the
    index's addresses in Chromium; the console's errors for them are drained at the end."""
    blocked = lambda patterns: driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": patterns})
    failed = lambda: "could not be loaded" in status_text(driver)
    words = lambda: driver.find_element(By.ID, "search-words")
    blocked(["*api/search/meta.json"])
    load(driver, site + f"search/?q={WORD}")
    stranded = settles(driver, failed)
    browse = driver.find_element(By.ID, "search-browse").is_displayed()
    report.check("search: when the index's first file fails, the words stay and the browse links show",
                 stranded and words().get_attribute("value") == WORD and browse,
                 f"status '{status_text(driver)}', words '{words().get_attribute('value')}', browse shown {browse}")
    blocked([])
    # Other words typed: the retry searches for them, and the address says so.
    words().send_keys(Keys.CONTROL + "a" + Keys.NULL + "kayak")
    recovered = settles(driver, lambda: "Sit-on-top sea kayak" in result_titles(driver) and not failed())
    report.check("search: a change to the search loads the first file again once it can, and searches for the words typed",
                 recovered and "q=kayak" in driver.current_url and not driver.find_element(By.ID, "search-browse").is_displayed(),
                 f"status '{status_text(driver)}', shown {sorted(result_titles(driver))}, address {driver.current_url}")
    # A sort order's file loads when the order is first chosen; chosen again after failing, it is asked for again.
    load(driver, site + f"search/?q={WORD}&kind=cleaners")
    settles(driver, lambda: len(result_titles(driver)) > 0)
    sort = driver.find_element(By.ID, "search-sort")
    blocked(["*api/search/*"])
    sort.send_keys(Keys.HOME + Keys.ARROW_DOWN)
    dropped = settles(driver, failed) and not result_titles(driver)
    blocked([])
    sort.send_keys(Keys.HOME)
    settles(driver, lambda: len(result_titles(driver)) > 0)
    sort.send_keys(Keys.ARROW_DOWN)
    retried = settles(driver, lambda: len(result_titles(driver)) > 0 and not failed())
    report.check("search: a file that failed is asked for again by the next change, and results from before it go",
                 dropped and retried, f"cleared on failure {dropped}; status after '{status_text(driver)}'")
    driver.get_log("browser")  # drains the blocked requests' own errors
