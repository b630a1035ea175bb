#include "bench/report/cross_check_file.h"

#include <math.h>
#include <stdio.h>

#include "bench/core/out_file.h"
#include "bench/report/csv_writer.h"

static double value_at(const double *v, size_t n, size_t i)
{
    return v && i < n ? v[i] : NAN;
}

/* A figure, or an empty cell when CUPTI did not read it. */
static void write_number(FILE *out, double value)
{
    if (isfinite(value))
        fprintf(out, ",%.6g", value);
    else
        fputc(',', out);
}

static void write_round(FILE *out, const hb_cross_series *series, size_t count, size_t r)
{
    const double base = hb_cross_baseline_median(series, count, r);
    for (size_t i = 0; i < count; i++) {
        const hb_cross_series *s = &series[i];
        const double event_us = value_at(s->event_us, s->n, r), device_us = value_at(s->device_us, s->n, r);
        fprintf(out, "%zu,%zu,", r, i);
        hb_csv_write_field(out, s->name);
        fprintf(out, ",%s", s->is_candidate ? "candidate" : "baseline");
        write_number(out, event_us);
        write_number(out, device_us);
        write_number(out, event_us - device_us);
        write_number(out, event_us - device_us - base);
        fputc('\n', out);
    }
}

hb_status hb_cross_check_file_write(const char *path, const hb_cross_series *series, size_t count, size_t rounds)
{
    hb_out_file f;
    HB_TRY(hb_out_file_begin(&f, path));
    fprintf(f.stream, "%s\n", HB_CROSS_CHECK_FILE_HEADER);
    for (size_t r = 0; r < rounds; r++)
        write_round(f.stream, series, count, r);
    return hb_out_file_commit(&f);
}
