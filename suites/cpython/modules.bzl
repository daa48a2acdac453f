"""CPython 3.11's regression-test modules (Debian's libpython3.11-testsuite) as suite targets.

Every module listed here passes stock on this x86 host (`python3.11 -m test -j2 MODULES`,
2026-11-22: all OK). CORE is what runs under QEMU here every night with two jobs: the
language core and the most used stdlib, less the modules slowest under QEMU (their JIT
side compiles thousands of functions, at about 1 ms each there). REST passes stock too and
runs on an ARM host's nightly (`bazel test //suites/cpython/...`). CANNOT_RUN names the
modules known not to run here and why. Of the suite's 431 modules, 255 are targets; the
other 176 were being run stock on the host when this list was written, and those not in
CANNOT_RUN yet are still to be sorted into REST or CANNOT_RUN.
"""

# Modules that do not pass stock here (python3.11 -m test on the x86 host), by reason.
CANNOT_RUN = {
    "test_asdl_parser": "skipped: needs CPython's source tree (Parser/asdl.py)",
    "test_check_c_globals": "skipped: needs CPython's source tree (Tools/c-analyzer)",
    "test_clinic": "skipped: needs CPython's source tree (Tools/clinic)",
    "test_cmd_line": "1 failure stock on Debian's build",
    "test_compileall": "2 failures stock (Debian's read-only, pre-compiled stdlib)",
    "test_cppext": "1 failure stock: builds a C++ extension against a source tree",
    "test_curses": "skipped: the curses resource (a terminal) is not enabled",
    "test_dbm_gnu": "skipped: Debian ships _gdbm separately (python3-gdbm, not installed)",
    "test_devpoll": "skipped: /dev/poll is Solaris only",
    "test_ensurepip": "15 errors stock: Debian removes the bundled pip and setuptools wheels",
}

CORE = [
    "test_abc", "test_array", "test_asyncgen", "test_atexit", "test_augassign", "test_base64",
    "test_baseexception", "test_bdb", "test_binascii", "test_binop", "test_bisect", "test_bool",
    "test_builtin", "test_bytes", "test_call", "test_class", "test_cmath", "test_code",
    "test_codecs", "test_codeop", "test_collections", "test_colorsys", "test_compare",
    "test_complex", "test_contains", "test_contextlib", "test_contextlib_async", "test_copy",
    "test_copyreg", "test_coroutines", "test_csv", "test_dataclasses", "test_decorators",
    "test_defaultdict", "test_deque", "test_descr", "test_dict", "test_dictcomps",
    "test_dictviews", "test_difflib", "test_dis", "test_doctest2", "test_dynamic", "test_enum",
    "test_enumerate", "test_errno", "test_exception_group", "test_exception_hierarchy",
    "test_exceptions", "test_extcall", "test_filecmp", "test_fileio", "test_float", "test_fnmatch",
    "test_format", "test_fractions", "test_frame", "test_fstring", "test_funcattrs",
    "test_functools", "test_future", "test_gc", "test_generator_stop", "test_generators",
    "test_genericalias", "test_genericclass", "test_genexps", "test_getopt", "test_glob",
    "test_global", "test_grammar", "test_graphlib", "test_hash", "test_heapq", "test_hmac",
    "test_html", "test_htmlparser", "test_http_cookies", "test_index", "test_int",
    "test_int_literal", "test_isinstance", "test_iter", "test_itertools", "test_json",
    "test_keyword", "test_keywordonlyarg", "test_linecache", "test_list", "test_listcomps",
    "test_long", "test_marshal", "test_math", "test_memoryio", "test_memoryview", "test_metaclass",
    "test_module", "test_named_expressions", "test_ntpath", "test_numeric_tower", "test_opcache",
    "test_opcodes", "test_openpty", "test_operator", "test_ordered_dict", "test_os", "test_patma",
    "test_peepholer", "test_pep646_syntax", "test_positional_only_arg", "test_posixpath",
    "test_pow", "test_pprint", "test_print", "test_property", "test_queue", "test_quopri",
    "test_raise", "test_random", "test_range", "test_re", "test_reprlib", "test_richcmp",
    "test_scope", "test_secrets", "test_set", "test_setcomps", "test_shlex", "test_slice",
    "test_sort", "test_source_encoding", "test_stat", "test_string", "test_string_literals",
    "test_strtod", "test_struct", "test_structseq", "test_super", "test_symtable", "test_syntax",
    "test_sys_setprofile", "test_sys_settrace", "test_tempfile", "test_textwrap", "test_thread",
    "test_threading_local", "test_time", "test_tuple", "test_typechecks", "test_types",
    "test_typing", "test_unary", "test_unicode_identifiers", "test_unicodedata", "test_unpack",
    "test_unpack_ex", "test_urlparse", "test_userdict", "test_userlist", "test_userstring",
    "test_utf8source", "test_uuid", "test_warnings", "test_weakset", "test_with",
    "test_xml_dom_minicompat", "test_yield_from", "test_zlib",
]

