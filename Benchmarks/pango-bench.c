// Pango's side of scripts/bench: lays out the same cases at the same widths as
// `textmeasure bench`, with the same font files, so the two can be compared per script.
//
//   pango-bench CASES REPS
//
// CASES holds one record per case, "WIDTH\tTEXT\0" (the text as UTF-8, NUL-terminated; the
// bench script writes it from the JSONL cases). Fonts come from fontconfig, which the bench
// script points (FONTCONFIG_FILE) at a private configuration listing the repository's Fonts/
// folder only, unhinted, so no system font takes part. The size is 17 px, the cases' default,
// in the embedded set's primary family (Noto Sans), fontconfig falling back as a browser does.
//
// Prints, each the median over REPS rounds:
//   pango cold cases=N us_per_case=X lines=L       a new PangoLayout per case, laid out once
//   pango relayout cases=N widths=5 us_per_width=X  pango_layout_set_width on the laid-out
//                                                  layout at the widths textmeasure bench uses
// Built by scripts/bench: cc pango-bench.c $(pkg-config --cflags --libs pangoft2).
#include <pango/pangoft2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The relayout widths, as multiples of the case's own (BenchCommand.relayoutScales).
static const double scales[] = {0.6, 0.8, 1.25, 1.5, 2.0};
enum { scaleCount = sizeof scales / sizeof scales[0] };

typedef struct {
    double width;
    const char *text;
    int length;
} Case;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static PangoLayout *new_layout(PangoContext *context, const PangoFontDescription *font, const Case *c) {
    PangoLayout *layout = pango_layout_new(context);
    pango_layout_set_font_description(layout, font);
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);   // CSS overflow-wrap: break-word
    pango_layout_set_width(layout, (int)(c->width * PANGO_SCALE));
    pango_layout_set_text(layout, c->text, c->length);
    return layout;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: pango-bench CASES REPS\n");
        return 2;
    }
    int reps = atoi(argv[2]);
    FILE *file = fopen(argv[1], "rb");
    if (!file || reps < 1) {
        fprintf(stderr, "pango-bench: cannot read %s, or REPS < 1\n", argv[1]);
        return 2;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, file) != (size_t)size) {
        fprintf(stderr, "pango-bench: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(file);
    data[size] = 0;

    int count = 0, capacity = 1024;
    Case *cases = malloc(sizeof *cases * (size_t)capacity);
    for (char *record = data; record < data + size; record += strlen(record) + 1) {
        char *tab = strchr(record, '\t');
        if (!tab) {
            fprintf(stderr, "pango-bench: a record without a tab\n");
            return 2;
        }
        if (count == capacity) cases = realloc(cases, sizeof *cases * (size_t)(capacity *= 2));
        cases[count].width = atof(record);
        cases[count].text = tab + 1;
        cases[count].length = (int)strlen(tab + 1);
        count++;
    }
    if (count == 0) {
        fprintf(stderr, "pango-bench: no cases\n");
        return 2;
    }

    PangoFontMap *map = pango_ft2_font_map_new();
    pango_ft2_font_map_set_resolution(PANGO_FT2_FONT_MAP(map), 72, 72);
    PangoContext *context = pango_font_map_create_context(map);
    // Fractional advances, as TextMeasure measures (and browsers lay out) text.
    pango_context_set_round_glyph_positions(context, FALSE);
    PangoFontDescription *font = pango_font_description_from_string("Noto Sans");
    pango_font_description_set_absolute_size(font, 17 * PANGO_SCALE);

    // One round first, untimed: fontconfig and FreeType load the fonts once, as
    // TextMeasure's fonts are loaded before its timing starts.
    long lines = 0;
    for (int i = 0; i < count; i++) {
        PangoLayout *layout = new_layout(context, font, &cases[i]);
        lines += pango_layout_get_line_count(layout);
        g_object_unref(layout);
    }

    double *cold = malloc(sizeof *cold * (size_t)reps), *relayout = malloc(sizeof *relayout * (size_t)reps);
    PangoLayout **layouts = malloc(sizeof *layouts * (size_t)count);
    for (int rep = 0; rep < reps; rep++) {
        double start = now_ns();
        for (int i = 0; i < count; i++) {
            PangoLayout *layout = new_layout(context, font, &cases[i]);
            (void)pango_layout_get_line_count(layout);   // lays it out
            g_object_unref(layout);
        }
        cold[rep] = (now_ns() - start) / count;

        for (int i = 0; i < count; i++) {
            layouts[i] = new_layout(context, font, &cases[i]);
            (void)pango_layout_get_line_count(layouts[i]);
        }
        start = now_ns();
        for (int i = 0; i < count; i++) {
            for (int s = 0; s < scaleCount; s++) {
                pango_layout_set_width(layouts[i], (int)(cases[i].width * scales[s] * PANGO_SCALE));
                (void)pango_layout_get_line_count(layouts[i]);
            }
        }
        relayout[rep] = (now_ns() - start) / ((double)count * scaleCount);
        for (int i = 0; i < count; i++) g_object_unref(layouts[i]);
    }
    printf("pango cold cases=%d us_per_case=%.3f lines=%ld\n", count, median(cold, reps) / 1000, lines);
    printf("pango relayout cases=%d widths=%d us_per_width=%.3f\n", count, scaleCount, median(relayout, reps) / 1000);

    pango_font_description_free(font);
    g_object_unref(context);
    g_object_unref(map);
    free(layouts);
    free(cold);
    free(relayout);
    free(cases);
    free(data);
    return 0;
}
