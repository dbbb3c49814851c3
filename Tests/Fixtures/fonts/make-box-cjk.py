#!/usr/bin/env python3
"""Makes BoxCJK.otf (`pip install fonttools`): a CFF font for Chinese and Japanese text whose
fullwidth punctuation can be halved by the OpenType `halt` feature, as Noto Sans CJK's can,
so that Chromium's text-spacing-trim (Blink's HanKerning) applies to it.

1000 units per em, ascender 880, descender 120 (hhea and OS/2 typo, USE_TYPO_METRICS).
Every ideograph and kana of CHARS is one box 1000 units wide; ASCII letters and digits are
boxes 500 wide, the space 250. Fullwidth punctuation is 1000 wide, its ink where Blink looks
for it (the glyph's bounds against half its advance):
  open brackets and quotes (「『（【〔〈《［｛“‘)  ink on the right half  -> open
  close brackets and quotes (」』）】〕〉》］｝”’) ink on the left half -> close
  dots (、。，．)                                ink on the left half  -> close
  colon, semicolon (：；) and the middle dot ・  ink in the middle      -> middle
  ！？                                          ink across the middle -> other
`halt` halves each of these: open ones move left by 500 and advance 500, close ones and
dots advance 500, middle ones move left by 250 and advance 500. The ideographic space
(U+3000) has no ink and no `halt`. The font has no `chws`: Blink itself decides which
pairs to trim.

Run from this folder:
    python3 make-box-cjk.py
"""
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.feaLib.builder import addOpenTypeFeaturesFromString

# The ideographs and kana the browser fixture's cjk-trim texts and the tests use.
CHARS = ("你好他说今天气很我们一起去公园散步吧东京日本首都です彼言待っとちょ问哪儿答图书馆然后大约十分钟出发了"
         "通知明星期三上午九点开会请家准时参加议纪要见附件二重括弧入子中テスト価格税込円吾輩猫あるこ名作"
         "どらもはのがをにでしたいうきょ漱石夏目東都首都京人物语中文字排版标点符号挤压行末尾"
         "注意这里那个一二三四五六七八九零年月日时分秒てれろ引用")
OPEN = "「『（【〔〈《［｛“‘"
CLOSE = "」』）】〕〉》］｝”’"
DOTS = "、。，．"
MIDDLE = "：；・"
OTHER = "！？"
LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def box(width, left, right, bottom=-100, top=800):
    pen = T2CharStringPen(width, None)
    if right > left:
        pen.moveTo((left, bottom)); pen.lineTo((left, top)); pen.lineTo((right, top)); pen.lineTo((right, bottom))
        pen.closePath()
    return pen.getCharString()


def box_cjk():
    # Each glyph's advance and ink: left, right, bottom, top (no ink where right is left).
    shapes = {
        ".notdef": (500, 50, 450, -100, 800), "space": (250, 0, 0, 0, 0), "latin": (500, 50, 450, 0, 700),
        "ideograph": (1000, 100, 900, -100, 800), "ideographicspace": (1000, 0, 0, 0, 0),
        "open": (1000, 600, 900, -100, 800), "close": (1000, 100, 400, -100, 800),
        "dot": (1000, 100, 350, -100, 150), "middle": (1000, 420, 580, 200, 500),
        "other": (1000, 300, 700, -100, 800),
    }
    cmap = {0x20: "space", 0x3000: "ideographicspace"}
    cmap.update({ord(c): "latin" for c in LATIN})
    cmap.update({ord(c): "ideograph" for c in CHARS})
    for chars, glyph in ((OPEN, "open"), (CLOSE, "close"), (DOTS, "dot"), (MIDDLE, "middle"), (OTHER, "other")):
        cmap.update({ord(c): glyph for c in chars})
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(list(shapes))
    fb.setupCharacterMap(cmap)
    fb.setupCFF("BoxCJK", {"FullName": "Box CJK"}, {name: box(*shape) for name, shape in shapes.items()}, {})
    fb.setupHorizontalMetrics({name: (shape[0], shape[1]) for name, shape in shapes.items()})
    fb.setupHorizontalHeader(ascent=880, descent=-120, lineGap=0)
    fb.setupNameTable({"familyName": "Box CJK", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, sTypoLineGap=0, usWinAscent=880, usWinDescent=120,
                fsSelection=0x40 | 0x80, version=4)
    fb.setupPost()
    font = fb.font
    addOpenTypeFeaturesFromString(font, """
        languagesystem DFLT dflt;
        languagesystem hani dflt;
        languagesystem kana dflt;
        languagesystem latn dflt;
        feature halt {
            pos open <-500 0 -500 0>;
            pos close <0 0 -500 0>;
            pos dot <0 0 -500 0>;
            pos middle <-250 0 -500 0>;
        } halt;
    """)
    font.save("BoxCJK.otf")


box_cjk()
