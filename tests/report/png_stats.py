#!/usr/bin/env python3
"""Decode a PNG (8-bit RGB or RGBA, as Chromium writes screenshots) with the standard library
and print its size, the number of distinct colours and the share of pixels that are not
the background (the top-left pixel's colour). --crop Y0 Y1 OUT writes rows Y0..Y1 as a PNG.
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise SystemExit(f"{path}: only 8-bit RGB/RGBA PNGs are read")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def write(path, w, bpp, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    raw = b"".join(b"\x00" + r for r in rows)
    ihdr = struct.pack(">IIBBBBB", w, len(rows), 8, 2 if bpp == 3 else 6, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
                           chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    w, h, bpp, rows = decode(sys.argv[1])
    if len(sys.argv) == 5 and sys.argv[2] == "--crop":
        write(sys.argv[4], w, bpp, rows[int(sys.argv[3].split(":")[0]):int(sys.argv[3].split(":")[1])])
        return
    bg = rows[0][:bpp]
    colours, other = set(), 0
    for r in rows[::4]:
        for x in range(0, w * bpp, bpp * 4):
            px = r[x:x + bpp]
            colours.add(px)
            other += px != bg
    total = len(rows[::4]) * len(range(0, w * bpp, bpp * 4))
    print(f"size {w}x{h} colours {len(colours)} foreground {other / total:.4f}")


main()
