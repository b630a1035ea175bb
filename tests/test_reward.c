/* Tests of the reward (bench/result/reward.h, docs/gate.md "Reward"): the
 * arithmetic on made-up rounds and checks, when a configuration earns one,
 * the flags' usage errors, and how verdict.json and summary.csv carry it. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/stats.h"
#include "bench/driver/options.h"
#include "bench/report/raw_samples.h"
#include "bench/report/summary_columns.h"
#include "bench/report/verdict_file.h"
#include "bench/result/deviation_rule.h"
#include "bench/result/reward.h"
#include "tests/cli_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- the arithmetic ------------------------------------------------------------------- */

/* Ratios 2, 1, 3, 0.25: mean 1.5625; clipped into [0.5, 2]: 2, 1, 2, 0.5, mean 1.375, two rounds clipped. */
static void test_reward_speed_term_and_its_clip(void **state)
{
    (void)state;
    const double t_ref[] = {2, 1, 3, 1}, t_cand[] = {1, 1, 1, 4};
    double unclipped;
    size_t clipped;
    double speed = hb_reward_speed_term(t_ref, t_cand, 4, 0, 0, 0, &unclipped, &clipped);
    assert_true(speed == 1.5625 && unclipped == 1.5625);
    assert_int_equal(clipped, 0);
    speed = hb_reward_speed_term(t_ref, t_cand, 4, 1, 0.5, 2.0, &unclipped, &clipped);
    assert_true(speed == 1.375);
    assert_true(unclipped == 1.5625);
    assert_int_equal(clipped, 2);
    /* a bound met exactly is not a clip */
    speed = hb_reward_speed_term(t_ref, t_cand, 4, 1, 0.25, 3.0, &unclipped, &clipped);
    assert_int_equal(clipped, 0);
    assert_true(speed == unclipped);
}

/* Without a clip the speed term is the paper's eq. 2 estimator plus 1:
 * mean(t_b / t_c) = mean(t_b / t_c - 1) + 1, on the same paired rounds. */
static void test_reward_speed_term_is_one_plus_the_papers_estimator(void **state)
{
    (void)state;
    enum { ROUNDS = 997 };
    static double t_base[ROUNDS], t_cand[ROUNDS];
    for (size_t i = 0; i < ROUNDS; i++) { /* noisy, paired, neither side always ahead */
        t_base[i] = 0.0101 * (1.0 + 0.3 * sin(0.37 * (double)i) * sin(0.37 * (double)i));
        t_cand[i] = 0.0093 * (1.0 + 0.5 * fabs(cos(1.3 * (double)i)));
    }
    hb_speedup_summary summary;
    assert_int_equal(hb_summarize_speedup(t_base, t_cand, ROUNDS, 42, &summary), HB_OK);
    double unclipped;
    size_t clipped;
    double speed = hb_reward_speed_term(t_base, t_cand, ROUNDS, 0, 0, 0, &unclipped, &clipped);
    assert_true(fabs(speed - (1.0 + summary.paper)) < 1e-12);
    assert_true(fabs(summary.paper) > 0.01); /* a series where the identity says something */
}

/* Three deviation checks with largest |c - ref32| of 0.01, 0.02 and 0.03. */
static hb_deviation_record three_checks(void)
{
    hb_deviation_record d;
    memset(&d, 0, sizeof d);
    const double dev[] = {0.01, 0.03, 0.02};
    for (size_t i = 0; i < 3; i++) {
        hb_rule_figures f;
        hb_rule_judge(HB_ACC_FP32, 1024, 32.0, 0.001, 0.001, 0.05, dev[i], &f);
        hb_deviation_record_add(&d, &f);
    }
    return d;
}

