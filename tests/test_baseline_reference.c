/* Tests of the baselines' clean-process reference on hand-built figures, CPU
 * only: the tolerance's parser (bench/result/reference_tolerance.c), the
 * judgement (bench/result/baseline_reference.c: a foreign kernel, more
 * kernels per call, medians within and beyond the tolerance, a reference
 * missing a baseline, another algorithm), the cache
 * (bench/report/reference_cache.c: same key reused, another key not, a
 * damaged file measured again and never a crash), and the results' cells
 * and verdict.json object. */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/diag.h"
#include "bench/report/reference_cache.h"
#include "bench/report/summary_columns.h"
#include "bench/report/verdict_file.h"
#include "bench/result/baseline_reference.h"
#include "bench/result/reference_record.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- fixtures ---------------------------------------------------------------------- */

#define GEMM_KERNEL "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off"
#define SLEEP_KERNEL "_Z12sleep_kernelv"

/* One timer's spread: median m, p10/p90 at m -+ width/2, over n samples. */
static hb_ref_spread spread(double median_us, double width_us, size_t n)
{
    return (hb_ref_spread){n, median_us, median_us - width_us / 2, median_us + width_us / 2};
}

/* A baseline that ran GEMM_KERNEL once a call: event, wall and kernel medians. */
static void baseline(hb_baseline_figures *f, const char *name, double event_us, double wall_us, double kernel_us)
{
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->timer[HB_REF_EVENT] = spread(event_us, 0.2, 5000);
    f->timer[HB_REF_WALL] = spread(wall_us, 0.4, 5000);
    f->timer[HB_REF_KERNEL] = spread(kernel_us, 0.1, 5000);
    f->traced = 1;
    f->kernel_names = 1;
    snprintf(f->kernel_name[0], sizeof f->kernel_name[0], "%s", GEMM_KERNEL);
    f->kernels_per_call = 1;
    f->copies_per_call = 0.5; /* a set in every other call: the copies are judged by their rate */
}

/* The tolerance the judgement's tests are written for (tighter than the
 * default, so that small made-up differences decide). */
static hb_ref_tolerance fixture_tolerance(void)
{
    hb_ref_tolerance t;
    char why[200];
    assert_true(hb_ref_tolerance_parse("5%+0.5us,kernel=5%+0.2us", &t, why, sizeof why));
    return t;
}

/* Every baseline of the registry, torch at 10/14/6 us and the others a little slower. */
static void reference(hb_held_reference *held)
{
    memset(held, 0, sizeof *held);
    held->tolerance = fixture_tolerance();
    held->shared_choices = 1;
    hb_baseline_reference *ref = &held->reference;
    ref->count = HB_N_BASELINES;
    for (int i = 0; i < HB_N_BASELINES; i++)
        baseline(&ref->baseline[i], hb_baselines[i].name, 10 + i, 14 + i, 6 + i);
    ref->rounds = 5000;
    ref->warmup_s = 0.2;
    ref->time_s = 1;
    ref->seconds = 2.5;
    snprintf(ref->created, sizeof ref->created, "2026-11-28T10:00:00Z");
}

/* The same figures, as the candidate's process saw them. */
static size_t seen_as_clean(const hb_held_reference *held, hb_baseline_figures *seen)
{
    for (size_t i = 0; i < held->reference.count; i++)
        seen[i] = held->reference.baseline[i];
    return held->reference.count;
}

static hb_baseline_figures *seen_named(hb_baseline_figures *seen, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(seen[i].name, name))
            return &seen[i];
    fail_msg("no baseline %s", name);
    return NULL;
}

static hb_held_reference held;
static hb_baseline_figures seen[HB_N_BASELINES];
static hb_ref_judgement judgement;

/* --- the tolerance ------------------------------------------------------------------- */

