#!/usr/bin/python3.11
"""Finds references to repository paths that do not exist, in docs and in comments.

A README or a comment that names a header under its old folder after the file moved sends a
newcomer looking for nothing. This scans every tracked text file for path-like tokens
(`dir/file.ext`, `dir/sub/`, Bazel labels `//pkg:target`) and reports, as FILE:LINE, each
one that names none of the repository's files or folders.

A token counts as one of ours when its first folder is the name of a folder in the
repository (so CPython's `Objects/genobject.c` or CinderX's `Jit/hir/simplify.cpp` are left
alone). It exists when it resolves from the repository's root, from the citing file's
folder, or as the tail of a tracked path (`hir/ops.h` for `jit/hir/ops.h`). Absolute paths
(`/usr/...`, `/opt/...`) are the machine's, and placeholders (`//suites/SUITE`) are not
paths; neither is checked. Nor are the dated journals in docs/measurements/, which record
what existed on their day. A line that names a missing path on purpose (a test's fixture)
says `doc-paths: ignore`.

Usage: doc_paths.py [ROOT]      ROOT defaults to the repository holding this script.
Exit status: 0 none missing, 1 some missing (each printed), 2 ROOT is not a git checkout.
"""
import os
import re
import subprocess
import sys

EXTENSIONS = ("h", "cc", "c", "py", "sh", "md", "bzl", "bazel", "json", "txt", "lir", "hir",
              "lower", "xml", "html", "S", "s", "cfg")
# A relative path: folders, then a file with one of our extensions or a trailing slash. The
# look-behind keeps absolute paths, URLs and the middle of longer tokens out.
PATH = re.compile(r"(?<![\w./$:~@-])((?:[A-Za-z_][\w.-]*/)+(?:[\w.-]+\.(?:%s)\b|(?=[\s`'\")\],:;]|$)))"
                  % "|".join(EXTENSIONS))
LABEL = re.compile(r"(?<![\w/@:])//([a-z_][\w/-]*)(?::[\w./-]+|/\.\.\.)?")
# CPython's include folders: `cpython/pystate.h` is Python's header, not suites/cpython's.
FOREIGN = {"cpython", "internal"}
TEXT_SUFFIXES = (".md", ".cc", ".h", ".py", ".sh", ".bzl", ".bazel", ".txt", ".bazelrc")
IGNORE = "doc-paths: ignore"


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return [f for f in out.stdout.splitlines() if f]


def is_text_source(path):
    base = os.path.basename(path)
    return base.endswith(TEXT_SUFFIXES) or base in ("BUILD", "WORKSPACE", "run")


class Repository:
    def __init__(self, root, files):
        self.root = root
        self.files = set(files)
        self.dirs = set()
        for f in files:
            parts = f.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                self.dirs.add("/".join(parts[:i]))
        self.dir_names = {d.rsplit("/", 1)[-1] for d in self.dirs}
        self.top = {d for d in self.dirs if "/" not in d}
        self.paths = self.files | self.dirs

    def is_ours(self, token):
        parts = token.rstrip("/").split("/")
        if any(p.isupper() for p in parts):
            return False  # a placeholder: //suites/SUITE, OUT/<side>
        if parts[0] in FOREIGN and parts[0] not in self.top:
            return False
        return parts[0] in self.dir_names

    def exists(self, token, citing_dir):
        path = token.rstrip("/")
        for base in ("", citing_dir):
            candidate = os.path.normpath(os.path.join(base, path))
            if candidate in self.paths:
                return True
        tail = "/" + path
        return any(p.endswith(tail) for p in self.paths)

    def package_exists(self, package):
        package = package.rstrip("/")
        return package == "" or package + "/BUILD.bazel" in self.files or \
            package + "/BUILD" in self.files


def missing_in_line(repo, line, citing_dir):
    """The tokens of one line that name nothing in the repository."""
    missing = []
    for m in PATH.finditer(line):
        token = m.group(1)
        rest = line[m.end():m.end() + 1]
        before = line[m.start() - 1:m.start()] if m.start() else ""
        if rest in ("*", "<", "{", "$") or before == "<" or not repo.is_ours(token):
            continue
        if not repo.exists(token, citing_dir):
            missing.append(token)
    for m in LABEL.finditer(line):
        package = m.group(1)
        if package.split("/", 1)[0] not in repo.top or not repo.is_ours(package):
            continue  # Bazel's own (//visibility:public, //conditions:default) or made up
        if not repo.package_exists(package):
            missing.append("//" + m.group(1))
    return missing


def check(root):
    files = tracked_files(root)
    if files is None:
        print("doc_paths: %s is not a git checkout" % root, file=sys.stderr)
        return 2
    repo = Repository(root, files)
    problems = 0
    for f in sorted(files):
        # Measurement journals are dated records: they name what existed on that day.
        if not is_text_source(f) or f.startswith("docs/measurements/"):
            continue
        try:
            with open(os.path.join(root, f), encoding="utf-8") as text:
                lines = text.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for number, line in enumerate(lines, 1):
            if IGNORE in line:
                continue
            for token in missing_in_line(repo, line, os.path.dirname(f)):
                print("%s:%d: names %s, which does not exist" % (f, number, token))
                problems += 1
    print("doc_paths: %d file(s) scanned, %d missing path(s)" % (len(files), problems))
    return 1 if problems else 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.exit(check(sys.argv[1] if len(sys.argv) > 1 else here))
