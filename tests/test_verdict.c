/* Tests of bench/result/verdict.c, bench/result/gate.c and bench/report/verdict_file.c on
 * hand-built results: CPU only. */
#define _POSIX_C_SOURCE 200809L

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/driver/config_runner.h"
#include "bench/report/verdict_file.h"
#include "bench/result/config_result.h"
#include "bench/result/gate.h"
#include "bench/result/run_verdict.h"
#include "bench/result/verdict.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- fixtures ------------------------------------------------------------------ */

/* A passed, measured configuration: candidate 0.5 ms; torch over it
 * `torch_speedup`, cublas-nn `nn_speedup` (geomean of the paired ratios - 1). */
static void fill_result(hb_config_result *r, hb_mnk mnk, double torch_speedup, double nn_speedup)
{
    memset(r, 0, sizeof *r);
    r->mnk = mnk;
    r->status = HB_OK;
    r->verdict = HB_VERDICT_PASS;
    snprintf(r->manifest_path, sizeof r->manifest_path, "cands/%ld_%ld_%ld.json", mnk.m, mnk.n, mnk.k);
    r->checked = 1;
    r->deviation_bound = 0.0625;
    r->measured = 1;
    r->rounds = 77;
    r->spot_checks = 4;
    r->count = 3;
    const char *names[3] = {"candidate", "torch", "cublas-nn"};
    const double speedups[3] = {0, torch_speedup, nn_speedup};
    for (size_t i = 0; i < 3; i++) {
        hb_participant_result *p = &r->participants[i];
        snprintf(p->name, sizeof p->name, "%s", names[i]);
        p->is_candidate = i == 0;
        p->deviation.max_abs = 0.01 * (double)(i + 1);
        p->event_ms.n = 77;
        p->event_ms.median = 0.5 * (1 + speedups[i]);
        if (i) {
            hb_speedup_summary *s = &p->speedup_event;
            s->n = 77;
            s->geomean = speedups[i];
            s->ci95_low = speedups[i] - 0.01;
            s->ci95_high = speedups[i] + 0.01;
            s->paper = speedups[i] + 0.001;
        }
    }
}

static hb_config_result *new_results(size_t n)
{
    hb_config_result *r = calloc(n, sizeof *r);
    assert_non_null(r);
    return r;
}

/* --- verdict.h ------------------------------------------------------------------- */