static void test_reference_tolerance_parse(void **state)
{
    (void)state;
    hb_ref_tolerance t = hb_ref_tolerance_default();
    assert_true(fabs(t.relative[HB_REF_EVENT] - 0.50) < 1e-12);
    assert_true(fabs(t.absolute_us[HB_REF_EVENT] - 5) < 1e-12);
    assert_true(fabs(t.absolute_us[HB_REF_WALL] - 5) < 1e-12);
    assert_true(fabs(t.relative[HB_REF_KERNEL] - 0.10) < 1e-12);
    assert_true(fabs(t.absolute_us[HB_REF_KERNEL] - 0.5) < 1e-12);
    char why[200];
    assert_true(hb_ref_tolerance_parse("3%+0.3", &t, why, sizeof why)); /* every timer */
    for (int f = 0; f < HB_REF_FIGURES; f++) {
        assert_true(fabs(t.relative[f] - 0.03) < 1e-12);
        assert_true(fabs(t.absolute_us[f] - 0.3) < 1e-12);
    }
    assert_true(hb_ref_tolerance_parse("2%+1us,wall=10%+2.5us", &t, why, sizeof why)); /* later items win */
    assert_true(fabs(t.relative[HB_REF_WALL] - 0.10) < 1e-12);
    assert_true(fabs(t.absolute_us[HB_REF_WALL] - 2.5) < 1e-12);
    assert_true(fabs(t.relative[HB_REF_KERNEL] - 0.02) < 1e-12);
    assert_true(hb_ref_tolerance_parse("kernel=1%+0", &t, why, sizeof why)); /* the others keep the default */
    assert_true(fabs(t.relative[HB_REF_EVENT] - 0.50) < 1e-12);
    assert_true(fabs(t.absolute_us[HB_REF_KERNEL]) < 1e-12);
    /* the flag writes what it reads back */
    char text[200];
    hb_ref_tolerance again;
    hb_ref_tolerance_format(&t, text, sizeof text);
    assert_true(hb_ref_tolerance_parse(text, &again, why, sizeof why));
    for (int f = 0; f < HB_REF_FIGURES; f++) {
        assert_true(fabs(again.relative[f] - t.relative[f]) < 1e-12);
        assert_true(fabs(again.absolute_us[f] - t.absolute_us[f]) < 1e-12);
    }
    static const char *const bad[] = {"",       "5",         "5%",     "5%+",      "-1%+0.5", "5%+-1", "5%+0.5ms",
                                      "5%+0.5,", "foo=5%+1", "event=", "1001%+0", "5%+1e7",  "nan%+1", "5%+inf"};
    hb_ref_tolerance kept = t;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        if (hb_ref_tolerance_parse(bad[i], &t, why, sizeof why))
            fail_msg("'%s' was taken", bad[i]);
        assert_true(why[0] != '\0');
        assert_memory_equal(&t, &kept, sizeof t); /* a refused value changes nothing */
    }
}

/* The allowed excess grows with the medians' noise: wide, few samples (server mode) allow more. */
static void test_reference_tolerance_counts_the_noise(void **state)
{
    (void)state;
    const hb_ref_tolerance t = fixture_tolerance();
    hb_ref_spread clean = spread(10, 0, 5000), seen_tight = spread(10, 0, 5000);
    double noise;
    assert_true(fabs(hb_ref_allowed_us(&t, HB_REF_EVENT, &clean, &seen_tight, &noise) - (0.5 + 0.5)) < 1e-9);
    assert_true(noise == 0);
    hb_ref_spread wide_clean = spread(10, 12, 60), wide_seen = spread(10, 12, 60); /* p10..p90 over 12 us */
    const double allowed = hb_ref_allowed_us(&t, HB_REF_EVENT, &wide_clean, &wide_seen, &noise);
    const double se = 1.2533 * (12 / 2.5631) / sqrt(60.0);
    assert_true(fabs(noise - HB_REF_NOISE_Z * sqrt(2) * se) < 1e-9);
    assert_true(fabs(allowed - (0.5 + 0.5 + noise)) < 1e-9);
    assert_true(isnan(hb_ref_median_se_us(&(hb_ref_spread){0, 1, 1, 1})));
}

/* --- the judgement ------------------------------------------------------------------- */

