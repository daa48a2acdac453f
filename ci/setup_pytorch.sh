#!/usr/bin/env bash
# PyTorch's own test suite and an arm64 PyTorch, from Debian bookworm and nothing else, for
# //suites/pytorch (suites/pytorch/README.md). Called by ci/setup.sh; idempotent (each part
# keeps a stamp with the version it holds and is redone only when that changes); fails
# loudly, naming the package.
#
#   /opt/a64jit/pytorch-tests/test/   test/ of Debian's pytorch source package, the same
#                                     1.13.1 as python3-torch (apt-get source; a deb-src
#                                     entry for bookworm main is added if there is none)
#   /opt/a64jit/arm64-torch/          a sysroot for `qemu-aarch64 -L`: python3-torch:arm64
#                                     and its arm64 dependency closure, python3.11 and its
#                                     stdlib included, unpacked with dpkg -x. It cannot be
#                                     installed beside the amd64 python3-torch: apt would
#                                     remove that one.
set -euo pipefail

ROOT=${A64JIT_OPT:-/opt/a64jit}
TESTS_DIR=$ROOT/pytorch-tests
SYSROOT=$ROOT/arm64-torch
SRC_LIST=/etc/apt/sources.list.d/a64jit-deb-src.sources
# What the sysroot holds beyond python3-torch's closure: the libraries a64jit-run links
# (libpython3.11, capstone) and the test runner's pure-Python packages. Under `qemu -L` a
# directory that exists in the sysroot hides the host's, so /usr/lib/python3/dist-packages
# must hold everything the tests import.
EXTRA=(libpython3.11 libcapstone4 python3-pytest python3-numpy python3-yaml
  python3-typing-extensions python3-hypothesis)

if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
fail() { echo "setup_pytorch: FAILED: $*" >&2; exit 1; }

# Puts the folder NEW in the place of DEST by renames, so that a test running meanwhile
# sees the old tree or the new one, never a half-deleted one.
replace_dir() {
  local new=$1 dest=$2
  $SUDO rm -rf "$dest.old"
  if [ -e "$dest" ]; then $SUDO mv "$dest" "$dest.old"; fi
  $SUDO mv "$new" "$dest"
  $SUDO rm -rf "$dest.old"
}

torch_version() {
  dpkg-query -W -f='${Version}' python3-torch 2>/dev/null ||
    fail "python3-torch (amd64) is not installed: run ci/setup.sh"
}

# deb-src for bookworm main, in a file of our own, only if no source entry exists yet.
ensure_deb_src() {
  if apt-cache showsrc pytorch 2>/dev/null | grep -q '^Package: pytorch'; then return 0; fi
  $SUDO tee "$SRC_LIST" >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  $SUDO apt-get update -qq || fail "apt-get update after adding $SRC_LIST"
  apt-cache showsrc pytorch 2>/dev/null | grep -q '^Package: pytorch' ||
    fail "source package 'pytorch' not found with $SRC_LIST"
}

# test/ of the source package whose version python3-torch has. Only the upstream tarball is
# needed; it is checked against the .dsc's SHA-256.
fetch_tests() {
  local version=$1 upstream=${1%-*}
  [ "$(cat "$TESTS_DIR/version" 2>/dev/null)" = "$version" ] && return 0
  ensure_deb_src
  local tmp orig want got
  tmp=$(mktemp -d)
  # The Debian tarball may be missing on a mirror; the .dsc and the orig tarball suffice.
  (cd "$tmp" && apt-get source --download-only -qq "pytorch=$version" >/dev/null 2>&1) || true
  orig="$tmp/pytorch_${upstream}.orig.tar.xz"
  [ -f "$orig" ] && [ -f "$tmp"/pytorch_"$version".dsc ] ||
    fail "apt-get source --download-only pytorch=$version (no $(basename "$orig") or .dsc)"
  want=$(awk '/^Checksums-Sha256:/{s=1;next} /^[^ ]/{s=0} s && $3 ~ /orig.tar.xz$/ {print $1}' \
    "$tmp"/pytorch_"$version".dsc)
  got=$(sha256sum "$orig" | cut -d' ' -f1)
  [ -n "$want" ] && [ "$want" = "$got" ] || fail "pytorch orig tarball: sha256 $got, .dsc says $want"
  $SUDO rm -rf "$TESTS_DIR.new"
  $SUDO mkdir -p "$TESTS_DIR.new"
  $SUDO tar -xJf "$orig" -C "$TESTS_DIR.new" --strip-components=1 --wildcards '*/test/' ||
    fail "unpacking test/ from $(basename "$orig")"
  echo "$version" | $SUDO tee "$TESTS_DIR.new/version" >/dev/null
  replace_dir "$TESTS_DIR.new" "$TESTS_DIR"
  rm -rf "$tmp"
  echo "setup_pytorch: PyTorch $version's test/ in $TESTS_DIR/test ($(find "$TESTS_DIR/test" -name 'test_*.py' | wc -l) test files)"
}

# The arm64 closure of python3-torch:arm64 plus EXTRA, as "name:arch=version" lines: apt's
# resolver run against an empty dpkg status with arm64 as the native architecture.
arm64_closure() {
  local state
  state=$(mktemp -d)
  touch "$state/status"
  apt-get -s -o Dir::State::status="$state/status" -o APT::Architecture=arm64 \
    -o APT::Architectures::=arm64 -o APT::Architectures::=all --no-install-recommends \
    install "python3-torch:arm64=$1" "${EXTRA[@]/%/:arm64}" 2>&1 |
    sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*\[\(arm64\|all\)\].*/\1:\3=\2/p' | sed 's/:all=/=/'
  rm -rf "$state"
}

build_sysroot() {
  # The stamp names the extra packages too: a change to EXTRA rebuilds the sysroot.
  local version="$1 ${EXTRA[*]}"
  [ "$(cat "$SYSROOT/version" 2>/dev/null)" = "$version" ] && return 0
  local tmp pkgs
  tmp=$(mktemp -d)
  mapfile -t pkgs < <(arm64_closure "$1")
  [ "${#pkgs[@]}" -gt 100 ] ||
    fail "the arm64 closure of python3-torch:arm64=$1 has ${#pkgs[@]} packages (apt-get -s failed?)"
  chmod 777 "$tmp"
  if ! (cd "$tmp" && apt-get download -qq "${pkgs[@]}" >"$tmp/download.log" 2>&1); then
    grep -E '^E:' "$tmp/download.log" >&2 || true
    fail "apt-get download of the arm64 torch closure (${#pkgs[@]} packages)"
  fi
  $SUDO rm -rf "$SYSROOT.new"
  $SUDO mkdir -p "$SYSROOT.new"
  local deb
  for deb in "$tmp"/*.deb; do
    $SUDO dpkg -x "$deb" "$SYSROOT.new" || fail "dpkg -x $(basename "$deb")"
  done
  printf '%s\n' "${pkgs[@]}" | $SUDO tee "$SYSROOT.new/packages.txt" >/dev/null
  echo "$version" | $SUDO tee "$SYSROOT.new/version" >/dev/null
  replace_dir "$SYSROOT.new" "$SYSROOT"
  echo "setup_pytorch: arm64 torch $1 sysroot in $SYSROOT (${#pkgs[@]} packages, $(du -sm "$SYSROOT" | cut -f1) MB)"
  rm -rf "$tmp"
}

version=$(torch_version)
fetch_tests "$version"
build_sysroot "$version"
