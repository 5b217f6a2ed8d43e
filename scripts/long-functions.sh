#!/bin/sh
# Lists the functions and initializers in Sources/ longer than LIMIT lines (default 60),
# longest first: "lines file:line name". Braces are counted outside string literals and comments.
exec python3 - "${1:-60}" "$(dirname "$0")/../Sources" <<'PYTHON'
import os, re, sys

limit, root = int(sys.argv[1]), sys.argv[2]
declaration = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|static|mutating|override|final|nonisolated|convenience|required)\s+)*(func\s+[^\s(<]+|init[?!]?|deinit|subscript)")

def code(line):
    """The line without string literals and // comments, for counting braces."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return line.split("//")[0]

found = []
for folder, _, names in os.walk(root):
    for name in names:
        if not name.endswith(".swift"):
            continue
        path = os.path.join(folder, name)
        lines = open(path, encoding="utf-8").read().split("\n")
        for number, line in enumerate(lines):
            match = declaration.match(line)
            if not match:
                continue
            depth, started, end = 0, False, None
            for index in range(number, len(lines)):
                text = code(lines[index])
                depth += text.count("{") - text.count("}")
                started = started or "{" in text
                if started and depth <= 0:
                    end = index
                    break
                if not started and index > number + 15:
                    break
            if end is not None and end - number + 1 > limit:
                found.append((end - number + 1, f"{os.path.relpath(path, os.path.dirname(root))}:{number + 1}", match.group(1)))
for length, place, name in sorted(found, reverse=True):
    print(f"{length:4} {place} {name}")
PYTHON