static void test_reference_judge_clean_figures_pass(void **state)
{
    (void)state;
    reference(&held);
    size_t n = seen_as_clean(&held, seen);
    seen_named(seen, n, "torch")->timer[HB_REF_WALL].median_us = 14.6; /* 14 + 5 % + 0.5 = 15.2: within */
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_false(judgement.interfered);
    assert_string_equal(judgement.check, "");
    assert_int_equal(judgement.held, HB_N_BASELINES);
    assert_string_equal(judgement.not_held, "");
    assert_true(fabs(judgement.worst_ratio - 14.6 / 14) < 1e-9);
    assert_string_equal(judgement.worst, "torch wall");
    /* faster than the clean process is no interference */
    seen_named(seen, n, "torch")->timer[HB_REF_EVENT].median_us = 5;
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_false(judgement.interfered);
}

/* A kernel the clean process never ran, named with its baseline. */
static void test_reference_judge_names_a_foreign_kernel(void **state)
{
    (void)state;
    reference(&held);
    size_t n = seen_as_clean(&held, seen);
    hb_baseline_figures *nn = seen_named(seen, n, "cublas-nn");
    snprintf(nn->kernel_name[nn->kernel_names++], sizeof nn->kernel_name[0], "%s", SLEEP_KERNEL);
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_true(judgement.interfered);
    assert_string_equal(judgement.check, HB_CHECK_BASELINE_KERNELS);
    assert_non_null(strstr(judgement.reason, "cublas-nn"));
    assert_non_null(strstr(judgement.reason, SLEEP_KERNEL));
    assert_non_null(strstr(judgement.reason, "clean process"));
    /* the kernels' verdict comes first, even with a slower median elsewhere */
    seen_named(seen, n, "torch")->timer[HB_REF_EVENT].median_us = 30;
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_string_equal(judgement.check, HB_CHECK_BASELINE_KERNELS);
    assert_true(fabs(judgement.worst_ratio - 3) < 1e-9); /* the worst ratio still counts every baseline */
}

/* The same kernel twice in a call where the clean process ran it once. */
static void test_reference_judge_more_kernels_per_call(void **state)
{
    (void)state;
    reference(&held);
    size_t n = seen_as_clean(&held, seen);
    seen_named(seen, n, "torch")->kernels_per_call = 2;
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_true(judgement.interfered);
    assert_string_equal(judgement.check, HB_CHECK_BASELINE_KERNELS);
    assert_non_null(strstr(judgement.reason, "torch ran 2 kernels in one call"));
    assert_non_null(strstr(judgement.reason, "1 at most in its clean process"));
    /* a copy or set in every call that its clean process never made */
    seen_named(seen, n, "torch")->kernels_per_call = 1;
    seen_named(seen, n, "cublas-tn")->copies_per_call = 1;
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_true(judgement.interfered);
    assert_string_equal(judgement.check, HB_CHECK_BASELINE_KERNELS);
    assert_non_null(strstr(judgement.reason, "cublas-tn made 1.000 copies or sets per call"));
    seen_named(seen, n, "cublas-tn")->copies_per_call = 0.505; /* within the slack of one in a hundred calls */
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_false(judgement.interfered);
    seen_named(seen, n, "torch")->kernels_per_call = 2;
    /* without a trace on either side the kernels are not judged */
    seen_named(seen, n, "torch")->traced = 0;
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_false(judgement.interfered);
}

