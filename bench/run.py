#!/usr/bin/env python3
"""`make bench`: Noticeboard and Hugo side by side on generated catalogues.

For each size it generates a catalogue (`noticeboard generate`, with the same data as Hugo content for
bench/hugo/), then times, alternating the two tools, full builds of both, and Noticeboard's no-change
rebuild and one-listing edit through the ordinary `noticeboard build`; plus `cp -r` of Noticeboard's
output as the floor. A full build writes into a new folder: the bench moves the last output aside and
deletes what it moved only when everything else is timed, because on a journal-less ext4 (this machine's
disk) creating files soon after many were deleted makes the kernel step over each recently freed inode,
which would charge each tool for the bench's own clean-up. After all sizes, both tools' full builds are
timed once more as earlier versions of this bench did, each right after deleting the last output. Last, the same edit in `noticeboard serve`, which keeps the site in memory: its time
is the build's own, as serve logs it (from the change being seen to the new output swapped in); and the
same edit in `hugo server --renderToDisk` (its default fast render mode), as it logs it.
Each is run --runs times; the table shows medians. Wall time is measured around the tool alone (data
generation and conversion happen before); peak RSS comes from GNU time.
NOTICEBOARD_BIN names another noticeboard executable to measure (default: the release build).
"""
import argparse
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
WORK = os.path.join(REPO, ".bench")
# What the bench moved aside, deleted at the end (see the docstring).
TRASH = os.path.join(WORK, "trash")
NOW = "2026-11-23"
SIZES = {
    "S": {"cleaners": 1000, "rentals": 1000, "quotes": 2000},
    "L": {"cleaners": 10000, "rentals": 10000, "quotes": 20000},
}


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
    group the time the server gives it (`123 ms` or `1.23 s`). Returns, per run, (those seconds, peak RSS
    in MiB of the whole session), and keeps each run's log lines under `name`."""
    report = os.path.join(WORK, "time-v-server.txt")
    # In a session of its own, so that Ctrl-C can go to the whole group: GNU time ignores it while the server runs.
    server = subprocess.Popen(["/usr/bin/time", "-v", "-o", report] + command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line.rstrip()) for line in server.stdout], daemon=True).start()

    def until(pattern):
        """The lines up to the first that matches, and those that follow it at once (the stages)."""
        seen = []
        while True:
            line = lines.get(timeout=900)
            if line.startswith("error") or line.startswith("Error"):
                raise RuntimeError(line)
            seen.append(line)
            if re.search(pattern, line):
                break
        time.sleep(0.2)
        while not lines.empty():
            seen.append(lines.get())
        return seen

    until(ready)
    time.sleep(1)
    edit(100)
    until(built)
    results, logs = [], []
    for run in range(runs):
        time.sleep(1)
        edit(101 + run)
        seen = until(built)
        line = next(line for line in seen if re.search(built, line))
        number, unit = re.search(built, line).groups()
        results.append(float(number) / (1000 if unit == "ms" else 1))
        logs.append((line, [line.strip() for line in seen if re.match(r"^ *[0-9.]+ s  ", line)]))
    os.killpg(server.pid, signal.SIGINT)
    server.wait()
    with open(report) as handle:
        rss = next(int(line.split(":")[1]) for line in handle if "Maximum resident set size" in line) / 1024
    SERVE_EDITS[name] = logs
    return [(seconds, rss) for seconds in results]


def generate(size, counts):
    site, hugo = os.path.join(WORK, size, "site"), os.path.join(WORK, size, "hugo")
    move_aside(site, hugo)
    shutil.copytree(os.path.join(REPO, "bench", "hugo"), hugo)
    shutil.copytree(os.path.join(REPO, "templates", "assets"), os.path.join(hugo, "static", "assets"))
    subprocess.run([NOTICEBOARD, "generate", "--output", site, "--example", REPO, "--hugo", hugo, "--seed", "1"]
                   + [f"--{kind}={count}" for kind, count in counts.items()], check=True, stdout=subprocess.DEVNULL)
    listings = sum(len(os.listdir(os.path.join(site, "content", kind)))
                   for kind in ["cleaners", "rentals", "owners", "quotes", "reviews"])
    return site, hugo, listings


def build_commands(site, hugo):
    """Full-build commands of both tools: (ours, Hugo's)."""
    output = os.path.join(site, "public")
    return ([NOTICEBOARD, "build", "--root", site, "--output", output, "--now", NOW, "--quiet", "--timings"],
            ["hugo", "--quiet", "--source", hugo, "--destination", os.path.join(hugo, "public")])


def full_builds(site, hugo, runs, clear, stages):
    """`runs` full builds of each tool, alternating so that both see the same machine conditions, each after
    `clear` (move_aside or remove) took away what its last build left; returns (ours, Hugo's) results."""
    build, hugo_build = build_commands(site, hugo)
    ours, theirs = [], []
    for _ in range(runs):
        # Everything a build leaves: the output, the staging folder beside it (the site before) and the cache.
        clear(os.path.join(site, "public"), os.path.join(site, ".public.staging"), os.path.join(site, ".noticeboard-cache"))
        ours.append(timed(build, stages=stages))
        clear(os.path.join(hugo, "public"), os.path.join(hugo, "resources"))
        theirs.append(timed(hugo_build))
    return ours, theirs


def table_row(size, label, listings, stats, results, reference_wall):
    """A row of the table from `runs` (wall, RSS) results and the output's (files, pages, MB)."""
    wall = statistics.median(wall for wall, _ in results)
    rss = statistics.median(rss for _, rss in results)
    files, pages, megabytes = stats
    return (size, label, listings, files, megabytes, wall, pages / wall, rss, reference_wall / wall)


