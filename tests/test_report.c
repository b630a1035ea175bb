/* Tests of bench/report/csv_writer.c, its column table (summary_columns.c) and
 * bench/report/report_table.c on hand-built results. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/csv_writer.h"
#include "bench/report/report_table.h"
#include "bench/report/summary_columns.h"
#include "bench/report/verdict_file.h"
#include "bench/result/config_result.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- a small RFC 4180 reader ------------------------------------------------- */

#define CSV_MAX_ROWS 32
#define CSV_MAX_FIELDS 192

typedef struct csv_row {
    char *field[CSV_MAX_FIELDS];
    int quoted[CSV_MAX_FIELDS];
    size_t n;
} csv_row;

typedef struct csv_table {
    csv_row row[CSV_MAX_ROWS];
    size_t n;
} csv_table;

/* Parses `text`: every record ends in '\n'; fields in double quotes may hold
 * commas, newlines and doubled quotes; a quote in an unquoted field is an error. */
static void csv_parse(const char *text, csv_table *t)
{
    memset(t, 0, sizeof *t);
    size_t len = strlen(text);
    assert_true(len > 0 && text[len - 1] == '\n');
    const char *c = text;
    while (*c) {
        assert_true(t->n < CSV_MAX_ROWS);
        csv_row *row = &t->row[t->n++];
        for (;;) {
            assert_true(row->n < CSV_MAX_FIELDS);
            char *field = malloc(len + 1);
            assert_non_null(field);
            size_t used = 0;
            int quoted = 0;
            if (*c == '"') {
                quoted = 1;
                c++;
                for (;;) {
                    assert_true(*c != '\0'); /* unterminated quote */
                    if (*c == '"') {
                        if (c[1] == '"') {
                            field[used++] = '"';
                            c += 2;
                            continue;
                        }
                        c++;
                        break;
                    }
                    field[used++] = *c++;
                }
                assert_true(*c == ',' || *c == '\n'); /* nothing after the closing quote */
            } else {
                while (*c != ',' && *c != '\n') {
                    assert_true(*c != '"' && *c != '\r' && *c != '\0');
                    field[used++] = *c++;
                }
            }
            field[used] = '\0';
            row->quoted[row->n] = quoted;
            row->field[row->n++] = field;
            if (*c++ == '\n')
                break;
        }
    }
}

static void csv_free(csv_table *t)
{
    for (size_t r = 0; r < t->n; r++)
        for (size_t f = 0; f < t->row[r].n; f++)
            free(t->row[r].field[f]);
}

static size_t column(const csv_table *t, const char *name)
{
    for (size_t i = 0; i < t->row[0].n; i++)
        if (!strcmp(t->row[0].field[i], name))
            return i;
    fprintf(stderr, "no column '%s' in the header\n", name);
    fail();
    return 0;
}

static const char *cell(const csv_table *t, size_t row, const char *name)
{
    return t->row[row].field[column(t, name)];
}

static double num_cell(const csv_table *t, size_t row, const char *name)
{
    const char *text = cell(t, row, name);
    char *end = NULL;
    double value = strtod(text, &end);
    if (!*text || *end)
        fprintf(stderr, "column %s row %zu: '%s' is not a number\n", name, row, text);
    assert_true(*text && !*end);
    return value;
}

/* %.9g keeps 9 significant digits */
#define ASSERT_NUM(t, row, name, want)                                                      \
    do {                                                                                    \
        double got_ = num_cell((t), (row), (name)), want_ = (want);                         \
        if (!(fabs(got_ - want_) <= 1e-8 * fabs(want_) + 1e-300))                           \
            fprintf(stderr, "%s row %zu: got %.12g want %.12g\n", (name), (size_t)(row), got_, \
                    want_);                                                                 \
        assert_true(fabs(got_ - want_) <= 1e-8 * fabs(want_) + 1e-300);                     \
    } while (0)

/* --- fixtures ------------------------------------------------------------------ */

static void set_times(hb_time_summary *s, size_t n, double median_ms, double scale)
{
    s->n = n;
    s->median = median_ms;
    s->mean = median_ms * 1.01 * scale;
    s->min = median_ms * 0.97;
    s->p10 = median_ms * 0.98;
    s->p90 = median_ms * 1.04;
    s->max = median_ms * 1.3;
    s->stdev = median_ms * 0.02;
    s->rel_stdev = 0.02 / 1.01;
}

