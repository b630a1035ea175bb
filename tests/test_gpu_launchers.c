/* GPU tests of the launcher kind (docs/launchers.md): the sample launcher
 * against the cubin form of the same kernel (verdict, deviation, time); every
 * broken launcher's verdict, check, reason, exit code and conduct findings
 * through the real `hgemm-bench check`, and the verdict, check and exit code
 * of `hgemm-bench gate` for the rows that give gate arguments
 * (candidates/broken_launchers/expected.tsv); own_stream's work seen by the
 * wall clock and missed by the events; and the device state a launcher
 * changes put back by the harness (device_state).  Each test skips, and is
 * counted, without a GPU.  (The broken launchers' host code is checked on the
 * CPU too, by tests/broken_launchers_cpu.sh.) */
#define _POSIX_C_SOURCE 200809L

#include <cuda_runtime_api.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/launcher_candidate.h"
#include "bench/candidate/manifest.h"
#include "bench/gpu/device.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"
#include "verify/checked_call.h"
#include "verify/problem.h"

/* The windows of the timed tests: short, and no autotune search to wait for. */
#define SHORT_RUN "--warmup-s 1 --time-s 2 --autotune-cache none --no-autotune-search"

/* `command` on build/candidates/<candidate> with `args`; its exit code, and
 * summary.csv of its run into `csv`. */
static int run_candidate(const char *command, const char *candidate, const char *args, const char *out, char *csv,
                         size_t csv_size)
{
    char all[2048];
    snprintf(all, sizeof all, "--candidate %s/candidates/%s %s", hb_test_build_dir(), candidate, args);
    int rc = hb_test_run_bench(command, all, out);
    hb_test_summary_path(out, csv, csv_size);
    return rc;
}

static void fail_with_log(const char *out, const char *what)
{
    char path[700];
    snprintf(path, sizeof path, "%s/stderr.txt", out);
    char *text = hb_test_read_file(path);
    fail_msg("%s; stderr:\n%s", what, text ? text : "(none)");
}

/* --- the sample against its cubin form ------------------------------------------------- */

/* The same command and arguments on sample_mma_launcher and on sample_mma. */
typedef struct both_forms {
    char launcher_out[512], cubin_out[512];
    char launcher_csv[1200], cubin_csv[1200]; /* their summary.csv */
} both_forms;

static void run_both_forms(const char *command, const char *args, both_forms *b)
{
    hb_test_make_temp_dir("hb-launcher-form", b->launcher_out, sizeof b->launcher_out);
    hb_test_make_temp_dir("hb-cubin-form", b->cubin_out, sizeof b->cubin_out);
    if (run_candidate(command, "sample_mma_launcher", args, b->launcher_out, b->launcher_csv, sizeof b->launcher_csv))
        fail_with_log(b->launcher_out, "the sample launcher failed");
    if (run_candidate(command, "sample_mma", args, b->cubin_out, b->cubin_csv, sizeof b->cubin_csv))
        fail_with_log(b->cubin_out, "the cubin sample failed");
}

static void remove_both_forms(const both_forms *b)
{
    hb_test_remove_tree(b->launcher_out);
    hb_test_remove_tree(b->cubin_out);
}

/* The same kernel on the same inputs (the same seed): the same verdict, and
 * the same output, so the same deviation from the reference to the last
 * digit, at a size that needs no padding and at one that pads every
 * dimension. */