static void test_reward_terms_and_r(void **state)
{
    (void)state;
    const double t_ref[] = {3, 3, 3, 30}, t_cand[] = {1, 2, 3, 1}; /* ratios 3, 1.5, 1, 30 */
    hb_deviation_record checks = three_checks();
    assert_true(fabs(checks.paper_dev_sum - 0.06) < 1e-15);
    assert_true(checks.paper_dev_max == 0.03);
    hb_reward_settings settings = {.on = 1, .alpha = 10.0, .beta = 0.001, .clip = 1, .clip_low = 0.5,
                                   .clip_high = 4.0, .source = "kernel.cu", .length_bytes = 1500};
    static hb_reward_record w;
    assert_int_equal(hb_reward_compute(&settings, t_ref, t_cand, 4, &checks, &w), HB_OK);
    assert_true(w.earned && w.requested);
    assert_int_equal(w.rounds, 4);
    assert_true(w.speed_term == (3 + 1.5 + 1 + 4) / 4.0);
    assert_true(w.speed_term_unclipped == (3 + 1.5 + 1 + 30) / 4.0);
    assert_int_equal(w.clipped_rounds, 1);
    assert_int_equal(w.diff_checks, 3);
    assert_true(fabs(w.diff_mean - 0.02) < 1e-15);
    assert_true(w.diff_max == 0.03);
    assert_int_equal(w.length_bytes, 1500);
    assert_string_equal(w.source, "kernel.cu");
    assert_true(fabs(w.r - (2.375 - 10.0 * 0.02 - 0.001 * 1500)) < 1e-12);

    /* no source: L is unknown (null), and beta is 0 */
    hb_reward_settings plain = {.on = 1, .alpha = 0.5, .beta = 0, .length_bytes = -1};
    assert_int_equal(hb_reward_compute(&plain, t_ref, t_cand, 4, &checks, &w), HB_OK);
    assert_int_equal(w.length_bytes, -1);
    assert_string_equal(w.source, "");
    assert_int_equal(w.clip, 0);
    assert_true(w.speed_term == w.speed_term_unclipped);
    assert_true(fabs(w.r - (35.5 / 4.0 - 0.5 * 0.02)) < 1e-12);

    /* nothing to average: a harness bug, not a reward of 0 */
    hb_deviation_record none;
    memset(&none, 0, sizeof none);
    assert_int_equal(hb_reward_compute(&plain, t_ref, t_cand, 0, &checks, &w), HB_ERR_INTERNAL);
    assert_int_equal(hb_reward_compute(&plain, t_ref, t_cand, 4, &none, &w), HB_ERR_INTERNAL);
}

/* A reward only for a configuration that passed every check and was timed:
 * pass and too-slow keep it; incorrect, implausible, forbidden lose it. */
static void test_reward_only_when_every_check_passed(void **state)
{
    (void)state;
    const double t_ref[] = {2, 2}, t_cand[] = {1, 1};
    hb_deviation_record checks = three_checks();
    hb_reward_settings settings = {.on = 1, .alpha = 1, .length_bytes = -1};
    static hb_reward_record w;
    const hb_status kept[] = {HB_OK, HB_ERR_TOO_SLOW};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(hb_reward_compute(&settings, t_ref, t_cand, 2, &checks, &w), HB_OK);
        hb_reward_settle(&w, 1, kept[i], 1, "pass", "");
        assert_true(w.earned);
        assert_true(fabs(w.r - 1.98) < 1e-12);
    }
    const struct {
        hb_status status;
        int measured;
        const char *verdict, *check;
    } lost[] = {{HB_ERR_IMPLAUSIBLE, 1, "implausible", "peak-throughput"},
                {HB_ERR_FORBIDDEN, 1, "forbidden", "conduct"},
                {HB_ERR_TIMER_MISMATCH, 1, "timer-mismatch", "timer-cross-check"},
                {HB_ERR_BASELINE_INTERFERENCE, 0, "baseline-interference", "baseline-times"},
                {HB_ERR_INCORRECT, 0, "incorrect", "deviation"}};
    for (size_t i = 0; i < sizeof lost / sizeof lost[0]; i++) {
        assert_int_equal(hb_reward_compute(&settings, t_ref, t_cand, 2, &checks, &w), HB_OK);
        hb_reward_settle(&w, 1, lost[i].status, lost[i].measured, lost[i].verdict, lost[i].check);
        assert_false(w.earned);
        assert_true(w.requested);
        assert_non_null(strstr(w.note, lost[i].verdict));
        assert_non_null(strstr(w.note, lost[i].check));
    }
    /* a child that never reported (crashed): nothing computed, the verdict says why */
    memset(&w, 0, sizeof w);
    hb_reward_settle(&w, 1, HB_ERR_CANDIDATE_FAULT, 0, "crashed", "execution");
    assert_false(w.earned);
    assert_non_null(strstr(w.note, "crashed"));
    /* --reward off: nothing at all */
    memset(&w, 0, sizeof w);
    hb_reward_settle(&w, 0, HB_OK, 1, "pass", "");
    assert_false(w.earned || w.requested);
}

