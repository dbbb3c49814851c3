#!/usr/bin/env python3
"""Makes the CFF-flavoured fonts the tests load (`pip install fonttools`): OpenType with
PostScript outlines, as Linux Libertine, EB Garamond, Cantarell or Noto CJK are.

BoxCFF.otf ('OTTO', CFF): every ASCII letter but f and i is a box 500 units wide; "f" is
500, "i" 250, and two rules as EB Garamond has them: the ligature "fi" (liga) is one glyph
600 wide, and an "f" before a letter becomes f.short, 300 wide (calt, a contextual
alternate). Its vertical metrics differ in each table (hhea 900/300/0, OS/2 typo
750/250/200 without USE_TYPO_METRICS, win 1100/400), so a height tells which was read.

BoxVariableCFF2.otf (CFF2): BoxVariable.ttf with PostScript outlines: one axis, wght
100...900 (default 100), every ASCII letter a box 500 units wide at wght 100 and 1000 at 900
(HVAR), the ascender 800 to 1000 units (MVAR 'hasc').

1000 units per em. Run from this folder:
    python3 make-box-cff.py
"""
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
from fontTools.designspaceLib import DesignSpaceDocument, AxisDescriptor, SourceDescriptor
from fontTools import varLib

LETTERS = list(range(0x41, 0x5B)) + list(range(0x61, 0x7B))


def rect(width, cff2=False):
    pen = T2CharStringPen(width, None, CFF2=cff2)
    if width > 100:
        pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((width - 50, 700)); pen.lineTo((width - 50, 0))
        pen.closePath()
    return pen.getCharString()


def build(name, advances, cmap, ascent, descent, typo, win, use_typo, cff2=False):
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(list(advances))
    fb.setupCharacterMap(cmap)
    fb.setupCFF(name.replace(" ", ""), {"FullName": name},
                {glyph: rect(width, cff2) for glyph, width in advances.items()}, {})
    fb.setupHorizontalMetrics({glyph: (width, 50 if width > 100 else 0) for glyph, width in advances.items()})
    fb.setupHorizontalHeader(ascent=ascent, descent=-descent, lineGap=0)
    fb.setupNameTable({"familyName": name, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=typo[0], sTypoDescender=-typo[1], sTypoLineGap=typo[2], usWinAscent=win[0],
                usWinDescent=win[1], fsSelection=0x40 | (0x80 if use_typo else 0), version=4)
    fb.setupPost()
    return fb.font


def box_cff():
    advances = {".notdef": 500, "space": 250, "box": 500, "f": 500, "i": 250, "f.short": 300, "f_i": 600}
    cmap = {0x20: "space", ord("f"): "f", ord("i"): "i"}
    cmap.update({code: "box" for code in LETTERS if chr(code) not in "fi"})
    font = build("Box CFF", advances, cmap, 900, 300, (750, 250, 200), (1100, 400), use_typo=False)
    addOpenTypeFeaturesFromString(font, """
        languagesystem DFLT dflt;
        languagesystem latn dflt;
        feature liga { sub f i by f_i; } liga;
        feature calt { sub f' [box f i] by f.short; } calt;
    """)
    font.save("BoxCFF.otf")


def box_variable_cff2():
    doc = DesignSpaceDocument()
    axis = AxisDescriptor()
    axis.tag, axis.name, axis.minimum, axis.default, axis.maximum = "wght", "Weight", 100, 100, 900
    doc.addAxis(axis)
    for weight, advance, ascender in ((100, 500, 800), (900, 1000, 1000)):
        cmap = {0x20: "space"}
        cmap.update({code: "box" for code in LETTERS})
        source = SourceDescriptor()
        source.font = build("Box Variable CFF2", {".notdef": 500, "space": 250, "box": advance}, cmap,
                            ascender, 200, (ascender, 200, 0), (ascender, 200), use_typo=True)
        source.location = {"Weight": weight}
        doc.addSource(source)
    font, _, _ = varLib.build(doc)
    assert "CFF2" in font
    font.save("BoxVariableCFF2.otf")


box_cff()
box_variable_cff2()