/* M=1024 N=2048 K=512; candidate 0.5 ms; baselines 0.625, 0.55, 0.7 ms. */
static hb_config_result *make_result(void)
{
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->mnk = (hb_mnk){1024, 2048, 512};
    r->status = HB_OK;
    r->verdict = hb_verdict_of_status(HB_OK);
    snprintf(r->manifest_path, sizeof r->manifest_path, "cands/generic.json");
    r->checked = 1;
    r->deviation_bound = 0.0625;
    r->measured = 1;
    r->rounds = 123;
    r->count = 4;
    const char *names[4] = {"candidate", "torch", "cublas-nn", "cublas-tn"};
    const double medians[4] = {0.5, 0.625, 0.55, 0.7};
    for (size_t i = 0; i < 4; i++) {
        hb_participant_result *p = &r->participants[i];
        snprintf(p->name, sizeof p->name, "%s", names[i]);
        p->is_candidate = i == 0;
        snprintf(p->desc.compute_type, sizeof p->desc.compute_type, "%s", i ? "CUBLAS_COMPUTE_32F" : "fp32");
        snprintf(p->desc.scale_type, sizeof p->desc.scale_type, "%s", i ? "CUDA_R_32F" : "");
        snprintf(p->desc.algorithm, sizeof p->desc.algorithm, "%s",
                 i ? "CUBLAS_GEMM_DEFAULT_TENSOR_OP" : "hgemm_entry");
        p->desc.workspace_bytes = i ? 0 : 4096;
        p->desc.b_layout = i == 3 ? HB_B_COL : HB_B_ROW;
        if (i == 0) {
            p->desc.padded[0] = 1024;
            p->desc.padded[1] = 2048;
            p->desc.padded[2] = 512;
        }
        p->deviation.max_abs = 0.03125 * (double)(i + 1);
        p->deviation.non_finite = 0;
        set_times(&p->event_ms, 123, medians[i], 1.0);
        set_times(&p->wall_ms, 123, medians[i] + 0.01, 1.0);
        if (i) {
            double q = medians[i] / medians[0];
            hb_speedup_summary *s = &p->speedup_event;
            s->n = 123;
            s->geomean = q - 1;
            s->ci95_low = q - 1 - 0.01;
            s->ci95_high = q - 1 + 0.01;
            s->paper = q - 1 + 0.001;
            s->ratio_of_means = q - 1 - 0.0005;
            s->median = q - 1 + 0.0002;
            s->p10 = q - 1 - 0.02;
            s->p90 = q - 1 + 0.02;
            p->speedup_wall.n = 123;
            p->speedup_wall.geomean = q - 1 - 0.003;
            p->speedup_wall.paper = q - 1 - 0.002;
        }
    }
    return r;
}

static char *write_csv(const char *run_id, const hb_config_result *r, hb_status *status)
{
    hb_test_capture capture;
    FILE *out = hb_test_capture_open(&capture);
    hb_csv_write_header(out);
    *status = hb_csv_write_config(out, run_id, "fp32", r);
    char *text = hb_test_capture_close(&capture);
    return text;
}

static const char *const speedup_columns[] = {
    "speedup_geomean", "speedup_ci95_low", "speedup_ci95_high", "speedup_paper", "speedup_ratio_of_means",
    "speedup_median",  "speedup_p10",      "speedup_p90",       "speedup_pairs", "speedup_geomean_wall",
    "speedup_paper_wall", NULL};

static const char *const time_columns[] = {
    "samples",        "event_median_us", "event_mean_us", "event_min_us",        "event_p10_us",
    "event_p90_us",   "event_rel_stdev", "wall_median_us", "wall_mean_us",       "wall_p10_us",
    "wall_p90_us",    "wall_rel_stdev",  "tflops_event_median", "tflops_wall_median", NULL};

/* --- CSV --------------------------------------------------------------------------- */

