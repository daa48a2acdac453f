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
  python3-torch                            # PyTorch 1.13 (amd64 only): difftest/workloads/torch_train.py
  python3-pytest python3-pytest-rerunfailures python3-xmlrunner python3-numpy python3-hypothesis
  chromium                                 # headless check of the HTML report
  clang-format clang-tidy
)
# Libraries for the aarch64 cross build (linked into binaries run under qemu-aarch64).
ARM64_PACKAGES=(
  libasmjit-dev:arm64 libgtest-dev:arm64 libgmock-dev:arm64 libbenchmark-dev:arm64
  libpugixml-dev:arm64 libpython3.11-dev:arm64 libcapstone-dev:arm64
)

missing=()
for p in "${HOST_PACKAGES[@]}" "${ARM64_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup: all ${#HOST_PACKAGES[@]} host and ${#ARM64_PACKAGES[@]} arm64 packages present"
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
echo "setup: done"