/* A median beyond the tolerance: the figure, both values and the tolerance named. */
static void test_reference_judge_a_slow_median(void **state)
{
    (void)state;
    reference(&held);
    size_t n = seen_as_clean(&held, seen);
    seen_named(seen, n, "torch")->timer[HB_REF_EVENT].median_us = 13.2; /* 10 + 0.5 + 0.5 = 11 allowed */
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_true(judgement.interfered);
    assert_string_equal(judgement.check, HB_CHECK_BASELINE_TIMES);
    assert_non_null(strstr(judgement.reason, "torch's event median is 13.200 us"));
    assert_non_null(strstr(judgement.reason, "10.000 us in its clean process"));
    assert_non_null(strstr(judgement.reason, "5 % + 0.500 us"));
    assert_string_equal(judgement.worst, "torch event");
    assert_true(fabs(judgement.worst_ratio - 1.32) < 1e-9);
    /* the kernel-only figure on its own tolerance (5 % + 0.2 us: 6.5 allowed over 6) */
    reference(&held);
    n = seen_as_clean(&held, seen);
    seen_named(seen, n, "torch")->timer[HB_REF_KERNEL].median_us = 6.45;
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_false(judgement.interfered);
    seen_named(seen, n, "torch")->timer[HB_REF_KERNEL].median_us = 6.6;
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_true(judgement.interfered);
    assert_non_null(strstr(judgement.reason, "torch's kernel median"));
    /* a looser tolerance lets the same figures pass */
    char why[100];
    assert_true(hb_ref_tolerance_parse("10%+0.5", &held.tolerance, why, sizeof why));
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_false(judgement.interfered);
    /* a timer that did not run on one side is not judged */
    seen_named(seen, n, "torch")->timer[HB_REF_KERNEL] = (hb_ref_spread){0, NAN, NAN, NAN};
    seen_named(seen, n, "torch")->timer[HB_REF_WALL].median_us = 1000;
    held.reference.baseline[0].timer[HB_REF_WALL].n = 0;
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_false(judgement.interfered);
}

/* A reference missing a baseline: that baseline is not held (said), and the
 * cached reference is not whole (the parent measures it again). */
static void test_reference_missing_a_baseline(void **state)
{
    (void)state;
    reference(&held);
    size_t n = seen_as_clean(&held, seen);
    char why[200];
    assert_true(hb_reference_complete(&held.reference, why, sizeof why));
    held.reference.baseline[2] = held.reference.baseline[HB_N_BASELINES - 1];
    held.reference.count = HB_N_BASELINES - 1;
    const char *missing = hb_baselines[2].name;
    assert_false(hb_reference_complete(&held.reference, why, sizeof why));
    assert_non_null(strstr(why, missing));
    seen_named(seen, n, missing)->timer[HB_REF_EVENT].median_us = 1e6; /* not held: not judged */
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_false(judgement.interfered);
    assert_int_equal(judgement.held, HB_N_BASELINES - 1);
    assert_non_null(strstr(judgement.not_held, missing));
    assert_non_null(strstr(judgement.not_held, "no reference"));
    /* a baseline with no median is not whole either */
    reference(&held);
    held.reference.baseline[0].timer[HB_REF_WALL].n = 0;
    assert_false(hb_reference_complete(&held.reference, why, sizeof why));
    assert_non_null(strstr(why, "wall"));
}

/* Another algorithm: not held, with both named, whether or not both processes read one choice. */
static void test_reference_judge_another_algorithm(void **state)
{
    (void)state;
    reference(&held);
    const size_t autotune = 5;
    snprintf(held.reference.baseline[autotune].algo, sizeof held.reference.baseline[0].algo, "id=21 tile=128x256");
    size_t n = seen_as_clean(&held, seen);
    snprintf(seen[autotune].algo, sizeof seen[0].algo, "id=6 tile=64x64");
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_false(judgement.interfered);
    assert_non_null(strstr(judgement.not_held, "id=6 tile=64x64"));
    assert_non_null(strstr(judgement.not_held, "id=21 tile=128x256"));
    held.shared_choices = 0;
    hb_judge_baselines(&held, seen, n, &judgement);
    assert_false(judgement.interfered);
    assert_non_null(strstr(judgement.not_held, seen[autotune].name));
    assert_int_equal(judgement.held, HB_N_BASELINES - 1);
    /* whether a cached reference's choice is still the autotune cache's */
    assert_false(hb_reference_choice_current(&held.reference.baseline[autotune], "id=21 tile=128x256", 1));
    snprintf(held.reference.baseline[autotune].choice, sizeof held.reference.baseline[0].choice,
             "id=21 tile=128x256");
    assert_true(hb_reference_choice_current(&held.reference.baseline[autotune], "id=21 tile=128x256", 1));
    assert_false(hb_reference_choice_current(&held.reference.baseline[autotune], "id=6 tile=64x64", 1));
    assert_false(hb_reference_choice_current(&held.reference.baseline[autotune], NULL, 1)); /* a search to come */
    snprintf(held.reference.baseline[autotune].algo_source, sizeof held.reference.baseline[0].algo_source,
             "fallback");
    assert_true(hb_reference_choice_current(&held.reference.baseline[autotune], NULL, 0));
}