static void test_verdict_names(void **state)
{
    (void)state;
    static const struct {
        hb_verdict verdict;
        const char *name;
    } cases[] = {
        {HB_VERDICT_PASS, "pass"},           {HB_VERDICT_TOO_SLOW, "too-slow"},
        {HB_VERDICT_UNSUPPORTED, "unsupported"}, {HB_VERDICT_INCORRECT, "incorrect"},
        {HB_VERDICT_CRASHED, "crashed"},     {HB_VERDICT_TIMED_OUT, "timed-out"},
        {HB_VERDICT_BAD_INPUT, "bad-input"}, {HB_VERDICT_ERROR, "error"},
        {HB_VERDICT_IMPLAUSIBLE, "implausible"}, {HB_VERDICT_FORBIDDEN, "forbidden"},
        {HB_VERDICT_TIMER_MISMATCH, "timer-mismatch"}, {HB_VERDICT_UNDECIDED, "undecided"},
        {HB_VERDICT_BASELINE_INTERFERENCE, "baseline-interference"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(hb_verdict_name(cases[i].verdict), cases[i].name);
    /* every name distinct */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t j = i + 1; j < sizeof cases / sizeof cases[0]; j++)
            assert_string_not_equal(hb_verdict_name(cases[i].verdict), hb_verdict_name(cases[j].verdict));
    assert_string_equal(hb_verdict_name((hb_verdict)99), "error");
}

static void test_verdict_of_every_status(void **state)
{
    (void)state;
    static const struct {
        hb_status status;
        hb_verdict verdict;
        const char *name;
    } cases[] = {
        {HB_OK, HB_VERDICT_PASS, "pass"},
        {HB_ERR_INTERNAL, HB_VERDICT_ERROR, "error"},
        {HB_ERR_USAGE, HB_VERDICT_ERROR, "error"},
        {HB_ERR_BAD_INPUT, HB_VERDICT_BAD_INPUT, "bad-input"},
        {HB_ERR_UNSUPPORTED, HB_VERDICT_UNSUPPORTED, "unsupported"},
        {HB_ERR_CUDA, HB_VERDICT_ERROR, "error"},
        {HB_ERR_INCORRECT, HB_VERDICT_INCORRECT, "incorrect"},
        {HB_ERR_IO, HB_VERDICT_ERROR, "error"},
        {HB_ERR_CANDIDATE_FAULT, HB_VERDICT_CRASHED, "crashed"},
        {HB_ERR_TOO_SLOW, HB_VERDICT_TOO_SLOW, "too-slow"},
        {HB_ERR_IMPLAUSIBLE, HB_VERDICT_IMPLAUSIBLE, "implausible"},
        {HB_ERR_BAD_RESULTS, HB_VERDICT_ERROR, "error"},
    };
    /* the table covers every status 0..11 */
    assert_int_equal(sizeof cases / sizeof cases[0], HB_ERR_BAD_RESULTS + 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(cases[i].status, (hb_status)i);
        assert_int_equal(hb_verdict_of_status(cases[i].status), cases[i].verdict);
        assert_string_equal(hb_verdict_name(hb_verdict_of_status(cases[i].status)), cases[i].name);
    }
    assert_int_equal(hb_verdict_of_status((hb_status)77), HB_VERDICT_ERROR);
}

/* Every verdict, the statuses a configuration with it ends with, as written
 * here by hand from bench/driver (config_eval, child_verdict, gate,
 * plausibility, sanitize_pass): a verdict read back from summary.csv must
 * give the status the sweep's journal recorded beside it. */
static void test_verdict_statuses_of_every_verdict(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        hb_status status;         /* the one it gives */
        hb_status also[4];        /* others it admits (error: which failure of the harness); 0 ends */
    } cases[HB_VERDICT_COUNT] = {
        [HB_VERDICT_PASS] = {"pass", HB_OK, {0}},
        [HB_VERDICT_TOO_SLOW] = {"too-slow", HB_ERR_TOO_SLOW, {0}},
        [HB_VERDICT_UNSUPPORTED] = {"unsupported", HB_ERR_UNSUPPORTED, {0}},
        [HB_VERDICT_INCORRECT] = {"incorrect", HB_ERR_INCORRECT, {0}},
        [HB_VERDICT_CRASHED] = {"crashed", HB_ERR_CANDIDATE_FAULT, {0}},
        [HB_VERDICT_TIMED_OUT] = {"timed-out", HB_ERR_CANDIDATE_FAULT, {0}},
        [HB_VERDICT_BAD_INPUT] = {"bad-input", HB_ERR_BAD_INPUT, {0}},
        [HB_VERDICT_ERROR] = {"error", HB_ERR_INTERNAL, {HB_ERR_USAGE, HB_ERR_CUDA, HB_ERR_IO, HB_ERR_BAD_RESULTS}},
        [HB_VERDICT_IMPLAUSIBLE] = {"implausible", HB_ERR_IMPLAUSIBLE, {0}},
        [HB_VERDICT_FORBIDDEN] = {"forbidden", HB_ERR_FORBIDDEN, {0}},
        [HB_VERDICT_TIMER_MISMATCH] = {"timer-mismatch", HB_ERR_TIMER_MISMATCH, {0}},
        [HB_VERDICT_UNDECIDED] = {"undecided", HB_ERR_TOO_SLOW, {0}},
        [HB_VERDICT_BASELINE_INTERFERENCE] = {"baseline-interference", HB_ERR_BASELINE_INTERFERENCE, {0}},
    };
    for (int v = 0; v < HB_VERDICT_COUNT; v++) {
        assert_non_null(cases[v].name); /* the table above names every verdict */
        assert_string_equal(hb_verdict_name((hb_verdict)v), cases[v].name);
        hb_verdict parsed = HB_VERDICT_COUNT;
        assert_true(hb_verdict_parse(cases[v].name, &parsed));
        assert_int_equal(parsed, v);
        assert_int_equal(hb_verdict_status((hb_verdict)v), cases[v].status);
        /* exactly the statuses listed, among every status there is */
        for (int s = 0; s <= HB_ERR_BASELINE_INTERFERENCE; s++) {
            int listed = s == (int)cases[v].status;
            for (size_t a = 0; a < 4; a++)
                listed |= cases[v].also[a] != HB_OK && s == (int)cases[v].also[a];
            if (hb_verdict_admits((hb_verdict)v, (hb_status)s) != listed)
                fail_msg("verdict %s %s status %d (%s)", cases[v].name, listed ? "refuses" : "admits", s,
                         hb_status_name((hb_status)s));
        }
    }
    /* every status a configuration can end with has a verdict that admits it; compare's have none */
    for (int s = 0; s <= HB_ERR_BASELINE_INTERFERENCE; s++) {
        const int compares = s == HB_ERR_PUBLISHED_MISMATCH || s == HB_ERR_BELOW_PUBLISHED;
        assert_int_equal(hb_verdict_admits(hb_verdict_of_status((hb_status)s), (hb_status)s), !compares);
    }
    hb_verdict parsed;
    assert_false(hb_verdict_parse("passed", &parsed));
    assert_false(hb_verdict_parse("", &parsed));
    assert_false(hb_verdict_admits(HB_VERDICT_COUNT, HB_OK));
    assert_false(hb_verdict_admits(HB_VERDICT_PASS, (hb_status)-1));
}