static void test_csv_full_config(void **state)
{
    (void)state;
    hb_config_result *r = make_result();
    hb_status status;
    char *text = write_csv("20261121T101500Z-3f2a", r, &status);
    assert_int_equal(status, HB_OK);
    csv_table t;
    csv_parse(text, &t);
    assert_int_equal(t.n, 1 + 4);
    /* every row has as many fields as the header */
    for (size_t row = 1; row < t.n; row++)
        assert_int_equal(t.row[row].n, t.row[0].n);
    /* header names are distinct */
    for (size_t i = 0; i < t.row[0].n; i++)
        for (size_t j = i + 1; j < t.row[0].n; j++)
            assert_string_not_equal(t.row[0].field[i], t.row[0].field[j]);

    const double flops = 2.0 * 1024 * 2048 * 512;
    for (size_t row = 1; row <= 4; row++) {
        const hb_participant_result *p = &r->participants[row - 1];
        assert_string_equal(cell(&t, row, "run_id"), "20261121T101500Z-3f2a");
        ASSERT_NUM(&t, row, "m", 1024);
        ASSERT_NUM(&t, row, "n", 2048);
        ASSERT_NUM(&t, row, "k", 512);
        assert_string_equal(cell(&t, row, "participant"), p->name);
        assert_string_equal(cell(&t, row, "role"), row == 1 ? "candidate" : "baseline");
        assert_string_equal(cell(&t, row, "verdict"), row == 1 ? "pass" : "ok");
        assert_string_equal(cell(&t, row, "reason"), "");
        assert_string_equal(cell(&t, row, "acc_class"), "fp32");
        assert_string_equal(cell(&t, row, "compute_type"), p->desc.compute_type);
        assert_string_equal(cell(&t, row, "algorithm"), p->desc.algorithm);
        assert_string_equal(cell(&t, row, "b_layout"), row == 4 ? "col" : "row");
        ASSERT_NUM(&t, row, "workspace_bytes", row == 1 ? 4096 : 0);
        ASSERT_NUM(&t, row, "paper_max_abs_dev", 0.03125 * (double)row);
        ASSERT_NUM(&t, row, "non_finite", 0);
        ASSERT_NUM(&t, row, "samples", 123);
        /* times are written in microseconds */
        ASSERT_NUM(&t, row, "event_median_us", p->event_ms.median * 1000);
        ASSERT_NUM(&t, row, "event_mean_us", p->event_ms.mean * 1000);
        ASSERT_NUM(&t, row, "event_min_us", p->event_ms.min * 1000);
        ASSERT_NUM(&t, row, "event_p10_us", p->event_ms.p10 * 1000);
        ASSERT_NUM(&t, row, "event_p90_us", p->event_ms.p90 * 1000);
        ASSERT_NUM(&t, row, "event_rel_stdev", p->event_ms.rel_stdev);
        ASSERT_NUM(&t, row, "wall_median_us", p->wall_ms.median * 1000);
        ASSERT_NUM(&t, row, "wall_p90_us", p->wall_ms.p90 * 1000);
        /* TFLOP/s = 2MNK / median seconds / 1e12 */
        ASSERT_NUM(&t, row, "tflops_event_median", flops / (p->event_ms.median / 1000) / 1e12);
        ASSERT_NUM(&t, row, "tflops_wall_median", flops / (p->wall_ms.median / 1000) / 1e12);
        if (row == 1) {
            /* the candidate: padded dims and the bound, no speedup over itself */
            ASSERT_NUM(&t, row, "padded_m", 1024);
            ASSERT_NUM(&t, row, "padded_n", 2048);
            ASSERT_NUM(&t, row, "padded_k", 512);
            ASSERT_NUM(&t, row, "paper_dev_bound", 0.0625);
            for (const char *const *c = speedup_columns; *c; c++)
                assert_string_equal(cell(&t, row, *c), "");
        } else {
            assert_string_equal(cell(&t, row, "padded_m"), "");
            assert_string_equal(cell(&t, row, "paper_dev_bound"), "");
            const hb_speedup_summary *s = &p->speedup_event;
            ASSERT_NUM(&t, row, "speedup_geomean", s->geomean);
            ASSERT_NUM(&t, row, "speedup_ci95_low", s->ci95_low);
            ASSERT_NUM(&t, row, "speedup_ci95_high", s->ci95_high);
            ASSERT_NUM(&t, row, "speedup_paper", s->paper);
            ASSERT_NUM(&t, row, "speedup_ratio_of_means", s->ratio_of_means);
            ASSERT_NUM(&t, row, "speedup_median", s->median);
            ASSERT_NUM(&t, row, "speedup_p10", s->p10);
            ASSERT_NUM(&t, row, "speedup_p90", s->p90);
            ASSERT_NUM(&t, row, "speedup_pairs", 123);
            ASSERT_NUM(&t, row, "speedup_geomean_wall", p->speedup_wall.geomean);
            ASSERT_NUM(&t, row, "speedup_paper_wall", p->speedup_wall.paper);
        }
    }
    /* torch: 0.625 / 0.5 - 1 = 25 % */
    ASSERT_NUM(&t, 2, "speedup_geomean", 0.25);
    csv_free(&t);
    free(text);
    free(r);
}