static void test_gpu_sample_launcher_matches_cubin(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static both_forms b;
    run_both_forms("check", "--mnk 256,256,256 --mnk 100,200,300 --autotune-cache none --no-autotune-search", &b);
    static const char *const same[] = {"verdict", "paper_max_abs_dev", "padded_m", "padded_k"};
    const long ms[] = {256, 100};
    for (size_t i = 0; i < 2; i++) {
        char a[128], c[128];
        for (size_t j = 0; j < sizeof same / sizeof same[0]; j++) {
            hb_test_csv_text(b.launcher_csv, "candidate", ms[i], same[j], a, sizeof a);
            hb_test_csv_text(b.cubin_csv, "candidate", ms[i], same[j], c, sizeof c);
            if (strcmp(a, c))
                fail_msg("%s at M=%ld: launcher %s, cubin %s", same[j], ms[i], a, c);
        }
        hb_test_csv_text(b.launcher_csv, "candidate", ms[i], "verdict", a, sizeof a);
        assert_string_equal(a, "pass");
        hb_test_csv_text(b.launcher_csv, "candidate", ms[i], "algorithm", a, sizeof a);
        assert_string_equal(a, "launcher:hgemm_launch");
        /* A launcher's module state is not audited: the columns stay empty. */
        hb_test_csv_text(b.launcher_csv, "candidate", ms[i], "module_global_bytes", a, sizeof a);
        assert_string_equal(a, "");
    }
    remove_both_forms(&b);
}

/* At 2048^3 the kernel runs for tens of microseconds and the launcher's
 * host code for a few: the event medians of the two forms agree within a
 * loose bound (separate processes, so clocks and placement may differ). */
static void test_gpu_sample_launcher_time_matches_cubin(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static both_forms b;
    run_both_forms("run", "--mnk 2048,2048,2048 " SHORT_RUN, &b);
    double launcher_us = hb_test_csv_number(b.launcher_csv, "candidate", 2048, "event_median_us");
    double cubin_us = hb_test_csv_number(b.cubin_csv, "candidate", 2048, "event_median_us");
    printf("  sample at 2048^3: launcher %.1f us, cubin %.1f us (event medians)\n", launcher_us, cubin_us);
    assert_true(cubin_us > 0);
    assert_true(launcher_us > cubin_us / 1.5 && launcher_us < cubin_us * 1.5);
    /* The same kernel on the same inputs: the call monitor's kernel time agrees
     * far closer than the event times, which include each form's host path. */
    double launcher_kernel = hb_test_csv_number(b.launcher_csv, "candidate", 2048, "kernel_us");
    double cubin_kernel = hb_test_csv_number(b.cubin_csv, "candidate", 2048, "kernel_us");
    printf("  sample at 2048^3: kernel_us launcher %.2f, cubin %.2f\n", launcher_kernel, cubin_kernel);
    assert_true(cubin_kernel > 0 && cubin_kernel < cubin_us);
    assert_true(fabs(launcher_kernel / cubin_kernel - 1) < 0.05);
    remove_both_forms(&b);
}

/* --- the broken launchers --------------------------------------------------------------- */

typedef struct launcher_row {
    char name[64], verdict[32], check[32], reason[256], findings[128];
    int code;
    char gate_args[256], gate_verdict[32], gate_check[32], gate_exit[16]; /* "-": no gate row */
    char form[16]; /* the form summary.csv and verdict.json name for `check` (replay, launcher); "-": not checked */
} launcher_row;

/* One row of candidates/broken_launchers/expected.tsv: name, verdict, check,
 * reason fragment, exit code, conduct findings ("-" for none), all of
 * `check --mnk 64,64,64`; then the gate's own arguments (whitespace-separated
 * words, no quoting), verdict, check and exit code ("-" for no gate); then the
 * form `check` times it in under the default --form replay ("replay", or
 * "launcher" where it has no replay; "-": not checked).  A launcher may have
 * several rows, one per gate; their check columns agree.  0 for a line that
 * is not a row. */
static int read_launcher_row(const char *line, launcher_row *row)
{
    return sscanf(line,
                  "%63[^\t]\t%31[^\t]\t%31[^\t]\t%255[^\t]\t%d\t%127[^\t]\t%255[^\t]\t%31[^\t]\t%31[^\t]\t%15[^\t]"
                  "\t%15[^\t\n]",
                  row->name, row->verdict, row->check, row->reason, &row->code, row->findings, row->gate_args,
                  row->gate_verdict, row->gate_check, row->gate_exit, row->form) == 11;
}

