#!/usr/bin/env python3
"""Makes BoxVariable.ttf, the variable font the tests load (`pip install fonttools`).

One axis, wght 100...900 (default 100). Every ASCII letter is one box glyph whose
advance is 500 units at wght 100 and 1000 at wght 900 (HVAR), and the ascender grows
from 800 to 1000 units (MVAR 'hasc'), so a test can tell an instance from the default
by its widths and its line height. 1000 units per em. Run from this folder:
    python3 make-box-variable.py
"""
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.designspaceLib import DesignSpaceDocument, AxisDescriptor, SourceDescriptor
from fontTools import varLib


def master(advance, ascender):
    fb = FontBuilder(1000, isTTF=True)
    glyphs = [".notdef", "space", "box"]
    fb.setupGlyphOrder(glyphs)
    cmap = {0x20: "space"}
    for code in list(range(0x41, 0x5B)) + list(range(0x61, 0x7B)):
        cmap[code] = "box"
    fb.setupCharacterMap(cmap)
    def rect(width):
        pen = TTGlyphPen(None)
        pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((width - 50, 700)); pen.lineTo((width - 50, 0))
        pen.closePath()
        return pen.glyph()
    fb.setupGlyf({".notdef": rect(500), "space": TTGlyphPen(None).glyph(), "box": rect(advance)})
    fb.setupHorizontalMetrics({".notdef": (500, 50), "space": (250, 0), "box": (advance, 50)})
    fb.setupHorizontalHeader(ascent=ascender, descent=-200, lineGap=0)
    fb.setupNameTable({"familyName": "Box Variable", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=ascender, sTypoDescender=-200, sTypoLineGap=0, usWinAscent=ascender,
                usWinDescent=200, fsSelection=0x40 | 0x80, version=4)
    fb.setupPost()
    return fb.font


doc = DesignSpaceDocument()
axis = AxisDescriptor()
axis.tag, axis.name, axis.minimum, axis.default, axis.maximum = "wght", "Weight", 100, 100, 900
doc.addAxis(axis)
for weight, advance, ascender in ((100, 500, 800), (900, 1000, 1000)):
    source = SourceDescriptor()
    source.font = master(advance, ascender)
    source.location = {"Weight": weight}
    doc.addSource(source)
font, _, _ = varLib.build(doc)
font.save("BoxVariable.ttf")
