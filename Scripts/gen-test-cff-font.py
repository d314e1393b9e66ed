#!/usr/bin/env python3
"""Makes the FBText tests' CFF font: a few glyphs of DejaVu Sans with their
outlines as cubic Béziers (OpenType/CFF), so the tests draw FreeType's
cubic_to path too (TrueType has quadratics only).

    pip install fonttools            # a development tool only
    Scripts/gen-test-cff-font.py [SOURCE.ttf]

Writes Tests/FBTextTests/Fixtures/DejaVuSansCFFSample.otf. The quadratics
are converted exactly (T2CharStringPen elevates each to a cubic); metrics,
cmap and kerning pairs between the kept glyphs are DejaVu's. Licence:
DejaVu's (Sources/CFBFontData/LICENSE); the font keeps DejaVu's name.
"""

import pathlib
import sys

try:
    from fontTools import subset
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.ttLib import TTFont
except ImportError:
    sys.exit("gen-test-cff-font: needs fontTools (pip install fonttools)")

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "FBTextTests" / "Fixtures" / "DejaVuSansCFFSample.otf"
SOURCE = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
TEXT = "Hamburgefonstiv AVATo Wa 0123 ÆØÅçé?…\ufffd"


def main() -> None:
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.legacy_kern = True
    options.notdef_outline = True
    options.drop_tables += ["GDEF", "GPOS", "GSUB", "MATH", "FFTM", "gasp"]
    font = TTFont(SOURCE)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=TEXT)
    subsetter.subset(font)

    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    charstrings = {}
    for name in order:
        pen = T2CharStringPen(glyphs[name].width, glyphs)
        glyphs[name].draw(pen)
        charstrings[name] = pen.getCharString()
    metrics = {name: font["hmtx"][name] for name in order}

    builder = FontBuilder(font["head"].unitsPerEm, isTTF=False)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap(font.getBestCmap())
    builder.setupCFF("DejaVuSans-CFFSample", {"FullName": "DejaVu Sans CFF Sample"}, charstrings, {})
    builder.setupHorizontalMetrics(metrics)
    hhea = font["hhea"]
    builder.setupHorizontalHeader(ascent=hhea.ascent, descent=hhea.descent)
    builder.setupNameTable({"familyName": "DejaVu Sans CFF Sample", "styleName": "Book"})
    builder.setupOS2(sTypoAscender=hhea.ascent, sTypoDescender=hhea.descent, usWinAscent=hhea.ascent, usWinDescent=-hhea.descent)
    builder.setupPost()
    builder.font["kern"] = font["kern"]
    builder.save(OUT)
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size} bytes, {len(order)} glyphs")


if __name__ == "__main__":
    main()
