#include "bench/analysis/number_ranges.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/bad_results.h"
#include "bench/analysis/speedup_columns.h"
#include "bench/core/diag.h"
#include "bench/core/gemm_types.h"

static const hb_number_range ranges[HB_NUM_KIND_COUNT] = {
    [HB_NUM_DIMENSION] = {1, HB_MAX_DIM, 0, 1, "a dimension (a whole number 1..262144)"},
    [HB_NUM_SPEEDUP] = {HB_MIN_RATIO, HB_MAX_RATIO, 1, 0, "a speedup (a number with value + 1 in 1e-9..1e9)"},
    [HB_NUM_RATIO] = {HB_MIN_RATIO, HB_MAX_RATIO, 0, 0, "a speedup t_base/t_cand (a number in 1e-9..1e9)"},
    [HB_NUM_TIME_US] = {1e-3, 1e9, 0, 0, "a time in microseconds (a number in 1e-3..1e9)"},
    [HB_NUM_REL_STDEV] = {0, 1e3, 0, 0, "a relative standard deviation (a number in 0..1000)"},
    [HB_NUM_SECONDS] = {0, 1e7, 0, 0, "a duration in seconds (a number in 0..1e7)"},
    [HB_NUM_WINDOW_SECONDS] = {0, 86400, 0, 0, "a window in seconds (a number in 0..86400)"},
    [HB_NUM_FRACTION] = {0, 1, 0, 0, "a share (a number in 0..1)"},
    [HB_NUM_EXCESS_RATIO] = {0, INFINITY, 0, 0, "a deviation over its bound (a number >= 0, or inf)"},
};

/* The numeric columns of the harness's CSVs that are read back, by name: the
 * one place that says which range each has.  A column read with
 * hb_csv_number must be here. */
static const struct {
    const char *name;
    hb_number_kind kind;
} columns[] = {
    {"m", HB_NUM_DIMENSION},
    {"n", HB_NUM_DIMENSION},
    {"k", HB_NUM_DIMENSION},
    /* summary.csv */
    {"speedup_paper", HB_NUM_SPEEDUP},
    {"speedup_geomean", HB_NUM_SPEEDUP},
    {"speedup_paper_wall", HB_NUM_SPEEDUP},
    {"speedup_geomean_wall", HB_NUM_SPEEDUP},
    {"speedup_paper_event", HB_NUM_SPEEDUP},
    {"speedup_kernel", HB_NUM_SPEEDUP},
    {"speedup_ci95_low", HB_NUM_SPEEDUP},
    {"speedup_ci95_high", HB_NUM_SPEEDUP},
    {"wall_mean_us", HB_NUM_TIME_US},
    {"wall_rel_stdev", HB_NUM_REL_STDEV},
    {"paper_ratio", HB_NUM_EXCESS_RATIO},
    /* import.csv */
    {"build_seconds", HB_NUM_SECONDS},
};

const hb_number_range *hb_number_range_of(hb_number_kind kind)
{
    return kind < HB_NUM_KIND_COUNT ? &ranges[kind] : NULL;
}

int hb_number_fits(hb_number_kind kind, double value)
{
    const hb_number_range *r = hb_number_range_of(kind);
    if (!r || isnan(value))
        return 0;
    double shifted = value + r->offset;
    if (r->whole && (floor(value) != value))
        return 0;
    return shifted >= r->min && shifted <= r->max;
}

/* A whole number is digits, nothing else: strtod would take "1e3", "0x10" and "1.0" too. */
static int all_digits(const char *text)
{
    return *text && strspn(text, "0123456789") == strlen(text);
}

int hb_number_parse(hb_number_kind kind, const char *text, double *out)
{
    const hb_number_range *r = hb_number_range_of(kind);
    if (!r || !text || (r->whole && !all_digits(text)))
        return 0;
    char *end = NULL;
    double value = strtod(text, &end);
    if (end == text || *end || !hb_number_fits(kind, value))
        return 0;
    *out = value;
    return 1;
}

int hb_column_number_kind(const char *column)
{
    for (size_t i = 0; column && i < sizeof columns / sizeof columns[0]; i++)
        if (!strcmp(columns[i].name, column))
            return (int)columns[i].kind;
    return -1;
}

hb_status hb_csv_number_as(const hb_csv_row *row, size_t which, hb_number_kind kind, double *out)
{
    const char *text = row->text[which];
    *out = NAN;
    if (!text || !*text)
        return HB_OK;
    if (hb_number_parse(kind, text, out))
        return HB_OK;
    return hb_bad_results(row->path, row->line, row->column[which], row->name[which], "'%s' is not %s, or empty",
                          text, hb_number_range_of(kind)->words);
}

hb_status hb_csv_number(const hb_csv_row *row, size_t which, double *out)
{
    int kind = hb_column_number_kind(row->name[which]);
    if (kind < 0)
        return hb_fail(HB_ERR_INTERNAL, "column '%s' is read as a number but has no range (bench/analysis/"
                       "number_ranges.c)", row->name[which]);
    return hb_csv_number_as(row, which, (hb_number_kind)kind, out);
}

hb_status hb_csv_dimension(const hb_csv_row *row, size_t which, long *out)
{
    const char *text = row->text[which] ? row->text[which] : "";
    double value;
    if (!hb_number_parse(HB_NUM_DIMENSION, text, &value))
        return hb_bad_results(row->path, row->line, row->column[which], row->name[which], "'%s' is not %s", text,
                              hb_number_range_of(HB_NUM_DIMENSION)->words);
    *out = (long)value;
    return HB_OK;
}
