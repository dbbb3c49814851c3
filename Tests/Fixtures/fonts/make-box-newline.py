#!/usr/bin/env python3
"""Makes BoxNewline.ttf, the font that tells whether shaping crosses a line break
(`pip install fonttools`).

Every ASCII letter is a box 500 units wide and the space 250; U+000A has a glyph of
its own (0 wide), and one contextual rule (calt) makes a letter after it the glyph
"wide", 900 units: shaped in one buffer with the newline before it, the letter that
starts the next paragraph comes out 900 wide, shaped apart (as browsers shape each
paragraph) 500. 1000 units per em. Run from this folder:
    python3 make-box-newline.py
"""
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.feaLib.builder import addOpenTypeFeaturesFromString


def rect(width):
    pen = TTGlyphPen(None)
    pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((width - 50, 700)); pen.lineTo((width - 50, 0))
    pen.closePath()
    return pen.glyph()


fb = FontBuilder(1000, isTTF=True)
fb.setupGlyphOrder([".notdef", "space", "newline", "box", "wide"])
cmap = {0x20: "space", 0x0A: "newline"}
for code in list(range(0x41, 0x5B)) + list(range(0x61, 0x7B)):
    cmap[code] = "box"
fb.setupCharacterMap(cmap)
empty = TTGlyphPen(None).glyph()
fb.setupGlyf({".notdef": rect(500), "space": empty, "newline": empty, "box": rect(500), "wide": rect(900)})
fb.setupHorizontalMetrics({".notdef": (500, 50), "space": (250, 0), "newline": (0, 0), "box": (500, 50),
                           "wide": (900, 50)})
fb.setupHorizontalHeader(ascent=800, descent=-200, lineGap=0)
fb.setupNameTable({"familyName": "Box Newline", "styleName": "Regular"})
fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, sTypoLineGap=0, usWinAscent=800, usWinDescent=200,
            fsSelection=0x40 | 0x80, version=4)
fb.setupPost()
addOpenTypeFeaturesFromString(fb.font, "feature calt { sub newline box' by wide; } calt;")
fb.font.save("BoxNewline.ttf")