/* --- gate.h ------------------------------------------------------------------------ */

static void test_gate_find_participant(void **state)
{
    (void)state;
    hb_config_result *r = new_results(1);
    fill_result(r, (hb_mnk){64, 64, 64}, 0.2, 0.1);
    assert_ptr_equal(hb_find_participant(r, "candidate"), &r->participants[0]);
    assert_ptr_equal(hb_find_participant(r, "torch"), &r->participants[1]);
    assert_ptr_equal(hb_find_participant(r, "cublas-nn"), &r->participants[2]);
    assert_null(hb_find_participant(r, "cublas-tn"));
    assert_null(hb_find_participant(r, "torc"));
    assert_null(hb_find_participant(r, ""));
    /* only the first `count` rows are looked at */
    snprintf(r->participants[3].name, sizeof r->participants[3].name, "cublas-tn");
    assert_null(hb_find_participant(r, "cublas-tn"));
    free(r);
}

static void assert_untouched_pass(const hb_config_result *r)
{
    assert_int_equal(r->status, HB_OK);
    assert_int_equal(r->verdict, HB_VERDICT_PASS);
    assert_string_equal(r->check, "");
    assert_string_equal(r->reason, "");
}

static void test_gate_passes_at_or_above_threshold(void **state)
{
    (void)state;
    hb_config_result *r = new_results(1);
    fill_result(r, (hb_mnk){128, 64, 32}, 0.25, -0.05);
    hb_gate_apply(r, "torch", 0.1);
    assert_untouched_pass(r);
    hb_gate_apply(r, "torch", 0.25); /* equal: passes */
    assert_untouched_pass(r);
    hb_gate_apply(r, "torch", 0.0);
    assert_untouched_pass(r);
    hb_gate_apply(r, "torch", -0.5);
    assert_untouched_pass(r);
    hb_gate_apply(r, "cublas-nn", -0.05); /* equal, negative */
    assert_untouched_pass(r);
    free(r);
}

static void test_gate_below_threshold_is_too_slow(void **state)
{
    (void)state;
    hb_config_result *r = new_results(1);
    fill_result(r, (hb_mnk){128, 64, 32}, 0.25, 0.02);
    hb_gate_apply(r, "cublas-nn", 0.1);
    assert_int_equal(r->status, HB_ERR_TOO_SLOW);
    assert_int_equal(r->verdict, HB_VERDICT_TOO_SLOW);
    assert_string_equal(r->check, "speedup");
    assert_non_null(strstr(r->reason, "cublas-nn"));
    assert_non_null(strstr(r->reason, "10.00%")); /* the threshold */
    assert_non_null(strstr(r->reason, "2.00%"));  /* the measured speedup */
    /* the measurements stay */
    assert_int_equal(r->measured, 1);
    assert_true(r->participants[2].speedup_event.geomean == 0.02);

    /* Just below the threshold fails too; the other baseline is not consulted. */
    fill_result(r, (hb_mnk){128, 64, 32}, 0.0999, 5.0);
    hb_gate_apply(r, "torch", 0.1);
    assert_int_equal(r->status, HB_ERR_TOO_SLOW);
    assert_non_null(strstr(r->reason, "torch"));

    /* A slower candidate fails the default threshold 0. */
    fill_result(r, (hb_mnk){128, 64, 32}, -0.01, 0.5);
    hb_gate_apply(r, "torch", 0.0);
    assert_int_equal(r->status, HB_ERR_TOO_SLOW);
    assert_int_equal(r->verdict, HB_VERDICT_TOO_SLOW);

    /* A speedup that is not a number is not a pass. */
    fill_result(r, (hb_mnk){128, 64, 32}, NAN, 0.5);
    hb_gate_apply(r, "torch", 0.0);
    assert_int_equal(r->status, HB_ERR_TOO_SLOW);
    free(r);
}

