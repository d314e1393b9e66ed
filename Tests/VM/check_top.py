#!/usr/bin/env python3
"""Says at which edge a test pattern's top is, from a picture of the screen.

    check_top.py SHOT.ppm EDGE

The test pattern's white (the arrow, TOP, the text) lies in the third of
the picture next to its top; the bars (red, green, blue, white) fill the
middle third across. EDGE (top, right, bottom, left) is where the top must
be: every white pixel outside the middle third must lie in that edge's
third. Prints what it found; exits 1 when the top is elsewhere.
Standard library only.
"""
import sys

from check_frame import read_ppm


def main(argv):
    w, h, rows = read_ppm(argv[1])
    edge = argv[2]
    side = edge in ("left", "right")
    thirds = {"top": 0, "left": 0, "bottom": 2, "right": 2}
    white = []
    for y in range(h):
        row = rows[y]
        for x in range(w):
            if row[3 * x:3 * x + 3] != b"\xff\xff\xff":
                continue
            along = x * 3 // w if side else y * 3 // h
            if along == 1:
                continue  # the bars' third (the white bar)
            white.append(along)
    if len(white) < 100:
        print(f"only {len(white)} white pixels: no test pattern on the screen")
        return 1
    inside = sum(1 for a in white if a == thirds[edge])
    print(f"{inside} of {len(white)} white pixels outside the bars at the {edge} edge")
    return 0 if inside == len(white) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