/* The launchers' rows of expected.tsv, in order; the number read. */
enum { MAX_LAUNCHER_ROWS = 64 };
static size_t read_launcher_table(launcher_row *rows, size_t most)
{
    FILE *table = fopen("candidates/broken_launchers/expected.tsv", "r");
    assert_non_null(table);
    char line[1024];
    size_t n = 0;
    assert_non_null(fgets(line, sizeof line, table)); /* header */
    while (n < most && fgets(line, sizeof line, table))
        n += read_launcher_row(line, &rows[n]);
    fclose(table);
    return n;
}

/* Whether rows[i] is the first row of its launcher. */
static int first_of_its_name(const launcher_row *rows, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (!strcmp(rows[j].name, rows[i].name))
            return 0;
    return 1;
}

static const char *config_text(json_t *verdict, const char *key)
{
    const char *text = json_string_value(json_object_get(json_array_get(json_object_get(verdict, "configs"), 0), key));
    return text ? text : "";
}

typedef char finding_name[32];

/* Findings `gate --strict` would refuse (multi-kernel and host-time are
 * figures), sorted and comma-separated; "-" for none. */
static void join_strict_sorted(finding_name *names, size_t n, char *out, size_t size)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], "multi-kernel") && strcmp(names[i], "host-time") && strcmp(names[i], "-"))
            memmove(names[kept++], names[i], sizeof names[0]);
    qsort(names, kept, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    size_t used = 0;
    snprintf(out, size, "-");
    for (size_t i = 0; i < kept && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? "," : "", names[i]);
}

/* What verdict.json's first configuration lists under conduct.findings. */
static void verdict_findings(json_t *verdict, char *out, size_t size)
{
    json_t *findings = json_object_get(json_object_get(json_array_get(json_object_get(verdict, "configs"), 0),
                                                       "conduct"), "findings");
    finding_name names[8];
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(findings) && n < 8; i++) {
        const char *name = json_string_value(json_object_get(json_array_get(findings, i), "finding"));
        snprintf(names[n++], sizeof names[0], "%s", name ? name : "?");
    }
    join_strict_sorted(names, n, out, size);
}

/* The row's findings column ("a,b" or "-"), the same way. */
static void row_findings(const char *list, char *out, size_t size)
{
    finding_name names[8];
    size_t n = 0;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *w = strtok_r(copy, ",", &save); w && n < 8; w = strtok_r(NULL, ",", &save))
        snprintf(names[n++], sizeof names[0], "%s", w);
    join_strict_sorted(names, n, out, size);
}

/* `check` of one broken launcher at 64^3 with a short silence timeout (for
 * hangs); 1 when its exit code, verdict, check and reason are the row's. */
static int check_row(const launcher_row *row, const char *out)
{
    char args[2048], verdict_path[700];
    snprintf(verdict_path, sizeof verdict_path, "%s/%.63s.json", out, row->name);
    snprintf(args, sizeof args,
             "--candidate %s/candidates/broken_launchers/%.63s --mnk 64,64,64 --timeout-s 15 --autotune-cache none "
             "--no-autotune-search --verdict %s",
             hb_test_build_dir(), row->name, verdict_path);
    int rc = hb_test_run_bench("check", args, out);
    json_error_t error;
    json_t *v = json_load_file(verdict_path, 0, &error);
    const char *verdict = v ? json_string_value(json_object_get(v, "verdict")) : NULL;
    const char *check = v ? config_text(v, "check") : "(no file)";
    const char *reason = v ? config_text(v, "reason") : "(no file)";
    const char *form = v ? config_text(v, "form") : "(no file)";
    const char *want_check = strcmp(row->check, "-") ? row->check : "";
    char found[128] = "(no file)", expected[128];
    if (v)
        verdict_findings(v, found, sizeof found);
    row_findings(row->findings, expected, sizeof expected);
    int ok = rc == row->code && verdict && !strcmp(verdict, row->verdict) && !strcmp(check, want_check) &&
             (!strcmp(row->reason, "-") || strstr(reason, row->reason)) && !strcmp(found, expected) &&
             (!strcmp(row->form, "-") || !strcmp(form, row->form));
    printf("  launcher %-20s expected %s/%s/%d [%s] form %s, got %s/%s/%d [%s] form %s %s%s%s\n", row->name,
           row->verdict, row->check, row->code, expected, row->form, verdict ? verdict : "?", check, rc, found, form,
           ok ? "ok" : "MISMATCH: ", ok ? "" : "reason ", ok ? "" : reason);
    json_decref(v);
    return ok;
}

