#!/usr/bin/env python3
"""The browser check: lays the corpus out in headless Chromium and compares its
line starts and heights with TextMeasure's.

    scripts/browser-check            # Chromium now vs the library now
    scripts/browser-check --record   # ... and store Chromium's answers as the fixture
    scripts/browser-check --recorded # the stored answers vs the library (no browser)

With --boxes it checks where each grapheme cluster is drawn instead: the bidi
corpus Tests/Fixtures/browser/bidi-texts.json in every paragraph direction and
alignment, each cluster's client rect (Range.getClientRects()) against the
library's "boxes", within half a pixel; recorded in chromium-boxes.jsonl.

The corpus is Tests/Fixtures/browser/texts.json (texts by script), then the groups of
options.json (texts laid out with paragraph options: soft hyphens, word-break, text-wrap...,
each group's CSS given as case keys); it is expanded
here into cases (font list x size x line height x widths) in a fixed order, so that
the same corpus always gives the same cases. Chromium's answers are recorded, case
and answer on one line, in Tests/Fixtures/browser/chromium.jsonl, which the Swift
test BrowserFidelityTests reads.

Chromium lays each case out in a div styled as a text view's content:
`white-space: pre-wrap; overflow-wrap: break-word; word-break: normal;
line-break: auto`, with the case's font files as @font-face rules in fallback order.
A private fontconfig (no system fonts but one, hinting off) keeps the machine's
fonts and hinting out, and --lang=en-US fixes the UI language, whose ICU line rules
Blink uses for text with no lang attribute. Line starts are read from the client rects of each
character: characters on one line share the top of their text fragment.
"""
import argparse
import html
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import OrderedDict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "browser")
TEXTS = os.path.join(FIXTURES, "texts.json")
# Groups laid out with paragraph options: {group: {"css": {case key: value}, "texts": [...]}}.
OPTIONS = os.path.join(FIXTURES, "options.json")
# Styled texts: spans over substrings ("match") in a named style (STYLES), or spacing.
STYLED_TEXTS = os.path.join(FIXTURES, "styled.json")
# The case keys of paragraph options and the CSS properties they set ("lang" is the
# div's lang attribute).
CSS_PROPERTIES = OrderedDict([("whiteSpace", "white-space"), ("overflowWrap", "overflow-wrap"),
                              ("wordBreak", "word-break"), ("lineBreak", "line-break"),
                              ("textWrap", "text-wrap"), ("hyphens", "hyphens"),
                              ("opticalSizing", "font-optical-sizing"),
                              ("textSpacingTrim", "text-spacing-trim")])
RECORDED = os.path.join(FIXTURES, "chromium.jsonl")
BOX_TEXTS = os.path.join(FIXTURES, "bidi-texts.json")
BOX_RECORDED = os.path.join(FIXTURES, "chromium-boxes.jsonl")
DIRECTIONS = ["auto", "ltr", "rtl"]
ALIGNMENTS = ["start", "end", "left", "right", "center"]
BOX_TOLERANCE = 0.5

# FontSet.default, in its fallback order (Sources/CTextMeasureFonts/EmbeddedFontList.h).
EMBEDDED = ["NotoSans-Regular.ttf", "NotoSansArabic-Regular.ttf", "NotoSansHebrew-Regular.ttf",
            "NotoSansDevanagari-Regular.ttf", "NotoSansThai-Regular.ttf", "DroidSansFallbackFull.ttf",
            "NanumSquareR.ttf", "NotoColorEmoji.ttf"]
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

# Font lists: None is the embedded set; paths are relative to the repository or absolute.
FONT_LISTS = OrderedDict([
    ("noto", None),
    # DejaVu Sans first: it covers Latin, Arabic and Hebrew itself, so fallback order
    # and a primary font with other metrics are exercised.
    ("dejavu", [DEJAVU] + ["Fonts/" + name for name in EMBEDDED[1:]]),
])
# Scripts also measured with the second font list.
DEJAVU_SCRIPTS = {"en", "de", "fr", "ar", "he", "bidi", "emoji", "mixed", "zh", "shy", "balance", "pretty", "overflow-normal", "whitespace-normal"}
SIZES = [13, 17, 22]
STYLED_SIZES = [15, 17]
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
DEJAVU_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
# A span's style at the case's size: what a chat, a card or a composer draws.
STYLES = {
    "bold": lambda size: {"fonts": [DEJAVU_BOLD]},
    "code": lambda size: {"fonts": [DEJAVU_MONO], "size": round(size * 0.9)},
    "link": lambda size: {},
    "emoji": lambda size: {"size": size * 2},
    "title": lambda size: {"fonts": [DEJAVU_BOLD], "size": round(size * 1.5)},
    "tracked": lambda size: {"letterSpacing": 3},
    "timestamp": lambda size: {"placeholder": {"width": 36, "height": 12, "baseline": 10}},
    "avatar": lambda size: {"placeholder": {"width": 24, "height": 24, "baseline": 20}},
}
WIDTHS_PER_TEXT = 6
PAGE_SIZE = 600


