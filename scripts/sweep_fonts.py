#!/usr/bin/env python3
"""A held-out-style sweep against Chromium with fonts of other kinds than the fixture's:
CFF-flavoured OpenType (Linux Libertine, EB Garamond, Cantarell), a CFF collection
(Noto Sans/Serif CJK .ttc, by face index), a TrueType font with heavy GPOS (Gentium Plus),
at other sizes (fractional too), widths, letter spacing, OpenType features and span
mixes, plus bidi boxes in those fonts. Not part of scripts/test: Chromium and the
Debian font packages are needed (installed when missing).

    scripts/sweep_fonts.py                  # lines and heights, then boxes
    scripts/sweep_fonts.py --filter garamond --verbose
    scripts/sweep_fonts.py --no-boxes
    scripts/sweep_fonts.py --filter cjk --chromium-css text-spacing-trim:space-all   # is trimming the cause?

It reuses browser_check.py's pages and comparison. A face of a collection is given to
the library as {"path", "index"} and to Chromium as that face extracted into a file of
its own (fontTools), since @font-face takes a collection's first face only: the two
agree only if the library loads the face the index names.
"""
import argparse
import math
import os
import random
import subprocess
import sys
import tempfile
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check as bc  # noqa: E402

PACKAGES = ["fonts-linuxlibertine", "fonts-ebgaramond", "fonts-noto-cjk", "fonts-cantarell",
            "fonts-sil-gentiumplus", "python3-fonttools", "chromium", "fonts-dejavu-core"]
OTF = "/usr/share/fonts/opentype"
LIBERTINE = OTF + "/linux-libertine/LinLibertine_R.otf"
LIBERTINE_BOLD = OTF + "/linux-libertine/LinLibertine_RB.otf"
BIOLINUM = OTF + "/linux-libertine/LinBiolinum_R.otf"
GARAMOND = OTF + "/ebgaramond/EBGaramond12-Regular.otf"
GARAMOND_BOLD = OTF + "/ebgaramond/EBGaramond12-Bold.otf"
CANTARELL = OTF + "/cantarell/Cantarell-Regular.otf"
CANTARELL_BOLD = OTF + "/cantarell/Cantarell-Bold.otf"
GENTIUM = "/usr/share/fonts/truetype/gentiumplus/GentiumPlus-Regular.ttf"
SANS_CJK = OTF + "/noto/NotoSansCJK-Regular.ttc"
SERIF_CJK = OTF + "/noto/NotoSerifCJK-Regular.ttc"
EMBEDDED = ["Fonts/" + name for name in bc.EMBEDDED]

# Each primary font before the embedded set, as a page would fall back to it.
FONT_LISTS = OrderedDict([
    ("libertine", [LIBERTINE] + EMBEDDED),
    ("biolinum", [BIOLINUM] + EMBEDDED),
    ("garamond", [GARAMOND] + EMBEDDED),
    ("cantarell", [CANTARELL] + EMBEDDED),
    ("gentium", [GENTIUM] + EMBEDDED),
    # Face 2 is Simplified Chinese, face 1 Korean: not the first face of the file.
    ("sanscjk-sc", [EMBEDDED[0], {"path": SANS_CJK, "index": 2}] + EMBEDDED[1:]),
    ("serifcjk-kr", [{"path": SERIF_CJK, "index": 1}] + EMBEDDED),
])
SIZES = [11, 12.5, 14, 16.75, 19, 23.5, 27, 31]

LATIN = [
    "The official film office fluffily affirmed the first efficient offer; Thursday's staff were baffled.",
    "AVATAR Wave To Yours: LT Tw Ty Va We Yo, and kerning pairs AV AW AY LV P. F. T. V. W. Y.",
    "In 1984 the 365 figures were 0123456789 and 3/4 of the ½ half; ffi ffl fj st ct Qu.",
    "Die Schifffahrtsgesellschaft öffnete Auflagen für fünfzig Stofffetzen und Kaufleute.",
    "Le cœur de l'œuvre: « affiche », « fleur », « officiel » — et l'efficacité d'abord.",
    "Theodore thought the fjord's flora fluttered, offering affluent fish fillets.",
    "A very_long_identifier_withoutanybreaks_somewhere https://example.org/fi/fl?ffi=1",
]
OWN = OrderedDict([
    ("latin", LATIN),
    ("bidi", ["The word שלום means peace, and مرحبا means hello (2024).",
              "פגישה ב-10:30 עם Dr. Office בחדר 4B, טלפון 03-1234567.",
              "السعر 120 دولار (officially) للتذكرة الأولى."]),
    ("cjk", ["今日は「東京」へ行きました。明日は、大阪です！", "中文排版：标点符号「引号」、逗号，句号。测试 office 的效果。",
             "한국어 문장은 띄어쓰기로 나뉩니다. 효과 flow 확인!"]),
])
# The repository's own texts, by script, a few of each.
REPO_SCRIPTS = {"en": 6, "de": 3, "fr": 3, "he": 3, "ar": 3, "bidi": 3, "zh": 3, "ja": 3, "ko": 3, "mixed": 3}
# Which groups each font list is laid out for (the CJK faces for CJK and Latin only).
GROUPS = {"sanscjk-sc": {"cjk", "zh", "ja", "ko", "latin", "mixed"},
          "serifcjk-kr": {"cjk", "zh", "ja", "ko", "latin"}}