static void test_csv_incorrect_with_quoted_reason(void **state)
{
    (void)state;
    hb_config_result *r = make_result();
    const char *reason = "max |C-ref| 0.5 > bound 0.0625 at \"row 3, col 4\", value \"\"NaN\"\"";
    r->status = HB_ERR_INCORRECT;
    r->verdict = hb_verdict_of_status(HB_ERR_INCORRECT);
    snprintf(r->reason, sizeof r->reason, "%s", reason);
    r->measured = 0; /* an incorrect candidate is not timed */
    hb_status status;
    char *text = write_csv("run,with \"comma\"", r, &status);
    assert_int_equal(status, HB_OK);
    csv_table t;
    csv_parse(text, &t);
    assert_int_equal(t.n, 5);
    for (size_t row = 1; row < t.n; row++) {
        assert_int_equal(t.row[row].n, t.row[0].n);
        assert_string_equal(cell(&t, row, "run_id"), "run,with \"comma\"");
        for (const char *const *c = time_columns; *c; c++)
            assert_string_equal(cell(&t, row, *c), "");
        for (const char *const *c = speedup_columns; *c; c++)
            assert_string_equal(cell(&t, row, *c), "");
        ASSERT_NUM(&t, row, "paper_max_abs_dev", 0.03125 * (double)row);
    }
    assert_string_equal(cell(&t, 1, "verdict"), "incorrect");
    assert_string_equal(cell(&t, 1, "reason"), reason);
    assert_true(t.row[1].quoted[column(&t, "reason")]);
    /* baselines ran fine; the verdict and reason are the candidate's */
    assert_string_equal(cell(&t, 2, "verdict"), "ok");
    assert_string_equal(cell(&t, 2, "reason"), "");
    csv_free(&t);
    free(text);
    free(r);
}

static void test_csv_unsupported_config(void **state)
{
    (void)state;
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->mnk = (hb_mnk){100, 200, 300};
    r->status = HB_ERR_UNSUPPORTED;
    r->verdict = hb_verdict_of_status(HB_ERR_UNSUPPORTED);
    snprintf(r->reason, sizeof r->reason, "candidate k needs M to be a multiple of 128, and M=100\nsecond line");
    r->count = 1;
    snprintf(r->participants[0].name, sizeof r->participants[0].name, "candidate");
    r->participants[0].is_candidate = 1;
    hb_status status;
    char *text = write_csv("id", r, &status);
    assert_int_equal(status, HB_OK);
    csv_table t;
    csv_parse(text, &t);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.row[1].n, t.row[0].n);
    assert_string_equal(cell(&t, 1, "role"), "candidate");
    assert_string_equal(cell(&t, 1, "verdict"), "unsupported");
    assert_string_equal(cell(&t, 1, "reason"), r->reason);
    ASSERT_NUM(&t, 1, "m", 100);
    ASSERT_NUM(&t, 1, "k", 300);
    for (const char *const *c = time_columns; *c; c++)
        assert_string_equal(cell(&t, 1, *c), "");
    for (const char *const *c = speedup_columns; *c; c++)
        assert_string_equal(cell(&t, 1, *c), "");
    const char *unchecked[] = {"paper_max_abs_dev", "paper_dev_bound", "non_finite", "padded_m", "padded_n", "padded_k", NULL};
    for (const char **c = unchecked; *c; c++)
        assert_string_equal(cell(&t, 1, *c), "");
    csv_free(&t);
    free(text);
    free(r);
}

static void test_csv_write_error(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (!full)
        skip();
    hb_config_result *r = make_result();
    hb_csv_write_header(full);
    assert_int_equal(hb_csv_write_config(full, "id", "fp32", r), HB_ERR_IO);
    fclose(full);
    free(r);
}

static char *field_text(const char *text)
{
    hb_test_capture capture;
    FILE *stream = hb_test_capture_open(&capture);
    hb_csv_write_field(stream, text);
    char *out = hb_test_capture_close(&capture);
    return out;
}

static void test_csv_write_field_quoting(void **state)
{
    (void)state;
    const struct {
        const char *in, *out;
    } cases[] = {
        {"plain", "plain"},
        {"", ""},
        {" spaced out ", " spaced out "},
        {"a,b", "\"a,b\""},
        {"say \"hi\"", "\"say \"\"hi\"\"\""},
        {"\"", "\"\"\"\""},
        {"two\nlines", "\"two\nlines\""},
        {"cr\r", "\"cr\r\""},
        {"semi;colon|pipe\ttab", "semi;colon|pipe\ttab"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = field_text(cases[i].in);
        assert_string_equal(got, cases[i].out);
        free(got);
    }
}

/* --- stdout table ---------------------------------------------------------------- */

static char *report_text(const hb_config_result *r)
{
    hb_test_capture capture;
    FILE *stream = hb_test_capture_open(&capture);
    hb_report_config(stream, r);
    char *out = hb_test_capture_close(&capture);
    return out;
}

static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (const char *c = text; *c; c++)
        n += *c == '\n';
    return n;
}

static const char *line_with(const char *text, const char *needle)
{
    const char *hit = strstr(text, needle);
    if (!hit)
        fprintf(stderr, "no '%s' in:\n%s\n", needle, text);
    assert_non_null(hit);
    while (hit > text && hit[-1] != '\n')
        hit--;
    return hit;
}