def bench_size(size, counts, runs):
    """Everything but the full builds after a deletion; returns the rows, the load averages and what
    `after_deletion_rows` needs."""
    site, hugo, listings = generate(size, counts)
    output, floor_copy = os.path.join(site, "public"), os.path.join(WORK, size, "copy")
    build, _ = build_commands(site, hugo)
    results = {name: [] for name in ["floor", "no-change", "edit"]}
    load_before = load_average()
    results["full"], results["hugo"] = full_builds(site, hugo, runs, move_aside, f"{size} full build")
    for _ in range(runs):
        move_aside(floor_copy)
        results["floor"].append(timed(["cp", "-r", output, floor_copy]))
    move_aside(floor_copy)
    for _ in range(runs):
        results["no-change"].append(timed(build, stages=f"{size} no-change rebuild"))
    for run in range(runs):
        edit_one_listing(site, run + 1)
        results["edit"].append(timed(build, stages=f"{size} one-listing edit"))
    # Stats first: Hugo's server renders into the same folder as its build.
    ours, theirs = tree_stats(output), tree_stats(os.path.join(hugo, "public"))
    port = 4950 + 2 * list(SIZES).index(size)
    results["serve-edit"] = server_edits(
        f"{size} noticeboard serve", [NOTICEBOARD, "serve", "--root", site, "--port", str(port), "--now", NOW, "--timings"],
        "^Serving", lambda run: edit_one_listing(site, run), r"^Built .* in ([0-9.]+) (ms|s)$", runs)
    results["hugo-server-edit"] = server_edits(
        f"{size} hugo server", ["hugo", "server", "--source", hugo, "--port", str(port + 1), "--renderToDisk"],
        "Web Server is available", lambda run: edit_hugo_listing(hugo, run), r"^Total in ([0-9.]+) (ms)$", runs)
    load_after = load_average()
    hugo_wall = statistics.median(wall for wall, _ in results["hugo"])
    rows = [table_row(size, label, listings, stats, results[name], hugo_wall) for name, label, stats in [
        ("full", "Noticeboard full build", ours), ("no-change", "Noticeboard no-change rebuild", ours),
        ("edit", "Noticeboard one-listing edit", ours), ("serve-edit", "Noticeboard one-listing edit in serve", ours),
        ("hugo", "Hugo full build", theirs), ("hugo-server-edit", "Hugo one-listing edit in hugo server", theirs), ("floor", "cp -r of our output", ours),
    ]]
    return rows, (load_before, load_after), (site, hugo, listings, ours, theirs)


def after_deletion_rows(size, runs, site, hugo, listings, ours, theirs):
    """Both tools' full builds, each right after deleting its last output (its Hugo row is the reference)."""
    results, hugo_results = full_builds(site, hugo, runs, remove, f"{size} full build after deleting the last output")
    hugo_wall = statistics.median(wall for wall, _ in hugo_results)
    return [table_row(size, "Noticeboard full build after deleting the last output", listings, ours, results, hugo_wall),
            table_row(size, "Hugo full build after deleting the last output", listings, theirs, hugo_results, hugo_wall)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", help=f"any of {', '.join(SIZES)} (default: all)")
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    for size in arguments.sizes:
        if size not in SIZES:
            parser.error(f"unknown size {size}; choose from {', '.join(SIZES)}")
    os.makedirs(WORK, exist_ok=True)
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    hugo_version = subprocess.run(["hugo", "version"], capture_output=True, text=True).stdout.split()[1]
    measured = f"commit {commit}" if "NOTICEBOARD_BIN" not in os.environ else f"{NOTICEBOARD} (repository at {commit})"
    print(f"Noticeboard {measured}, Hugo {hugo_version}, {os.cpu_count()} cores, median of {arguments.runs} runs, --now {NOW}", flush=True)
    rows, walls, built = [], {}, {}
    for size in arguments.sizes or list(SIZES):
        size_rows, (load_before, load_after), built[size] = bench_size(size, SIZES[size], arguments.runs)
        rows += size_rows
        walls[size] = {row[1]: row[5] for row in size_rows}
        print(f"{size}: load average {load_before} before, {load_after} after", flush=True)
    # Last, as they delete: nothing else is timed after them.
    for size, (site, hugo, listings, ours, theirs) in built.items():
        rows += after_deletion_rows(size, arguments.runs, site, hugo, listings, ours, theirs)
    print(f"After deleting: load average {load_average()}", flush=True)
    remove(TRASH)
    print()
    print("The last column compares with Hugo's full build in the same condition: into a new folder, or right after deleting.")
    print("| size | build | listings | output files | output MB | wall s (median) | pages/s | peak RSS MB | Hugo's full build ÷ this |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for size, label, listings, files, megabytes, wall, rate, rss, ratio in rows:
        print(f"| {size} | {label} | {listings} | {files} | {megabytes:.1f} | {wall:.2f} | {rate:.0f} | {rss:.0f} | {ratio:.2f} |")
    if "S" in walls and "L" in walls:
        print()
        for label in ["Noticeboard full build", "Hugo full build"]:
            print(f"Scaling, {label}: L takes {walls['L'][label] / walls['S'][label]:.1f}× the time of S (10× the listings)")
    print()
    for size in walls:
        ours, theirs = walls[size]["Noticeboard one-listing edit in serve"], walls[size]["Hugo one-listing edit in hugo server"]
        print(f"One-listing edit in the preview servers, {size}: hugo server {theirs:.3f} s ÷ noticeboard serve {ours:.3f} s = {theirs / ours:.1f}")
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
