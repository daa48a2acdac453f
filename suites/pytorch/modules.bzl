"""PyTorch's own test files (test/ of PyTorch 1.13.1, Debian's source package) as suite
targets: the modules of the GB200 bring-up's baseline, as they exist in 1.13.1
(test_custom_ops does not: test_torch takes its place).

MODULES maps a test file's stem to its Bazel shard count: the big files are split by
Bazel's test sharding protocol (python/a64jit_suite.py), so that --jobs and a remote pool
share them out. GATE is the module the CI gate runs on both sides in the aarch64 config.
"""

MODULES = {
    "test_type_promotion": 1,
    "test_complex": 1,
    "test_shape_ops": 1,
    "test_indexing": 2,
    "test_sort_and_select": 1,
    "test_view_ops": 2,
    "test_reductions": 4,
    "test_autograd": 4,
    "test_autocast": 1,
    "test_nn": 8,
    "test_binary_ufuncs": 6,
    "test_unary_ufuncs": 6,
    "test_linalg": 6,
    "test_torch": 6,
}

# Host config (Unicorn): the modules the issue's "done when" asks of it.
HOST_MODULES = [
    "test_type_promotion", "test_complex", "test_shape_ops", "test_indexing",
    "test_sort_and_select", "test_view_ops", "test_autocast", "test_autograd",
]

GATE = "test_complex"

# Tests left out under QEMU on both sides (pytest --deselect), each with why. Under QEMU they
# fail for the emulator's speed, not for the JIT.
QEMU_IGNORE = {
    # Runs `python -c "import torch ..."` with a 20 s limit. Under QEMU on this host the
    # script takes 19.9 s stock and 32.7 s with the JIT at threshold 0 (it compiles 1,403
    # functions while importing torch), and finishes with the expected RuntimeError on both
    # (2026-12-01): a limit made for native speed, not a deadlock.
    "test_autograd": ["TestAutograd::test_pynode_destruction_deadlock"],
}