static void test_report_table_measured(void **state)
{
    (void)state;
    hb_config_result *r = make_result();
    char *text = report_text(r);
    assert_non_null(strstr(text, "M=1024 N=2048 K=512"));
    assert_non_null(strstr(text, "pass"));
    assert_non_null(strstr(text, "123 rounds"));
    assert_non_null(strstr(text, "speedup"));
    assert_non_null(strstr(text, "paper"));
    /* one line per participant, with its median in us and its TFLOP/s */
    const double flops = 2.0 * 1024 * 2048 * 512;
    for (size_t i = 0; i < r->count; i++) {
        const hb_participant_result *p = &r->participants[i];
        char name_col[32];
        snprintf(name_col, sizeof name_col, "  %s ", p->name);
        const char *line = line_with(text, name_col);
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        char buffer[256];
        snprintf(buffer, sizeof buffer, "%.*s", (int)(end - line), line);
        char median[32], tflops[32];
        snprintf(median, sizeof median, "%.2f", p->event_ms.median * 1000);
        snprintf(tflops, sizeof tflops, "%.2f", flops / (p->event_ms.median / 1000) / 1e12);
        assert_non_null(strstr(buffer, median));
        assert_non_null(strstr(buffer, tflops));
        if (!p->is_candidate) {
            char speedup[32];
            snprintf(speedup, sizeof speedup, "%+.2f%%", p->speedup_event.geomean * 100);
            assert_non_null(strstr(buffer, speedup));
        }
    }
    /* torch: +25.00 % geomean, +25.10 % paper */
    assert_non_null(strstr(line_with(text, "  torch "), "+25.00%"));
    assert_non_null(strstr(line_with(text, "  torch "), "+25.10%"));
    free(text);
    free(r);
}

static void test_report_table_unsupported(void **state)
{
    (void)state;
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->mnk = (hb_mnk){100, 200, 300};
    r->status = HB_ERR_UNSUPPORTED;
    r->verdict = hb_verdict_of_status(HB_ERR_UNSUPPORTED);
    snprintf(r->reason, sizeof r->reason, "no cubin for sm_86 in cands/m.json");
    r->count = 1;
    snprintf(r->participants[0].name, sizeof r->participants[0].name, "candidate");
    r->participants[0].is_candidate = 1;
    char *text = report_text(r);
    assert_non_null(strstr(text, "M=100 N=200 K=300"));
    assert_non_null(strstr(text, "unsupported"));
    assert_non_null(strstr(text, "no cubin for sm_86 in cands/m.json"));
    assert_null(strstr(text, "speedup"));
    assert_null(strstr(text, "median"));
    assert_null(strstr(text, "pass"));
    /* a blank separator line and the verdict line only */
    assert_int_equal(count_lines(text), 2);
    free(text);

    /* checked but failed: the reason, no table, even with baselines present */
    hb_config_result *bad = make_result();
    bad->status = HB_ERR_INCORRECT;
    bad->verdict = hb_verdict_of_status(HB_ERR_INCORRECT);
    bad->measured = 0;
    snprintf(bad->reason, sizeof bad->reason, "max |C-ref| 9 > bound 0.0625");
    text = report_text(bad);
    assert_non_null(strstr(text, "incorrect: max |C-ref| 9 > bound 0.0625"));
    assert_null(strstr(text, "cublas-nn"));
    assert_null(strstr(text, "speedup"));
    free(text);
    free(bad);
    free(r);
}

/* The header is a contract with every script that reads summary.csv: it must
 * match the fixture taken before the writers were reorganised. */
static void test_csv_header_is_stable(void **state)
{
    (void)state;
    hb_test_capture capture;
    FILE *out = hb_test_capture_open(&capture);
    hb_csv_write_header(out);
    char *text = hb_test_capture_close(&capture);
    char *expected = hb_test_read_file("tests/data/summary_header.csv");
    assert_non_null(expected);
    assert_string_equal(text, expected);
    free(expected);
    free(text);
    /* the fixture's README says how many columns it has: the table's count */
    char said[64];
    snprintf(said, sizeof said, "the header line of summary.csv, %zu columns", hb_summary_column_count());
    char *readme = hb_test_read_file("tests/data/README.md");
    assert_non_null(readme);
    for (char *c = readme; *c; c++) /* the sentence may wrap */
        if (*c == '\n')
            *c = ' ';
    if (!strstr(readme, said))
        fail_msg("tests/data/README.md does not say \"%s\"", said);
    free(readme);
}

/* --- the column table ---------------------------------------------------------------- */

static char *read_text(const char *path)
{
    FILE *file = fopen(path, "r");
    assert_non_null(file);
    assert_int_equal(fseek(file, 0, SEEK_END), 0);
    long size = ftell(file);
    assert_true(size > 0);
    rewind(file);
    char *text = calloc(1, (size_t)size + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, file), (size_t)size);
    fclose(file);
    return text;
}

