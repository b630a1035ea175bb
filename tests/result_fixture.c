#define _POSIX_C_SOURCE 200809L
#include "tests/result_fixture.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"
#include "bench/core/rng.h"
#include "bench/core/version.h"
#include "bench/report/csv_writer.h"
#include "bench/report/env_json.h"
#include "bench/result/baseline_registry.h"
#include "bench/result/config_result.h"
#include "bench/result/max_rows.h"
#include "bench/result/run_record.h"
#include "bench/result/timer_check.h"
#include "bench/sweep/journal.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/sweep_store.h"

static const long grid[] = {64, 128, 256, 512, 1024, 2048, 4096, 8192, 12288, 16384};
#define GRID (sizeof grid / sizeof grid[0])

/* A standard normal draw (Box-Muller). */
static double normal(hb_rng *rng)
{
    double u = hb_rng_uniform(rng), v = hb_rng_uniform(rng);
    return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * 3.14159265358979323846 * v);
}

static hb_verdict draw_verdict(hb_rng *rng, double failed_share)
{
    static const hb_verdict failures[] = {HB_VERDICT_INCORRECT, HB_VERDICT_CRASHED, HB_VERDICT_TIMED_OUT,
                                          HB_VERDICT_UNSUPPORTED, HB_VERDICT_IMPLAUSIBLE, HB_VERDICT_TOO_SLOW};
    if (hb_rng_uniform(rng) >= failed_share)
        return HB_VERDICT_PASS;
    return failures[hb_rng_below(rng, sizeof failures / sizeof failures[0])];
}

static void set_times(hb_time_summary *s, double median_ms)
{
    *s = (hb_time_summary){1000, median_ms * 0.97, median_ms * 1.3, median_ms * 1.01, median_ms, median_ms * 0.98,
                           median_ms * 1.04, median_ms * 0.02, 0.02};
}

/* A participant's row: times around `median_ms`; a baseline's speedups from
 * t_b / t_c, the paper's estimator a little above ours, as noise makes it. */
static void fill_participant(hb_participant_result *p, const char *name, double median_ms, double cand_ms,
                             hb_rng *rng)
{
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->desc.compute_type, sizeof p->desc.compute_type, "CUBLAS_COMPUTE_32F");
    snprintf(p->desc.algorithm, sizeof p->desc.algorithm, "%s",
             strstr(name, "cublaslt") ? "cublasLtMatmul/heuristic" : "cublasGemmEx/CUBLAS_GEMM_DEFAULT_TENSOR_OP");
    if (strstr(name, "cublaslt")) { /* what cuBLASLt rows carry */
        p->desc.algo.known = 1;
        p->desc.algo.id = 21;
        snprintf(p->desc.algo.tile, sizeof p->desc.algo.tile, "128x256");
        snprintf(p->desc.algo.stages, sizeof p->desc.algo.stages, "64x4");
        snprintf(p->desc.algo.reduction, sizeof p->desc.algo.reduction, "none");
        snprintf(p->desc.algo.cluster, sizeof p->desc.algo.cluster, "1x2x1");
        snprintf(p->desc.algo.source, sizeof p->desc.algo.source, "heuristic");
    }
    set_times(&p->event_ms, median_ms);
    set_times(&p->wall_ms, median_ms * (1.0 + 0.05 * hb_rng_uniform(rng)));
    /* compare's repo estimator and kernel timer: a wall noise and a kernel time
     * that vary with the time, drawn without the generator (the other figures stay as they were) */
    double fraction = median_ms * 1e4 - floor(median_ms * 1e4);
    p->wall_ms.rel_stdev = 0.01 + 0.2 * fraction;
    p->kernel = (hb_kernel_time){
        .traced = 1, .calls = 1000, .from_timed = 1, .span_us = median_ms * 1e3 * (0.8 + 0.15 * fraction)};
    p->kernel.sum_us = p->kernel.span_p10_us = p->kernel.span_p90_us = p->kernel.first_span_us = p->kernel.span_us;
    p->kernel.wall_us = p->wall_ms.median * 1e3;
    p->kernel.host_us = p->kernel.wall_us - p->kernel.span_us;
    p->kernel.kernels_per_call = p->kernel.first_call_kernels = 1;
    if (p->is_candidate)
        return;
    double q = median_ms / cand_ms;
    p->speedup_event.n = 1000;
    p->speedup_event.geomean = q * exp(0.01 * normal(rng)) - 1.0;
    p->speedup_event.paper = (p->speedup_event.geomean + 1.0) * (1.0 + 0.004 * hb_rng_uniform(rng)) - 1.0;
    p->speedup_event.ci95_low = p->speedup_event.geomean - 0.01;
    p->speedup_event.ci95_high = p->speedup_event.geomean + 0.01;
    p->speedup_wall.geomean = (p->speedup_event.geomean + 1.0) * exp(0.02 * normal(rng)) - 1.0;
    p->speedup_wall.paper = (p->speedup_wall.geomean + 1.0) * (1.0 + 0.004 * hb_rng_uniform(rng)) - 1.0;
}