/* Every broken launcher gets its verdict, check, reason, exit code and the
 * conduct findings the call monitor reports (expected.tsv's first six
 * columns), and the form it was timed in where the row gives one (its last),
 * once per launcher; the host-code faults (an exception, a
 * segfault, a hang) are the candidate's verdicts, not harness errors; and
 * every built one has a row. */
static void test_gpu_broken_launchers_verdicts(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512];
    hb_test_make_temp_dir("hb-broken-launchers", out, sizeof out);
    static launcher_row rows[MAX_LAUNCHER_ROWS];
    const size_t n = read_launcher_table(rows, MAX_LAUNCHER_ROWS);
    int launchers = 0, wrong = 0;
    for (size_t i = 0; i < n; i++) {
        if (!first_of_its_name(rows, i))
            continue;
        wrong += !check_row(&rows[i], out);
        launchers++;
    }
    char command[1200];
    snprintf(command, sizeof command, "test $(ls -d %s/candidates/broken_launchers/*/ | wc -l) -eq %d",
             hb_test_build_dir(), launchers);
    assert_int_equal(hb_test_shell(command), 0);
    assert_int_equal(launchers, 29);
    assert_int_equal(wrong, 0);
    hb_test_remove_tree(out);
}

/* The gate's arguments of a row are put on a shell command line as they are:
 * plain words only, and none of the flags the test sets itself. */
