#!/usr/bin/env bash
# The target platform chooses the aarch64 path by its constraints: a64jit-run's ELF machine
# and the Arch a suite target asks a Remote Execution pool for agree, and under QEMU
# (qemu_run.sh sets A64JIT_TARGET_RUNNER) both are aarch64.
set -uo pipefail
properties=$1 runner=$2
arch=$(sed -n 's/^Arch=//p' "$properties")
case $(od -An -tx1 -j18 -N2 "$runner" | tr -d ' ') in
  b700) machine=aarch64 ;;
  3e00) machine=x86_64 ;;
  *) machine=unknown ;;
esac
source ci/check.sh
echo "exec properties: $(tr '\n' ' ' < "$properties"); a64jit-run: $machine"
check "the suite targets' Arch ($arch) is a64jit-run's machine ($machine)" test "$arch" = "$machine"
check "OSFamily is Linux" grep -qx 'OSFamily=Linux' "$properties"
if [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
  check "under QEMU the aarch64 path is taken" test "$machine" = aarch64
fi
check_summary