/* The result a run would have written for one configuration. */
static void build_result(const hb_fixture_config *c, hb_rng *rng, hb_config_result *r)
{
    hb_config_result_init(r, &c->mnk);
    r->verdict = c->verdict;
    r->timing.mode = c->mode;
    r->status = hb_verdict_status(c->verdict); /* the pair a run records (bench/result/verdict.h) */
    if (c->verdict != HB_VERDICT_PASS) {
        snprintf(r->check, sizeof r->check, "%s", c->verdict == HB_VERDICT_IMPLAUSIBLE ? "peak-throughput" : "execution");
        snprintf(r->reason, sizeof r->reason, "%s at %ldx%ldx%ld, \"generated\"", hb_verdict_name(c->verdict),
                 c->mnk.m, c->mnk.n, c->mnk.k);
    }
    int timed = c->verdict == HB_VERDICT_PASS || c->verdict == HB_VERDICT_TOO_SLOW ||
                c->verdict == HB_VERDICT_IMPLAUSIBLE;
    int rows = c->verdict != HB_VERDICT_CRASHED && c->verdict != HB_VERDICT_TIMED_OUT; /* a dead child: one row */
    r->measured = timed;
    /* the battery's first check, the candidate's first call: every configuration whose child came back
     * with a result, but one that could not run here (unsupported: refused before any call) */
    if (rows && c->verdict != HB_VERDICT_UNSUPPORTED)
        r->battery.exact_binary = (hb_exact_record){.ran = 1, .reps = 3, .compared = (uint64_t)c->mnk.m * c->mnk.n};
    double cand_ms = hb_gemm_flops(c->mnk.m, c->mnk.n, c->mnk.k) / 400e12 * 1e3 * exp(0.3 * normal(rng)) + 0.004;
    fill_participant(&r->participants[0], "candidate", cand_ms, cand_ms, rng);
    for (size_t b = 0; rows && b < HB_N_BASELINES; b++) {
        hb_participant_result *p = &r->participants[r->count++];
        fill_participant(p, hb_baselines[b].name, cand_ms * exp(0.1 + 0.25 * normal(rng)), cand_ms, rng);
        p->desc.b_layout = hb_baselines[b].b_layout;
    }
    hb_add_max_rows(r);
}

/* The figures the writer puts in summary.csv, as ratios: what the report reads. */
static void record_rows(const hb_config_result *r, hb_fixture_config *c)
{
    int speedups = r->measured && r->status != HB_ERR_IMPLAUSIBLE;
    c->n_rows = 0;
    for (size_t i = 1; i < r->count && c->n_rows < HB_FIXTURE_ROWS; i++) {
        const hb_participant_result *p = &r->participants[i];
        hb_fixture_row *row = &c->rows[c->n_rows++];
        snprintf(row->name, sizeof row->name, "%s", p->name);
        row->paper = speedups ? p->speedup_event.paper + 1.0 : NAN;
        row->geomean = speedups ? p->speedup_event.geomean + 1.0 : NAN;
        row->paper_wall = speedups ? p->speedup_wall.paper + 1.0 : NAN;
        row->geomean_wall = speedups ? p->speedup_wall.geomean + 1.0 : NAN;
        row->kernel = hb_kernel_speedup(r, p) + 1.0; /* written whether timed or not: NaN where untraced */
    }
}

/* The configuration's summary.csv rows, as the run's writer writes them. */
static hb_status keep_csv_rows(const hb_config_result *r, hb_fixture_config *c);

hb_status hb_fixture_rewrite(hb_fixture_config *c)
{
    free(c->csv_rows);
    c->csv_rows = NULL;
    record_rows(c->result, c);
    return keep_csv_rows(c->result, c);
}

/* The configuration's summary.csv rows, as the run's writer writes them. */
static hb_status keep_csv_rows(const hb_config_result *r, hb_fixture_config *c)
{
    size_t size = 0;
    FILE *text = open_memstream(&c->csv_rows, &size);
    if (!text)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory");
    hb_status status = hb_csv_write_config(text, "20260101T000000Z-f1x7", "fp32", r);
    return fclose(text) == 0 ? status : hb_fail(HB_ERR_INTERNAL, "out of host memory");
}