/* The table is the header: the same names in the same order, none twice. */
static void test_columns_are_the_fixture_header(void **state)
{
    (void)state;
    char *text = read_text("tests/data/summary_header.csv");
    csv_table t;
    csv_parse(text, &t);
    assert_int_equal(t.n, 1);
    assert_int_equal(hb_summary_column_count(), t.row[0].n);
    for (size_t i = 0; i < t.row[0].n; i++) {
        const hb_column *c = hb_summary_column(i);
        assert_non_null(c);
        assert_non_null(c->value);
        assert_string_equal(c->name, t.row[0].field[i]);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(c->name, hb_summary_column(j)->name);
    }
    assert_null(hb_summary_column(hb_summary_column_count()));
    csv_free(&t);
    free(text);
}

static void test_column_lookup_by_name(void **state)
{
    (void)state;
    for (size_t i = 0; i < hb_summary_column_count(); i++)
        assert_ptr_equal(hb_summary_column_find(hb_summary_column(i)->name), hb_summary_column(i));
    assert_null(hb_summary_column_find("no_such_column"));
    assert_null(hb_summary_column_find("speedup_geomean "));
    assert_null(hb_summary_column_find(""));
    assert_null(hb_summary_column_find(NULL));
    /* what a later sink does: one figure of one row, by name */
    hb_config_result *r = make_result();
    hb_row torch = {"id", "fp32", r, &r->participants[1]};
    hb_cell cell = hb_summary_column_find("speedup_geomean")->value(&torch);
    assert_int_equal(cell.kind, HB_CELL_NUMBER);
    assert_true(fabs(cell.number - 0.25) < 1e-12);
    cell = hb_summary_column_find("participant")->value(&torch);
    assert_int_equal(cell.kind, HB_CELL_TEXT);
    assert_string_equal(hb_cell_text(&cell), "torch");
    free(r);
}

/* make_result's configuration, measured and checked or not, with or without
 * what server mode, --target-ci, NVML and a cuBLASLt baseline add; its rows
 * are the candidate, three baselines and a -max row. */
static hb_config_result *make_variant(int measured, int checked, int rich)
{
    hb_config_result *r = make_result();
    r->measured = measured;
    r->checked = checked;
    r->battery.exact_binary = (hb_exact_record){.ran = checked, .reps = 3, .compared = 3000};
    r->battery.exact_signed = (hb_exact_record){.ran = checked && rich, .reps = 2, .compared = 2000};
    r->battery.post_ran = checked && measured;
    r->timing.mode = rich ? HB_MODE_SERVER : HB_MODE_OFFLINE;
    r->timing.target_ci = rich ? 0.01 : 0;
    r->telemetry.available = rich;
    r->telemetry.reasons_seen = rich ? HB_REASON_SW_POWER_CAP : 0;
    r->telemetry.throttled = rich;
    snprintf(r->telemetry.why, sizeof r->telemetry.why, "%s", rich ? "ok" : "libnvidia-ml.so.1 not found");
    snprintf(r->window.stopped_by, sizeof r->window.stopped_by, "time");
    if (rich)
        r->participants[3].desc.algo = (hb_algo_record){.known = 1, .id = 21, .tile = "128x256", .source = "cache",
                                                        .rank = -1, .heuristic_results = 8};
    hb_participant_result *max = &r->participants[r->count++];
    *max = r->participants[3];
    snprintf(max->name, sizeof max->name, "cublas-max");
    snprintf(max->max_of, sizeof max->max_of, "%s", r->participants[3].name);
    return r;
}

static hb_cell value_of(const char *name, const hb_row *row)
{
    const hb_column *column = hb_summary_column_find(name);
    assert_non_null(column);
    return column->value(row);
}

/* Every value function answers for every kind of row with a well-formed
 * cell, and a few of the emptiness rules docs/results.md states hold. */
static void check_row_cells(const hb_row *row)
{
    for (size_t i = 0; i < hb_summary_column_count(); i++) {
        hb_cell cell = hb_summary_column(i)->value(row);
        assert_true(cell.kind == HB_CELL_EMPTY || cell.kind == HB_CELL_NUMBER || cell.kind == HB_CELL_TEXT);
        if (cell.kind == HB_CELL_NUMBER)
            assert_false(isnan(cell.number));
        assert_non_null(hb_cell_text(&cell));
    }
    const hb_config_result *r = row->config;
    int candidate = row->participant->is_candidate;
    assert_int_equal(value_of("event_median_us", row).kind, r->measured ? HB_CELL_NUMBER : HB_CELL_EMPTY);
    assert_int_equal(value_of("paper_max_abs_dev", row).kind, r->checked ? HB_CELL_NUMBER : HB_CELL_EMPTY);
    assert_int_equal(value_of("speedup_geomean", row).kind,
                     r->measured && !candidate ? HB_CELL_NUMBER : HB_CELL_EMPTY);
    assert_int_equal(value_of("exact_binary_reps", row).kind,
                     r->checked && candidate ? HB_CELL_NUMBER : HB_CELL_EMPTY);
    assert_int_equal(value_of("warmup_rounds", row).kind, r->measured && candidate ? HB_CELL_NUMBER : HB_CELL_EMPTY);
    assert_int_equal(value_of("algo_id", row).kind, row->participant->desc.algo.known ? HB_CELL_NUMBER : HB_CELL_EMPTY);
    assert_int_equal(value_of("mode", row).kind, HB_CELL_TEXT);
}

