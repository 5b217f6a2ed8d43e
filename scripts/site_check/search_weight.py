"""What a search costs a visitor, measured in headless Chromium from the browser's own resource timing on a site
served by nginx with gzip (scripts/serve-site.sh): the requests and bytes until the first results of a query
show, and the time the page's engine takes to filter at each keystroke once the files it needs are loaded.
Used by check-site.py on a generated S catalogue and by bench/run.py on L and XL, with Pagefind's figures
beside ours there."""
import gzip
import os

from site_check.browser import load, transferred, wait_for

# The query of the targets: one word and one facet, as its address.
TYPICAL_QUERY = "q=drill&kind=rentals&city=Cork"
TYPICAL_WORD = "drill"
IMAGE_ENDINGS = (".svg", ".jpg", ".jpeg", ".png", ".webp")
# Targets (bytes gzipped as served, requests, milliseconds) for the typical query on the L catalogue.
BUDGET_BYTES = 100_000
BUDGET_REQUESTS = 8
BUDGET_KEYSTROKE_MS = 16
# The user-timing marks the page sets when its first results show, then its facet values' counts
# (templates/assets/search.js): what it fetches for the counts is not part of what the first results cost.
RESULTS_MARK = "noticeboard-search-results"
COUNTS_MARK = "noticeboard-search-counts"


def results_shown(driver):
    """Whether the page shows the outcome of its query (results, none, or an error), not a loading state."""
    text = driver.find_element("id", "search-status").text
    return bool(text) and not text.startswith(("Loading", "Searching"))


def first_results(driver, site, query=TYPICAL_QUERY):
    """Loads the search page at `query` with an empty cache and waits for its results. Returns a dict:
    requests and bytes in all (HTML, CSS, JS, index data), index requests and bytes, the result count shown,
    and the thumbnails' requests and bytes, which are counted apart (they load lazily, as pictures do)."""
    load(driver, site + "search/?" + query)
    wait_for(driver, lambda: results_shown(driver), seconds=60)
    # The thumbnails start to load once the results are in the page, after the mark.
    files = [(url, size) for url, size in transferred(driver, before_mark=RESULTS_MARK) if not url.split("?")[0].endswith(IMAGE_ENDINGS)]
    images = [(url, size) for url, size in transferred(driver) if url.split("?")[0].endswith(IMAGE_ENDINGS)]
    index = [(url, size) for url, size in files if "/api/search/" in url]
    return {
        "requests": len(files), "bytes": sum(size for _, size in files),
        "index_requests": len(index), "index_bytes": sum(size for _, size in index),
        "images": len(images), "image_bytes": sum(size for _, size in images),
        "status": driver.find_element("id", "search-status").text,
        "files": files,
    }


def counts_cost(driver):
    """Once the page shows its facet values' counts, after its first results: what it fetched for them, as
    (URL, bytes) pairs (the results' thumbnails, loading meanwhile, left out)."""
    mark = "return performance.getEntriesByName(arguments[0], 'mark').length > 0"
    wait_for(driver, lambda: driver.execute_script(mark, COUNTS_MARK), seconds=60)
    return [(url, size) for url, size in transferred(driver, before_mark=COUNTS_MARK, after_mark=RESULTS_MARK)
            if not url.split("?")[0].endswith(IMAGE_ENDINGS)]


KEYSTROKES_SCRIPT = """
var done = arguments[arguments.length - 1], word = arguments[0], query = arguments[1];
var engine = window.NoticeboardSearch, base = document.getElementById('search').getAttribute('data-index');
var search = new engine.Search(function (path) { return fetch(base + path).then(function (r) { return r.json(); }); });
var prefixes = [];
for (var i = 1; i <= word.length; i++) prefixes.push(word.slice(0, i));
(async function () {
  // As the page does at each keystroke: the results, then the facet values' counts.
  var both = async function (words) {
    var asked = Object.assign({}, query, {words: words});
    await search.run(asked);
    await search.counts(asked);
  };
  for (var p of prefixes) await both(p);
  var times = [];
  for (var p of prefixes) {
    var start = performance.now();
    await both(p);
    times.push(performance.now() - start);
  }
  done(times);
})().catch(function (error) { done(String(error)); });
"""


def keystroke_times(driver, site, word=TYPICAL_WORD, kind="rentals", facets=None):
    """Milliseconds the page's engine takes to filter for each prefix of `word` as it is typed (with a kind
    and facets) and count each facet value's results, once the index files each needs are loaded: the work
    done on every keystroke."""
    load(driver, site + "search/")
    wait_for(driver, lambda: results_shown(driver), seconds=60)
    query = {"words": "", "kind": kind, "facets": facets or {"city": "Cork"}, "min": None, "max": None, "sort": ""}
    times = driver.execute_async_script(KEYSTROKES_SCRIPT, word, query)
    if isinstance(times, str):
        raise RuntimeError(f"the search engine failed in the page: {times}")
    return times


def index_size(folder):
    """(files, bytes, gzip bytes) of the index below `folder`, each file gzipped at level 6 as nginx serves it."""
    files = raw = gzipped = 0
    for directory, _, names in os.walk(folder):
        for name in names:
            with open(os.path.join(directory, name), "rb") as handle:
                data = handle.read()
            files, raw, gzipped = files + 1, raw + len(data), gzipped + len(gzip.compress(data, 6))
    return files, raw, gzipped
