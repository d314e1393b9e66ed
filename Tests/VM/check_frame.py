#!/usr/bin/env python3
"""Checks a picture taken off a (virtual) screen against `fbanim render` frames.

    check_frame.py [--tear-ok] NAME SHOT.ppm REF.ppm...

REF.ppm are renders of the same loader, size and look at the times fbanim
draws frames (k / fps seconds), covering the moment SHOT was taken. Prints
one line per check, `PASS NAME: ...` or `FAIL NAME: ...`, and exits 1 if any
failed. Checks:

  static  every pixel whose colour is the same in all the renders (the
          background, the ring's track, the radar's border: colours that do
          not depend on time) has that colour in SHOT (at least 99.9 %: a
          fbcon cursor cell, 128 pixels, would already fail it);
  frame   SHOT is one of the renders: at least 99.5 % of all its pixels
          equal the best-matching render's (damage-only drawing gives the
          same pixels as a full render), and it is not one flat colour.
          With --tear-ok (a single-buffered fbdev, where the copy of a
          frame can be caught halfway, as the scanout would), each pixel
          may come from either of two consecutive renders instead.

Standard library only (CI machines have python3 without pillow).
"""
import sys


def read_ppm(path):
    """(width, height, rows): rows are bytes of 3 * width RGB."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval; no comments (QEMU and fbanim write none)
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not a binary 8-bit PPM")
    w, h = int(fields[1]), int(fields[2])
    pixels = data[pos:pos + 3 * w * h]
    if len(pixels) != 3 * w * h:
        raise ValueError(f"{path}: truncated")
    return w, h, [pixels[y * 3 * w:(y + 1) * 3 * w] for y in range(h)]


def differing_pixels(a, b):
    """Indices of the pixels where two rows differ (compared 16 pixels at a time first)."""
    found = []
    for x0 in range(0, len(a) // 3, 16):
        if a[3 * x0:3 * x0 + 48] != b[3 * x0:3 * x0 + 48]:
            found += [x for x in range(x0, min(x0 + 16, len(a) // 3))
                      if a[3 * x:3 * x + 3] != b[3 * x:3 * x + 3]]
    return found


def main(argv):
    tear_ok = len(argv) > 1 and argv[1] == "--tear-ok"
    if tear_ok:
        argv = argv[:1] + argv[2:]
    name, shot_path = argv[1], argv[2]
    # In frame order: NAME-K.ppm for K = 0, 1, 2...
    ref_paths = sorted(argv[3:], key=lambda p: int(p.rsplit("-", 1)[-1].split(".")[0]))
    results = []
    try:
        w, h, shot = read_ppm(shot_path)
        refs = [read_ppm(p) for p in ref_paths]
    except (OSError, ValueError) as error:
        print(f"FAIL {name}: {error}")
        return 1
    rw, rh = refs[0][0], refs[0][1]
    if (w, h) != (rw, rh):
        print(f"FAIL {name}: screen is {w}x{h}, the renders {rw}x{rh}")
        return 1
    base = refs[0][2]

    # Static pixels: equal in every render (a sample of 60 is enough: what
    # moves, moves for longer than a few frames). Rows equal in all renders are wholly static.
    sample = refs[1::max(1, len(refs) // 60)]
    static_total = static_bad = 0
    for y in range(h):
        moving = set()
        for _, _, rows in sample:
            if rows[y] != base[y]:
                moving.update(differing_pixels(rows[y], base[y]))
        row, got = base[y], shot[y]
        if not moving and row == got:
            static_total += w
            continue
        for x in range(w):
            if x in moving:
                continue
            static_total += 1
            want = row[3 * x:3 * x + 3]
            if got[3 * x:3 * x + 3] != want:
                static_bad += 1
    ok_static = static_total > 0 and static_bad <= static_total // 1000
    results.append((ok_static, f"static {static_total - static_bad}/{static_total} time-independent pixels match"))

    # The frame: the render that matches best, among the five with the fewest differing rows.
    def rows_off(ref):
        return sum(1 for y in range(h) if ref[1][2][y] != shot[y])
    candidates = sorted(zip(ref_paths, refs), key=rows_off)[:5]
    best, best_path = None, None
    for path, (_, _, rows) in candidates:
        bad = 0
        for y in range(h):
            if rows[y] != shot[y]:
                bad += len(differing_pixels(rows[y], shot[y]))
                if best is not None and bad >= best:
                    break
        if best is None or bad < best:
            best, best_path = bad, path
    total = w * h
    # Not just the background: the loader is on screen.
    colours = {row[i:i + 3] for row in shot[h // 4:3 * h // 4] for i in range(0, len(row), 3)}
    what = f"the render {best_path.split('/')[-1]}"
    if tear_ok and best > total // 200:
        # A copy caught halfway: every pixel is from frame k or k + 1.
        index = {path: i for i, path in enumerate(ref_paths)}
        for path, _ in candidates:
            i = index[path]
            for a, b in ((i - 1, i), (i, i + 1)):
                if a < 0 or b >= len(refs):
                    continue
                ra, rb = refs[a][2], refs[b][2]
                bad = 0
                for y in range(h):
                    if shot[y] != ra[y] and shot[y] != rb[y]:
                        da = set(differing_pixels(ra[y], shot[y]))
                        bad += len(da.intersection(differing_pixels(rb[y], shot[y])))
                if bad < best:
                    best = bad
                    what = (f"the renders {ref_paths[a].split('/')[-1]} and {ref_paths[b].split('/')[-1]}"
                            " (caught between two frames)")
    ok_frame = best <= total // 200 and len(colours) >= 2
    results.append((ok_frame, f"frame {total - best}/{total} pixels equal {what}"))

    for ok, text in results:
        print(f"{'PASS' if ok else 'FAIL'} {name}: {text}")
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