/* A --decide record whose last look (k = 3, 256 rounds) saw [low, high] as speedups. */
static void set_decision(hb_config_result *r, hb_look_state state, double low, double high)
{
    hb_decision_record *d = &r->decision;
    *d = (hb_decision_record){.ran = 1, .threshold = 0.05, .alpha = 0.05, .looks = 3, .seconds = 0.25,
                              .timer = HB_TIMER_EVENT, .window_state = state};
    snprintf(d->vs, sizeof d->vs, "torch");
    d->last = (hb_look){.look = 3, .rounds = 256, .alpha = hb_look_alpha(0.05, 3), .batches = 11, .batch_size = 23,
                        .quantile = 3.2, .low = log1p(low), .high = log1p(high), .state = state};
}

/* Under --decide the decision judges, not the point estimate: only "above"
 * passes; "below" is too-slow, "undecided" its own verdict with exit 9. */
static void test_gate_with_a_decision(void **state)
{
    (void)state;
    hb_config_result *r = new_results(1);
    /* a point estimate far above the threshold does not pass an undecided pair */
    fill_result(r, (hb_mnk){64, 64, 64}, 0.5, 0.0);
    set_decision(r, HB_LOOK_UNDECIDED, 0.01, 0.9);
    hb_gate_apply(r, "torch", 0.05);
    assert_int_equal(r->status, HB_ERR_TOO_SLOW);
    assert_int_equal(r->verdict, HB_VERDICT_UNDECIDED);
    assert_string_equal(hb_verdict_name(r->verdict), "undecided");
    assert_string_equal(r->check, "speedup");
    assert_non_null(strstr(r->reason, "not shown to meet"));
    assert_non_null(strstr(r->reason, "round 256 (look 3"));
    assert_non_null(strstr(r->reason, "+1.00% to +90.00%"));
    /* decided below, whatever the point estimate says */
    fill_result(r, (hb_mnk){64, 64, 64}, 0.5, 0.0);
    set_decision(r, HB_LOOK_BELOW, -0.2, 0.01);
    hb_gate_apply(r, "torch", 0.05);
    assert_int_equal(r->status, HB_ERR_TOO_SLOW);
    assert_int_equal(r->verdict, HB_VERDICT_TOO_SLOW);
    assert_non_null(strstr(r->reason, "decided below +5.00% over torch"));
    /* decided above passes, even with a point estimate under the threshold */
    fill_result(r, (hb_mnk){64, 64, 64}, 0.01, 0.0);
    set_decision(r, HB_LOOK_ABOVE, 0.06, 0.2);
    hb_gate_apply(r, "torch", 0.05);
    assert_untouched_pass(r);
    /* a failed check stays failed */
    fill_result(r, (hb_mnk){64, 64, 64}, 0.5, 0.0);
    set_decision(r, HB_LOOK_ABOVE, 0.06, 0.2);
    r->status = HB_ERR_INCORRECT;
    r->verdict = HB_VERDICT_INCORRECT;
    hb_gate_apply(r, "torch", 0.05);
    assert_int_equal(r->verdict, HB_VERDICT_INCORRECT);
    /* the stdout line */
    char text[320];
    set_decision(r, HB_LOOK_ABOVE, 0.06, 0.2);
    r->decision.last.rounds = 1600;
    r->decision.seconds = 2.1;
    hb_decision_text(&r->decision, text, sizeof text);
    assert_string_equal(text, "decided above +5.00% over torch at round 1,600 (look 3, 2.1 s; interval +6.00% to "
                              "+20.00% at 99.66%, event timer)");
    free(r);
}