def font_path(font):
    """A font of a case: a path, or {"path", "variations"} (a variable font's named axes)."""
    return font if isinstance(font, str) else font["path"]


def font_paths(case):
    return [font_path(f) for f in case.get("fonts") or []] or ["Fonts/" + name for name in EMBEDDED]


def variation_settings(case):
    """The case's named axes as CSS font-variation-settings, which Chromium applies to every
    font of the div (an axis a font lacks is ignored): so the fonts naming axes must agree."""
    named = [f.get("variations", {}) for f in case.get("fonts") or [] if not isinstance(f, str)]
    if not named:
        return None
    assert all(v == named[0] for v in named), f"{case['id']}: fonts name different axes"
    return ", ".join(f'"{tag}" {value:g}' for tag, value in sorted(named[0].items()))


def absolute(path):
    # Resolved as the filesystem resolves it, as textmeasure batch opens it (symlinks first, then
    # ".."): Chromium would resolve ".." in the file:// URL as text.
    return os.path.realpath(path if path.startswith("/") else os.path.join(ROOT, path))


def utf16_length(text):
    return len(text.encode("utf-16-le")) // 2


def expand_corpus(texts_path=TEXTS, options_path=OPTIONS):
    """The cases of a corpus (texts by script), then of the option groups, in a fixed
    order, each with its script (its group for the option groups)."""
    with open(texts_path, encoding="utf-8") as file:
        texts = json.load(file, object_pairs_hook=OrderedDict)
    cases = expand_texts(texts, OrderedDict())
    if options_path:
        with open(options_path, encoding="utf-8") as file:
            groups = json.load(file, object_pairs_hook=OrderedDict)
        for group, spec in groups.items():
            cases += expand_texts(OrderedDict([(group, spec["texts"])]), spec["css"], spec.get("fonts"))
        cases += expand_styled()
    return cases


def expand_texts(texts, options, own_fonts=None):
    """The cases of texts by script, each with the paragraph options `options` (case keys),
    in the font lists of FONT_LISTS or, given `own_fonts`, in those fonts alone (named by the first)."""
    lists = FONT_LISTS.items() if own_fonts is None else \
        [(os.path.splitext(os.path.basename(font_path(own_fonts[0])))[0], own_fonts)]
    cases = []
    for script, items in texts.items():
        for index, text in enumerate(items):
            for list_name, fonts in lists:
                if fonts is not None and own_fonts is None and script not in DEJAVU_SCRIPTS:
                    continue
                for size in SIZES:
                    for line_height in (None, round(size * 1.4)):
                        key = f"{script}-{index}-{list_name}-{size}-{line_height or 'n'}"
                        for width in widths(key, text, size):
                            case = OrderedDict(id=f"{key}-w{width:g}", script=script, text=text)
                            if fonts is not None:
                                case["fonts"] = fonts
                            case["size"] = size
                            case["width"] = width
                            case["lineHeight"] = line_height
                            case["emptyLines"] = "label"
                            case.update(options)
                            cases.append(case)
    return cases


def expand_box_corpus(texts_path=BOX_TEXTS):
    """The box cases: every text in every direction and alignment, at two widths."""
    with open(texts_path, encoding="utf-8") as file:
        texts = json.load(file, object_pairs_hook=OrderedDict)
    cases = []
    for script, items in texts.items():
        for index, text in enumerate(items):
            rng = random.Random(f"boxes-{script}-{index}")
            for width in sorted({rng.randint(110, 240), rng.randint(241, 460)}):
                for direction in DIRECTIONS:
                    for align in ALIGNMENTS:
                        cases.append(OrderedDict(id=f"{script}-{index}-w{width}-{direction}-{align}", script=script,
                                                 text=text, size=17, width=width, lineHeight=None, emptyLines="label",
                                                 direction=direction, align=align, boxes=True))
    return cases


