"""A stand-in for the `expecttest` package, which Debian does not ship and PyTorch 1.13.1's
tests import (torch.testing._internal.common_utils: `class TestCase(expecttest.TestCase)`).

It has what those tests use, written here: the ACCEPT flag (set from $EXPECTTEST_ACCEPT, and
by common_utils from its --accept option), and a TestCase with assertExpectedInline and
assertExpectedRaisesInline, which compare a string with the expected text written in the
test. Rewriting that text in the test's source, which the real package does when ACCEPT is
set, is not done: a suite run never accepts output, so with ACCEPT set a mismatch fails
saying so.
"""

import os
import unittest

ACCEPT = os.environ.get("EXPECTTEST_ACCEPT", "") not in ("", "0")


class TestCase(unittest.TestCase):
    longMessage = True

    def assertExpectedInline(self, actual, expect, skip=0):
        """Fails unless the string `actual` equals `expect` exactly (skip: the real package's
        stack depth for rewriting, unused here)."""
        del skip
        if not isinstance(actual, str):
            raise TypeError("assertExpectedInline: actual is %s, not str" % type(actual).__name__)
        if actual == expect:
            return
        hint = ("this expecttest stand-in (suites/pytorch/python) cannot rewrite the test's "
                "source" if ACCEPT else "the output differs from the text in the test")
        if hasattr(self, "assertMultiLineEqual"):
            self.assertMultiLineEqual(expect, actual, msg=hint)
        self.fail(hint)  # reached only if a subclass's assertMultiLineEqual passed anyway

    def assertExpectedRaisesInline(self, exc_type, callable, expect, *args, **kwargs):
        """Calls callable(*args, **kwargs), which must raise exc_type with the message
        `expect`."""
        try:
            callable(*args, **kwargs)
        except exc_type as e:
            self.assertExpectedInline(str(e), expect, skip=1)
            return
        self.fail("Did not raise when expected to")