static void test_gate_leaves_failed_or_unmeasured_alone(void **state)
{
    (void)state;
    hb_config_result *r = new_results(1);
    /* failed a check: keeps its own status, verdict, check and reason */
    fill_result(r, (hb_mnk){64, 64, 64}, -0.5, -0.5);
    r->status = HB_ERR_INCORRECT;
    r->verdict = HB_VERDICT_INCORRECT;
    r->measured = 0;
    snprintf(r->check, sizeof r->check, "exact-binary");
    snprintf(r->reason, sizeof r->reason, "C[1][2] = 3, expected 4");
    hb_gate_apply(r, "torch", 0.1);
    assert_int_equal(r->status, HB_ERR_INCORRECT);
    assert_int_equal(r->verdict, HB_VERDICT_INCORRECT);
    assert_string_equal(r->check, "exact-binary");
    assert_string_equal(r->reason, "C[1][2] = 3, expected 4");

    /* failed, though timings exist */
    fill_result(r, (hb_mnk){64, 64, 64}, -0.5, -0.5);
    r->status = HB_ERR_CANDIDATE_FAULT;
    r->verdict = HB_VERDICT_TIMED_OUT;
    hb_gate_apply(r, "torch", 0.1);
    assert_int_equal(r->status, HB_ERR_CANDIDATE_FAULT);
    assert_int_equal(r->verdict, HB_VERDICT_TIMED_OUT);
    assert_string_equal(r->check, "");

    /* passed but not measured (check): nothing to judge */
    fill_result(r, (hb_mnk){64, 64, 64}, -0.5, -0.5);
    r->measured = 0;
    hb_gate_apply(r, "torch", 0.1);
    assert_untouched_pass(r);

    /* not measured and no baseline: still untouched */
    r->count = 1;
    hb_gate_apply(r, "torch", 0.1);
    assert_untouched_pass(r);
    free(r);
}

static void test_gate_missing_baseline_is_internal_error(void **state)
{
    (void)state;
    hb_config_result *r = new_results(1);
    fill_result(r, (hb_mnk){64, 64, 64}, 0.5, 0.5);
    hb_gate_apply(r, "cublas-tn", 0.0);
    assert_int_equal(r->status, HB_ERR_INTERNAL);
    assert_int_equal(r->verdict, HB_VERDICT_ERROR);
    assert_non_null(strstr(r->reason, "cublas-tn"));
    free(r);
}

/* --- verdict_file.h ------------------------------------------------------------------ */

static void test_overall_verdict(void **state)
{
    (void)state;
    hb_config_result *r = new_results(3);
    fill_result(&r[0], (hb_mnk){64, 64, 64}, 0.2, 0.2);
    fill_result(&r[1], (hb_mnk){128, 128, 128}, 0.2, 0.2);
    r[1].status = HB_ERR_CANDIDATE_FAULT;
    r[1].verdict = HB_VERDICT_TIMED_OUT; /* a fault whose verdict is not the status's default */
    fill_result(&r[2], (hb_mnk){256, 256, 256}, 0.2, 0.2);
    r[2].status = HB_ERR_INCORRECT;
    r[2].verdict = HB_VERDICT_INCORRECT;

    assert_string_equal(hb_overall_verdict(HB_OK, r, 3), "pass");
    assert_string_equal(hb_overall_verdict(HB_ERR_CANDIDATE_FAULT, r, 3), "timed-out");
    assert_string_equal(hb_overall_verdict(HB_ERR_INCORRECT, r, 3), "incorrect");
    /* statuses no configuration carries: the status's own verdict */
    assert_string_equal(hb_overall_verdict(HB_ERR_IO, r, 3), "error");
    assert_string_equal(hb_overall_verdict(HB_ERR_CUDA, r, 3), "error");
    assert_string_equal(hb_overall_verdict(HB_ERR_TOO_SLOW, r, 3), "too-slow");
    assert_string_equal(hb_overall_verdict(HB_ERR_CANDIDATE_FAULT, r, 1), "crashed");
    assert_string_equal(hb_overall_verdict(HB_OK, NULL, 0), "pass");
    assert_string_equal(hb_overall_verdict(HB_ERR_BAD_INPUT, NULL, 0), "bad-input");
    free(r);
}