/* --- the flags ------------------------------------------------------------------------- */

static void test_reward_flags(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--reward",
                                           "0.1,0.001", "--reward-clip", "0,4", "--source", "k.cu"),
                                 cli),
                     HB_OK);
    assert_true(cli->run.reward.on && cli->run.reward.clip);
    assert_true(cli->run.reward.alpha == 0.1 && cli->run.reward.beta == 0.001);
    assert_true(cli->run.reward.clip_low == 0 && cli->run.reward.clip_high == 4);
    assert_string_equal(cli->run.reward.source, "k.cu");
    /* beta 0 needs no source; run and sweep take the flags too */
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8", "--reward",
                                           "2,0"),
                                 cli),
                     HB_OK);
    assert_true(cli->run.reward.on && !cli->run.reward.clip && !cli->run.reward.source);
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "sweep", "--candidate", "c", "--mnk", "8,8,8", "--reward",
                                           "0,0"),
                                 cli),
                     HB_OK);
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8"), cli), HB_OK);
    assert_false(cli->run.reward.on);
    free(cli);

    static const char *const bad_reward[] = {"0.1",   "0.1,",  ",0.1",  "-0.1,0", "0,-1", "nan,0", "inf,0",
                                             "0,1e999", "a,b", "0.1,0.2,0.3", "0.1;0.2", ""};
    for (size_t i = 0; i < sizeof bad_reward / sizeof bad_reward[0]; i++)
        expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--reward", bad_reward[i]));
    static const char *const bad_clip[] = {"2,1", "1,1", "-1,2", "0", "0,nan", "0,inf", "x,2"};
    for (size_t i = 0; i < sizeof bad_clip / sizeof bad_clip[0]; i++)
        expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--reward", "1,0",
                           "--reward-clip", bad_clip[i]));
    /* the refinements without --reward, and BETA > 0 without a source */
    expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--reward-clip", "0,4"));
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8", "--source", "k.cu"));
    expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--reward", "0.1,0.001"));
    /* check times nothing: no reward */
    expect_usage(WORDS("hgemm-bench", "check", "--candidate", "c", "--mnk", "8,8,8", "--reward", "0.1,0"));
}

/* The driver binary: a usage error is exit 2, and a --source that cannot be
 * read is one too, before anything is created (no GPU needed). */
static void test_reward_binary_exits_2_before_the_gpu(void **state)
{
    (void)state;
    char dir[512], out[700], err[700], words_out[700];
    hb_test_make_temp_dir("hb-reward-bin", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/results", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    snprintf(words_out, sizeof words_out, "%s/stdout.txt", dir);
    const char *const missing[] = {"gate", "--candidate", "build/candidates/sample_mma", "--mnk", "64,64,64",
                                   "--reward", "0.1,0.001", "--source", "/nonexistent/kernel.cu", "--out", out,
                                   NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), missing, words_out, err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "/nonexistent/kernel.cu"));
    const char *const folder[] = {"gate", "--candidate", "build/candidates/sample_mma", "--mnk", "64,64,64",
                                  "--reward", "0.1,0.001", "--source", dir, "--out", out, NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), folder, words_out, err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "not a regular file"));
    const char *const no_source[] = {"gate", "--candidate", "build/candidates/sample_mma", "--mnk", "64,64,64",
                                     "--reward", "0.1,0.001", "--out", out, NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), no_source, words_out, err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "--source"));
    /* a configuration judged before the GPU (no such manifest): its verdict, and no reward, saying why */
    char manifest[700], verdict[800];
    snprintf(manifest, sizeof manifest, "%s/none.json", dir);
    snprintf(verdict, sizeof verdict, "%s/verdict.json", dir);
    const char *const bad_input[] = {"gate", "--candidate", manifest, "--mnk", "64,64,64", "--reward", "0.1,0",
                                     "--out", out, "--no-progress", "--verdict", verdict, NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), bad_input, words_out, err), HB_ERR_BAD_INPUT);
    assert_true(hb_test_file_contains(words_out, "no reward: verdict bad-input"));
    json_t *root = hb_test_load_json(verdict);
    const json_t *config = json_array_get(json_object_get(root, "configs"), 0);
    assert_true(json_is_null(json_object_get(config, "reward")));
    assert_non_null(strstr(json_string_value(json_object_get(config, "reward_note")), "bad-input"));
    json_decref(root);
    hb_test_remove_tree(dir);
}

