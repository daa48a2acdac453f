#!/usr/bin/env bash
# Installs the a64jit module into Debian's python3.11, with a start-up hook that switches the
# JIT on when PYTHONJIT=1 (or PYTHONJITAUTO, PYTHONJITLISTFILE) is set; or uninstalls it.
#
#   bazel run //jit/python:install [-- --system | --site DIR] [--uninstall] [--force]
#
# The default site directory is python3.11's user site (~/.local/lib/python3.11/site-packages);
# --system is /usr/local/lib/python3.11/dist-packages (for every user; needs root); --site DIR
# any directory python3.11 treats as a site directory. It copies a64jit.so, a64jit_startup.py,
# a64jit-startup.pth and cinderjit.py (cinderx.jit's names) there, and a64jit-install.txt, the list uninstall removes: files and
# the folders the install made. Nothing is left that points into bazel-bin.
# It refuses to overwrite a file it did not install (unless --force). Exit codes: 0 done,
# 1 refused or failed, 64 usage.
set -euo pipefail

usage() {
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-64}"
}

python=/usr/bin/python3.11
site="" uninstall=0 force=0 where=user
while [ $# -gt 0 ]; do
  case "$1" in
    --system) where=system ;;
    --site) [ $# -ge 2 ] || { echo "install: --site needs a directory" >&2; exit 64; }
            where=dir; site=$2; shift ;;
    --site=*) where=dir; site=${1#--site=} ;;
    --uninstall) uninstall=1 ;;
    --force) force=1 ;;
    -h|--help) usage 0 ;;
    *) echo "install: unknown option '$1' (--help lists them)" >&2; exit 64 ;;
  esac
  shift
done

case "$where" in
  user) site=$("$python" -c 'import site; print(site.getusersitepackages())') ;;
  system) site=$("$python" -c 'import site; print(site.getsitepackages()[0])') ;;
  dir) case "$site" in /*) ;; *) site="${BUILD_WORKING_DIRECTORY:-$PWD}/$site" ;; esac ;;
esac
manifest="$site/a64jit-install.txt"

if [ "$uninstall" = 1 ]; then
  if [ ! -f "$manifest" ]; then
    echo "install: nothing to uninstall in $site (no a64jit-install.txt)" >&2
    exit 1
  fi
  # Files first, then the folders the install made, deepest first.
  entries=$(cat "$manifest")
  grep '^file ' <<<"$entries" | cut -c6- | while read -r f; do rm -f "$f"; done
  rm -f "$manifest"
  # Python's bytecode cache of the hook, and its folder if nothing else is in it.
  rm -f "$site"/__pycache__/a64jit_startup.*.pyc "$site"/__pycache__/cinderjit.*.pyc
  rmdir "$site/__pycache__" 2>/dev/null || true
  grep '^dir ' <<<"$entries" | cut -c5- | sort -r | while read -r d; do
    rmdir "$d" 2>/dev/null || true
  done
  echo "install: a64jit uninstalled from $site"
  exit 0
fi

here=$(cd "$(dirname "$0")" && pwd)
runfiles="${RUNFILES_DIR:-$0.runfiles}"
find_file() {  # a file of this package, under bazel run or from the source tree
  for d in "$runfiles/a64jit/jit/python" "$here"; do
    [ -f "$d/$1" ] && { echo "$d/$1"; return; }
  done
  echo "install: $1 not found (run this through 'bazel run //jit/python:install')" >&2
  exit 1
}
so=$(find_file a64jit.so)
startup=$(find_file a64jit_startup.py)
cinderjit=$(find_file cinderjit.py)

targets=("$site/a64jit.so" "$site/a64jit_startup.py" "$site/a64jit-startup.pth"
  "$site/cinderjit.py")
if [ "$force" = 0 ]; then
  for t in "${targets[@]}"; do
    if [ -e "$t" ] && ! grep -qxF "file $t" "$manifest" 2>/dev/null; then
      echo "install: $t exists and was not installed by a64jit (--force overwrites it)" >&2
      exit 1
    fi
  done
fi

# The folders this install makes, so that uninstall removes them again (and those an
# earlier install made, which a second install keeps in the list).
old_entries=$(cat "$manifest" 2>/dev/null || true)
made=()
d=$site
while [ ! -d "$d" ]; do made+=("$d"); d=$(dirname "$d"); done
mkdir -p "$site"
install -m 0644 "$so" "$site/a64jit.so"
install -m 0644 "$startup" "$site/a64jit_startup.py"
install -m 0644 "$cinderjit" "$site/cinderjit.py"
echo "import a64jit_startup" > "$site/a64jit-startup.pth"
{
  printf 'file %s\n' "${targets[@]}"
  grep '^dir ' <<<"$old_entries" || true
  for m in "${made[@]+"${made[@]}"}"; do echo "dir $m"; done
} > "$manifest.new"
mv "$manifest.new" "$manifest"
echo "install: a64jit installed into $site"
echo "  switch it on with PYTHONJIT=1 (all functions) or PYTHONJITAUTO=N (after N calls);"
echo "  remove it with: bazel run //jit/python:install -- --uninstall$([ "$where" = system ] && echo ' --system')$([ "$where" = dir ] && echo " --site $site")"
