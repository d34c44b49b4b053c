#!/usr/bin/python3
"""Writes data/text_page.png: a 320x320 RGB page with dark text-like strokes, so the
PaddleOCR detector sees something to detect (on noise its map stays near 0 and a
comparison proves little). Standard library only."""
import os
import struct
import zlib

W = H = 320


def pixel(x, y):
    in_line = (y // 40) % 2 == 1 and 10 < y % 40 < 30 and 40 < x < W - 40
    ink = in_line and (x // 6) % 3 != 0
    return (20, 25, 40) if ink else (245, 240, 230)


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


rows = b"".join(b"\x00" + bytes(c for x in range(W) for c in pixel(x, y)) for y in range(H))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0)) +
       chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "text_page.png")
with open(out, "wb") as f:
    f.write(png)
