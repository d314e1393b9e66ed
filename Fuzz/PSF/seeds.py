#!/usr/bin/env python3
"""Writes small valid PSF fonts into DIR as the PSF fuzzer's starting corpus:
PSF1 with and without a unicode table (sequences included), 512 glyphs,
PSF2 with a table (multi-byte UTF-8, sequences), PSF2 12 pixels wide, and
gzipped copies. Usage: seeds.py DIR"""

import gzip
import pathlib
import struct
import sys


def glyphs(count, row_bytes, height):
    return bytes((i * 37 + y * 11 + k) & 0xFF for i in range(count) for y in range(height) for k in range(row_bytes))


def psf1(height, count, table):
    mode = (1 if count == 512 else 0) | (6 if table is not None else 0)
    out = bytes([0x36, 0x04, mode, height]) + glyphs(count, 1, height)
    if table is not None:
        for i in range(count):
            for c in table.get(i, []):
                out += struct.pack("<H", c)
            if i == 65:
                out += struct.pack("<HHH", 0xFFFE, 0x41, 0x301)
            out += struct.pack("<H", 0xFFFF)
    return out


def psf2(width, height, count, table):
    row = (width + 7) // 8
    out = bytes([0x72, 0xB5, 0x4A, 0x86])
    out += struct.pack("<7I", 0, 32, 1 if table is not None else 0, count, row * height, height, width)
    out += glyphs(count, row, height)
    if table is not None:
        for i in range(count):
            for c in table.get(i, []):
                out += chr(c).encode()
            if i == 1:
                out += b"\xfe" + "e\u0301".encode()
            out += b"\xff"
    return out


def main():
    folder = pathlib.Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    latin = {i: [i] for i in range(256)}
    latin[254] = [0x2026, 0xFFFD]
    small = {0: [0x3F], 1: [0x41, 0x391], 2: [0x2026, 0x20AC], 3: [0xFFFD, 0x1F600]}
    seeds = {
        "psf1-8x8-table.psf": psf1(8, 256, latin),
        "psf1-8x6-512.psf": psf1(6, 512, None),
        "psf2-5x7-table.psf": psf2(5, 7, 4, small),
        "psf2-12x9.psf": psf2(12, 9, 4, None),
    }
    seeds["psf2-5x7-table.psf.gz"] = gzip.compress(seeds["psf2-5x7-table.psf"], mtime=0)
    for name, data in seeds.items():
        (folder / name).write_bytes(data)


if __name__ == "__main__":
    main()
