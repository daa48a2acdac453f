"""Binary records: struct packing and unpacking, bytearray building, memoryview slicing and
int.from_bytes, as a protocol codec does."""
import struct
import zlib

import harness

HEADER = struct.Struct("<HHI")
POINT = struct.Struct("<iif")


def encode(records):
    out = bytearray()
    for kind, points in records:
        body = b"".join(POINT.pack(x, y, w) for x, y, w in points)
        out += HEADER.pack(kind, len(points), zlib.crc32(body))
        out += body
    return bytes(out)


def decode(data):
    view = memoryview(data)
    at = 0
    records = []
    while at < len(view):
        kind, count, crc = HEADER.unpack_from(view, at)
        at += HEADER.size
        end = at + count * POINT.size
        if zlib.crc32(view[at:end]) != crc:
            raise ValueError("bad record at %d" % at)
        points = [POINT.unpack_from(view, at + i * POINT.size) for i in range(count)]
        records.append((kind, points))
        at = end
    return records


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def workload():
    records = [(k % 5, [(i, -i * k, i * 0.5) for i in range(k % 11 + 1)]) for k in range(900)]
    data = encode(records)
    back = decode(data)
    ints = b"".join(varint(i * 37) for i in range(3000))
    word = sum(int.from_bytes(data[i:i + 4], "little") for i in range(0, 400, 4))
    return len(data), sum(len(p) for _, p in back), back[7][1][-1], len(ints), word % 1000003


WANT = (71892, 5391, (7, -49, 3.5), 8553, 456380)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("packets", workload, check)
