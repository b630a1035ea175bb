#define _POSIX_C_SOURCE 200809L
#include "bench/import/build_stages.h"

#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const stage_names[HB_STAGE_COUNT] = {"front_end", "cicc",  "ptxas", "host",
                                                        "other",     "link", "record"};

const char *hb_build_stage_name(hb_build_stage stage)
{
    return stage < HB_STAGE_COUNT ? stage_names[stage] : "none";
}

static int starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

hb_build_stage hb_build_stage_of_phase(const char *phase)
{
    if (starts_with(phase, "gcc (preprocessing") || starts_with(phase, "cudafe") || starts_with(phase, "cpp"))
        return HB_STAGE_FRONT_END;
    if (starts_with(phase, "cicc"))
        return HB_STAGE_CICC;
    if (starts_with(phase, "ptxas"))
        return HB_STAGE_PTXAS;
    if (starts_with(phase, "gcc (compiling") || starts_with(phase, "g++ (compiling") ||
        starts_with(phase, "clang (compiling"))
        return HB_STAGE_HOST;
    return HB_STAGE_OTHER;
}

/* The columns nvcc's table has, in its order (CUDA 12 and 13). */
enum { COL_PHASE = 1, COL_METRIC = 6, COL_UNIT = 7, COL_WANTED = 8 };

typedef struct table_reader {
    size_t column;
    char phase[128];
    char metric[64];
    char unit[16];
    hb_build_stages *out;
    int phases;
} table_reader;

static void keep_field(void *field, size_t size, void *context)
{
    table_reader *t = context;
    char *into = t->column == COL_PHASE ? t->phase : t->column == COL_METRIC ? t->metric
                                               : t->column == COL_UNIT   ? t->unit
                                                                         : NULL;
    size_t room = t->column == COL_PHASE ? sizeof t->phase : t->column == COL_METRIC ? sizeof t->metric
                                                                                     : sizeof t->unit;
    if (into) {
        size_t n = size < room - 1 ? size : room - 1;
        memcpy(into, field, n);
        into[n] = '\0';
    }
    t->column++;
}

/* A row ended: its time added to its stage when the metric is a number of ms. */
static void end_row(int terminator, void *context)
{
    (void)terminator;
    table_reader *t = context;
    char *end = NULL;
    double ms = strtod(t->metric, &end);
    if (t->column >= COL_WANTED && end != t->metric && *end == '\0' && isfinite(ms) && ms >= 0 &&
        strcmp(t->unit, "ms") == 0) {
        t->out->seconds[hb_build_stage_of_phase(t->phase)] += ms / 1000.0;
        t->phases++;
    }
    t->column = 0;
    t->phase[0] = t->metric[0] = t->unit[0] = '\0';
}

int hb_build_stages_parse(const char *text, size_t length, hb_build_stages *out)
{
    struct csv_parser parser;
    if (csv_init(&parser, 0) != 0) /* not strict: nvcc pads its cells with spaces, which libcsv trims */
        return 0;
    table_reader t = {.out = out};
    int ok = csv_parse(&parser, text, length, keep_field, end_row, &t) == length &&
             csv_fini(&parser, keep_field, end_row, &t) == 0;
    csv_free(&parser);
    if (t.phases > 0)
        out->known = 1;
    return ok;
}

hb_build_stage hb_build_stages_dominant(const hb_build_stages *stages)
{
    hb_build_stage best = HB_STAGE_COUNT;
    for (int s = 0; s < HB_STAGE_COUNT; s++)
        if (stages->seconds[s] > 0 && (best == HB_STAGE_COUNT || stages->seconds[s] > stages->seconds[best]))
            best = (hb_build_stage)s;
    return best;
}