def expand_styled(texts_path=STYLED_TEXTS):
    """The styled group: each text at STYLED_SIZES, normal and fixed line height, several widths."""
    with open(texts_path, encoding="utf-8") as file:
        texts = json.load(file, object_pairs_hook=OrderedDict)
    cases = []
    for group, index, item in [(g, i, item) for g, items in texts.items() for i, item in enumerate(items)]:
        text = item["text"]
        for size in STYLED_SIZES:
            spans = []
            for span in item.get("spans", []):
                start = utf16_length(text[:text.index(span["match"])])
                spans.append(OrderedDict(start=start, end=start + utf16_length(span["match"]),
                                         **STYLES[span["style"]](size)))
            for line_height in (None, round(size * 1.4)):
                key = f"styled-{group}-{index}-{size}-{line_height or 'n'}"
                for width in widths(key, text, size):
                    case = OrderedDict(id=f"{key}-w{width:g}", script="styled-" + group, text=text)
                    case["size"] = size
                    case["width"] = width
                    case["lineHeight"] = line_height
                    case["emptyLines"] = "label"
                    for name in ("letterSpacing", "wordSpacing"):
                        if name in item:
                            case[name] = item[name]
                    if spans:
                        case["spans"] = spans
                    cases.append(case)
    return cases


def widths(key, text, size):
    """Widths from a narrow column (emergency breaks) to about the whole text, seeded by the case."""
    rng = random.Random(key)
    wide = sum(size if ord(ch) > 0x2E80 else size * 0.55 for ch in text)
    high = max(size * 8, min(600, wide * 1.05))
    chosen = [round(rng.uniform(size * 1.5, size * 4))]
    for _ in range(WIDTHS_PER_TEXT - 1):
        width = rng.uniform(size * 4, high)
        chosen.append(round(width * 2) / 2 if rng.random() < 0.25 else round(width))
    return sorted(set(chosen))


# --- Chromium -------------------------------------------------------------------

FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <!-- Blink cannot load web fonts with no system font at all: one, never used by the corpus. -->
  <dir>{fonts}</dir>
  <cachedir>{cache}</cachedir>
  <match target="font">
    <edit name="antialias" mode="assign"><bool>true</bool></edit>
    <edit name="hinting" mode="assign"><bool>false</bool></edit>
    <edit name="hintstyle" mode="assign"><const>hintnone</const></edit>
    <edit name="autohint" mode="assign"><bool>false</bool></edit>
    <edit name="rgba" mode="assign"><const>none</const></edit>
  </match>