static int plain_gate_args(const char *args)
{
    if (strspn(args, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.=_-") != strlen(args))
        return 0;
    return !strstr(args, "--candidate") && !strstr(args, "--out") && !strstr(args, "--verdict");
}

/* M of the first "--mnk M,N,K" in `args`; 0 if none. */
static long first_m(const char *args)
{
    const char *at = strstr(args, "--mnk ");
    return at ? strtol(at + 6, NULL, 10) : 0;
}

/* The members of verdict.json's "speedup" object, "key=value" each; "null" when it is null. */
static void speedup_figures(json_t *config, char *out, size_t size)
{
    json_t *speedup = json_object_get(config, "speedup");
    snprintf(out, size, "null");
    if (!json_is_object(speedup))
        return;
    const char *key;
    json_t *value;
    size_t used = 0;
    out[0] = '\0';
    json_object_foreach(speedup, key, value)
    {
        if (used >= size)
            break;
        if (json_is_number(value))
            used += (size_t)snprintf(out + used, size - used, "%s%s=%.4g", used ? " " : "", key,
                                     json_number_value(value));
        else if (json_is_string(value))
            used += (size_t)snprintf(out + used, size - used, "%s%s=%s", used ? " " : "", key,
                                     json_string_value(value));
    }
}

/* "participant: event E us, wall W us, kernel K us" from summary.csv, "?" for a missing figure. */
static void timer_figures(const char *csv, const char *participant, long m, char *out, size_t size)
{
    char event[64], wall[64], kernel[64];
    if (!csv[0]) {
        snprintf(out, size, "%s: no summary.csv", participant);
        return;
    }
    if (!hb_test_csv_field(csv, participant, m, "event_median_us", event, sizeof event) || !event[0])
        snprintf(event, sizeof event, "?");
    if (!hb_test_csv_field(csv, participant, m, "wall_median_us", wall, sizeof wall) || !wall[0])
        snprintf(wall, sizeof wall, "?");
    if (!hb_test_csv_field(csv, participant, m, "kernel_us", kernel, sizeof kernel) || !kernel[0])
        snprintf(kernel, sizeof kernel, "?");
    snprintf(out, size, "%s event %s us, wall %s us, kernel %s us", participant, event, wall, kernel);
}

/* The launchers' own lines on stderr (HB_BROKEN_VERBOSE: rewrite_timer and
 * slow_baseline say whether they rewrote the harness's slots, the ones that
 * attack the driver or the process what they found and did), joined by "; ". */
static void launcher_lines(const char *out, char *lines, size_t size)
{
    char path[700];
    snprintf(path, sizeof path, "%s/stderr.txt", out);
    char *text = hb_test_read_file(path);
    size_t used = 0;
    lines[0] = '\0';
    for (char *save = NULL, *line = text ? strtok_r(text, "\n", &save) : NULL; line && used < size;
         line = strtok_r(NULL, "\n", &save))
        if (!strncmp(line, "broken launcher ", 16) && !strstr(lines, line))
            used += (size_t)snprintf(lines + used, size - used, "%s%s", used ? "; " : "", line);
    free(text);
}

/* `gate` of one broken launcher with the row's own arguments, after short
 * windows that they may override; 1 when its exit code, verdict and check
 * are the row's.  Prints the headline figures it saw. */
static int gate_row(const launcher_row *row, size_t index, const char *out)
{
    if (!plain_gate_args(row->gate_args)) {
        printf("  gate %-20s MISMATCH: gate_args '%s' must be plain words without --candidate, --out, --verdict\n",
               row->name, row->gate_args);
        return 0;
    }
    char args[2048], verdict_path[700];
    snprintf(verdict_path, sizeof verdict_path, "%s/gate-%zu-%s.json", out, index, row->name);
    snprintf(args, sizeof args,
             "--candidate %s/candidates/broken_launchers/%s --warmup-s 1 --time-s 2 --timeout-s 60 "
             "--autotune-cache none --no-autotune-search --verdict %s %s",
             hb_test_build_dir(), row->name, verdict_path, row->gate_args);
    remove(verdict_path);
    const int rc = hb_test_run_bench("gate", args, out);
    json_error_t error;
    json_t *v = json_load_file(verdict_path, 0, &error);
    const char *verdict = v ? json_string_value(json_object_get(v, "verdict")) : NULL;
    json_t *code = v ? json_object_get(v, "exit_code") : NULL;
    json_t *config = v ? json_array_get(json_object_get(v, "configs"), 0) : NULL;
    const char *check = v ? config_text(v, "check") : "(no file)";
    const char *reason = v ? config_text(v, "reason") : "(no file)";
    const char *want_check = strcmp(row->gate_check, "-") ? row->gate_check : "";
    const int want_code = atoi(row->gate_exit);
    const int ok = rc == want_code && json_is_integer(code) && json_integer_value(code) == want_code && verdict &&
                   !strcmp(verdict, row->gate_verdict) && !strcmp(check, want_check);
    char speedup[512], csv[1200] = "", candidate[320] = "", torch[320] = "", lines[600];
    speedup_figures(config, speedup, sizeof speedup);
    const char *results = v ? json_string_value(json_object_get(v, "results_dir")) : NULL;
    if (results)
        snprintf(csv, sizeof csv, "%s/summary.csv", results);
    timer_figures(csv, "candidate", first_m(row->gate_args), candidate, sizeof candidate);
    timer_figures(csv, "torch", first_m(row->gate_args), torch, sizeof torch);
    launcher_lines(out, lines, sizeof lines);
    printf("  gate %-20s [%s]\n    expected %s/%s/%d, got %s/%s/%d %s%s\n    speedup: %s\n    %s; %s\n%s%s%s",
           row->name, row->gate_args, row->gate_verdict, row->gate_check, want_code, verdict ? verdict : "?", check,
           rc, ok ? "ok" : "MISMATCH: reason ", ok ? "" : reason, speedup, candidate, torch, lines[0] ? "    " : "",
           lines, lines[0] ? "\n" : "");
    json_decref(v);
    return ok;
}

/* Every row of expected.tsv that gives gate arguments gets its gate verdict,
 * check and exit code; the row's arguments come last, so that its own
 * windows (--warmup-s, --time-s) and --sandbox off win over the test's.
 * HB_BROKEN_VERBOSE is set for the calls, so that the launchers that patch
 * the harness or the driver say whether they did: "patch not applied"
 * (nothing to rewrite) is then told apart from a patch the harness caught. */
static void test_gpu_broken_launchers_gate(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512];
    hb_test_make_temp_dir("hb-broken-launchers-gate", out, sizeof out);
    static launcher_row rows[MAX_LAUNCHER_ROWS];
    const size_t n = read_launcher_table(rows, MAX_LAUNCHER_ROWS);
    setenv("HB_BROKEN_VERBOSE", "1", 1);
    int gates = 0, wrong = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(rows[i].gate_args, "-"))
            continue;
        wrong += !gate_row(&rows[i], i, out);
        gates++;
    }
    unsetenv("HB_BROKEN_VERBOSE");
    assert_int_equal(gates, 21);
    assert_int_equal(wrong, 0);
    hb_test_remove_tree(out);
}