/* A participant's figures from its result and the monitor's record. */
static void test_reference_figures_of_a_participant(void **state)
{
    (void)state;
    static hb_participant_result p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "cublaslt-autotune-nn");
    p.event_ms = (hb_time_summary){.n = 40, .median = 0.010, .p10 = 0.009, .p90 = 0.012};
    p.wall_ms = (hb_time_summary){.n = 40, .median = 0.015, .p10 = 0.014, .p90 = 0.017};
    p.desc.algo.known = 1;
    p.desc.algo.id = 21;
    snprintf(p.desc.algo.source, sizeof p.desc.algo.source, "cache");
    static hb_watched w;
    assert_int_equal(hb_watched_init(&w, p.name, 0, 2), HB_OK);
    const double spans[] = {5, NAN, 7, 6, 100}; /* the fifth round is past the window's decision */
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(hb_sample_vec_set(&w.timed_span_us, i, spans[i]), HB_OK);
    w.tally.n_kernel_names = 2;
    snprintf(w.tally.kernel_name[0], sizeof w.tally.kernel_name[0], "%s", GEMM_KERNEL);
    snprintf(w.tally.kernel_name[1], sizeof w.tally.kernel_name[1], "splitKreduce_kernel");
    w.tally.max_kernels = 2;
    w.tally.calls = 8;
    w.tally.copies = 2;
    hb_baseline_figures f;
    hb_baseline_figures_of(&p, &w, 4, &f);
    assert_string_equal(f.name, "cublaslt-autotune-nn");
    assert_non_null(strstr(f.algo, "id=21"));
    assert_string_equal(f.algo_source, "cache");
    assert_int_equal(f.timer[HB_REF_EVENT].n, 40);
    assert_true(fabs(f.timer[HB_REF_EVENT].median_us - 10) < 1e-9);
    assert_true(fabs(f.timer[HB_REF_WALL].p90_us - 17) < 1e-9);
    assert_int_equal(f.timer[HB_REF_KERNEL].n, 3); /* the NaN round left out, the fifth not kept */
    assert_true(fabs(f.timer[HB_REF_KERNEL].median_us - 6) < 1e-9);
    assert_true(f.traced);
    assert_int_equal(f.kernel_names, 2);
    assert_string_equal(f.kernel_name[1], "splitKreduce_kernel");
    assert_int_equal(f.kernels_per_call, 2);
    assert_true(fabs(f.copies_per_call - 0.25) < 1e-12);
    hb_watched_free(&w);
    /* no monitor: no kernels, no kernel figure */
    hb_baseline_figures_of(&p, NULL, 4, &f);
    assert_false(f.traced);
    assert_int_equal(f.timer[HB_REF_KERNEL].n, 0);
}

/* --- the cache ---------------------------------------------------------------------------- */