hb_status hb_fixture_set_timing(hb_fixture_config *c, const char *trace_note, unsigned timer_reasons)
{
    hb_config_result *r = c->result;
    snprintf(r->trace_note, sizeof r->trace_note, "%s", trace_note);
    r->timer_reasons = timer_reasons;
    r->headline_timer = timer_reasons ? HB_TIMER_WALL : HB_TIMER_EVENT;
    if (timer_reasons)
        snprintf(r->timer_why, sizeof r->timer_why, "generated: the work left the events");
    return hb_fixture_rewrite(c);
}

hb_status hb_fixture_set_kernel(hb_fixture_config *c)
{
    hb_config_result *r = c->result;
    for (size_t i = 0; i < r->count; i++) {
        hb_participant_result *p = &r->participants[i];
        p->kernel.traced = 1;
        p->kernel.calls = 1000;
        p->kernel.from_timed = 1;
        p->kernel.span_us = p->event_ms.median * 1e3 * (p->is_candidate ? 0.9 : 0.6);
    }
    return hb_fixture_rewrite(c);
}

hb_status hb_fixture_set_speedup(hb_fixture_config *c, const char *name, double headline, double kernel)
{
    hb_config_result *r = c->result;
    hb_participant_result *candidate = NULL, *row = NULL;
    for (size_t i = 0; i < r->count; i++) {
        if (r->participants[i].is_candidate)
            candidate = &r->participants[i];
        else if (!strcmp(r->participants[i].name, name))
            row = &r->participants[i];
    }
    if (!candidate || !row)
        return hb_fail(HB_ERR_INTERNAL, "the fixture's configuration has no candidate or no row %s", name);
    row->speedup_event.paper = headline - 1.0;
    candidate->kernel.span_us = 100.0;
    row->kernel.span_us = 100.0 * kernel;
    return hb_fixture_rewrite(c);
}

hb_status hb_fixture_set_verdict(hb_fixture_config *c, hb_verdict verdict, const char *check)
{
    hb_config_result *r = c->result;
    c->verdict = r->verdict = verdict;
    r->status = hb_verdict_status(verdict);
    snprintf(r->check, sizeof r->check, "%s", check);
    snprintf(r->reason, sizeof r->reason, "%s (generated)", hb_verdict_name(verdict));
    return hb_fixture_rewrite(c);
}

hb_status hb_fixture_write_env(const char *folder, const char *gpu_name, const char *candidate, int traced,
                               unsigned long long seed, const char *command_line)
{
    static hb_run_options options;
    static hb_device_info device;
    memset(&options, 0, sizeof options);
    memset(&device, 0, sizeof device);
    snprintf(device.name, sizeof device.name, "%s", gpu_name);
    options.candidate_path = candidate;
    options.trace = traced;
    options.isolate = 1;
    options.seed = seed;
    options.seed_given = 1;
    options.warmup_s = 0.25;
    options.time_s = 1.5;
    options.mean_gap_ms = 1.0;
    hb_run_record run = {.command = "run", .run_id = "20260101T000000Z-f1x7", .run_path = folder,
                         .command_line = command_line, .started_utc = "2026-01-01T00:00:00Z",
                         .options = &options, .device = &device};
    char path[4200];
    if (mkdir(folder, 0755) != 0 && errno != EEXIST)
        return hb_fail(HB_ERR_IO, "cannot create %s: %s", folder, strerror(errno));
    snprintf(path, sizeof path, "%s/env.json", folder);
    return hb_env_json_write(path, &run);
}

hb_status hb_fixture_make(uint64_t seed, size_t count, const hb_mode *modes, size_t n_modes, double failed_share,
                          hb_fixture *out)
{
    if (count > GRID * GRID * GRID)
        return hb_fail(HB_ERR_INTERNAL, "the grid has %zu sizes, not %zu", GRID * GRID * GRID, count);
    out->count = 0;
    out->configs = calloc(count * n_modes + 1, sizeof *out->configs);
    unsigned char *taken = calloc(GRID * GRID * GRID, 1);
    hb_config_result *r = malloc(sizeof *r);
    if (!out->configs || !taken || !r) {
        free(taken);
        free(r);
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu configurations", count);
    }
    hb_rng rng;
    hb_rng_seed(&rng, seed);
    hb_status status = HB_OK;
    for (size_t i = 0; i < count && status == HB_OK; i++) {
        size_t cell;
        do
            cell = hb_rng_below(&rng, GRID * GRID * GRID);
        while (taken[cell]);
        taken[cell] = 1;
        hb_mnk mnk = {grid[cell / (GRID * GRID)], grid[cell / GRID % GRID], grid[cell % GRID]};
        for (size_t m = 0; m < n_modes && status == HB_OK; m++) {
            hb_fixture_config *c = &out->configs[out->count++];
            *c = (hb_fixture_config){.mnk = mnk, .mode = modes[m], .verdict = draw_verdict(&rng, failed_share)};
            build_result(c, &rng, r);
            record_rows(r, c);
            status = keep_csv_rows(r, c);
            c->result = malloc(sizeof *c->result);
            if (status == HB_OK && !c->result)
                status = hb_fail(HB_ERR_INTERNAL, "out of host memory");
            if (c->result)
                *c->result = *r;
        }
    }
    free(taken);
    free(r);
    return status;
}

