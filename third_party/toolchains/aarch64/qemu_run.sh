#!/usr/bin/env bash
# Bazel's --run_under for --config=aarch64: `bazel test` and `bazel run` execute every
# cross-built aarch64 binary through this wrapper, under qemu-aarch64 user mode.
#
# CPU model: neoverse-n1 (Armv8.2-A with LSE atomics, RCpc, dot product, FP16). It is the
# baseline every aarch64 server core shares (Graviton2, Ampere Altra; Grace's Neoverse V2
# is a superset), and QEMU 7.2 has no V1/V2 model. Emulating the baseline means the JIT
# faults here, loudly, if it ever emits an instruction a server core might lack; `max`
# would accept SVE2, MTE and other extensions and hide that. Override: A64JIT_QEMU_CPU.
#
# A target that is not an aarch64 ELF (a shell test) runs directly, with
# A64JIT_TARGET_RUNNER set to the command prefix it must put before aarch64 binaries.
set -euo pipefail
if ! command -v qemu-aarch64 >/dev/null 2>&1; then
  echo "qemu_run: qemu-aarch64 not found; run ci/setup.sh (package qemu-user)" >&2
  exit 127
fi
# No -L: the binaries' loader (/lib/ld-linux-aarch64.so.1) and every library then come from
# Debian's arm64 multiarch packages, one consistent glibc. With -L /usr/aarch64-linux-gnu
# the cross toolchain's older glibc is mixed in, and creating a thread hangs.
runner=(qemu-aarch64 -cpu "${A64JIT_QEMU_CPU:-neoverse-n1}")
# ELF e_machine (offset 18, little-endian) is 0x00b7 for aarch64.
if [ -f "$1" ] && [ "$(od -An -tx1 -j18 -N2 "$1" 2>/dev/null | tr -d ' ')" = "b700" ]; then
  exec "${runner[@]}" "$@"
fi
export A64JIT_TARGET_RUNNER="${runner[*]}"
exec "$@"
