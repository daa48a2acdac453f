#!/usr/bin/env bash
# Installs everything a64jit needs from Debian bookworm packages, host (amd64) and arm64
# multiarch, and nothing from anywhere else. Idempotent: a second run installs nothing and
# finishes quickly. Fails loudly, naming the package, if one cannot be installed.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi

# Build and run tools of the x86-64 host.
HOST_PACKAGES=(
  bazel-bootstrap bazel-platforms          # Bazel 4.2.3 and its platforms repo, offline
  g++ g++-aarch64-linux-gnu                # host and cross compilers (GCC 12)
  qemu-user                                # runs aarch64 binaries: qemu-aarch64
  libasmjit-dev libunicorn-dev libcapstone-dev
  libgtest-dev libgmock-dev libbenchmark-dev libpugixml-dev nlohmann-json3-dev
  python3.11 libpython3.11-dev             # Debian's CPython 3.11, embedded and as the oracle
  libpython3.11-testsuite                  # CPython's own regression suite (python3.11 -m test)
  python3-torch                            # PyTorch 1.13.1: //suites/pytorch (arm64: setup_pytorch.sh)
  python3-pytest python3-pytest-rerunfailures python3-xmlrunner python3-numpy python3-hypothesis
  chromium                                 # headless check of the HTML report
  clang-format clang-tidy
  linux-perf gdb-multiarch                 # profiling and debugging JIT code (docs/native_tools.md)
)
# Libraries for the aarch64 cross build (linked into binaries run under qemu-aarch64).
ARM64_PACKAGES=(
  libasmjit-dev:arm64 libgtest-dev:arm64 libgmock-dev:arm64 libbenchmark-dev:arm64
  libpugixml-dev:arm64 libpython3.11-dev:arm64 libcapstone-dev:arm64
  libblas3:arm64 liblapack3:arm64 libgfortran5:arm64   # what the arm64 numpy below links
)
# numpy for the aarch64 side of //suites/numpy under QEMU. python3-numpy:arm64 cannot be
# installed beside the amd64 one (apt would remove python3-numpy and everything on it), so
# its package is unpacked (dpkg -x) here instead; suites/suite_test.sh puts it on PYTHONPATH.
ARM64_NUMPY_DIR=/opt/a64jit/arm64-numpy

# Unpacks python3-numpy:arm64 into $ARM64_NUMPY_DIR once (the version installed for amd64).
unpack_arm64_numpy() {
  local version
  version=$(dpkg-query -W -f='${Version}' python3-numpy 2>/dev/null) || return 0
  if [ -f "$ARM64_NUMPY_DIR/version" ] && [ "$(cat "$ARM64_NUMPY_DIR/version")" = "$version" ]; then
    return 0
  fi
  local tmp
  tmp=$(mktemp -d)
  if ! (cd "$tmp" && apt-get download -qq "python3-numpy:arm64=$version" >/dev/null 2>&1); then
    $SUDO apt-get update -qq
    (cd "$tmp" && apt-get download -qq "python3-numpy:arm64=$version") || {
      echo "setup: FAILED: apt-get download python3-numpy:arm64=$version" >&2; exit 1; }
  fi
  $SUDO rm -rf "$ARM64_NUMPY_DIR"
  $SUDO mkdir -p "$ARM64_NUMPY_DIR"
  $SUDO dpkg -x "$tmp"/python3-numpy_*_arm64.deb "$ARM64_NUMPY_DIR"
  echo "$version" | $SUDO tee "$ARM64_NUMPY_DIR/version" >/dev/null
  rm -rf "$tmp"
  echo "setup: unpacked python3-numpy:arm64 $version into $ARM64_NUMPY_DIR"
}

missing=()
for p in "${HOST_PACKAGES[@]}" "${ARM64_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup: all ${#HOST_PACKAGES[@]} host and ${#ARM64_PACKAGES[@]} arm64 packages present"
  unpack_arm64_numpy
  "$(dirname "$0")"/setup_pytorch.sh
  exit 0
fi

echo "setup: installing ${#missing[@]} package(s): ${missing[*]}"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $SUDO dpkg --add-architecture arm64
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || { echo "setup: apt-get update failed" >&2; exit 1; }
if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/a64jit-setup.log 2>&1; then
  # Name the package(s) apt could not install.
  for p in "${missing[@]}"; do
    if ! apt-cache show "$p" >/dev/null 2>&1; then
      echo "setup: FAILED: package '$p' is not available from the configured Debian sources" >&2
    fi
  done
  tail -n 30 /tmp/a64jit-setup.log >&2
  echo "setup: FAILED: apt-get install of: ${missing[*]} (log: /tmp/a64jit-setup.log)" >&2
  exit 1
fi

still=()
for p in "${missing[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || still+=("$p")
done
if [ "${#still[@]}" -ne 0 ]; then
  echo "setup: FAILED: not installed after apt-get: ${still[*]}" >&2
  exit 1
fi
unpack_arm64_numpy
# PyTorch's own tests and the arm64 torch sysroot (about a minute and 1 GB the first time).
"$(dirname "$0")"/setup_pytorch.sh
echo "setup: done"