void hb_fixture_free(hb_fixture *f)
{
    for (size_t i = 0; i < f->count; i++) {
        free(f->configs[i].csv_rows);
        free(f->configs[i].result);
    }
    free(f->configs);
    f->configs = NULL;
    f->count = 0;
}

static hb_status write_env(const char *folder, const char *gpu_name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/env.json", folder);
    json_t *env = json_pack("{s:s, s:{s:s}}", "format", "hgemm-bench-env/1", "gpu", "name", gpu_name);
    int failed = !env || json_dump_file(env, path, JSON_INDENT(2)) != 0;
    json_decref(env);
    return failed ? hb_fail(HB_ERR_IO, "cannot write %s", path) : HB_OK;
}

hb_status hb_fixture_write_run(const hb_fixture *f, size_t first, size_t count, const char *folder,
                               const char *gpu_name)
{
    char path[4200];
    if (mkdir(folder, 0755) != 0 && errno != EEXIST)
        return hb_fail(HB_ERR_IO, "cannot create %s: %s", folder, strerror(errno));
    snprintf(path, sizeof path, "%s/summary.csv", folder);
    FILE *csv = fopen(path, "w");
    if (!csv)
        return hb_fail(HB_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    hb_csv_write_header(csv);
    for (size_t i = first; i < first + count && i < f->count; i++)
        fputs(f->configs[i].csv_rows, csv);
    if (fclose(csv) != 0)
        return hb_fail(HB_ERR_IO, "writing %s failed", path);
    return gpu_name ? write_env(folder, gpu_name) : HB_OK;
}

/* The journal a sweep would have written for the summary.csv in `folder`
 * (if there is one): a line, by the sweep's own formatter, for each of the
 * fixture's configurations whose rows follow the ones before, in order. */
static hb_status write_journal(const hb_fixture *f, const char *folder)
{
    char path[4200], *csv = NULL;
    size_t size = 0;
    snprintf(path, sizeof path, "%s/summary.csv", folder);
    HB_TRY(hb_input_read(path, NULL, (size_t)1 << 30, HB_ERR_IO, 1, &csv, &size));
    if (!csv)
        return HB_OK;
    snprintf(path, sizeof path, "%s/" HB_JOURNAL_NAME, folder);
    FILE *journal = fopen(path, "w");
    hb_status status = journal ? HB_OK : hb_fail(HB_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    size_t at = strcspn(csv, "\n") + 1;
    for (size_t i = 0; status == HB_OK && i < f->count; i++) {
        const hb_fixture_config *c = &f->configs[i];
        size_t length = strlen(c->csv_rows);
        if (at + length > size || memcmp(csv + at, c->csv_rows, length))
            continue;
        at += length;
        hb_journal_entry e = {.item = i, .mnk = c->mnk, .mode = c->mode, .status = c->result->status,
                              .csv_end = (long long)at};
        snprintf(e.verdict, sizeof e.verdict, "%s", hb_verdict_name(c->result->verdict));
        snprintf(e.check, sizeof e.check, "%s", c->result->check);
        snprintf(e.reason, sizeof e.reason, "%s", c->result->reason);
        char line[2048];
        status = hb_journal_format(&e, line, sizeof line);
        if (status == HB_OK && fputs(line, journal) == EOF)
            status = hb_fail(HB_ERR_IO, "writing %s failed", path);
    }
    if (journal && fclose(journal) != 0 && status == HB_OK)
        status = hb_fail(HB_ERR_IO, "writing %s failed", path);
    free(csv);
    return status;
}

hb_status hb_fixture_write_plan(const hb_fixture *f, size_t extra, const char *folder)
{
    /* the sweep's own writer (bench/sweep/plan_file.h): one mode, the fixture's */
    static hb_plan_file plan;
    memset(&plan, 0, sizeof plan);
    plan.plan.modes[0] = f->count ? f->configs[0].mode : HB_MODE_OFFLINE;
    plan.plan.n_modes = 1;
    plan.shard = (hb_shard){0, 1};
    for (size_t i = 0; i < f->count; i++)
        HB_TRY(hb_plan_add(&plan.plan, f->configs[i].mnk, "fixture"));
    for (size_t e = 0; e < extra; e++) /* sizes the fixture never draws: M below the grid's 64 */
        HB_TRY(hb_plan_add(&plan.plan, (hb_mnk){(long)(8 + e), 64, 64}, "fixture"));
    snprintf(plan.harness_commit, sizeof plan.harness_commit, "fixture");
    snprintf(plan.created_utc, sizeof plan.created_utc, "2026-11-23T00:00:00Z");
    snprintf(plan.command_line, sizeof plan.command_line, "fixture");
    char *words[] = {"--candidate", "fixture"};
    HB_TRY(hb_plan_file_set_words(&plan, words, 2));
    hb_plan_file_identify(&plan);
    HB_TRY(hb_plan_file_write(folder, &plan));
    return write_journal(f, folder);
}

/* The plan of a fixture made with every mode of `modes`: config i is item i. */
static hb_status sweep_plan_of(const hb_fixture *f, const char *candidate, hb_shard shard, hb_plan_file *plan)
{
    memset(plan, 0, sizeof *plan);
    hb_sweep_plan *p = &plan->plan;
    for (size_t i = 0; i < f->count && p->n_modes < HB_PLAN_MAX_MODES; i++) {
        int seen = 0;
        for (size_t m = 0; m < p->n_modes; m++)
            seen |= p->modes[m] == f->configs[i].mode;
        if (seen)
            break;
        p->modes[p->n_modes++] = f->configs[i].mode;
    }
    if (!p->n_modes || f->count % p->n_modes)
        return hb_fail(HB_ERR_INTERNAL, "the fixture's configurations are not sizes times modes");
    for (size_t i = 0; i < f->count; i += p->n_modes)
        HB_TRY(hb_plan_add(p, f->configs[i].mnk, "fixture"));
    plan->shard = shard;
    snprintf(plan->harness_commit, sizeof plan->harness_commit, "%s", hb_harness_commit());
    snprintf(plan->created_utc, sizeof plan->created_utc, "2026-11-23T00:00:00Z");
    char modes[32];
    snprintf(modes, sizeof modes, "%s%s%s", hb_mode_name(p->modes[0]), p->n_modes > 1 ? "," : "",
             p->n_modes > 1 ? hb_mode_name(p->modes[1]) : "");
    /* as typed: the paper's grid, sampled down to the fixture's sizes */
    snprintf(plan->command_line, sizeof plan->command_line,
             "hgemm-bench sweep --candidate %s --grid paper --sample %zu --seed 1 --modes %s --out sweep", candidate,
             p->n_configs, modes);
    char *words[] = {"--candidate", (char *)candidate, "--modes", modes};
    HB_TRY(hb_plan_file_set_words(plan, words, 4));
    hb_plan_file_identify(plan);
    return HB_OK;
}

hb_status hb_fixture_write_sweep(const hb_fixture *f, const char *folder, const char *candidate, size_t shard_index,
                                 size_t shard_count, size_t done, const char *gpu_name)
{
    static hb_plan_file plan;
    static hb_sweep_store store;
    if (mkdir(folder, 0755) != 0 && errno != EEXIST)
        return hb_fail(HB_ERR_IO, "cannot create %s: %s", folder, strerror(errno));
    HB_TRY(sweep_plan_of(f, candidate, (hb_shard){shard_index, shard_count}, &plan));
    HB_TRY(hb_plan_file_write(folder, &plan));
    HB_TRY(write_env(folder, gpu_name));
    HB_TRY(hb_sweep_store_create(&store, folder, &plan.plan));
    hb_status status = HB_OK;
    for (size_t item = 0, written = 0; status == HB_OK && item < f->count && written < done; item++) {
        if (!hb_shard_holds(&plan.shard, item))
            continue;
        hb_journal_entry entry = {.item = item, .mode = f->configs[item].mode, .device = 0};
        snprintf(entry.gpu_uuid, sizeof entry.gpu_uuid, "GPU-fixture");
        status = hb_sweep_store_append(&store, plan.sweep_id, "fp32", f->configs[item].result, &entry);
        written++;
    }
    hb_sweep_store_close(&store);
    return status;
}