WIDTHS_PER_CASE = 4


def ensure_packages():
    missing = [p for p in PACKAGES if subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True,
                                                     text=True).stdout.find("install ok installed") < 0]
    if missing:
        print(f"sweep: installing {' '.join(missing)}", file=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing, check=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"), stdout=subprocess.DEVNULL)


def texts():
    import json
    with open(bc.TEXTS, encoding="utf-8") as file:
        repo = json.load(file, object_pairs_hook=OrderedDict)
    groups = OrderedDict(OWN)
    for script, count in REPO_SCRIPTS.items():
        groups[script] = repo[script][:count]
    return groups


def widths(key, text, size, count=WIDTHS_PER_CASE):
    rng = random.Random(key)
    wide = sum(size if ord(ch) > 0x2E80 else size * 0.55 for ch in text)
    chosen = [round(rng.uniform(size * 2, size * 5), 1)]
    for _ in range(count - 1):
        chosen.append(round(rng.uniform(size * 5, max(size * 9, min(620, wide * 1.05))), rng.choice([0, 0, 1, 2])))
    return sorted(set(chosen))


def base(case_id, group, text, fonts, size, width, line_height=None):
    return OrderedDict(id=case_id, script=group, text=text, fonts=fonts, size=size, width=width,
                       lineHeight=line_height, emptyLines="label")


def plain_cases():
    cases = []
    for list_name, fonts in FONT_LISTS.items():
        for group, items in texts().items():
            if list_name in GROUPS and group not in GROUPS[list_name]:
                continue
            for index, text in enumerate(items):
                rng = random.Random(f"{list_name}-{group}-{index}")
                for size in rng.sample(SIZES, 3):
                    line_height = rng.choice([None, None, round(size * 1.35, 1)])
                    key = f"{list_name}-{group}-{index}-{size}-{line_height or 'n'}"
                    for width in widths(key, text, size):
                        case = base(f"{key}-w{width:g}", f"{list_name}/{group}", text, fonts, size, width, line_height)
                        # Letter spacing on a third of the cases (not on cursive Arabic: Chromium drops ligatures).
                        if rng.random() < 0.33 and group not in ("ar",):
                            case["letterSpacing"] = rng.choice([0.5, 1.25, 2, -0.4])
                        cases.append(case)
    return cases


def span(text, match, **style):
    start = bc.utf16_length(text[:text.index(match)])
    return OrderedDict(start=start, end=start + bc.utf16_length(match), **style)


def styled_cases():
    """Span mixes: bold CFF, a bigger span, a monospace span, features, a CFF span in the embedded set."""
    mono = bc.DEJAVU_MONO
    mixes = [
        ("libertine", LIBERTINE, LIBERTINE_BOLD),
        ("garamond", GARAMOND, GARAMOND_BOLD),
        ("cantarell", CANTARELL, CANTARELL_BOLD),
    ]
    items = [
        ("Officially @fiona shipped the affine fix: run make fluff-check before Thursday.",
         [("@fiona", "bold"), ("make fluff-check", "mono")]),
        ("Chapter 12 — The Affair of the Office\nIt was the first efficient flight of 1987.",
         [("Chapter 12 — The Affair of the Office", "title")]),
        ("Small caps: Office Hours from 1998 to 2024, old-style 0123456789 figures.",
         [("Office Hours", "smcp"), ("1998 to 2024", "onum")]),
        ("No ligatures here: office affluent flagship, but here: office affluent flagship.",
         [("No ligatures here: office affluent flagship", "noliga")]),
        ("Wave To AVATAR: the kerning of Wa To AV across a span boundary.",
         [("Wa", "bold"), ("AV", "big")]),
        ("Emoji 🎉 and a serif word Affinity inside sans text with שלום and 中文.",
         [("Affinity", "serif-in-noto"), ("🎉", "big")]),
    ]
    cases = []
    for family, regular, bold in mixes:
        styles = {
            "bold": lambda s: {"fonts": [bold] + EMBEDDED},
            "mono": lambda s: {"fonts": [mono] + EMBEDDED, "size": round(s * 0.9, 2)},
            "title": lambda s: {"fonts": [bold] + EMBEDDED, "size": round(s * 1.6, 2)},
            "big": lambda s: {"size": round(s * 1.8, 2)},
            "smcp": lambda s: {"features": ["+smcp"]},
            "onum": lambda s: {"features": ["+onum"]},
            "noliga": lambda s: {"features": ["-liga"]},
            "serif-in-noto": lambda s: {"fonts": [regular] + EMBEDDED},
        }
        for index, (text, spans) in enumerate(items):
            rng = random.Random(f"styled-{family}-{index}")
            for size in rng.sample(SIZES, 3):
                # The last item is sans text (the embedded set) with a span in the CFF font.
                fonts = EMBEDDED if spans[0][1] == "serif-in-noto" else [regular] + EMBEDDED
                line_height = rng.choice([None, round(size * 1.4)])
                key = f"styled-{family}-{index}-{size}-{line_height or 'n'}"
                for width in widths(key, text, size):
                    case = base(f"{key}-w{width:g}", f"styled/{family}", text, fonts, size, width, line_height)
                    case["spans"] = sorted((span(text, match, **styles[style](size)) for match, style in spans),
                                           key=lambda s: s["start"])
                    if rng.random() < 0.3:
                        case["letterSpacing"] = 1
                    cases.append(case)
    return cases


def box_cases():
    """The bidi corpus's box cases and the sweep's own bidi texts, in CFF and GPOS-heavy
    fonts, at other sizes, some letter-spaced."""
    import json
    own = os.path.join(tempfile.mkdtemp(prefix="sweep-bidi-"), "bidi.json")
    with open(own, "w", encoding="utf-8") as file:
        json.dump({"own": OWN["bidi"]}, file, ensure_ascii=False)
    cases = []
    for list_name in ("libertine", "gentium", "garamond", "cantarell"):
        for case in bc.expand_box_corpus() + bc.expand_box_corpus(own):
            rng = random.Random(case["id"] + list_name)
            if rng.random() > 0.5:
                continue
            case = OrderedDict(case)
            if rng.random() < 0.25:
                case["letterSpacing"] = rng.choice([0.5, 1.5])
            case["id"] = f"{list_name}-{case['id']}"
            case["script"] = f"{list_name}/{case['script']}"
            case["fonts"] = FONT_LISTS[list_name]
            case["size"] = rng.choice([12.5, 15, 19, 23.5])
            cases.append(case)
    return cases


def extracted(reference, workdir, cache={}):
    """A collection's face as a file of its own, for Chromium."""
    if isinstance(reference, str):
        return reference
    key = (reference["path"], reference["index"])
    if key not in cache:
        from fontTools.ttLib import TTCollection
        path = os.path.join(workdir, f"face{len(cache)}-{reference['index']}.otf")
        TTCollection(reference["path"]).fonts[reference["index"]].save(path)
        cache[key] = path
    return cache[key]


def for_chromium(cases, workdir, css=()):
    """The cases as Chromium gets them: collection faces extracted, and CSS the library has no
    option for (`css`, "property:value" each: to tell a cause, e.g. text-spacing-trim:space-all)."""
    out = []
    for case in cases:
        copy = OrderedDict(case)
        for declaration in css:
            prop, value = declaration.split(":", 1)
            bc.CSS_PROPERTIES["chromium-only " + prop] = prop
            copy["chromium-only " + prop] = value
        copy["fonts"] = [extracted(f, workdir) for f in case["fonts"]]
        if "spans" in case:
            copy["spans"] = [OrderedDict(s, fonts=[extracted(f, workdir) for f in s["fonts"]]) if "fonts" in s else s
                             for s in case["spans"]]
        out.append(copy)
    return out


def measured(cases, script, workdir, css=()):
    """Chromium's answers. A height is compared rounded up to whole pixels: `textmeasure batch`
    gives TextMeasurer's height, a view's size, rounded up (display scale 1), where Chromium's
    div is as tall as fractional line heights (31.7px, kept to 1/64 px) add up to."""
    answers = bc.run_chromium(for_chromium(cases, workdir, css), script)
    recorded = []
    for case, answer in zip(cases, answers):
        chromium = dict(answer["chromium"], exactHeight=answer["chromium"]["height"])
        chromium["height"] = math.ceil(chromium["height"] - 1 / 128)
        recorded.append(OrderedDict(case, chromium=chromium))
    return recorded


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--textmeasure", default=os.path.join(bc.ROOT, "scripts", "textmeasure"))
    parser.add_argument("--filter", help="only cases whose id contains this")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--no-boxes", action="store_true")
    parser.add_argument("--only-boxes", action="store_true")
    parser.add_argument("--chromium-css", action="append", default=[],
                        help="property:value set on every case in Chromium only, to test a cause")
    args = parser.parse_args()
    ensure_packages()
    with tempfile.TemporaryDirectory(prefix="sweep-") as workdir:
        if not args.only_boxes:
            cases = [c for c in plain_cases() + styled_cases() if not args.filter or args.filter in c["id"]]
            recorded = measured(cases, bc.PAGE_SCRIPT, workdir, args.chromium_css)
            bc.compare(recorded, bc.run_library(recorded, args.textmeasure), args.verbose)
        if not args.no_boxes:
            cases = [c for c in box_cases() if not args.filter or args.filter in c["id"]]
            recorded = measured(cases, bc.BOX_PAGE_SCRIPT, workdir, args.chromium_css)
            print()
            bc.compare_boxes(recorded, bc.run_library(recorded, args.textmeasure), args.verbose)


if __name__ == "__main__":
    main()
