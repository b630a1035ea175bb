#include "bench/analysis/reproduction_forms.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/bad_results.h"
#include "bench/analysis/csv_reader.h"
#include "bench/analysis/number_ranges.h"
#include "bench/core/array_room.h"
#include "bench/core/diag.h"
#include "bench/core/timing_policy.h"

enum { F_M, F_N, F_K, F_MODE, F_ROLE, F_PARTICIPANT, F_VERDICT, F_SPEEDUP, F_REFUSAL, F_COUNT };
static const char *const form_columns[F_COUNT] = {"m",       "n",             "k", "mode", "role", "participant",
                                                  "verdict", "speedup_paper", "replay_refusal"};
static const unsigned char form_optional[F_COUNT] = {[F_REFUSAL] = 1};

static hb_status candidate(hb_form_rows *out, const hb_csv_row *row)
{
    void *items = out->rows;
    if (!hb_array_room(&items, &out->cap, out->n, sizeof *out->rows))
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    out->rows = items;
    hb_form_config *c = &out->rows[out->n];
    memset(c, 0, sizeof *c);
    HB_TRY(hb_csv_dimension(row, F_M, &c->m));
    HB_TRY(hb_csv_dimension(row, F_N, &c->n));
    HB_TRY(hb_csv_dimension(row, F_K, &c->k));
    hb_mode mode;
    if (!hb_mode_parse(row->text[F_MODE], &mode))
        return hb_bad_results(row->path, row->line, row->column[F_MODE], row->name[F_MODE],
                              "'%s' is not a mode (offline or server)", row->text[F_MODE]);
    snprintf(c->mode, sizeof c->mode, "%s", hb_mode_name(mode));
    snprintf(c->verdict, sizeof c->verdict, "%.23s", row->text[F_VERDICT]);
    c->ratio = NAN;
    const char *refusal = row->text[F_REFUSAL];
    if (refusal)
        out->has_refusals = 1;
    /* a launcher's refusal is its configuration's: counted once, not once per mode */
    int seen = 0;
    for (size_t i = 0; i < out->n && !seen; i++)
        seen = out->rows[i].m == c->m && out->rows[i].n == c->n && out->rows[i].k == c->k;
    out->n++;
    if (refusal && *refusal && strcmp(refusal, "none") && !seen)
        HB_TRY(hb_label_add(&out->refusals, refusal, 0));
    return HB_OK;
}

static hb_status form_row(void *context, const hb_csv_row *row)
{
    hb_form_rows *out = context;
    if (!strcmp(row->text[F_ROLE], "candidate"))
        return candidate(out, row);
    if (!out->n || strcmp(row->text[F_PARTICIPANT], HB_FORMS_BASELINE))
        return HB_OK;
    /* a configuration's baseline rows follow its candidate row */
    hb_form_config *c = &out->rows[out->n - 1];
    long m, n, k;
    HB_TRY(hb_csv_dimension(row, F_M, &m));
    HB_TRY(hb_csv_dimension(row, F_N, &n));
    HB_TRY(hb_csv_dimension(row, F_K, &k));
    double s;
    HB_TRY(hb_csv_number(row, F_SPEEDUP, &s));
    if (m == c->m && n == c->n && k == c->k && !strcmp(row->text[F_MODE], c->mode) && !strcmp(c->verdict, "pass") &&
        !isnan(s))
        c->ratio = 1 + s; /* speedup_paper is t_base / t_cand - 1 */
    return HB_OK;
}

hb_status hb_form_rows_read(const char *summary_csv, hb_form_rows *out)
{
    memset(out, 0, sizeof *out);
    hb_csv_spec spec = {.what = "an hgemm-bench summary.csv", .wanted = form_columns, .n_wanted = F_COUNT,
                        .optional = form_optional, .row = form_row, .context = out};
    hb_status status = hb_csv_read(summary_csv, &spec);
    hb_label_sort(&out->refusals);
    return status;
}

void hb_form_rows_free(hb_form_rows *rows)
{
    free(rows->rows);
    hb_label_counts_free(&rows->refusals);
    memset(rows, 0, sizeof *rows);
}

const hb_form_config *hb_form_rows_find(const hb_form_rows *rows, long m, long n, long k, const char *mode)
{
    for (size_t i = 0; i < rows->n; i++) {
        const hb_form_config *c = &rows->rows[i];
        if (c->m == m && c->n == n && c->k == k && !strcmp(c->mode, mode))
            return c;
    }
    return NULL;
}
