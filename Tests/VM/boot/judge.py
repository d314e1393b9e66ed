#!/usr/bin/env python3
"""Says what a screendump of the VM's monitor shows, for the boot-splash tests.

    judge.py FILE.ppm...

Prints one line per picture, `FILE CLASS key=value...`, CLASS being the
first of these that fits:

  ring     fbanim's ring in its own colours at scale 1, centred (loaders.md:
           a track of radius 82, 16 wide, #EBEBF5 at 0.3 over the black
           background = (71,71,74); the progress arc #FF2F92 at 0.5 over it =
           (163,59,110)): at least 97 % of 720 points around the middle of the
           stroke (radius 82) and 90 % at radii 77 and 87 are track or arc
           colour, and at least 99.8 % of the pixels away from the ring
           (radius < 70 or > 94; every other pixel of every other row, in a
           checkerboard) are the black background (console text or a
           second picture over it fails this). Detail: deg, the degrees of the
           circle the arc covers at radius 82 (round caps included), and p,
           the progress that arc stands for ((deg - 11.2) / 348.8: each cap
           adds 8 px, 5.6 degrees at radius 82).
  split    the picture of Tests/VM/harness/fbdrm-test (left half #FF0000,
           right half #0000FF; 48 points).
  radar    fbanim's radar in its own colours at scale 1: its border (#34C759,
           radius 98-100) at 90 % of 720 points at radius 99.
  black    99.9 % of the pixels black (no channel above 16).
  console  text on the console: at least 85 % of the pixels black and at
           least 40 light grey glyph pixels (all channels >= 120, grey within
           60), which with the black make up 97 % of the picture.
  (black and console count a quarter of the pixels: every other one of
  every other row.)
  other    none of these.

Standard library only.
"""
import math
import os
import sys

# The PPM reader of the display tests (Tests/VM/check_frame.py), one folder up.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_frame  # noqa: E402


def read_ppm(path):
    """(width, height, pixels): the picture's RGB bytes, row after row."""
    w, h, rows = check_frame.read_ppm(path)
    return w, h, b"".join(rows)


TRACK = (71, 71, 74)
ARC = (163, 59, 110)
RADAR = (52, 199, 89)


def near(c, ref, tol):
    return all(abs(a - b) <= tol for a, b in zip(c, ref))


class Picture:
    def __init__(self, path):
        self.w, self.h, self.px = read_ppm(path)
        self.cx, self.cy = self.w / 2, self.h / 2

    def at(self, x, y):
        i = 3 * (y * self.w + x)
        return tuple(self.px[i:i + 3])

    def around(self, radius, count=720):
        """Pixels at `count` angles on a circle, clockwise from the top."""
        out = []
        for k in range(count):
            a = math.radians(-90 + 360 * k / count)
            x = int(math.floor(self.cx + radius * math.cos(a)))
            y = int(math.floor(self.cy + radius * math.sin(a)))
            out.append(self.at(min(max(x, 0), self.w - 1), min(max(y, 0), self.h - 1)))
        return out

    def ring(self):
        mid = self.around(82)
        ringish = lambda c: near(c, TRACK, 12) or near(c, ARC, 12)
        share = sum(map(ringish, mid)) / len(mid)
        inner = sum(map(ringish, self.around(77))) / 720
        outer = sum(map(ringish, self.around(87))) / 720
        away = clean = 0
        for y in range(0, self.h, 2):
            dy = y + 0.5 - self.cy
            for x in range(y // 2 % 2, self.w, 2):
                dx = x + 0.5 - self.cx
                d2 = dx * dx + dy * dy
                if d2 < 70 * 70 or d2 > 94 * 94:
                    away += 1
                    i = 3 * (y * self.w + x)
                    if max(self.px[i:i + 3]) <= 8:
                        clean += 1
        background = clean / max(away, 1)
        deg = sum(near(c, ARC, 12) for c in mid) * 360 / len(mid)
        ok = share >= 0.97 and inner >= 0.90 and outer >= 0.90 and background >= 0.998
        p = 0.0 if deg == 0 else min(1.0, max(0.0, (deg - 11.2) / 348.8))
        return ok, f"deg={deg:.1f} p={p:.2f} stroke={share:.3f}/{inner:.3f}/{outer:.3f} background={background:.4f}"

    def split(self):
        good = 0
        for gx in range(8):
            for gy in range(6):
                left = gx < 4
                x = int(self.w * ((gx % 4) + 0.5) / 8) + (0 if left else self.w // 2)
                y = int(self.h * (gy + 0.5) / 6)
                want = (255, 0, 0) if left else (0, 0, 255)
                good += near(self.at(x, y), want, 8)
        return good == 48, f"points={good}/48"

    def radar(self):
        share = sum(near(c, RADAR, 16) for c in self.around(99)) / 720
        return share >= 0.90, f"border={share:.3f}"

    def counts(self):
        """Black and glyph pixels, counted on every other pixel of every other row (times 4)."""
        black = glyph = 0
        px = self.px
        for y in range(0, self.h, 2):
            for i in range(3 * y * self.w, 3 * (y + 1) * self.w, 6):
                r, g, b = px[i], px[i + 1], px[i + 2]
                m = max(r, g, b)
                if m <= 16:
                    black += 1
                elif min(r, g, b) >= 120 and m - min(r, g, b) <= 60:
                    glyph += 1
        return 4 * black, 4 * glyph

    def judge(self):
        details = []
        for name, test in (("ring", self.ring), ("split", self.split), ("radar", self.radar)):
            ok, detail = test()
            details.append(f"{name}:[{detail}]")
            if ok:
                return name, detail
        black, glyph = self.counts()
        n = self.w * self.h
        summary = f"black={black / n:.4f} glyph={glyph} " + " ".join(details)
        if black / n >= 0.999:
            return "black", summary
        if black / n >= 0.85 and glyph >= 40 and (black + glyph) / n >= 0.97:
            return "console", summary
        return "other", summary


def main(argv):
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    status = 0
    for path in argv:
        try:
            kind, detail = Picture(path).judge()
        except (OSError, ValueError) as e:
            kind, detail, status = "unreadable", str(e).replace(" ", "_"), 1
        print(f"{path} {kind} {detail}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