REST = [
    "test_argparse", "test_ast", "test_asyncio", "test_bigaddrspace", "test_bufio", "test_bz2",
    "test_calendar", "test_charmapcodec", "test_codecencodings_jp", "test_compile",
    "test_concurrent_futures", "test_configparser", "test_cprofile", "test_dbm", "test_doctest",
    "test_eof", "test_faulthandler", "test_fcntl", "test_file", "test_fileinput", "test_flufl",
    "test_fork1", "test_grp", "test_gzip", "test_hashlib", "test_imp", "test_inspect",
    "test_largefile", "test_lltrace", "test_locale", "test_lzma", "test_mailbox", "test_mimetypes",
    "test_minidom", "test_mmap", "test_netrc", "test_optparse", "test_pathlib", "test_pdb",
    "test_pickletools", "test_pkgutil", "test_platform", "test_plistlib", "test_poll",
    "test_profile", "test_pstats", "test_pty", "test_pwd", "test_pyclbr", "test_pyexpat",
    "test_resource", "test_robotparser", "test_runpy", "test_sax", "test_sched", "test_select",
    "test_selectors", "test_shelve", "test_shutil", "test_signal", "test_sndhdr", "test_statistics",
    "test_stringprep", "test_sunau", "test_sys", "test_sysconfig", "test_syslog", "test_tabnanny",
    "test_threading", "test_timeit", "test_tokenize", "test_trace", "test_traceback",
    "test_unittest", "test_univnewlines", "test_unparse", "test_uu", "test_wait3", "test_wait4",
    "test_wave", "test_weakref", "test_xdrlib", "test_xml_etree", "test_xmlrpc", "test_zipapp",
    "test_zipimport", "test_zoneinfo",
]

# The modules that check the JIT is a good CPython citizen (signals, the GIL, threads,
# tracing, limits), in CORE or REST as well; tagged `citizen`:
# `ci/nightly.sh --suite cpython --tag citizen --config aarch64`.
CITIZEN = [
    "test_asyncio", "test_bdb", "test_concurrent_futures", "test_contextlib_async",
    "test_exceptions", "test_faulthandler", "test_frame", "test_pdb", "test_queue",
    "test_signal", "test_sys", "test_sys_setprofile", "test_sys_settrace", "test_thread",
    "test_threading", "test_trace", "test_traceback",
]

# Bazel test timeouts other than "long" (900 s): modules that take longer than that on
# either side under QEMU with two jobs.
TIMEOUTS = {
    "test_asyncio": "eternal",
    "test_concurrent_futures": "eternal",
    # test_invalid_utf8 starts about 500 interpreters. Under QEMU each costs about 2.3 s stock
    # and 3.9 s with the JIT, which QEMU translates anew in every process (the compiler's own
    # code is most of it): 767 s for that test alone beside a nightly, over the limit in the
    # nightly of 2026-11-26 (4a2b86f).
    "test_source_encoding": "eternal",
}

# Tests of the interpreter's own machinery that a JIT changes by design, left out on both
# sides everywhere (regrtest --ignore). Compiled functions never run in the interpreter, so
# their bytecode is not quickened or specialised and `dis.dis(f, adaptive=True)` shows the
# plain instructions (RESUME, not RESUME_QUICK; no LOAD_GLOBAL_MODULE).
JIT_IGNORE = {
    "test_dis": [
        "test.test_dis.DisTests.test_loop_quicken",
        "test.test_dis.DisTests.test_show_caches",
        "test.test_dis.DisTests.test_super_instructions",
        "test.test_dis.DisWithFileTests.test_loop_quicken",
        "test.test_dis.DisWithFileTests.test_show_caches",
        "test.test_dis.DisWithFileTests.test_super_instructions",
    ],
}

# Tests that fail stock under QEMU (measured with a64jit-run --no-jit under qemu-aarch64),
# left out there on both sides with regrtest --ignore; on the host and on ARM hardware
# they run.
QEMU_IGNORE = {
    # sys.orig_argv is qemu's wrapper command line, not what the test started.
    "test_sys": ["test.test_sys.SysModuleTest.test_orig_argv"],
    # faulthandler's dump of the current thread to a file or fd differs under QEMU
    # (2 failures stock with --no-jit, 2026-11-22).
    "test_faulthandler": [
        "test.test_faulthandler.FaultHandlerTests.test_enable_fd",
        "test.test_faulthandler.FaultHandlerTests.test_enable_file",
    ],
    # Installing and raising signal handlers from several threads as fast as possible
    # crashes qemu-user itself (SIGSEGV stock with --no-jit, 2026-11-22).
    "test_signal": ["test.test_signal.StressTest.test_stress_modifying_handlers"],
}

def ignores(module):
    """suite_test.sh's arguments that leave out a module's listed tests."""
    return (["--ignore=" + t for t in JIT_IGNORE.get(module, [])] +
            ["--qemu-ignore=" + t for t in QEMU_IGNORE.get(module, [])])