static void test_column_values_for_every_kind_of_row(void **state)
{
    (void)state;
    for (int variant = 0; variant < 8; variant++) {
        hb_config_result *r = make_variant(variant & 1, variant & 2, variant & 4);
        for (size_t i = 0; i < r->count; i++) {
            hb_row row = {"id", "fp32", r, &r->participants[i]};
            check_row_cells(&row);
        }
        hb_status status;
        char *text = write_csv("id", r, &status);
        assert_int_equal(status, HB_OK);
        csv_table t;
        csv_parse(text, &t);
        assert_int_equal(t.n, 1 + r->count);
        for (size_t row = 1; row < t.n; row++)
            assert_int_equal(t.row[row].n, hb_summary_column_count());
        assert_string_equal(cell(&t, t.n - 1, "role"), "baseline-max");
        csv_free(&t);
        free(text);
        free(r);
    }
}

/* --- the candidate's form (docs/results.md, `form`) ------------------------------- */

/* make_result's configuration, its candidate timed in `form`; `refusal`:
 * a launcher recorded under --form replay that has no replay. */
static hb_config_result *make_form(hb_candidate_form form, int recorded, hb_replay_refusal refusal)
{
    hb_config_result *r = make_result();
    hb_replay_record *p = &r->replay;
    p->form = form;
    p->recorded = recorded;
    p->refusal = refusal;
    if (refusal != HB_REFUSE_NONE)
        snprintf(p->reason, sizeof p->reason, "=call 2 copied C to the host (cudaMemcpy)");
    else if (recorded) {
        *p = (hb_replay_record){.form = form, .recorded = 1, .kernels_per_call = 2, .ops_per_call = 3,
                                .prologue_ops = 1, .allocs = 1, .maps = 4};
        snprintf(p->folder, sizeof p->folder, "results/x/replay/1024_2048_512");
    }
    p->record_s = recorded ? 1.25 : 0;
    return r;
}

static void test_form_columns(void **state)
{
    (void)state;
    hb_status status;
    csv_table t;

    /* a replay: its form and what it holds on the candidate's row, nothing on a baseline's */
    hb_config_result *r = make_form(HB_FORM_REPLAY, 1, HB_REFUSE_NONE);
    char *text = write_csv("id", r, &status);
    assert_int_equal(status, HB_OK);
    csv_parse(text, &t);
    assert_string_equal(cell(&t, 1, "form"), "replay");
    assert_string_equal(cell(&t, 1, "replay_refusal"), "");
    assert_string_equal(cell(&t, 1, "replay_reason"), "");
    ASSERT_NUM(&t, 1, "replay_kernels", 2);
    ASSERT_NUM(&t, 1, "replay_ops", 3);
    ASSERT_NUM(&t, 1, "replay_prologue_ops", 1);
    ASSERT_NUM(&t, 1, "replay_allocs", 1);
    ASSERT_NUM(&t, 1, "replay_maps", 4);
    ASSERT_NUM(&t, 1, "replay_record_s", 1.25);
    static const char *const form_columns[] = {"form", "replay_refusal", "replay_reason", "replay_kernels",
                                               "replay_ops", "replay_record_s"};
    for (size_t c = 0; c < sizeof form_columns / sizeof form_columns[0]; c++)
        assert_string_equal(cell(&t, 2, form_columns[c]), "");
    csv_free(&t);
    free(text);
    free(r);

    /* a launcher with no replay: timed as a launcher, the class and the words (guarded: they start with '='),
     * no replay figures but the recording's time */
    r = make_form(HB_FORM_LAUNCHER, 1, HB_REFUSE_HOST_READ);
    text = write_csv("id", r, &status);
    assert_int_equal(status, HB_OK);
    csv_parse(text, &t);
    assert_string_equal(cell(&t, 1, "form"), "launcher");
    assert_string_equal(cell(&t, 1, "replay_refusal"), "host-read");
    assert_string_equal(cell(&t, 1, "replay_reason"), "'=call 2 copied C to the host (cudaMemcpy)");
    assert_string_equal(cell(&t, 1, "replay_kernels"), "");
    assert_string_equal(cell(&t, 1, "replay_maps"), "");
    ASSERT_NUM(&t, 1, "replay_record_s", 1.25);
    csv_free(&t);
    free(text);
    free(r);

    /* a cubin, and --form launcher: nothing recorded, so every replay cell is empty */
    const hb_candidate_form unrecorded[] = {HB_FORM_CUBIN, HB_FORM_LAUNCHER, HB_FORM_NONE};
    const char *const names[] = {"cubin", "launcher", ""};
    for (size_t i = 0; i < 3; i++) {
        r = make_form(unrecorded[i], 0, HB_REFUSE_NONE);
        text = write_csv("id", r, &status);
        assert_int_equal(status, HB_OK);
        csv_parse(text, &t);
        assert_string_equal(cell(&t, 1, "form"), names[i]);
        for (size_t c = 1; c < sizeof form_columns / sizeof form_columns[0]; c++)
            assert_string_equal(cell(&t, 1, form_columns[c]), "");
        csv_free(&t);
        free(text);
        free(r);
    }
}

