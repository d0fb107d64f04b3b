#!/usr/bin/env python3
"""Writes the sample raster floor plans (PNG, RGBA8) without third-party modules.

Run from anywhere: python3 crates/levels/tools/make_raster_samples.py

office.png (80 x 60 px, with office.png.ron: 0.25 m per pixel, red is an
obstacle, the dark blue carpet is walkable) and rooms.png (40 x 30 px, bare:
the defaults apply).
"""
import os
import struct
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "assets", "levels", "raster")


def write_png(path, w, h, pixel):
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    open(path, "wb").write(png)


WHITE, BLACK, RED, CARPET = (255, 255, 255, 255), (0, 0, 0, 255), (230, 20, 20, 255), (30, 30, 120, 255)


def office(x, y):
    if x < 2 or y < 2 or x >= 78 or y >= 58:
        return BLACK  # outer walls
    if x in (30, 31) and not 24 <= y < 32:
        return BLACK  # wall between the rooms, door at y 24..31
    if y in (40, 41) and x >= 32 and not 50 <= x < 58:
        return BLACK  # wall of the meeting room, door at x 50..57
    if 10 <= x < 20 and 12 <= y < 18:
        return RED  # desk
    if 55 <= x < 65 and 47 <= y < 52:
        return RED  # meeting table
    if (x - 45) ** 2 + (y - 20) ** 2 <= 9:
        return BLACK  # round column
    if 36 <= x < 72 and 6 <= y < 34:
        return CARPET  # dark but walkable
    return WHITE


def rooms(x, y):
    if x == 0 or y == 0 or x == 39 or y == 29:
        return BLACK
    if x == 20 and not 12 <= y < 17:
        return BLACK
    if 6 <= x < 12 and 8 <= y < 14:
        return (90, 90, 90, 255)  # grey block, dark enough to be an obstacle
    return (240, 240, 230, 255)


write_png(os.path.join(OUT, "office.png"), 80, 60, office)
write_png(os.path.join(OUT, "rooms.png"), 40, 30, rooms)