/* --- the results ------------------------------------------------------------------------ */

/* A timed, passing configuration of candidate, torch and cublas-nn. */
static void fill_passed(hb_config_result *r)
{
    hb_config_result_init(r, &(hb_mnk){64, 64, 64});
    r->status = HB_OK;
    r->verdict = HB_VERDICT_PASS;
    r->checked = 1;
    r->measured = 1;
    r->rounds = 4;
    r->count = 3;
    const char *names[3] = {"candidate", "torch", "cublas-nn"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(r->participants[i].name, sizeof r->participants[i].name, "%s", names[i]);
        r->participants[i].is_candidate = i == 0;
        r->participants[i].event_ms.median = 0.01;
    }
}

static json_t *write_and_load(hb_config_result *r, size_t count, const hb_run_options *o, const char *dir)
{
    char path[700];
    snprintf(path, sizeof path, "%s/verdict.json", dir);
    hb_run_record run = {.command = "gate", .run_id = "20260101T000000Z-abcd", .run_path = dir, .options = o};
    hb_run_outcome v = {.status = HB_OK, .results = r, .count = count};
    assert_int_equal(hb_verdict_file_write(path, &run, &v), HB_OK);
    return hb_test_load_json(path);
}

static double cell_number(const hb_config_result *r, size_t participant, const char *column, int *empty)
{
    hb_row row = {"id", "fp32", r, &r->participants[participant]};
    const hb_column *c = hb_summary_column_find(column);
    assert_non_null(c);
    hb_cell cell = c->value(&row);
    *empty = cell.kind == HB_CELL_EMPTY;
    return cell.kind == HB_CELL_NUMBER ? cell.number : NAN;
}