static void test_form_in_the_table_and_verdict(void **state)
{
    (void)state;
    hb_config_result *r = make_form(HB_FORM_REPLAY, 1, HB_REFUSE_NONE);
    char *text = report_text(r);
    assert_non_null(strstr(text, "K=512  candidate (replay): pass"));
    assert_non_null(strstr(text, "\n  candidate (replay)     ")); /* the row of its times */
    assert_null(strstr(text, "no replay"));
    free(text);
    json_t *o = hb_verdict_config_json(r, "torch", 0);
    assert_string_equal(json_string_value(json_object_get(o, "form")), "replay");
    const json_t *replay = json_object_get(o, "replay");
    assert_true(json_is_null(json_object_get(replay, "refusal")));
    assert_int_equal(json_integer_value(json_object_get(replay, "kernels_per_call")), 2);
    assert_int_equal(json_integer_value(json_object_get(replay, "maps")), 4);
    assert_string_equal(json_string_value(json_object_get(replay, "folder")), "results/x/replay/1024_2048_512");
    json_decref(o);
    free(r);

    /* timed as a launcher because it has no replay: the form, and why on a line of its own */
    r = make_form(HB_FORM_LAUNCHER, 1, HB_REFUSE_CALLS_DIFFER);
    text = report_text(r);
    assert_non_null(strstr(text, "candidate (launcher): pass"));
    assert_non_null(strstr(text, "  form: launcher, timed with its host code: it has no replay (calls-differ: "
                                 "=call 2 copied C to the host (cudaMemcpy))\n"));
    free(text);
    o = hb_verdict_config_json(r, "torch", 0);
    assert_string_equal(json_string_value(json_object_get(o, "form")), "launcher");
    replay = json_object_get(o, "replay");
    assert_string_equal(json_string_value(json_object_get(replay, "refusal")), "calls-differ");
    assert_true(json_is_null(json_object_get(replay, "kernels_per_call")));
    assert_true(json_is_null(json_object_get(replay, "folder")));
    json_decref(o);
    free(r);

    /* a cubin: its form, no note, no replay object */
    r = make_form(HB_FORM_CUBIN, 0, HB_REFUSE_NONE);
    text = report_text(r);
    assert_non_null(strstr(text, "candidate (cubin): pass"));
    assert_null(strstr(text, "no replay"));
    free(text);
    o = hb_verdict_config_json(r, "torch", 0);
    assert_string_equal(json_string_value(json_object_get(o, "form")), "cubin");
    assert_true(json_is_null(json_object_get(o, "replay")));
    json_decref(o);
    free(r);
}

static const struct CMUnitTest report_tests[] = {
    cmocka_unit_test(test_form_columns),
    cmocka_unit_test(test_form_in_the_table_and_verdict),
    cmocka_unit_test(test_csv_header_is_stable),
    cmocka_unit_test(test_columns_are_the_fixture_header),
    cmocka_unit_test(test_column_lookup_by_name),
    cmocka_unit_test(test_column_values_for_every_kind_of_row),
    cmocka_unit_test(test_csv_full_config),
    cmocka_unit_test(test_csv_incorrect_with_quoted_reason),
    cmocka_unit_test(test_csv_unsupported_config),
    cmocka_unit_test(test_csv_write_error),
    cmocka_unit_test(test_csv_write_field_quoting),
    cmocka_unit_test(test_report_table_measured),
    cmocka_unit_test(test_report_table_unsupported),
};

hb_test_list hb_report_tests(void) { return HB_TEST_LIST(report_tests); }