static json_t *load_json(const char *path)
{
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (!root)
        fprintf(stderr, "%s: %s (line %d)\n", path, error.text, error.line);
    assert_non_null(root);
    return root;
}

static const char *get_string(json_t *object, const char *key)
{
    json_t *value = json_object_get(object, key);
    if (!json_is_string(value))
        fprintf(stderr, "key '%s' is not a string\n", key);
    assert_true(json_is_string(value));
    return json_string_value(value);
}

static void assert_mnk(json_t *config, long m, long n, long k)
{
    json_t *mnk = json_object_get(config, "mnk");
    assert_true(json_is_array(mnk));
    assert_int_equal(json_array_size(mnk), 3);
    assert_int_equal(json_integer_value(json_array_get(mnk, 0)), m);
    assert_int_equal(json_integer_value(json_array_get(mnk, 1)), n);
    assert_int_equal(json_integer_value(json_array_get(mnk, 2)), k);
}

static void test_verdict_file_round_trip(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-verdict", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/verdict.json", dir);

    hb_run_options *o = calloc(1, sizeof *o);
    assert_non_null(o);
    o->candidate_path = "cands/set";
    o->vs = "torch";
    o->gate = 1;
    o->min_speedup = 0.05;

    hb_config_result *r = new_results(3);
    fill_result(&r[0], (hb_mnk){64, 96, 128}, 0.25, 0.125);
    r[0].battery.exact_binary = (hb_exact_record){1, 3, 3 * 64 * 96, 0};
    fill_result(&r[1], (hb_mnk){1024, 512, 4096}, 0.0, 0.0);
    r[1].status = HB_ERR_INCORRECT;
    r[1].verdict = HB_VERDICT_INCORRECT;
    r[1].measured = 0;
    snprintf(r[1].check, sizeof r[1].check, "exact-binary");
    snprintf(r[1].reason, sizeof r[1].reason, "C[3][7] = 12, expected 13 \"quoted\"");
    r[1].battery.exact_binary = (hb_exact_record){1, 1, 100, 2};
    fill_result(&r[2], (hb_mnk){4096, 4096, 4096}, 0.01, 0.5);
    hb_gate_apply(&r[2], "torch", o->min_speedup); /* too slow */
    assert_int_equal(r[2].status, HB_ERR_TOO_SLOW);
    set_decision(&r[0], HB_LOOK_ABOVE, 0.06, 0.2); /* as --decide left it */

    hb_run_record run = {.command = "gate", .run_id = "20260101T000000Z-abcd",
                         .run_path = "results/20260101T000000Z-abcd", .options = o};
    hb_run_outcome v = {.status = HB_ERR_INCORRECT, .results = r, .count = 3};
    assert_int_equal(hb_verdict_file_write(path, &run, &v), HB_OK);
    assert_int_equal(hb_test_count_entries(dir), 1); /* its temporary renamed into place: nothing beside it */

    json_t *root = load_json(path);
    assert_string_equal(get_string(root, "format"), "hgemm-bench-verdict/1");
    assert_string_equal(get_string(root, "command"), "gate");
    assert_string_equal(get_string(root, "verdict"), "incorrect");
    assert_int_equal(json_integer_value(json_object_get(root, "exit_code")), HB_ERR_INCORRECT);
    assert_string_equal(get_string(root, "reason"), r[1].reason);
    assert_string_equal(get_string(root, "candidate"), "cands/set");
    assert_string_equal(get_string(root, "run_id"), "20260101T000000Z-abcd");
    assert_string_equal(get_string(root, "results_dir"), "results/20260101T000000Z-abcd");
    assert_string_equal(get_string(root, "vs"), "torch");
    assert_true(json_is_number(json_object_get(root, "min_speedup")));
    assert_true(fabs(json_number_value(json_object_get(root, "min_speedup")) - 0.05) < 1e-12);

    json_t *configs = json_object_get(root, "configs");
    assert_true(json_is_array(configs));
    assert_int_equal(json_array_size(configs), 3);

    json_t *c0 = json_array_get(configs, 0), *c1 = json_array_get(configs, 1), *c2 = json_array_get(configs, 2);
    assert_mnk(c0, 64, 96, 128);
    assert_mnk(c1, 1024, 512, 4096);
    assert_mnk(c2, 4096, 4096, 4096);
    assert_string_equal(get_string(c0, "verdict"), "pass");
    assert_string_equal(get_string(c1, "verdict"), "incorrect");
    assert_string_equal(get_string(c2, "verdict"), "too-slow");
    assert_string_equal(get_string(c0, "check"), "");
    assert_string_equal(get_string(c1, "check"), "exact-binary");
    assert_string_equal(get_string(c2, "check"), "speedup");
    assert_string_equal(get_string(c0, "reason"), "");
    assert_string_equal(get_string(c1, "reason"), r[1].reason);
    assert_string_equal(get_string(c2, "reason"), r[2].reason);
    assert_string_equal(get_string(c0, "manifest"), "cands/64_96_128.json");

    /* measured: the speedup over --vs */
    json_t *s0 = json_object_get(c0, "speedup");
    assert_true(json_is_object(s0));
    assert_string_equal(get_string(s0, "vs"), "torch");
    assert_true(fabs(json_number_value(json_object_get(s0, "geomean")) - 0.25) < 1e-12);
    assert_true(fabs(json_number_value(json_object_get(s0, "ci95_low")) - 0.24) < 1e-12);
    assert_true(fabs(json_number_value(json_object_get(s0, "ci95_high")) - 0.26) < 1e-12);
    assert_int_equal(json_integer_value(json_object_get(s0, "rounds")), 77);
    assert_true(fabs(json_number_value(json_object_get(s0, "candidate_median_us")) - 500) < 1e-9);
    assert_true(fabs(json_number_value(json_object_get(s0, "baseline_median_us")) - 625) < 1e-9);
    /* --decide's record: an object where it ran, null where not */
    json_t *d0 = json_object_get(c0, "decision");
    assert_true(json_is_object(d0));
    assert_string_equal(get_string(d0, "state"), "above");
    assert_string_equal(get_string(d0, "timer"), "event");
    assert_string_equal(get_string(d0, "vs"), "torch");
    assert_int_equal(json_integer_value(json_object_get(d0, "look")), 3);
    assert_int_equal(json_integer_value(json_object_get(d0, "looks")), 3);
    assert_int_equal(json_integer_value(json_object_get(d0, "rounds")), 256);
    assert_true(fabs(json_number_value(json_object_get(d0, "low")) - 0.06) < 1e-12);
    assert_true(fabs(json_number_value(json_object_get(d0, "high")) - 0.2) < 1e-12);
    assert_true(fabs(json_number_value(json_object_get(d0, "look_alpha")) - hb_look_alpha(0.05, 3)) < 1e-15);
    assert_true(json_is_null(json_object_get(c2, "decision")));
    json_t *s2 = json_object_get(c2, "speedup");
    assert_true(json_is_object(s2));
    assert_true(fabs(json_number_value(json_object_get(s2, "geomean")) - 0.01) < 1e-12);
    /* not measured: null, present */
    json_t *s1 = json_object_get(c1, "speedup");
    assert_non_null(s1);
    assert_true(json_is_null(s1));

    json_t *checks1 = json_object_get(c1, "checks");
    assert_true(json_is_object(checks1));
    json_t *binary1 = json_object_get(checks1, "exact_binary");
    assert_true(json_is_true(json_object_get(binary1, "ran")));
    assert_int_equal(json_integer_value(json_object_get(binary1, "compared")), 100);
    assert_int_equal(json_integer_value(json_object_get(binary1, "ignored_at_or_above_2048")), 2);
    assert_true(json_is_false(json_object_get(json_object_get(checks1, "exact_signed"), "ran")));
    assert_true(fabs(json_number_value(json_object_get(checks1, "max_abs_dev")) - 0.01) < 1e-12);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(c0, "checks"), "exact_binary"),
                                                        "compared")),
                     3 * 64 * 96);
    json_decref(root);

    /* Not a gate: min_speedup null; the pass verdict comes with no reason. */
    o->gate = 0;
    r[1].checked = 0;
    run.command = "run";
    v.status = HB_OK;
    v.count = 1;
    assert_int_equal(hb_verdict_file_write(path, &run, &v), HB_OK);
    root = load_json(path);
    assert_string_equal(get_string(root, "command"), "run");
    assert_string_equal(get_string(root, "verdict"), "pass");
    assert_int_equal(json_integer_value(json_object_get(root, "exit_code")), 0);
    assert_string_equal(get_string(root, "reason"), "");
    assert_true(json_is_null(json_object_get(root, "min_speedup")));
    assert_int_equal(json_array_size(json_object_get(root, "configs")), 1);
    json_decref(root);

    /* The status a timed-out configuration set, and no deviation figure when unchecked. */
    r[1].status = HB_ERR_CANDIDATE_FAULT;
    r[1].verdict = HB_VERDICT_TIMED_OUT;
    snprintf(r[1].check, sizeof r[1].check, "timeout");
    v.status = HB_ERR_CANDIDATE_FAULT;
    v.count = 2;
    assert_int_equal(hb_verdict_file_write(path, &run, &v), HB_OK);
    root = load_json(path);
    assert_string_equal(get_string(root, "verdict"), "timed-out");
    assert_int_equal(json_integer_value(json_object_get(root, "exit_code")), HB_ERR_CANDIDATE_FAULT);
    json_t *checks = json_object_get(json_array_get(json_object_get(root, "configs"), 1), "checks");
    assert_true(json_is_null(json_object_get(checks, "max_abs_dev")));
    assert_true(json_is_null(json_object_get(checks, "dev_bound")));
    json_decref(root);

    /* A folder that does not exist: an I/O error, no file. */
    char missing[800];
    snprintf(missing, sizeof missing, "%s/no/such/dir/verdict.json", dir);
    assert_int_equal(hb_verdict_file_write(missing, &run, &v), HB_ERR_IO);

    free(r);
    free(o);
    hb_test_remove_tree(dir);
}