</fontconfig>
"""

# The page: one div per case, then, once the fonts have loaded, `measureCase(div, range)`
# (defined by the check, below) for each.
PAGE_TEMPLATE = r"""
const cases = JSON.parse(document.getElementById('cases').textContent);
for (const c of cases) {
  const div = document.createElement('div');
  div.className = 'c';
  div.style.fontFamily = c.family;
  div.style.fontSize = c.size + 'px';
  div.style.width = c.width + 'px';
  div.style.lineHeight = c.lineHeight == null ? 'normal' : c.lineHeight + 'px';
  for (const [property, value] of Object.entries(c.css || {})) div.style.setProperty(property, value);
  if (c.lang) div.lang = c.lang;
  // auto: each paragraph's own direction, as TextMeasure's .natural.
  if (c.direction === 'auto') div.style.unicodeBidi = 'plaintext'; else if (c.direction) div.style.direction = c.direction;
  if (c.align) div.style.textAlign = c.align;
  if (c.letterSpacing) div.style.letterSpacing = c.letterSpacing + 'px';
  if (c.wordSpacing) div.style.wordSpacing = c.wordSpacing + 'px';
  if (c.variations) div.style.fontVariationSettings = c.variations;
  // Each piece: plain text, a styled <span>, or a placeholder's inline-block, whose
  // baseline (the bottom of an empty inline-block) is lowered to put its top `baseline` above.
  for (const p of c.pieces) {
    if (p.style == null) { div.appendChild(document.createTextNode(p.text)); continue; }
    const span = document.createElement('span');
    if (p.placeholder) {
      span.style.display = 'inline-block';
      span.style.width = p.placeholder.width + 'px';
      span.style.height = p.placeholder.height + 'px';
      span.style.verticalAlign = (p.placeholder.baseline - p.placeholder.height) + 'px';
      span.dataset.placeholder = '1';
    } else {
      span.textContent = p.text;
      if (p.style.family) span.style.fontFamily = p.style.family;
      if (p.style.size) span.style.fontSize = p.style.size + 'px';
      if (p.style.letterSpacing != null) span.style.letterSpacing = p.style.letterSpacing + 'px';
      if (p.style.wordSpacing != null) span.style.wordSpacing = p.style.wordSpacing + 'px';
      if (p.style.features) span.style.fontFeatureSettings = p.style.features;
    }
    div.appendChild(span);
  }
  document.body.appendChild(div);
}
async function measure() {
  await Promise.all([...document.fonts].map(f => f.load().catch(() => null)));
  await document.fonts.ready;
  await new Promise(resolve => requestAnimationFrame(() => resolve()));
  const range = document.createRange();
  const results = [...document.querySelectorAll('div.c')].map(div => measureCase(div, range));
  const fonts = [...document.fonts].map(f => f.family + ':' + f.status);
  const out = document.createElement('pre');
  out.id = 'results';
  out.textContent = JSON.stringify({fonts, results});
  document.body.appendChild(out);
}
measure();
"""

# Line starts and height: characters on one line share the top of their fragment.
PAGE_SCRIPT = r"""
function measureCase(div, range) {
  const starts = [];
  let lastMiddle = null;
  let offset = 0;   // UTF-16 offset in the case's text, across pieces
  // Something starts a line when its top is below the middle of what came before:
  // boxes on one line share a baseline, whatever their fonts and sizes, so a taller
  // one's middle is still below the others' tops; a later line's top is below them all.
  const visit = (rect, at) => {
    if (lastMiddle === null || rect.top > lastMiddle + 0.01) starts.push(at);
    lastMiddle = (rect.top + rect.bottom) / 2;
  };
  for (const piece of div.childNodes) {
    if (piece.nodeType === 1 && piece.dataset.placeholder) {
      visit(piece.getBoundingClientRect(), offset);
      offset += 1;
      continue;
    }
    const node = piece.nodeType === 3 ? piece : piece.firstChild;
    if (!node) continue;
    const text = node.data;
    for (let i = 0; i < text.length; ) {
      const n = text.codePointAt(i) > 0xFFFF ? 2 : 1;
      range.setStart(node, i);
      range.setEnd(node, i + n);
      const rects = range.getClientRects();
      if (rects.length) visit(rects[0], offset + i);
      i += n;
    }
    offset += text.length;
  }
  return {lineStarts: starts, height: div.getBoundingClientRect().height};
}
""" + PAGE_TEMPLATE

# Each grapheme's client rects, as [start, end, line, left, right] from the div's left
# edge (line breaks left out); a line is a distinct top.
BOX_PAGE_SCRIPT = r"""
const segmenter = new Intl.Segmenter('en', {granularity: 'grapheme'});
function measureCase(div, range) {
  const node = div.firstChild;
  const boxes = [];
  const left = div.getBoundingClientRect().left;
  const tops = [];
  if (node) {
    for (const {segment, index} of segmenter.segment(node.data)) {
      if (segment === '\n' || segment === '\r\n' || segment === '\u2029') continue;
      range.setStart(node, index);
      range.setEnd(node, index + segment.length);
      const rects = [...range.getClientRects()];
      if (!rects.length) continue;
      const top = rects[0].top;
      let line = tops.findIndex(t => Math.abs(t - top) < 0.01);
      if (line < 0) { tops.push(top); line = tops.length - 1; }
      boxes.push([index, index + segment.length, line, Math.min(...rects.map(r => r.left)) - left,
                  Math.max(...rects.map(r => r.right)) - left]);
    }
  }
  return {boxes, height: div.getBoundingClientRect().height};
}
""" + PAGE_TEMPLATE


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        for directory in os.environ.get("PATH", "").split(os.pathsep):
            path = os.path.join(directory, name)
            if os.access(path, os.X_OK):
                return path
    sys.exit("browser-check: chromium not found (scripts/browser-check installs it)")


def span_fonts(case, span):
    """A span's font list as Chromium gets it: the span's fonts, then the embedded set
    when the case has no fonts of its own (as `textmeasure batch` falls back)."""
    if "fonts" not in span:
        return None
    return span["fonts"] + ([] if case.get("fonts") else ["Fonts/" + name for name in EMBEDDED])


def pieces(case, family):
    """The case's text cut at its spans: plain text, styled text, placeholders (UTF-16 offsets)."""
    units = case["text"].encode("utf-16-le")

    def text(a, b):
        return units[2 * a:2 * b].decode("utf-16-le")

    result, position = [], 0
    for span in case.get("spans", []):
        if span["start"] > position:
            result.append({"text": text(position, span["start"]), "style": None})
        style = {"size": span.get("size"), "letterSpacing": span.get("letterSpacing"),
                 "wordSpacing": span.get("wordSpacing")}
        fonts = span_fonts(case, span)
        if fonts:
            style["family"] = family(fonts)
        if span.get("features"):
            style["features"] = ", ".join(f'"{f[1:]}" {0 if f[0] == "-" else 1}' for f in span["features"])
        piece = {"text": text(span["start"], span["end"]), "style": style}
        if "placeholder" in span:
            piece["placeholder"] = span["placeholder"]
        result.append(piece)
        position = span["end"]
    if position < len(units) // 2:
        result.append({"text": text(position, len(units) // 2), "style": None})
    return result


def render_page(cases, workdir, fontconfig, script=PAGE_SCRIPT):
    paths = []
    for case in cases:
        for path in font_paths(case) + [p for span in case.get("spans", []) for p in span_fonts(case, span) or []]:
            if path not in paths:
                paths.append(path)
    faces = "\n".join(f'@font-face {{ font-family: "tm{i}"; src: url("file://{absolute(p)}"); }}'
                      for i, p in enumerate(paths))
    def family(fonts):
        return ", ".join(f'"tm{paths.index(p)}"' for p in fonts)

    page_cases = [{"pieces": pieces(c, family), "size": c["size"], "width": c["width"], "lineHeight": c["lineHeight"],
                   "letterSpacing": c.get("letterSpacing"), "wordSpacing": c.get("wordSpacing"),
                   "direction": c.get("direction"), "align": c.get("align"),
                   "family": family(font_paths(c)), "variations": variation_settings(c),
                   "css": {css: c[key] for key, css in CSS_PROPERTIES.items() if key in c},
                   "lang": c.get("lang")} for c in cases]
    # JSON inside <script type=application/json>: only "</" needs escaping.
    data = json.dumps(page_cases, ensure_ascii=True).replace("</", "<\\/")
    page = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><style>
{faces}
body {{ margin: 0; }}
div.c {{ white-space: pre-wrap; overflow-wrap: break-word; word-break: normal; line-break: auto;
        margin: 0; padding: 0; border: 0; }}
</style></head><body>
<script type="application/json" id="cases">{data}</script>
<script>{script}</script>
</body></html>"""
    page_path = os.path.join(workdir, "page.html")
    with open(page_path, "w", encoding="utf-8") as file:
        file.write(page)
    command = [chromium_binary(), "--headless", "--disable-gpu", "--lang=en-US", "--force-device-scale-factor=1",
               "--virtual-time-budget=600000", "--dump-dom", "file://" + page_path]
    if os.geteuid() == 0:
        command.insert(1, "--no-sandbox")
    env = dict(os.environ, FONTCONFIG_FILE=fontconfig)
    for attempt in range(5):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
        match = re.search(r'<pre id="results">(.*?)</pre>', done.stdout, re.S)
        if match:
            break
        print(f"browser-check: Chromium gave no results (exit {done.returncode}), retrying", file=sys.stderr)
        with open(os.path.join(workdir, f"failure-{attempt}.log"), "w") as log:
            log.write(done.stdout[-2000:] + "\n----\n" + done.stderr[-5000:])
    else:
        sys.exit("browser-check: Chromium produced no results")
    answer = json.loads(html.unescape(match.group(1)))
    failed = [f for f in answer["fonts"] if not f.endswith(":loaded")]
    if failed:
        sys.exit(f"browser-check: fonts failed to load in Chromium: {failed}")
    return answer["results"]


def run_chromium(cases, script=PAGE_SCRIPT):
    with tempfile.TemporaryDirectory(prefix="browser-check-") as workdir:
        fonts_dir = os.path.join(workdir, "fonts")
        os.mkdir(fonts_dir)
        # The one system font: DejaVu Sans Mono (styled cases name it, as a web font).
        os.symlink("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", os.path.join(fonts_dir, "mono.ttf"))
        fontconfig = os.path.join(workdir, "fonts.conf")
        with open(fontconfig, "w") as file:
            file.write(FONTCONFIG.format(fonts=fonts_dir, cache=os.path.join(workdir, "cache")))
        results = []
        for start in range(0, len(cases), PAGE_SIZE):
            page = cases[start:start + PAGE_SIZE]
            print(f"browser-check: Chromium, cases {start + 1}-{start + len(page)} of {len(cases)}", file=sys.stderr)
            results.extend(render_page(page, workdir, fontconfig, script))
    return [{**case, "chromium": result} for case, result in zip(cases, results)]


# --- The library ----------------------------------------------------------------

def run_library(cases, textmeasure):
    """The library's answers, through `textmeasure batch` (JSONL in, JSONL out)."""
    # Chromium has only the listed fonts (a private fontconfig): no embedded fallback after them.
    lines = "".join(json.dumps({k: v for k, v in c.items() if k not in ("script", "chromium")}
                               | ({"embeddedFallback": False} if c.get("fonts") else {}),
                               ensure_ascii=False) + "\n" for c in cases)
    done = subprocess.run([textmeasure, "batch"], input=lines, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"browser-check: textmeasure batch failed: {done.stderr.strip()}")
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    by_id = {str(r.get("id")): r for r in results}
    return [by_id.get(c["id"]) for c in cases]


# --- Comparison -----------------------------------------------------------------

def lines_of(text, starts):
    """The text of each line, given UTF-16 line starts."""
    units = text.encode("utf-16-le")
    bounds = list(starts) + [len(units) // 2]
    return [units[2 * a:2 * b].decode("utf-16-le", errors="replace") for a, b in zip(bounds, bounds[1:])]


def compare(recorded, library, verbose):
    per_script = OrderedDict()
    mismatches = []
    for case, mine in zip(recorded, library):
        theirs = case["chromium"]
        stats = per_script.setdefault(case["script"], [0, 0, 0])
        stats[0] += 1
        same_lines = mine is not None and mine["lineStarts"] == theirs["lineStarts"]
        same_height = mine is not None and abs(mine["height"] - theirs["height"]) <= 0.5
        stats[1] += same_lines
        stats[2] += same_height
        if not (same_lines and same_height):
            mismatches.append((case, mine))
    total = [sum(s[i] for s in per_script.values()) for i in range(3)]
    print(f"{'script':8} {'cases':>6} {'line starts':>12} {'heights':>9}")
    for script, (count, lines, heights) in list(per_script.items()) + [("overall", total)]:
        print(f"{script:8} {count:6} {100 * lines / count:11.2f}% {100 * heights / count:8.2f}%")
    shown = mismatches if verbose else mismatches[:40]
    for case, mine in shown:
        theirs = case["chromium"]
        print(f"\n{case['id']}  width {case['width']:g}  size {case['size']}  line-height {case['lineHeight'] or 'normal'}"
              f"  height chromium {theirs['height']:g} textmeasure {mine['height'] if mine else '-'}")
        ours = lines_of(case["text"], mine["lineStarts"]) if mine else []
        chrome = lines_of(case["text"], theirs["lineStarts"])
        for i in range(max(len(ours), len(chrome))):
            a = chrome[i] if i < len(chrome) else ""
            b = ours[i] if i < len(ours) else ""
            mark = " " if a == b else "≠"
            print(f"  {mark} chromium   |{a}|".replace("\n", "⏎"))
            if a != b:
                print(f"  {mark} textmeasure|{b}|".replace("\n", "⏎"))
    if len(shown) < len(mismatches):
        print(f"\n... and {len(mismatches) - len(shown)} more (--verbose shows all)")
    return total


def box_differences(theirs, mine):
    """The clusters whose line or edges differ by more than BOX_TOLERANCE, as
    (start, chromium box, textmeasure box); a cluster one side lacks counts too."""
    ours = {box[0]: box for box in (mine or {}).get("boxes") or []}
    chrome = {box[0]: box for box in theirs["boxes"]}
    differing = []
    for start in sorted(set(ours) | set(chrome)):
        a, b = chrome.get(start), ours.get(start)
        if a is None or b is None or a[1] != b[1] or a[2] != b[2] \
                or abs(a[3] - b[3]) > BOX_TOLERANCE or abs(a[4] - b[4]) > BOX_TOLERANCE:
            differing.append((start, a, b))
    return differing


def compare_boxes(recorded, library, verbose):
    per_script = OrderedDict()
    mismatches = []
    for case, mine in zip(recorded, library):
        stats = per_script.setdefault(case["script"], [0, 0])
        stats[0] += 1
        differing = box_differences(case["chromium"], mine)
        stats[1] += not differing
        if differing:
            mismatches.append((case, differing))
    total = [sum(s[i] for s in per_script.values()) for i in range(2)]
    print(f"{'script':8} {'cases':>6} {'every box within ' + str(BOX_TOLERANCE) + ' px':>26}")
    for script, (count, agreeing) in list(per_script.items()) + [("overall", total)]:
        print(f"{script:8} {count:6} {100 * agreeing / count:25.2f}%")
    shown = mismatches if verbose else mismatches[:20]
    for case, differing in shown:
        print(f"\n{case['id']}  {case['text']!r}".replace("\n", "⏎", 1))
        for start, a, b in differing[:8]:
            print(f"  @{start}: chromium {a}  textmeasure {b}")
    if len(shown) < len(mismatches):
        print(f"\n... and {len(mismatches) - len(shown)} more (--verbose shows all)")
    return total


def read_recorded(path=RECORDED):
    with open(path, encoding="utf-8") as file:
        return [json.loads(line, object_pairs_hook=OrderedDict) for line in file if line.strip()]


def write_recorded(recorded, path=RECORDED):
    with open(path, "w", encoding="utf-8") as file:
        for case in recorded:
            file.write(json.dumps(case, ensure_ascii=False) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="store Chromium's answers as the test fixture")
    parser.add_argument("--recorded", action="store_true", help="compare the stored answers; no browser")
    parser.add_argument("--textmeasure", default=os.path.join(ROOT, "scripts", "textmeasure"))
    parser.add_argument("--filter", help="only cases whose id contains this")
    parser.add_argument("--verbose", action="store_true", help="show every mismatching case")
    parser.add_argument("--boxes", action="store_true",
                        help="check cluster boxes on the bidi corpus in every direction and alignment")
    parser.add_argument("--texts", default=TEXTS,
                        help="another corpus of the same shape ({script: [texts]}), e.g. held-out texts")
    args = parser.parse_args()
    if args.texts != TEXTS and (args.record or args.recorded):
        parser.error("--texts checks another corpus live; it cannot be recorded or compared with the fixture")

    if args.boxes:
        if args.recorded:
            recorded = read_recorded(BOX_RECORDED)
        else:
            texts = BOX_TEXTS if args.texts == TEXTS else args.texts   # --texts: held-out bidi texts, live
            recorded = run_chromium(expand_box_corpus(texts), BOX_PAGE_SCRIPT)
            if args.record:
                write_recorded(recorded, BOX_RECORDED)
                print(f"browser-check: recorded {len(recorded)} cases in {os.path.relpath(BOX_RECORDED, ROOT)}",
                      file=sys.stderr)
        if args.filter:
            recorded = [c for c in recorded if args.filter in c["id"]]
        compare_boxes(recorded, run_library(recorded, args.textmeasure), args.verbose)
        return

    if args.recorded:
        recorded = read_recorded()
        if args.filter:
            recorded = [c for c in recorded if args.filter in c["id"]]
    else:
        cases = expand_corpus(args.texts, OPTIONS if args.texts == TEXTS else None)
        if args.filter:
            cases = [c for c in cases if args.filter in c["id"]]
        recorded = run_chromium(cases)
        if args.record:
            # With --filter, only the chosen cases are recorded again; the rest stay as they were.
            # In the corpus's order, so that a new group lands where it expands (BrowserCorpusTests).
            fresh = {c["id"]: c for c in recorded}
            kept = {c["id"]: c for c in read_recorded()} if args.filter else {}
            merged = [fresh.get(c["id"]) or kept[c["id"]] for c in expand_corpus()
                      if c["id"] in fresh or c["id"] in kept]
            write_recorded(merged)
            print(f"browser-check: recorded {len(recorded)} cases ({len(merged)} in all) in "
                  f"{os.path.relpath(RECORDED, ROOT)}", file=sys.stderr)
    compare(recorded, run_library(recorded, args.textmeasure), args.verbose)


if __name__ == "__main__":
    main()
