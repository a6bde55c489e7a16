#!/usr/bin/env python3
"""Check the documentation's relative links and heading anchors.

    python3 doc/scripts/check-links.py            # from the repository root (or anywhere)

Reads doc/*.md, README.md and examples/*/README.md. For every Markdown link or image
`[text](target)` whose target is not a URL (http:, https:, mailto:) it checks that the file
exists (relative to the page), and, for a target `page.md#anchor` or `#anchor`, that the page
has a heading whose anchor, as GitHub forms it, is `anchor`. Prints one line per broken link,
`file:line: target: reason`, and exits 1 if there is any; also warns (exit 0) about doc/ pages
that doc/index.md does not link and about pages over 800 lines.
"""
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def pages():
    yield from sorted((ROOT / "doc").glob("*.md"))
    yield ROOT / "README.md"
    yield from sorted((ROOT / "examples").glob("*/README.md"))


def lines_outside_code(path):
    """(line number, text) of the lines that are not code: neither inside fenced blocks nor in
    indented blocks (four spaces after a blank line)."""
    fenced, indented, previous_blank = False, False, True
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.strip() == "":
            previous_blank = True
            continue
        indented = (line.startswith("    ") or line.startswith("\t")) and (previous_blank or indented)
        previous_blank = False
        if not indented:
            yield number, line


def slug(heading):
    """GitHub's anchor of a heading: the text without formatting, lower case, punctuation and
    symbols dropped (letters, digits, '-', '_' and spaces kept), spaces as '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)       # links: their text
    text = re.sub(r"<[^>]+>", "", text)                               # inline HTML
    text = text.lower()
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch in "-_ " or category[0] in "LN" or category == "Mn":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen, result = {}, set()
        for _, line in lines_outside_code(path):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            result.add(base if n == 0 else f"{base}-{n}")
        for _, line in lines_outside_code(path):                      # explicit <a id="..."> / name
            for a in re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", line):
                result.add(a)
        _anchors[path] = result
    return _anchors[path]


def strip_inline_code(line):
    return re.sub(r"`[^`]*`", "", line)


def main():
    broken = 0
    linked_from_index = set()
    for page in pages():
        for number, line in lines_outside_code(page):
            for target in LINK.findall(strip_inline_code(line)):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):     # http:, mailto:, ...
                    continue
                path_part, _, anchor = target.partition("#")
                dest = (page.parent / path_part).resolve() if path_part else page
                where = f"{page.relative_to(ROOT)}:{number}: {target}"
                if not dest.exists():
                    print(f"{where}: no such file")
                    broken += 1
                    continue
                if page.name == "index.md" and page.parent.name == "doc":
                    linked_from_index.add(dest)
                if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    print(f"{where}: no heading with this anchor in {dest.relative_to(ROOT)}")
                    broken += 1
    for page in sorted((ROOT / "doc").glob("*.md")):
        if page.name != "index.md" and page.resolve() not in linked_from_index:
            print(f"warning: doc/index.md does not link {page.relative_to(ROOT)}")
        n = len(page.read_text(encoding="utf-8").splitlines())
        if n > 800:
            print(f"warning: {page.relative_to(ROOT)} has {n} lines (more than 800)")
    print(f"{broken} broken link(s)" if broken else "all links resolve")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