static void key(hb_reference_key *k, long m)
{
    memset(k, 0, sizeof *k);
    snprintf(k->gpu_uuid, sizeof k->gpu_uuid, "GPU-0000");
    snprintf(k->driver, sizeof k->driver, "580.159.04");
    snprintf(k->harness, sizeof k->harness, "2d24671b690d");
    k->m = m;
    k->n = 256;
    k->k = 128;
    snprintf(k->acc, sizeof k->acc, "fp32");
    snprintf(k->mode, sizeof k->mode, "server");
    snprintf(k->gap, sizeof k->gap, "per-call");
    k->mean_gap_ms = 2;
    snprintf(k->l2, sizeof k->l2, "fresh");
    snprintf(k->stream, sizeof k->stream, "legacy");
    k->workspace_bytes = 32u << 20;
    k->warmup_s = 0.2;
    k->time_s = 1;
    snprintf(k->monitor, sizeof k->monitor, "all");
    snprintf(k->sandbox, sizeof k->sandbox, "on");
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void test_reference_cache_same_key_reused(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-refcache", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/below/" HB_REFERENCE_CACHE_FILE, dir); /* its folder made on store */
    reference(&held);
    held.reference.baseline[1].timer[HB_REF_KERNEL] = (hb_ref_spread){0, NAN, NAN, NAN}; /* untimed: null */
    held.reference.baseline[1].traced = 0;
    snprintf(held.reference.baseline[5].choice, sizeof held.reference.baseline[5].choice, "id=21 tile=128x256");
    hb_reference_key k;
    key(&k, 64);
    static hb_baseline_reference got;
    int found = 1;
    assert_int_equal(hb_reference_cache_lookup(path, &k, &got, &found), HB_OK); /* no file yet */
    assert_false(found);
    assert_int_equal(hb_reference_cache_store(path, &k, &held.reference), HB_OK);
    assert_int_equal(hb_reference_cache_lookup(path, &k, &got, &found), HB_OK);
    assert_true(found);
    assert_int_equal(got.count, HB_N_BASELINES);
    assert_int_equal(got.rounds, 5000);
    assert_string_equal(got.created, held.reference.created);
    for (size_t i = 0; i < got.count; i++) {
        const hb_baseline_figures *a = &got.baseline[i], *b = &held.reference.baseline[i];
        assert_string_equal(a->name, b->name);
        assert_string_equal(a->kernel_name[0], b->kernel_name[0]);
        assert_string_equal(a->choice, b->choice);
        assert_true(a->copies_per_call == b->copies_per_call);
        assert_int_equal(a->kernels_per_call, b->kernels_per_call);
        assert_int_equal(a->traced, b->traced);
        for (int f = 0; f < HB_REF_FIGURES; f++) {
            assert_int_equal(a->timer[f].n, b->timer[f].n);
            if (b->timer[f].n)
                assert_true(a->timer[f].median_us == b->timer[f].median_us); /* bit for bit */
        }
    }
    /* a second key beside it; a store of the first key again replaces it, the second stays */
    hb_reference_key other;
    key(&other, 128);
    held.reference.rounds = 77;
    assert_int_equal(hb_reference_cache_store(path, &other, &held.reference), HB_OK);
    held.reference.rounds = 99;
    assert_int_equal(hb_reference_cache_store(path, &k, &held.reference), HB_OK);
    assert_int_equal(hb_reference_cache_lookup(path, &k, &got, &found), HB_OK);
    assert_true(found);
    assert_int_equal(got.rounds, 99);
    assert_int_equal(hb_reference_cache_lookup(path, &other, &got, &found), HB_OK);
    assert_true(found);
    assert_int_equal(got.rounds, 77);
    json_t *doc = hb_test_load_json(path);
    assert_string_equal(json_string_value(json_object_get(doc, "format")), HB_REFERENCE_CACHE_FORMAT);
    assert_int_equal(json_array_size(json_object_get(doc, "entries")), 2);
    json_decref(doc);
    hb_test_remove_tree(dir);
}

/* Any field of the key differing: not found (the reference is measured again). */
static void test_reference_cache_key_mismatch_remeasures(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-refcache", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/" HB_REFERENCE_CACHE_FILE, dir);
    reference(&held);
    hb_reference_key k;
    key(&k, 64);
    assert_int_equal(hb_reference_cache_store(path, &k, &held.reference), HB_OK);
    static hb_baseline_reference got;
    for (int field = 0; field < 9; field++) {
        hb_reference_key changed = k;
        switch (field) {
        case 0: snprintf(changed.gpu_uuid, sizeof changed.gpu_uuid, "GPU-1111"); break;
        case 1: snprintf(changed.driver, sizeof changed.driver, "590.1"); break;
        case 2: snprintf(changed.harness, sizeof changed.harness, "abcdef"); break;
        case 3: changed.k = 129; break;
        case 4: changed.mean_gap_ms = 2.5; break;
        case 5: snprintf(changed.l2, sizeof changed.l2, "flush"); break;
        case 6: changed.time_s = 2; break;
        case 7: snprintf(changed.monitor, sizeof changed.monitor, "off"); break;
        default: snprintf(changed.sandbox, sizeof changed.sandbox, "off"); break;
        }
        int found = 1;
        assert_int_equal(hb_reference_cache_lookup(path, &changed, &got, &found), HB_OK);
        if (found)
            fail_msg("a key with field %d changed found the entry", field);
    }
    hb_test_remove_tree(dir);
}