static void test_reward_in_verdict_json_and_summary_csv(void **state)
{
    (void)state;
    char dir[512];
    hb_test_make_temp_dir("hb-reward-json", dir, sizeof dir);
    hb_run_options *o = calloc(1, sizeof *o);
    hb_config_result *r = calloc(3, sizeof *r);
    assert_non_null(o);
    assert_non_null(r);
    o->candidate_path = "c";
    o->vs = "torch";
    o->gate = 1;
    o->reward = (hb_reward_settings){.on = 1, .alpha = 0.5, .beta = 0.01, .clip = 1, .clip_low = 0,
                                     .clip_high = 4, .source = "k.cu", .length_bytes = 100};
    const double t_ref[] = {2, 2, 2, 2}, t_cand[] = {1, 1, 1, 0.1};
    hb_deviation_record checks = three_checks();
    for (size_t i = 0; i < 3; i++)
        fill_passed(&r[i]);
    /* 0: earned; 1: too-slow, earned; 2: implausible, none */
    assert_int_equal(hb_reward_compute(&o->reward, t_ref, t_cand, 4, &checks, &r[0].reward), HB_OK);
    r[1].reward = r[0].reward;
    r[1].status = HB_ERR_TOO_SLOW;
    r[1].verdict = HB_VERDICT_TOO_SLOW;
    r[2].reward = r[0].reward;
    r[2].status = HB_ERR_IMPLAUSIBLE;
    r[2].verdict = HB_VERDICT_IMPLAUSIBLE;
    snprintf(r[2].check, sizeof r[2].check, "peak-throughput");
    for (size_t i = 0; i < 3; i++)
        hb_reward_settle(&r[i].reward, 1, r[i].status, r[i].measured, hb_verdict_name(r[i].verdict), r[i].check);

    json_t *root = write_and_load(r, 3, o, dir);
    json_t *configs = json_object_get(root, "configs");
    json_t *earned = json_object_get(json_array_get(configs, 0), "reward");
    assert_true(json_is_object(earned));
    const double r_expected = (2 + 2 + 2 + 4) / 4.0 - 0.5 * 0.02 - 0.01 * 100;
    assert_true(fabs(json_real_value(json_object_get(earned, "r")) - r_expected) < 1e-12);
    assert_true(json_real_value(json_object_get(earned, "speed_term_unclipped")) == (2 + 2 + 2 + 20) / 4.0);
    assert_int_equal(json_integer_value(json_object_get(earned, "clipped_rounds")), 1);
    assert_int_equal(json_integer_value(json_object_get(earned, "length_bytes")), 100);
    assert_int_equal(json_integer_value(json_object_get(earned, "diff_checks")), 3);
    assert_int_equal(json_array_size(json_object_get(earned, "clip")), 2);
    assert_string_equal(json_string_value(json_object_get(earned, "source")), "k.cu");
    static const char *const keys[] = {"r", "alpha", "beta", "vs", "timer", "rounds", "speed_term",
                                       "speed_term_unclipped", "clip", "clipped_rounds", "diff_mean", "diff_max",
                                       "diff_checks", "length_bytes", "source"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (!json_object_get(earned, keys[k]))
            fail_msg("verdict.json's reward lacks \"%s\"", keys[k]);
    assert_true(json_is_null(json_object_get(json_array_get(configs, 0), "reward_note")));
    assert_true(json_is_object(json_object_get(json_array_get(configs, 1), "reward")));
    json_t *implausible = json_array_get(configs, 2);
    assert_true(json_is_null(json_object_get(implausible, "reward")));
    assert_non_null(strstr(json_string_value(json_object_get(implausible, "reward_note")), "implausible"));
    json_decref(root);

    /* summary.csv: the candidate's row of an earned reward; empty in baselines' rows and where none was earned */
    int empty;
    assert_true(fabs(cell_number(&r[0], 0, "reward", &empty) - r_expected) < 1e-12);
    assert_true(cell_number(&r[0], 0, "reward_speed", &empty) == 2.5);
    assert_true(fabs(cell_number(&r[0], 0, "reward_diff", &empty) - 0.02) < 1e-15);
    assert_true(cell_number(&r[0], 0, "reward_length_bytes", &empty) == 100);
    cell_number(&r[0], 1, "reward", &empty);
    assert_true(empty);
    cell_number(&r[2], 0, "reward", &empty);
    assert_true(empty);

    /* --reward off: reward null, no reward_note, empty columns */
    memset(&o->reward, 0, sizeof o->reward);
    fill_passed(&r[0]);
    hb_reward_settle(&r[0].reward, 0, HB_OK, 1, "pass", "");
    root = write_and_load(r, 1, o, dir);
    json_t *off = json_array_get(json_object_get(root, "configs"), 0);
    assert_true(json_is_null(json_object_get(off, "reward")));
    assert_null(json_object_get(off, "reward_note"));
    json_decref(root);
    static const char *const columns[] = {"reward", "reward_speed", "reward_diff", "reward_length_bytes"};
    for (size_t c = 0; c < 4; c++) {
        cell_number(&r[0], 0, columns[c], &empty);
        assert_true(empty);
    }
    free(o);
    free(r);
    hb_test_remove_tree(dir);
}

/* --- scripts/reward_by_hand.sh ----------------------------------------------------------- */

enum { HAND_ROUNDS = 200, HAND_PARTS = 3 };

/* A run folder as `gate --reward ... --raw` leaves it, through the real
 * writers: configuration 0 earned a reward on the wall clock against torch
 * with a clip, configuration 1 none; `r_shift` is added to the r written. */
static void write_run_for_the_script(const char *dir, double r_shift)
{
    static hb_participant_samples samples[HAND_PARTS];
    memset(samples, 0, sizeof samples);
    for (size_t i = 0; i < HAND_ROUNDS; i++)
        for (size_t p = 0; p < HAND_PARTS; p++) {
            const double t = 0.008 + 0.001 * (double)p + 0.0004 * sin((double)(i * (p + 3))); /* ms */
            assert_int_equal(hb_sample_vec_push(&samples[p].event_ms, t), HB_OK);
            assert_int_equal(hb_sample_vec_push(&samples[p].wall_ms, t * 1.7 + (i % 7 == 0 ? 0.02 : 0)), HB_OK);
        }
    char raw[700];
    snprintf(raw, sizeof raw, "%s/raw", dir);
    hb_test_make_folder(raw);
    snprintf(raw, sizeof raw, "%s/raw/0000_64x64x64.bin", dir);
    const char *names[HAND_PARTS] = {"sample", "torch", "cublas-nn"};
    hb_raw_meta meta = {64, 64, 64, "offline", "none", 0, "fresh", "", 7};
    assert_int_equal(hb_raw_samples_write(raw, &meta, names, samples, HAND_PARTS), HB_OK);

    hb_run_options *o = calloc(1, sizeof *o);
    hb_config_result *r = calloc(2, sizeof *r);
    assert_non_null(o);
    assert_non_null(r);
    o->candidate_path = "c";
    o->vs = "torch";
    o->reward = (hb_reward_settings){.on = 1, .alpha = 0.5, .beta = 0.001, .clip = 1, .clip_low = 0.9,
                                     .clip_high = 1.15, .source = "k.cu", .length_bytes = 321};
    hb_deviation_record checks = three_checks();
    fill_passed(&r[0]);
    fill_passed(&r[1]);
    assert_int_equal(hb_reward_compute(&o->reward, samples[1].wall_ms.data, samples[0].wall_ms.data, HAND_ROUNDS,
                                       &checks, &r[0].reward),
                     HB_OK);
    assert_true(r[0].reward.clipped_rounds > 0 && r[0].reward.clipped_rounds < HAND_ROUNDS); /* the clip matters */
    r[0].reward.r += r_shift;
    snprintf(r[0].reward.vs, sizeof r[0].reward.vs, "torch");
    snprintf(r[0].reward.vs_participant, sizeof r[0].reward.vs_participant, "torch");
    snprintf(r[0].reward.timer, sizeof r[0].reward.timer, "wall");
    r[1].status = HB_ERR_INCORRECT;
    r[1].verdict = HB_VERDICT_INCORRECT;
    r[1].measured = 0;
    hb_reward_settle(&r[1].reward, 1, r[1].status, 0, "incorrect", "deviation");
    json_decref(write_and_load(r, 2, o, dir));
    for (size_t p = 0; p < HAND_PARTS; p++)
        hb_participant_samples_free(&samples[p]);
    free(o);
    free(r);
}

/* Its output goes to `report`. */
static int run_script(const char *run_dir, const char *extra, const char *report)
{
    char command[2200];
    snprintf(command, sizeof command, "scripts/reward_by_hand.sh %s %s >%s 2>&1", run_dir, extra, report);
    return hb_test_shell(command);
}

/* The hand check agrees with the harness's r, and says so; a wrong r is a
 * disagreement (exit 1); bad usage is exit 2. */
static void test_reward_by_hand_script(void **state)
{
    (void)state;
    char dir[512], report[700];
    hb_test_make_temp_dir("hb-reward-hand", dir, sizeof dir);
    snprintf(report, sizeof report, "%s/by_hand.txt", dir);
    write_run_for_the_script(dir, 0.0);
    assert_int_equal(run_script(dir, "", report), 0);
    assert_true(hb_test_file_contains(report, "every configuration agrees"));
    assert_true(hb_test_file_contains(report, "no reward"));
    /* other coefficients: shown, not judged */
    assert_int_equal(run_script(dir, "0 0", report), 0);
    assert_int_equal(run_script(dir, "0 0 0.5 2", report), 0);
    assert_int_equal(run_script(dir, "0", report), 2);
    assert_int_equal(run_script("/nonexistent-run", "", report), 2);
    assert_true(hb_test_file_contains(report, "cannot be read"));
    /* r off by 1e-3 (about 1e-3 of the speed term): found */
    write_run_for_the_script(dir, 1e-3);
    assert_int_equal(run_script(dir, "", report), 1);
    assert_true(hb_test_file_contains(report, "DISAGREEMENT"));
    if (!getenv("HB_TEST_KEEP"))
        hb_test_remove_tree(dir);
}

hb_test_list hb_reward_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reward_speed_term_and_its_clip),
        cmocka_unit_test(test_reward_speed_term_is_one_plus_the_papers_estimator),
        cmocka_unit_test(test_reward_terms_and_r),
        cmocka_unit_test(test_reward_only_when_every_check_passed),
        cmocka_unit_test(test_reward_flags),
        cmocka_unit_test(test_reward_binary_exits_2_before_the_gpu),
        cmocka_unit_test(test_reward_in_verdict_json_and_summary_csv),
        cmocka_unit_test(test_reward_by_hand_script),
    };
    return HB_TEST_LIST(tests);
}