/* own_stream launches where the events are not: at 2048^3 its kernel runs
 * for tens of microseconds, which the wall clock (host time to the
 * device-wide synchronize) counts and the events (on the timed stream) do
 * not.  Its work leaves the timed stream, so the configuration's headline
 * comes from the wall clock, which covers every stream: an honest kernel on
 * a stream of its own is timed, not called implausible (exit 0), and both
 * times are kept. */
static void test_gpu_launcher_own_stream_wall_counts_its_work(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], csv[1200];
    hb_test_make_temp_dir("hb-own-stream", out, sizeof out);
    if (run_candidate("run", "broken_launchers/own_stream", "--mnk 2048,2048,2048 " SHORT_RUN, out, csv, sizeof csv) != 0)
        fail_with_log(out, "run of own_stream did not pass (exit 0) on the wall clock");
    char verdict[64];
    hb_test_csv_text(csv, "candidate", 2048, "verdict", verdict, sizeof verdict);
    assert_string_equal(verdict, "pass");
    double event_us = hb_test_csv_number(csv, "candidate", 2048, "event_median_us");
    double wall_us = hb_test_csv_number(csv, "candidate", 2048, "wall_median_us");
    printf("  own_stream at 2048^3: event median %.1f us, wall median %.1f us\n", event_us, wall_us);
    assert_true(wall_us > 3 * event_us);
    assert_true(wall_us - event_us > 100);
    /* The headline is on the wall clock, for every participant, and says why. */
    char timer[32], reason[128];
    hb_test_csv_text(csv, "candidate", 2048, "headline_timer", timer, sizeof timer);
    assert_string_equal(timer, "wall");
    hb_test_csv_text(csv, "candidate", 2048, "timer_reason", reason, sizeof reason);
    assert_non_null(strstr(reason, "other-stream"));
    const double headline = hb_test_csv_number(csv, "torch", 2048, "speedup_geomean");
    const double on_wall = hb_test_csv_number(csv, "torch", 2048, "speedup_geomean_wall");
    const double on_events = hb_test_csv_number(csv, "torch", 2048, "speedup_geomean_event");
    printf("  own_stream over torch: headline %+.1f %% (wall), events would say %+.1f %%\n", headline * 100,
           on_events * 100);
    assert_true(headline == on_wall);
    assert_true(on_events > headline + 1.0); /* the events missed its whole kernel: far faster on them */
    hb_test_remove_tree(out);
}

/* --- device state ------------------------------------------------------------------------- */

static size_t persisting_l2_limit(void)
{
    size_t bytes = 0;
    assert_int_equal(cudaDeviceGetLimit(&bytes, cudaLimitPersistingL2CacheSize), cudaSuccess);
    return bytes;
}

