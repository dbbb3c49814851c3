#!/usr/bin/env python3
"""Makes the BoxAxes fonts (`pip install fonttools`): variable fonts whose default instance
is not the one Chromium draws text in when it names no axis (wght 400, wdth 100, opsz the
font size in px, each clamped to the axis), so a width or a line height tells which
instance was measured.

Every ASCII letter is one box glyph; its advance and the ascender (MVAR 'hasc') move with
every axis, by whole units per axis unit, so instances at whole axis values have whole
advances. 1000 units per em, descender 200, space 250.

BoxAxes.ttf        wght 100...900 (default 100), wdth 50...200 (default 50): the box is 500
                   units at the default, +1 per wght unit, +4 per wdth unit (1000 at wght
                   400, wdth 100); the ascender is 800, +0.25 per wght unit.
BoxAxesClamped.ttf wght 500...900 (default 900), wdth 110...150 (default 150): ranges that
                   exclude 400 and 100. The box is 1000 at the default, -1 per wght unit
                   below 900, -5 per wdth unit below 150 (400 at wght 500, wdth 110); the
                   ascender 1000, -0.5 per wght unit below 900.
BoxAxesOptical.ttf wght 100...900 (default 100), opsz 14...20 (default 14): the box is 500,
                   +1 per wght unit, +50 per opsz unit; the ascender 800, +20 per opsz unit.
BoxAxesCFF2.otf    BoxAxesOptical.ttf with PostScript outlines (CFF2).

Run from this folder:
    python3 make-box-axes.py
"""
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.designspaceLib import DesignSpaceDocument, AxisDescriptor, SourceDescriptor
from fontTools import varLib

LETTERS = list(range(0x41, 0x5B)) + list(range(0x61, 0x7B))
NAMES = {"wght": "Weight", "wdth": "Width", "opsz": "Optical size"}


def master(family, advance, ascender, cff2):
    fb = FontBuilder(1000, isTTF=not cff2)
    glyphs = [".notdef", "space", "box"]
    fb.setupGlyphOrder(glyphs)
    cmap = {0x20: "space"}
    cmap.update({code: "box" for code in LETTERS})
    fb.setupCharacterMap(cmap)
    advances = {".notdef": 500, "space": 250, "box": advance}
    if cff2:
        def rect(width):
            pen = T2CharStringPen(width, None)   # CFF masters: varLib makes the CFF2 table
            if width > 300:
                pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((width - 50, 700)); pen.lineTo((width - 50, 0))
                pen.closePath()
            return pen.getCharString()
        fb.setupCFF(family.replace(" ", ""), {"FullName": family}, {g: rect(w) for g, w in advances.items()}, {})
    else:
        def rect(width):
            pen = TTGlyphPen(None)
            pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((width - 50, 700)); pen.lineTo((width - 50, 0))
            pen.closePath()
            return pen.glyph()
        fb.setupGlyf({".notdef": rect(500), "space": TTGlyphPen(None).glyph(), "box": rect(advance)})
    fb.setupHorizontalMetrics({g: (w, 50 if g != "space" else 0) for g, w in advances.items()})
    fb.setupHorizontalHeader(ascent=ascender, descent=-200, lineGap=0)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=ascender, sTypoDescender=-200, sTypoLineGap=0, usWinAscent=ascender,
                usWinDescent=200, fsSelection=0x40 | 0x80, version=4)
    fb.setupPost()
    return fb.font


def build(path, family, axes, masters, cff2=False):
    """axes: (tag, minimum, default, maximum); masters: ({tag: value}, advance, ascender),
    the default first, the others each at one axis's end (varLib adds their deltas)."""
    doc = DesignSpaceDocument()
    for tag, minimum, default, maximum in axes:
        axis = AxisDescriptor()
        axis.tag, axis.name, axis.minimum, axis.default, axis.maximum = tag, NAMES[tag], minimum, default, maximum
        doc.addAxis(axis)
    defaults = {NAMES[tag]: default for tag, _, default, _ in axes}
    for location, advance, ascender in masters:
        source = SourceDescriptor()
        source.font = master(family, advance, ascender, cff2)
        source.location = dict(defaults, **{NAMES[tag]: value for tag, value in location.items()})
        doc.addSource(source)
    font, _, _ = varLib.build(doc)
    assert ("CFF2" in font) == cff2
    font.save(path)


build("BoxAxes.ttf", "Box Axes", [("wght", 100, 100, 900), ("wdth", 50, 50, 200)],
      [({}, 500, 800), ({"wght": 900}, 1300, 1000), ({"wdth": 200}, 1100, 800)])
build("BoxAxesClamped.ttf", "Box Axes Clamped", [("wght", 500, 900, 900), ("wdth", 110, 150, 150)],
      [({}, 1000, 1000), ({"wght": 500}, 600, 800), ({"wdth": 110}, 800, 1000)])
OPTICAL = ([("wght", 100, 100, 900), ("opsz", 14, 14, 20)],
           [({}, 500, 800), ({"wght": 900}, 1300, 800), ({"opsz": 20}, 800, 920)])
build("BoxAxesOptical.ttf", "Box Axes Optical", *OPTICAL)
build("BoxAxesCFF2.otf", "Box Axes CFF2", *OPTICAL, cff2=True)
