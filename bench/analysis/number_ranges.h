/* Every number read back from a result folder (summary.csv, import.csv,
 * env.json, plan.json) or from a published file has the range its meaning
 * allows, in one table (docs/reports.md, "Numbers read back"): a time is
 * positive and below a sane ceiling, a relative standard deviation lies in
 * [0, 1000], a dimension is a whole number 1..262144, a speedup's ratio is
 * within nine orders of magnitude of 1.  A number outside its range is a
 * damaged or forged file: the CSV readers refuse it as bad results (exit
 * 11) naming the file, the line and the column, as they always refused a
 * speedup out of range; a number that only words a header line (env.json's
 * windows) is left out instead.  Within the ranges, every sum, mean, ratio
 * and logarithm the tables and compare take stays finite. */
#ifndef HB_NUMBER_RANGES_H
#define HB_NUMBER_RANGES_H

#include <stddef.h>

#include "bench/analysis/csv_reader.h"
#include "bench/core/status.h"

typedef enum hb_number_kind {
    HB_NUM_DIMENSION,      /* m, n, k: a whole number 1..262144 (HB_MAX_DIM) */
    HB_NUM_SPEEDUP,        /* t_b/t_c - 1, t_b/t_c in HB_MIN_RATIO..HB_MAX_RATIO */
    HB_NUM_RATIO,          /* t_b/t_c itself, as a published file holds it */
    HB_NUM_TIME_US,        /* one call's time in microseconds: 1e-3..1e9 (a nanosecond to 1000 s) */
    HB_NUM_REL_STDEV,      /* a standard deviation over its mean: 0..1000 (of n positive times it is at most
                            * sqrt(n - 1): a million samples) */
    HB_NUM_SECONDS,        /* a duration in seconds: 0..1e7 (a build, about four months) */
    HB_NUM_WINDOW_SECONDS, /* a warm-up or timed window in seconds: 0..86400, as --warmup-s and --time-s take it */
    HB_NUM_FRACTION,       /* a share: 0..1 (--target-ci's half-width) */
    HB_NUM_EXCESS_RATIO,   /* a deviation over its bound: 0..+inf (inf: a deviation over a bound of 0) */
    HB_NUM_KIND_COUNT
} hb_number_kind;

typedef struct hb_number_range {
    double min, max;   /* of the value plus `offset` */
    double offset;     /* 1 for a speedup: its ratio is in range */
    int whole;         /* 1: a whole number */
    const char *words; /* "a dimension (a whole number 1..262144)": what a message says it must be */
} hb_number_range;

const hb_number_range *hb_number_range_of(hb_number_kind kind);

/* 1 when `value` is a number of `kind` (NaN never is). */
int hb_number_fits(hb_number_kind kind, double value);

/* 1 and *out when `text` is, whole, a number of `kind`; 0 otherwise. */
int hb_number_parse(hb_number_kind kind, const char *text, double *out);

/* The kind of a numeric column of summary.csv or import.csv read back, by
 * its name; -1 for a name the table lacks (a column read as text). */
int hb_column_number_kind(const char *column);

/* Field `which` of `row`: NaN where it is empty or the file lacks the
 * (optional) column; else its number, which must be of its column's kind
 * (hb_column_number_kind of row->names[which]); else HB_ERR_BAD_RESULTS
 * naming the file, the line, the column and the range. */
hb_status hb_csv_number(const hb_csv_row *row, size_t which, double *out);

/* The same for a column of `kind` whatever its name (a published file's). */
hb_status hb_csv_number_as(const hb_csv_row *row, size_t which, hb_number_kind kind, double *out);

/* A dimension (m, n or k): never empty. */
hb_status hb_csv_dimension(const hb_csv_row *row, size_t which, long *out);

#endif