/* A configuration whose candidate the call monitor never judged (it ended
 * before its first call) gets a trace_note saying so, so its row does not
 * read as traced; one the monitor judged keeps "", and a note already
 * there (--no-trace) is kept. */
static void test_finish_notes_a_configuration_never_traced(void **state)
{
    (void)state;
    static hb_run_options options;
    memset(&options, 0, sizeof options);
    hb_plausibility_warnings once = {0, 0};
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    const hb_mnk mnk = {64, 64, 64};
    hb_config_result_init(r, &mnk);
    r->status = HB_ERR_UNSUPPORTED;
    r->verdict = HB_VERDICT_UNSUPPORTED;
    hb_config_finish(&options, NULL, &once, r);
    assert_non_null(strstr(r->trace_note, "judged no call of the candidate"));

    hb_config_result_init(r, &mnk);
    r->conduct.traced = 1;
    r->conduct.calls = 40;
    hb_config_finish(&options, NULL, &once, r);
    assert_string_equal(r->trace_note, "");

    hb_config_result_init(r, &mnk);
    snprintf(r->trace_note, sizeof r->trace_note, "--no-trace");
    hb_config_finish(&options, NULL, &once, r);
    assert_string_equal(r->trace_note, "--no-trace");
    free(r);
}

static const struct CMUnitTest verdict_tests[] = {
    cmocka_unit_test(test_finish_notes_a_configuration_never_traced),
    cmocka_unit_test(test_verdict_names),
    cmocka_unit_test(test_verdict_statuses_of_every_verdict),
    cmocka_unit_test(test_verdict_of_every_status),
    cmocka_unit_test(test_gate_find_participant),
    cmocka_unit_test(test_gate_passes_at_or_above_threshold),
    cmocka_unit_test(test_gate_below_threshold_is_too_slow),
    cmocka_unit_test(test_gate_with_a_decision),
    cmocka_unit_test(test_gate_leaves_failed_or_unmeasured_alone),
    cmocka_unit_test(test_gate_missing_baseline_is_internal_error),
    cmocka_unit_test(test_overall_verdict),
    cmocka_unit_test(test_verdict_file_round_trip),
};

hb_test_list hb_verdict_tests(void) { return HB_TEST_LIST(verdict_tests); }