/* A damaged file: never a crash; a warning, nothing found, and the next store rewrites it whole. */
static void test_reference_cache_damaged_file(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-refcache", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/" HB_REFERENCE_CACHE_FILE, dir);
    reference(&held);
    hb_reference_key k;
    key(&k, 64);
    static hb_baseline_reference got;
    static const char *const damaged[] = {
        "not json at all {",
        "{\"format\": \"hgemm-bench-baseline-reference/0\", \"entries\": []}",
        "{\"format\": \"hgemm-bench-baseline-reference/1\", \"entries\": {}}",
        "[1, 2, 3]",
        "",
    };
    hb_diag_set_quiet(1);
    for (size_t i = 0; i < sizeof damaged / sizeof damaged[0]; i++) {
        write_text(path, damaged[i]);
        int found = 1;
        assert_int_equal(hb_reference_cache_lookup(path, &k, &got, &found), HB_OK);
        assert_false(found);
        assert_int_equal(hb_reference_cache_store(path, &k, &held.reference), HB_OK);
        assert_int_equal(hb_reference_cache_lookup(path, &k, &got, &found), HB_OK);
        assert_true(found);
    }
    /* an entry of the key whose reference is malformed (a name too long, a count negative) is skipped */
    json_t *doc = hb_test_load_json(path);
    json_t *entry = json_array_get(json_object_get(doc, "entries"), 0);
    json_t *first = json_array_get(json_object_get(json_object_get(entry, "reference"), "baselines"), 0);
    json_object_set_new(first, "kernels_per_call", json_integer(-3));
    assert_int_equal(json_dump_file(doc, path, 0), 0);
    json_decref(doc);
    int found = 1;
    assert_int_equal(hb_reference_cache_lookup(path, &k, &got, &found), HB_OK);
    assert_false(found);
    /* the next store drops it and keeps a valid file */
    assert_int_equal(hb_reference_cache_store(path, &k, &held.reference), HB_OK);
    assert_int_equal(hb_reference_cache_lookup(path, &k, &got, &found), HB_OK);
    assert_true(found);
    /* a path that is a folder cannot be read: an I/O error, not a crash */
    char folder[720];
    snprintf(folder, sizeof folder, "%s/a-folder", dir);
    assert_int_equal(mkdir(folder, 0700), 0);
    assert_int_equal(hb_reference_cache_lookup(folder, &k, &got, &found), HB_ERR_IO);
    assert_false(found);
    hb_diag_set_quiet(0);
    hb_test_remove_tree(dir);
}

/* --- the results ---------------------------------------------------------------------------- */

static hb_cell cell(const hb_config_result *r, size_t participant, const char *column)
{
    hb_row row = {"id", "fp32", r, &r->participants[participant]};
    const hb_column *c = hb_summary_column_find(column);
    if (!c)
        fail_msg("no column %s", column);
    return c->value(&row);
}

