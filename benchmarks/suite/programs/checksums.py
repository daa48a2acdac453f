"""Checksums: records made by a pseudo-random generator, then checked the way a pure-Python
integrity or hashing module checks them (CRC-32 from a table, Adler-32, FNV-1a, a rolling
hash for matching blocks). Every value lives between 2**30 and 2**60 at some point: ints of
two digits, masked back to 32 bits at each step."""
import harness

MASK32 = 0xFFFFFFFF


def crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


CRC_TABLE = crc_table()


class XorShift32:
    """Marsaglia's xorshift generator, 32 bits of state."""

    def __init__(self, seed):
        self.state = seed & MASK32 or 1

    def next(self):
        x = self.state
        x ^= (x << 13) & MASK32
        x ^= x >> 17
        x ^= (x << 5) & MASK32
        self.state = x
        return x

    def bytes(self, n):
        out = bytearray()
        while len(out) < n:
            v = self.next()
            out += bytes((v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, v >> 24))
        return bytes(out[:n])


def crc32(data, crc=0):
    crc ^= MASK32
    table = CRC_TABLE
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ MASK32


def adler32(data):
    a, b = 1, 0
    for byte in data:
        a = (a + byte) % 65521
        b = (b + a) % 65521
    return (b << 16) | a


def fnv1a(data):
    h = 0x811C9DC5
    for byte in data:
        h = ((h ^ byte) * 0x01000193) & MASK32
    return h


def rolling_matches(data, window, modulus=(1 << 31) - 1, base=257):
    """Positions where a window's rolling hash equals the first window's (Rabin-Karp)."""
    if len(data) < window:
        return []
    top = pow(base, window - 1, modulus)
    h = 0
    for b in data[:window]:
        h = (h * base + b) % modulus
    first, found = h, []
    for i in range(window, len(data)):
        h = ((h - data[i - window] * top) * base + data[i]) % modulus
        if h == first:
            found.append(i - window + 1)
    return found


def workload():
    rng = XorShift32(2463534242)
    records = [rng.bytes(64 + (i % 7) * 16) for i in range(160)]
    records.append(records[3][:48] * 3)  # repeats for the rolling hash to find
    crc = adler = fnv = 0
    for r in records:
        crc ^= crc32(r)
        adler = (adler * 31 + adler32(r)) & MASK32
        fnv ^= fnv1a(r)
    matches = rolling_matches(records[-1], 16)
    return crc, adler, fnv, len(matches), crc32(b"123456789")


WANT = (637139936, 3781799154, 2211180286, 2, 0xCBF43926)


def check(result):  # the last is CRC-32's check value, as zlib.crc32 gives it
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("checksums", workload, check, calls=20)