/* A launcher participant from build/candidates/<candidate>/manifest.json at 256^3. */
static void create_launcher(const char *candidate, hb_participant *out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/candidates/%s/manifest.json", hb_test_build_dir(), candidate);
    static hb_manifest manifest;
    assert_int_equal(hb_manifest_load(path, &manifest), HB_OK);
    hb_device_limits limits = hb_device_limits_of(hb_test_device());
    assert_int_equal(hb_launcher_participant_create(&manifest, &limits, HB_ACC_FP32, 256, 256, 256, out), HB_OK);
}

static void checked_call_ok(hb_participant *p, hb_problem *problem)
{
    hb_check_failure failure;
    memset(&failure, 0, sizeof failure);
    hb_status status = hb_checked_call(p, &problem->ios[0], &problem->ios[0], hb_test_stream(), &failure);
    if (status != HB_OK)
        fail_msg("checked call of %s: status %d, %s", p->desc.algorithm, (int)status, failure.reason);
}

/* The access-policy window on `stream`: its bytes, 0 for none. */
static size_t window_bytes(cudaStream_t stream)
{
    cudaStreamAttrValue value;
    memset(&value, 0, sizeof value);
    assert_int_equal(cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value), cudaSuccess);
    return value.accessPolicyWindow.num_bytes;
}

/* sets_device_state raises the persisting-L2 limit and leaves a window
 * marking C persisting on its stream in every call: after each checked call
 * the limit is what it was and the stream has no window, and device_state
 * says what was found, the first time only; the sample launcher changes
 * nothing. */
static void test_gpu_launcher_device_state_restored(void **state)
{
    (void)state;
    REQUIRE_GPU();
    int most = 0;
    assert_int_equal(cudaDeviceGetAttribute(&most, cudaDevAttrMaxPersistingL2CacheSize, hb_test_device()->ordinal),
                     cudaSuccess);
    if (most <= 0)
        skip(); /* no persisting L2 here (the launcher would decline): nothing to change */
    const size_t before = persisting_l2_limit();
    hb_mnk mnk = {256, 256, 256};
    hb_problem problem;
    assert_int_equal(hb_problem_create(&mnk, 1, 99, hb_test_stream(), &problem), HB_OK);

    hb_participant p;
    create_launcher("broken_launchers/sets_device_state", &p);
    checked_call_ok(&p, &problem);
    assert_true(persisting_l2_limit() == before);
    assert_true(window_bytes(hb_test_stream()) == 0);
    if (!strstr(p.device_state, "persisting-L2 limit") || !strstr(p.device_state, "set back"))
        fail_msg("device_state after the first call: '%s'", p.device_state);
    if (!strstr(p.device_state, "access-policy window") || !strstr(p.device_state, "hits persisting") ||
        !strstr(p.device_state, "(cleared)"))
        fail_msg("device_state after the first call names no window: '%s'", p.device_state);
    char first[sizeof p.device_state];
    snprintf(first, sizeof first, "%s", p.device_state);
    checked_call_ok(&p, &problem);
    assert_true(persisting_l2_limit() == before);
    assert_true(window_bytes(hb_test_stream()) == 0);
    assert_string_equal(p.device_state, first); /* the first finding is kept */
    p.ops->destroy(&p);

    create_launcher("sample_mma_launcher", &p);
    checked_call_ok(&p, &problem);
    assert_string_equal(p.device_state, "");
    p.ops->destroy(&p);
    hb_problem_free(&problem);
}

hb_test_list hb_gpu_launcher_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_sample_launcher_matches_cubin),
        cmocka_unit_test(test_gpu_sample_launcher_time_matches_cubin),
        cmocka_unit_test(test_gpu_broken_launchers_verdicts),
        cmocka_unit_test(test_gpu_broken_launchers_gate),
        cmocka_unit_test(test_gpu_launcher_own_stream_wall_counts_its_work),
        cmocka_unit_test(test_gpu_launcher_device_state_restored),
    };
    return HB_TEST_LIST(tests);
}