static void test_reference_in_summary_and_verdict(void **state)
{
    (void)state;
    static hb_config_result r;
    const hb_mnk mnk = {256, 256, 256};
    hb_config_result_init(&r, &mnk);
    r.count = 2;
    snprintf(r.participants[1].name, sizeof r.participants[1].name, "torch");
    r.participants[1].reference = (hb_ref_medians){1, {10.5, 14.25, NAN}};
    r.baseline_reference = (hb_reference_record){.source = HB_REF_MEASURED, .seconds = 2.5, .judged = 1, .held = 7,
                                                 .worst_ratio = 1.0125};
    snprintf(r.baseline_reference.worst, sizeof r.baseline_reference.worst, "torch wall");
    hb_cell c = cell(&r, 0, "baseline_reference");
    assert_string_equal(hb_cell_text(&c), "measured");
    c = cell(&r, 0, "baseline_reference_ratio");
    assert_true(c.kind == HB_CELL_NUMBER && fabs(c.number - 1.0125) < 1e-12);
    c = cell(&r, 0, "baseline_reference_worst");
    assert_string_equal(hb_cell_text(&c), "torch wall");
    assert_int_equal(cell(&r, 1, "baseline_reference").kind, HB_CELL_EMPTY); /* the candidate's row alone */
    c = cell(&r, 1, "reference_wall_median_us");
    assert_true(c.kind == HB_CELL_NUMBER && c.number == 14.25);
    c = cell(&r, 1, "reference_kernel_median_us");
    assert_true(c.kind == HB_CELL_EMPTY || (c.kind == HB_CELL_NUMBER && isnan(c.number)));
    assert_int_equal(cell(&r, 0, "reference_event_median_us").kind, HB_CELL_EMPTY);

    json_t *o = hb_verdict_config_json(&r, "torch", 0);
    json_t *ref = json_object_get(o, "baseline_reference");
    assert_true(json_is_object(ref));
    assert_string_equal(json_string_value(json_object_get(ref, "source")), "measured");
    assert_true(json_is_null(json_object_get(ref, "why")));
    assert_true(fabs(json_number_value(json_object_get(ref, "worst_ratio")) - 1.0125) < 1e-12);
    assert_int_equal(json_integer_value(json_object_get(ref, "held")), 7);
    json_decref(o);

    /* none, and why */
    r.baseline_reference = (hb_reference_record){.source = HB_REF_NONE};
    snprintf(r.baseline_reference.why, sizeof r.baseline_reference.why, "--no-isolate: no clean process");
    c = cell(&r, 0, "baseline_reference");
    assert_string_equal(hb_cell_text(&c), "none (--no-isolate: no clean process)");
    assert_int_equal(cell(&r, 0, "baseline_reference_ratio").kind, HB_CELL_EMPTY);
    o = hb_verdict_config_json(&r, "torch", 0);
    ref = json_object_get(o, "baseline_reference");
    assert_string_equal(json_string_value(json_object_get(ref, "source")), "none");
    assert_string_equal(json_string_value(json_object_get(ref, "why")), "--no-isolate: no clean process");
    assert_true(json_is_null(json_object_get(ref, "worst_ratio")));
    json_decref(o);
    r.baseline_reference.source = HB_REF_OFF;
    c = cell(&r, 0, "baseline_reference");
    assert_string_equal(hb_cell_text(&c), "off");
}

static const struct CMUnitTest baseline_reference_tests[] = {
    cmocka_unit_test(test_reference_tolerance_parse),
    cmocka_unit_test(test_reference_tolerance_counts_the_noise),
    cmocka_unit_test(test_reference_judge_clean_figures_pass),
    cmocka_unit_test(test_reference_judge_names_a_foreign_kernel),
    cmocka_unit_test(test_reference_judge_more_kernels_per_call),
    cmocka_unit_test(test_reference_judge_a_slow_median),
    cmocka_unit_test(test_reference_missing_a_baseline),
    cmocka_unit_test(test_reference_judge_another_algorithm),
    cmocka_unit_test(test_reference_figures_of_a_participant),
    cmocka_unit_test(test_reference_cache_same_key_reused),
    cmocka_unit_test(test_reference_cache_key_mismatch_remeasures),
    cmocka_unit_test(test_reference_cache_damaged_file),
    cmocka_unit_test(test_reference_in_summary_and_verdict),
};

hb_test_list hb_baseline_reference_tests(void) { return HB_TEST_LIST(baseline_reference_tests); }
