/* `reproduce cuda-l2` without a GPU: its usage errors, the plan it draws
 * (the set's files only, the same on every rerun and shard), the stage
 * command lines of --dry-run, and the file-reading stages (--tables-only:
 * report, compare and summary.md) over a fake CUDA-L2 clone and a sweep
 * folder written by the sweep's own writers (tests/result_fixture.h). */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/analysis/published_layout.h"
#include "bench/analysis/reproduction_forms.h"
#include "bench/core/diag.h"
#include "bench/core/process_start.h"
#include "bench/core/md_text.h"
#include "bench/core/version.h"
#include "bench/driver/reproduce_state.h"
#include "bench/result/config_result.h"
#include "tests/hostile_text.h"
#include "tests/result_fixture.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 2048
#define SET "h100_F32F16F16F32"

typedef struct fake {
    char root[PATH], repo[PATH], kernels[PATH], out[PATH], log[PATH];
    hb_fixture fixture;
    size_t n_modes; /* the fixture's: configuration i's size is item i / n_modes's */
} fake;

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

/* A clone with the set's folder holding a (empty) file per configuration of
 * the fixture (`count` items in `n_modes` modes: offline, then server). */
static void make_repo_in(fake *f, size_t count, uint64_t seed, size_t n_modes)
{
    memset(f, 0, sizeof *f);
    hb_test_make_temp_dir("hb-reproduce", f->root, sizeof f->root);
    snprintf(f->repo, PATH, "%.900s/CUDA-L2", f->root);
    snprintf(f->kernels, PATH, "%.900s/kernels/" SET, f->repo);
    snprintf(f->out, PATH, "%.900s/out", f->root);
    snprintf(f->log, PATH, "%.900s/log.txt", f->root);
    char command[PATH * 2];
    snprintf(command, sizeof command, "mkdir -p '%.1500s' '%.1500s/eval_results'", f->kernels, f->repo);
    assert_int_equal(hb_test_shell(command), 0);
    const hb_mode modes[2] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    f->n_modes = n_modes;
    assert_int_equal(hb_fixture_make(seed, count, modes, n_modes, 0.25, &f->fixture), HB_OK);
    for (size_t i = 0; i < f->fixture.count; i += n_modes) {
        char file[PATH];
        const hb_mnk *c = &f->fixture.configs[i].mnk;
        snprintf(file, PATH, "%.1200s/%ld_%ld_%ld.cu", f->kernels, c->m, c->n, c->k);
        write_text(file, "// a file of the set\n");
    }
}

static void make_repo(fake *f, size_t count, uint64_t seed)
{
    make_repo_in(f, count, seed, 2);
}

static void drop_repo(fake *f)
{
    hb_fixture_free(&f->fixture);
    hb_test_remove_tree(f->root);
}

/* Runs hgemm-bench with `args` (a shell-quoted tail), stdout and stderr into the log. */
static int bench(const fake *f, const char *args)
{
    char command[PATH * 4];
    snprintf(command, sizeof command, "'%.1000s' reproduce cuda-l2 --repo '%.1000s' %.4000s > '%.1000s' 2>&1",
             hb_test_bench(), f->repo, args, f->log);
    return hb_test_shell(command);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void write_published(const fake *f);

static void test_reproduce_usage_errors_touch_nothing(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 4, 11);
    char args[PATH * 2];
    snprintf(args, sizeof args, "--set h200 --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 2);
    assert_true(hb_test_file_contains(f.log, "a100-fp16"));
    snprintf(args, sizeof args, "--set a100-fp32 --out '%s'", f.out); /* the clone has no such folder */
    assert_int_equal(bench(&f, args), 2);
    assert_true(hb_test_file_contains(f.log, "a100_F32F16F16F32"));
    snprintf(args, sizeof args, "--set h100 --grid paper --mnk-file x --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 2);
    assert_false(exists(f.out));
    drop_repo(&f);
}

/* The plan: the plan's configurations with a file, sampled; the same flags
 * give the same plan, other flags into the same folder are refused. */
static void test_reproduce_plans_the_set_files_and_keeps_its_plan(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 12, 12); /* 12 items: 6 configurations with a file, both modes */
    char args[PATH * 2], plan[PATH];
    snprintf(plan, PATH, "%.1500s/plan.txt", f.out);
    snprintf(args, sizeof args, "--set h100 --grid paper --sample 4 --seed 3 --arch sm_90a --out '%s'", f.out);
    bench(&f, args); /* no GPU, no CUTLASS here: the import stage fails, the plan is written first */
    char *text = hb_test_read_file(plan);
    assert_non_null(text);
    size_t lines = 0, descents = 0;
    long last = 0;
    for (const char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        long m, n, k;
        assert_int_equal(sscanf(line + 1, "%ld,%ld,%ld", &m, &n, &k), 3);
        descents += m * n * k < last; /* seeded random order, not by size: a sweep stopped early is a random part */
        last = m * n * k;
        char file[PATH];
        snprintf(file, PATH, "%.1200s/%ld_%ld_%ld.cu", f.kernels, m, n, k);
        assert_true(exists(file)); /* only configurations the set has a file for */
        lines++;
    }
    assert_int_equal(lines, 4);
    assert_true(descents > 0);
    free(text);
    bench(&f, args);
    assert_false(hb_test_file_contains(f.log, "another plan"));
    snprintf(args, sizeof args, "--set h100 --grid paper --sample 5 --seed 3 --arch sm_90a --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 2);
    assert_true(hb_test_file_contains(f.log, "another plan"));
    drop_repo(&f);
}

static void test_reproduce_dry_run_prints_the_stages_and_writes_nothing(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 8, 13);
    write_published(&f);
    char args[PATH * 2];
    snprintf(args, sizeof args, "--set h100 --arch sm_90a --shard 1/2 --dry-run --warmup-s 0.5 -j 3 --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 0);
    assert_true(hb_test_file_contains(f.log, "import: "));
    assert_true(hb_test_file_contains(f.log, "plan-shard-1-of-2.txt --arch sm_90a"));
    assert_true(hb_test_file_contains(f.log, "--jobs 3"));
    assert_true(hb_test_file_contains(f.log, "--shard 1/2"));
    assert_true(hb_test_file_contains(f.log, "--report import-shard-1-of-2.csv")); /* one set, a report per shard */
    assert_true(hb_test_file_contains(f.log, "/out/set --mnk-file"));
    assert_true(hb_test_file_contains(f.log, "--warmup-s 0.5"));
    assert_false(hb_test_file_contains(f.log, "report: ")); /* a shard runs the import and the sweep only */
    assert_false(exists(f.out));
    snprintf(args, sizeof args, "--set h100 --arch sm_90a --dry-run --modes offline --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 0);
    assert_true(hb_test_file_contains(f.log, "--modes offline --acc fp32"));
    assert_true(hb_test_file_contains(f.log, "compare: "));
    assert_false(hb_test_file_contains(f.log, "speedup_server.csv")); /* one mode run, one comparison */
    assert_false(exists(f.out));
    drop_repo(&f);
}

/* import.csv of the fake set (or a shard's report, `name`): one row per
 * configuration with a file, the first failed. */
static void write_import_report(const fake *f, const char *set_dir, const char *name)
{
    char path[PATH], row[512];
    snprintf(path, PATH, "%.1500s/%.100s", set_dir, name);
    size_t size = 1 << 16, used = 0;
    char *text = malloc(size);
    assert_non_null(text);
    used += (size_t)snprintf(text, size, "m,n,k,file,kind,hopper_features,state,forms,launches_per_call,"
                                         "no_cubin_because,reason,build_seconds,cache_key,mma_accumulators\n");
    for (size_t i = 0; i < f->fixture.count; i += f->n_modes) {
        const hb_mnk *c = &f->fixture.configs[i].mnk;
        int failed = i == 0;
        snprintf(row, sizeof row, "%ld,%ld,%ld,x.cu,%s,,%s,%s,1,%s,%s,12.5,key,%s\n", c->m, c->n, c->k,
                 i % 4 ? "one-kernel" : "cutlass3-adapter", failed ? "failed" : "built",
                 failed ? "" : i % 4 ? "launcher;cubin" : "launcher", i % 4 || failed ? "" : "a call launches 2 kernels",
                 failed ? "compile: timed out after 150 s" : "", failed ? "" : i % 8 == 2 ? "f16;hmma.f16=8" : "f32;hmma.f32=12");
        used += (size_t)snprintf(text + used, size - used, "%s", row);
    }
    write_text(path, text);
    free(text);
}

/* The published CSV of `mode` in the clone's eval_results/. */
static void write_published_of(const fake *f, const char *mode)
{
    char path[PATH];
    snprintf(path, PATH, "%.1500s/eval_results/cuda_l2_" SET "_speedup_%s.csv", f->repo, mode);
    size_t size = 1 << 16, used = 0;
    char *text = malloc(size);
    assert_non_null(text);
    used += (size_t)snprintf(text, size, "%s\n", hb_published_header());
    for (size_t i = 0; i < f->fixture.count; i += f->n_modes) {
        const hb_mnk *c = &f->fixture.configs[i].mnk;
        used += (size_t)snprintf(text + used, size - used, "%ld_%ld_%ld,1.5,1.2,1.2,1.2,1.1,1.1,1.1,1.05,1.05,1.05\n",
                                 c->m, c->n, c->k);
    }
    write_text(path, text);
    free(text);
}

static void write_published(const fake *f)
{
    write_published_of(f, "offline");
}

/* OUT/set with the import's report, and OUT/sweep written by the sweep's
 * own writers with its first `done` items done, on a GPU named `gpu`. */
static void write_out_sweep(fake *f, char *set_dir, char *sweep_dir, size_t done, const char *gpu)
{
    snprintf(set_dir, PATH, "%.1500s/set", f->out);
    snprintf(sweep_dir, PATH, "%.1500s/sweep", f->out);
    hb_test_make_folder(f->out);
    hb_test_make_folder(set_dir);
    assert_int_equal(hb_fixture_write_sweep(&f->fixture, sweep_dir, set_dir, 0, 1, done, gpu), HB_OK);
    write_import_report(f, set_dir, "import.csv");
}

/* A sweep's folder and an import's report, then --tables-only: the report,
 * the offline comparison (the server CSV is absent: said, not failed) and
 * the page, whose census agrees with what was written. */
static void test_reproduce_tables_only_writes_the_summary_page(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 12, 14);
    char set_dir[PATH], sweep_dir[PATH], page[PATH], args[PATH * 2];
    snprintf(page, PATH, "%.1500s/summary.md", f.out);
    write_out_sweep(&f, set_dir, sweep_dir, f.fixture.count, "Test GPU 80GB");
    write_published(&f);
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0) {
        char *log = hb_test_read_file(f.log);
        fail_msg("reproduce --tables-only: exit %d\n%s", rc, log ? log : "");
    }
    assert_true(hb_test_file_contains(page, "# CUDA-L2's " SET " set reproduced on Test GPU 80GB"));
    assert_true(hb_test_file_contains(page, "**another GPU**")); /* tuned for the H100, run on the test GPU */
    /* the command as typed: the parser moves operands after the flags, the recorded line does not */
    assert_true(hb_test_file_contains(page, "reproduce cuda-l2 --repo"));
    char line[256];
    size_t configs = f.fixture.count / 2;
    snprintf(line, sizeof line, "%zu files selected: **%zu built**", configs, configs - 1);
    assert_true(hb_test_file_contains(page, line));
    assert_true(hb_test_file_contains(page, "| compile: timed out after 150 s | 1 |"));
    assert_true(hb_test_file_contains(page, "| a call launches 2 kernels |"));
    size_t pass[2] = {0, 0};
    for (size_t i = 0; i < f.fixture.count; i++)
        pass[f.fixture.configs[i].mode == HB_MODE_SERVER] += f.fixture.configs[i].verdict == HB_VERDICT_PASS;
    snprintf(line, sizeof line, "| pass | %zu | %zu |", pass[0], pass[1]);
    assert_true(hb_test_file_contains(page, line));
    assert_true(hb_test_file_contains(page, "| f32 |")); /* the audit's class beside the verdicts */
    assert_true(hb_test_file_contains(page, "| f16 |"));
    assert_true(hb_test_file_contains(page, "## Ours beside the published offline figures (hgemm-bench compare"));
    assert_true(hb_test_file_contains(page, "No comparison: "));
    assert_true(hb_test_file_contains(page, "## The paper's tables (hgemm-bench report)"));
    assert_true(hb_test_file_contains(page, "| torch |"));
    drop_repo(&f);
}

/* A cluster's reproduction: two shards' sweeps and import reports in one
 * folder; --tables-only merges the sweeps and counts both reports. */
static void test_reproduce_tables_only_joins_the_shards(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 8, 15);
    char set_dir[PATH], shard[PATH], page[PATH], args[PATH * 2], command[PATH * 2];
    snprintf(set_dir, PATH, "%.1500s/set", f.out);
    snprintf(page, PATH, "%.1500s/summary.md", f.out);
    snprintf(command, sizeof command, "mkdir -p '%.2000s'", set_dir);
    assert_int_equal(hb_test_shell(command), 0);
    for (size_t i = 0; i < 2; i++) {
        snprintf(shard, PATH, "%.1500s/sweep-shard-%zu-of-2", f.out, i);
        assert_int_equal(hb_fixture_write_sweep(&f.fixture, shard, set_dir, i, 2, f.fixture.count / 2, "Test GPU"),
                         HB_OK);
    }
    write_import_report(&f, set_dir, "import-shard-0-of-2.csv");
    write_import_report(&f, set_dir, "import-shard-1-of-2.csv");
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0) {
        char *log = hb_test_read_file(f.log);
        fail_msg("reproduce --tables-only over shards: exit %d\n%s", rc, log ? log : "");
    }
    char merged[PATH], line[128];
    snprintf(merged, PATH, "%.1500s/sweep/summary.csv", f.out);
    assert_true(exists(merged));
    size_t configs = f.fixture.count / 2;
    snprintf(line, sizeof line, "%zu files selected", 2 * configs); /* both shards' reports, counted together */
    assert_true(hb_test_file_contains(page, line));
    drop_repo(&f);
}

/* --tables-only draws the figures when gnuplot is there: a GPU name in the
 * sweep's env.json that would run shell commands inside gnuplot's double
 * quotes is drawn as text, and runs nothing (docs/reports.md, "Figures"). */
static void test_reproduce_draws_a_hostile_gpu_name_as_text(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    fake f;
    make_repo(&f, 8, 16);
    char set_dir[PATH], sweep_dir[PATH], gpu[256], figure[PATH], args[PATH * 2], command[PATH * 2];
    snprintf(gpu, sizeof gpu, "GPU `touch %.150s/CANARY` `touch CANARY` @title_facts ' \" \\", f.root);
    write_out_sweep(&f, set_dir, sweep_dir, f.fixture.count, gpu);
    write_published(&f);
    snprintf(args, sizeof args, "--set h100 --tables-only --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0) {
        char *log = hb_test_read_file(f.log);
        fail_msg("reproduce --tables-only with figures: exit %d\n%s", rc, log ? log : "");
    }
    snprintf(figure, PATH, "%.1500s/report/report_ecdf_offline.svg", f.out);
    assert_true(hb_test_file_contains(figure, "GPU `touch ")); /* drawn, the name as text */
    snprintf(command, sizeof command, "find '%.1500s' -name CANARY | grep -q .", f.root);
    assert_int_not_equal(hb_test_shell(command), 0);
    drop_repo(&f);
}

/* --tables-only with figures: the page shows where the speedups come from
 * beside the timers' table, once, with the counts report wrote under it. */
static void test_reproduce_page_shows_where_the_speedups_come_from(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    fake f;
    make_repo(&f, 8, 17);
    char set_dir[PATH], sweep_dir[PATH], page[PATH], caption_path[PATH], args[PATH * 2];
    snprintf(page, PATH, "%.1500s/summary.md", f.out);
    snprintf(caption_path, PATH, "%.1500s/report/report_speedup_source_offline.txt", f.out);
    write_out_sweep(&f, set_dir, sweep_dir, f.fixture.count, "Test GPU");
    write_published(&f);
    snprintf(args, sizeof args, "--set h100 --tables-only --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0) {
        char *log = hb_test_read_file(f.log);
        fail_msg("reproduce --tables-only with figures: exit %d\n%s", rc, log ? log : "");
    }
    static const char figure[] = "![where the offline speedups come from](report/report_speedup_source_offline.png)";
    char *text = hb_test_read_file(page), *caption = hb_test_read_file(caption_path);
    assert_non_null(text);
    assert_non_null(caption);
    const char *at = strstr(text, figure), *timers = strstr(text, "## The speedups on every timer");
    assert_non_null(at);
    assert_true(timers && timers < at && at < strstr(text, "## Ours beside the published"));
    assert_null(strstr(at + strlen(figure), "report_speedup_source_offline.png")); /* not again among the report's figures */
    assert_null(strstr(text, "compare_speedup_source_offline.png"));
    assert_non_null(strstr(caption, " passing configurations win on the headline timer (CUDA events), "));
    /* under the figure in italics, as plain text (md_text.h): its one > an entity */
    char shown[700];
    caption[strcspn(caption, "\n")] = '\0';
    char *greater = strchr(caption, '>');
    assert_non_null(greater);
    *greater = '\0';
    snprintf(shown, sizeof shown, "*%.500s&gt;%.100s*", caption, greater + 1);
    assert_non_null(strstr(at, shown));
    free(text);
    free(caption);
    drop_repo(&f);
}

/* A sweep and an import whose text cells hold hostile texts (a GPU's name,
 * reasons, a check; an import.csv reason guarded by the import's writer and
 * one unguarded, as an older harness wrote it): summary.md shows them as
 * plain text, and reads the guarded cell back without its quote. */
static void test_reproduce_summary_page_shows_hostile_texts_inert(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 8, 16);
    char set_dir[PATH], sweep_dir[PATH], page[PATH], args[PATH * 2], command[PATH * 2], path[PATH + 32];
    snprintf(set_dir, PATH, "%.1500s/set", f.out);
    snprintf(sweep_dir, PATH, "%.1500s/sweep", f.out);
    snprintf(page, PATH, "%.1500s/summary.md", f.out);
    snprintf(command, sizeof command, "mkdir -p '%.2000s'", set_dir);
    assert_int_equal(hb_test_shell(command), 0);
    for (size_t i = 0; i < f.fixture.count; i++) {
        hb_config_result *r = f.fixture.configs[i].result;
        r->gpu.ordinal = 0;
        snprintf(r->gpu.name, sizeof r->gpu.name, "%s", hb_hostile_all);
        if (r->verdict != HB_VERDICT_PASS) {
            snprintf(r->reason, sizeof r->reason, "%s", hb_hostile_texts[i % HB_HOSTILE_COUNT]);
            snprintf(r->check, sizeof r->check, "%s", hb_hostile_texts[(i + 1) % HB_HOSTILE_COUNT]);
        }
        assert_int_equal(hb_fixture_rewrite(&f.fixture.configs[i]), HB_OK);
    }
    assert_int_equal(hb_fixture_write_sweep(&f.fixture, sweep_dir, set_dir, 0, 1, f.fixture.count, hb_hostile_all),
                     HB_OK);
    snprintf(path, sizeof path, "%s/import.csv", set_dir);
    char text[4096];
    size_t used = (size_t)snprintf(text, sizeof text, "m,n,k,file,kind,hopper_features,state,forms,launches_per_call,"
                                                      "no_cubin_because,reason,build_seconds,cache_key\n");
    for (size_t i = 0; i < f.fixture.count; i += f.n_modes) {
        const hb_mnk *c = &f.fixture.configs[i].mnk;
        const char *reason = i == 0 ? "\"'=HYPERLINK(\"\"http://x\"\")\"" : i == 2 ? "\"<script>x</script>\n# Heading\"" : "";
        used += (size_t)snprintf(text + used, sizeof text - used, "%ld,%ld,%ld,x.cu,one-kernel,,%s,%s,1,%s,%s,12.5,key\n",
                                 c->m, c->n, c->k, i <= 2 ? "failed" : "built", i <= 2 ? "" : "launcher;cubin",
                                 i == 4 ? "\"| a | b |\"" : "", reason);
    }
    write_text(path, text);
    write_published(&f);
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0) {
        char *log = hb_test_read_file(f.log);
        fail_msg("reproduce --tables-only: exit %d\n%s", rc, log ? log : "");
    }
    hb_test_assert_markdown_inert(page, 1);
    assert_true(hb_test_file_contains(page, "reproduced on =HYPERLINK(\"http://x\") \\# Heading &lt;script&gt;"));
    /* the census labels a reason up to its first quote or bracket: with the guard's quote left on, it would be empty */
    assert_true(hb_test_file_contains(page, "| =HYPERLINK | 1 |"));
    assert_true(hb_test_file_contains(page, "&lt;script&gt;x&lt;/script&gt; \\# Heading"));
    drop_repo(&f);
}

/* The log, for a failure's message. */
static void fail_with_log(const fake *f, const char *what, int rc)
{
    char *log = hb_test_read_file(f->log);
    fail_msg("%s: exit %d\n%s", what, rc, log ? log : "");
}

/* OUT/set with the import's report, OUT/sweep written by the sweep's own
 * writers (every item done), and the published offline CSV. */
static void make_measured(fake *f, char *set_dir, char *sweep_dir)
{
    write_out_sweep(f, set_dir, sweep_dir, f->fixture.count, "Test GPU 80GB");
    write_published(f);
}

/* --tables-only where nothing was measured: exit 11 with what to run
 * first, and nothing left behind: no OUT where there was none, no file in
 * an OUT that was empty. */
static void test_reproduce_tables_only_without_a_sweep_says_measure_first(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 4, 21);
    char args[PATH * 2], sweep_dir[PATH];
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 11);
    assert_true(hb_test_file_contains(f.log, "nothing measured in"));
    assert_true(hb_test_file_contains(f.log, "there is no such folder"));
    assert_true(hb_test_file_contains(f.log, "without --tables-only"));
    assert_true(hb_test_file_contains(f.log, "hgemm-bench reproduce cuda-l2 --repo "));
    assert_false(exists(f.out));

    hb_test_make_folder(f.out);
    assert_int_equal(bench(&f, args), 11);
    assert_true(hb_test_file_contains(f.log, "it has no sweep/"));
    assert_int_equal(hb_test_count_entries(f.out), 0); /* no report.md, no lock file */

    snprintf(sweep_dir, PATH, "%.1500s/sweep", f.out);
    hb_test_make_folder(sweep_dir);
    assert_int_equal(bench(&f, args), 11);
    assert_true(hb_test_file_contains(f.log, "neither plan.json nor summary.csv"));
    assert_int_equal(hb_test_count_entries(f.out), 1);
    drop_repo(&f);
}

/* A sweep of one mode, with both modes' published CSVs: --tables-only
 * compares the mode the sweep holds, removes the empty compare-server.md an
 * earlier run left, and refuses --modes naming a mode it lacks. */
static void test_reproduce_tables_only_takes_the_modes_the_sweep_holds(void **state)
{
    (void)state;
    fake f;
    make_repo_in(&f, 6, 22, 1); /* offline only */
    char set_dir[PATH], sweep_dir[PATH], page[PATH], stale[PATH], offline[PATH], args[PATH * 2];
    make_measured(&f, set_dir, sweep_dir);
    write_published_of(&f, "server");
    snprintf(stale, PATH, "%.1500s/compare-server.md", f.out);
    snprintf(offline, PATH, "%.1500s/compare-offline.md", f.out);
    snprintf(page, PATH, "%.1500s/summary.md", f.out);
    write_text(stale, ""); /* what a failed comparison of an earlier harness left */
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0)
        fail_with_log(&f, "reproduce --tables-only of a one-mode sweep", rc);
    assert_false(exists(stale));
    assert_true(hb_test_file_contains(f.log, "compare-server.md, an earlier run's"));
    assert_true(hb_test_file_contains(offline, "|"));
    assert_true(hb_test_file_contains(page, "| modes | offline |"));
    assert_false(hb_test_file_contains(page, "published server figures"));

    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --modes offline,server --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 2);
    assert_true(hb_test_file_contains(f.log, "holds offline only"));
    drop_repo(&f);
}

/* A stage that fails leaves its file as it was (the good run's, not an
 * empty one) and no temporary beside it. */
static void test_reproduce_a_failed_stage_keeps_its_file(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 8, 23);
    char set_dir[PATH], sweep_dir[PATH], report[PATH], summary[PATH], args[PATH * 2], command[PATH * 2];
    make_measured(&f, set_dir, sweep_dir);
    snprintf(report, PATH, "%.1500s/report.md", f.out);
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0)
        fail_with_log(&f, "reproduce --tables-only", rc);
    char *before = hb_test_read_file(report);
    assert_non_null(before);
    assert_true(strlen(before) > 100);
    snprintf(summary, PATH, "%.1500s/summary.csv", sweep_dir);
    write_text(summary, "not,a,summary\n1,2,3\n"); /* the journal vouches for rows this file lacks */
    assert_int_equal(bench(&f, args), 11);
    char *after = hb_test_read_file(report);
    assert_non_null(after);
    assert_string_equal(after, before);
    snprintf(command, sizeof command, "ls -a '%.1500s' | grep -q '^\\.report\\.md\\.'", f.out);
    assert_int_not_equal(hb_test_shell(command), 0); /* no temporary left */
    free(before);
    free(after);
    drop_repo(&f);
}

/* A sweep folder without plan.json (summary.csv and env.json only): the
 * page's header takes the windows, the monitor and the commit from env.json
 * and the count from the rows, as the report it embeds does; the plan's
 * account from plan.txt; never the paper's defaults. */
static void test_reproduce_page_header_without_a_plan_reads_the_sweep(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 8, 24);
    char set_dir[PATH], sweep_dir[PATH], page[PATH], plan[PATH], args[PATH * 2];
    snprintf(set_dir, PATH, "%.1500s/set", f.out);
    snprintf(sweep_dir, PATH, "%.1500s/sweep", f.out);
    snprintf(page, PATH, "%.1500s/summary.md", f.out);
    snprintf(plan, PATH, "%.1500s/plan.txt", f.out);
    hb_test_make_folder(f.out);
    hb_test_make_folder(set_dir);
    assert_int_equal(hb_fixture_write_run(&f.fixture, 0, f.fixture.count, sweep_dir, NULL), HB_OK);
    assert_int_equal(hb_fixture_write_env(sweep_dir, "Test GPU 80GB", set_dir, 1, 7,
                                          "hgemm-bench sweep --candidate set --grid paper --sample 4 --seed 7"),
                     HB_OK);
    write_text(plan, "# reproduce's plan: --grid paper, the files of it in the set; a stratified sample of 4, seed 7\n");
    write_import_report(&f, set_dir, "import.csv");
    write_published(&f);
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0)
        fail_with_log(&f, "reproduce --tables-only without plan.json", rc);
    assert_true(hb_test_file_contains(page, "| windows | 0.25 s warm-up, 1.5 s timed, per configuration and mode "
                                            "(shorter than the paper's 10 s + 30 s) |"));
    assert_true(hb_test_file_contains(page, "warm-up 0.25 s, timed window 1.5 s")); /* the embedded report's */
    char line[256], commit[128];
    snprintf(line, sizeof line, "| plan | %zu configurations measured (the sweep has no plan.json", f.fixture.count / 2);
    assert_true(hb_test_file_contains(page, line));
    assert_true(hb_test_file_contains(page, "a stratified sample of 4, seed 7"));
    assert_true(hb_test_file_contains(page, "| conduct | checked: "));
    snprintf(line, sizeof line, "| harness | the sweep's commit %s;", hb_md_text(hb_harness_commit(), commit, sizeof commit));
    assert_true(hb_test_file_contains(page, line));
    assert_false(hb_test_file_contains(page, "| windows | unknown"));
    assert_false(hb_test_file_contains(page, "| conduct | unknown"));
    assert_false(hb_test_file_contains(page, "commit unknown"));
    assert_false(hb_test_file_contains(page, "(the paper's)"));

    /* an env.json that records neither the method nor the software: unknown, not the paper's windows */
    char env[PATH + 16];
    snprintf(env, sizeof env, "%s/env.json", sweep_dir);
    json_t *doc = hb_test_load_json(env);
    assert_int_equal(json_object_del(doc, "method"), 0);
    assert_int_equal(json_object_del(doc, "software"), 0);
    assert_int_equal(json_dump_file(doc, env, 0), 0);
    json_decref(doc);
    rc = bench(&f, args);
    if (rc != 0)
        fail_with_log(&f, "reproduce --tables-only without a method", rc);
    assert_true(hb_test_file_contains(page, "| windows | unknown"));
    assert_true(hb_test_file_contains(page, "| conduct | unknown"));
    assert_true(hb_test_file_contains(page, "the sweep's commit unknown"));
    assert_false(hb_test_file_contains(page, "(the paper's)"));
    drop_repo(&f);
}

/* A sweep that has run no item yet: the page says no configuration ran,
 * not that every call was watched. */
static void test_reproduce_page_of_a_sweep_that_ran_nothing(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 4, 26);
    char set_dir[PATH], sweep_dir[PATH], page[PATH], args[PATH * 2];
    snprintf(page, PATH, "%.1500s/summary.md", f.out);
    write_out_sweep(&f, set_dir, sweep_dir, 0, "Test GPU 80GB");
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0)
        fail_with_log(&f, "reproduce --tables-only of an empty sweep", rc);
    assert_true(hb_test_file_contains(page, "| conduct | no configuration ran |"));
    assert_true(hb_test_file_contains(page, "trace none: no configuration ran")); /* the embedded report's */
    drop_repo(&f);
}

/* --dry-run on a machine without a GPU and without --arch: the import line
 * runs as printed (the set's own target, not a placeholder), and stderr
 * says no GPU was found and what to add for another GPU. */
static void test_reproduce_dry_run_without_a_gpu_prints_a_runnable_import(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 4, 25);
    char args[PATH * 2];
    snprintf(args, sizeof args, "--set h100 --dry-run --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 0);
    assert_true(hb_test_file_contains(f.log, "import: "));
    assert_false(hb_test_file_contains(f.log, "this GPU's"));
    assert_true(hb_test_file_contains(f.log, " --arch sm_"));
    if (hb_test_file_contains(f.log, "no GPU found here")) { /* a GPU host's line names its own */
        assert_true(hb_test_file_contains(f.log, " --arch sm_90a "));
        assert_true(hb_test_file_contains(f.log, "for another GPU add its --arch"));
        assert_true(hb_test_file_contains(f.log, "The sweep needs a GPU"));
    }
    assert_false(exists(f.out));
    drop_repo(&f);
}


/* --- the forms, --status, --detach ---------------------------------------------------- */

/* --forms: a sweep per form, each passed its --form, into its own folder
 * (the replay's keeps OUT/sweep, so a folder of before resumes), and a
 * report per form; a form the harness lacks, or one given twice, is a
 * usage error before anything is written. */
static void test_reproduce_forms_sweep_each_form_into_its_folder(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 4, 31);
    char args[PATH * 2], line[PATH];
    snprintf(args, sizeof args, "--set h100 --arch sm_90a --dry-run --forms replay,launcher --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0)
        fail_with_log(&f, "reproduce --forms replay,launcher --dry-run", rc);
    snprintf(line, sizeof line, "--form replay --mnk-file %.1500s/plan.txt", f.out);
    assert_true(hb_test_file_contains(f.log, line));
    snprintf(line, sizeof line, "--acc fp32 --out %.1500s/sweep --seed", f.out);
    assert_true(hb_test_file_contains(f.log, line));
    snprintf(line, sizeof line, "--form launcher --mnk-file %.1500s/plan.txt", f.out);
    assert_true(hb_test_file_contains(f.log, line));
    snprintf(line, sizeof line, "--acc fp32 --out %.1500s/sweep-launcher --seed", f.out);
    assert_true(hb_test_file_contains(f.log, line));
    snprintf(line, sizeof line, "report %.900s/sweep-launcher --out %.900s/report-launcher", f.out, f.out);
    assert_true(hb_test_file_contains(f.log, line));
    assert_true(hb_test_file_contains(f.log, "the replay,launcher forms"));

    snprintf(args, sizeof args, "--set h100 --arch sm_90a --dry-run --out '%s'", f.out); /* the default: replay */
    assert_int_equal(bench(&f, args), 0);
    assert_true(hb_test_file_contains(f.log, "--form replay"));
    assert_false(hb_test_file_contains(f.log, "--form launcher"));
    assert_false(hb_test_file_contains(f.log, "sweep-launcher"));

    snprintf(args, sizeof args, "--set h100 --arch sm_90a --forms replay,cubin --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 2);
    assert_true(hb_test_file_contains(f.log, "'cubin' is not a form"));
    snprintf(args, sizeof args, "--set h100 --arch sm_90a --forms launcher,launcher --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 2);
    assert_true(hb_test_file_contains(f.log, "launcher is given twice"));
    snprintf(args, sizeof args, "--set h100 --arch sm_90a --detach --dry-run --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 2);
    assert_false(exists(f.out));
    drop_repo(&f);
}

/* The line of `path` that starts with `prefix`, copied into out; 0 when none does. */
static int line_starting(const char *path, const char *prefix, char *out, size_t size)
{
    char *text = hb_test_read_file(path);
    assert_non_null(text);
    int found = 0;
    for (char *line = text; line && *line && !found; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (!strncmp(line, prefix, strlen(prefix))) {
            snprintf(out, size, "%.*s", (int)strcspn(line, "\n"), line);
            found = 1;
        }
    free(text);
    return found;
}

/* Two forms' sweeps in OUT (the launcher's missing the last
 * configuration): --tables-only takes both, writes a report and a
 * comparison per form, and the page sets them side by side per
 * configuration beside the published figure, with each form's aggregates
 * and each form's sections under headings naming it. */
static void test_reproduce_page_sets_the_forms_side_by_side(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 8, 32);
    char set_dir[PATH], sweep_dir[PATH], launcher[PATH], page[PATH], path[PATH], args[PATH * 2], line[1024],
        prefix[128];
    make_measured(&f, set_dir, sweep_dir);
    snprintf(launcher, PATH, "%.1500s/sweep-launcher", f.out);
    assert_int_equal(hb_fixture_write_sweep(&f.fixture, launcher, set_dir, 0, 1, f.fixture.count - 2, "Test GPU 80GB"),
                     HB_OK);
    snprintf(page, PATH, "%.1500s/summary.md", f.out);
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --out '%s'", f.out);
    int rc = bench(&f, args);
    if (rc != 0)
        fail_with_log(&f, "reproduce --tables-only of two forms", rc);
    snprintf(path, PATH, "%.1500s/report-launcher.md", f.out);
    assert_true(exists(path));
    snprintf(path, PATH, "%.1500s/compare-launcher-offline.md", f.out);
    assert_true(exists(path));
    assert_true(hb_test_file_contains(page, "reproduced on Test GPU 80GB, in both forms: replay and launcher"));
    assert_true(hb_test_file_contains(page, "## The forms side by side"));
    assert_true(hb_test_file_contains(page, "| M | N | K | replay | verdict | launcher | verdict | published |"));
    /* the last configuration: measured in the replay form only; the published CSV's torch column is 1.5 */
    const hb_mnk *last = &f.fixture.configs[f.fixture.count - 2].mnk;
    snprintf(prefix, sizeof prefix, "| %ld | %ld | %ld |", last->m, last->n, last->k);
    assert_true(line_starting(page, prefix, line, sizeof line));
    assert_non_null(strstr(line, "| | not run | 1.50x |"));
    /* a configuration both forms passed: the same figure twice (the same fixture), then the published one */
    for (size_t i = 0; i + 2 < f.fixture.count; i += 2)
        if (f.fixture.configs[i].verdict == HB_VERDICT_PASS) {
            const hb_mnk *c = &f.fixture.configs[i].mnk;
            snprintf(prefix, sizeof prefix, "| %ld | %ld | %ld |", c->m, c->n, c->k);
            assert_true(line_starting(page, prefix, line, sizeof line));
            double a, b, published;
            assert_int_equal(sscanf(line + strlen(prefix), " %lfx | pass | %lfx | pass | %lfx |", &a, &b, &published),
                             3);
            assert_true(a > 0 && a == b);
            assert_true(published == 1.5);
            break;
        }
    size_t passed = 0;
    for (size_t i = 0; i < f.fixture.count; i += 2)
        passed += f.fixture.configs[i].verdict == HB_VERDICT_PASS;
    snprintf(line, sizeof line, "- replay: %zu of %zu configurations pass", passed, f.fixture.count / 2);
    assert_true(hb_test_file_contains(page, line));
    assert_true(hb_test_file_contains(page, "- launcher: "));
    assert_true(hb_test_file_contains(page, "geometric mean"));
    assert_true(hb_test_file_contains(page, "## Verdicts by check: the replay form"));
    assert_true(hb_test_file_contains(page, "## Verdicts by check: the launcher form"));
    assert_true(hb_test_file_contains(page, "## The paper's tables (the launcher form) (hgemm-bench report)"));
    assert_false(hb_test_file_contains(page, "launchers had no replay")); /* no replay_refusal column: no count */

    /* one form: the page as before, the form named in the title */
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --forms replay --out '%s'", f.out);
    rc = bench(&f, args);
    if (rc != 0)
        fail_with_log(&f, "reproduce --tables-only --forms replay", rc);
    assert_true(hb_test_file_contains(page, "reproduced on Test GPU 80GB, the replay form"));
    assert_false(hb_test_file_contains(page, "## The forms side by side"));
    assert_true(hb_test_file_contains(page, "## Verdicts by check\n"));
    drop_repo(&f);
}

/* The replay form's refusals, read from summary.csv's replay_refusal:
 * counted by class, a configuration once whatever its modes; a file
 * without the column counts none. */
static void test_reproduce_forms_count_the_replay_refusals(void **state)
{
    (void)state;
    char root[PATH], csv[PATH];
    hb_test_make_temp_dir("hb-forms", root, sizeof root);
    snprintf(csv, PATH, "%.1500s/summary.csv", root);
    write_text(csv, "m,n,k,mode,role,participant,verdict,speedup_paper,replay_refusal\n"
                    "64,64,64,offline,candidate,c,pass,,library\n"
                    "64,64,64,offline,baseline,torch,pass,0.25,\n"
                    "64,64,64,server,candidate,c,pass,,library\n"
                    "64,64,64,server,baseline,torch,pass,0.5,\n"
                    "128,64,64,offline,candidate,c,incorrect,,\n"
                    "128,64,64,offline,baseline,torch,pass,0.75,\n"
                    "256,64,64,offline,candidate,c,pass,,calls-differ\n");
    hb_form_rows rows;
    assert_int_equal(hb_form_rows_read(csv, &rows), HB_OK);
    assert_int_equal(rows.n, 4);
    assert_true(rows.has_refusals);
    assert_int_equal(rows.refusals.n, 2);
    size_t total = 0;
    for (size_t i = 0; i < rows.refusals.n; i++)
        total += rows.refusals.rows[i].count[0];
    assert_int_equal(total, 2); /* 64_64_64 once, not once per mode; 256_64_64 */
    const hb_form_config *c = hb_form_rows_find(&rows, 64, 64, 64, "server");
    assert_non_null(c);
    assert_true(c->ratio == 1.5);
    c = hb_form_rows_find(&rows, 128, 64, 64, "offline");
    assert_non_null(c);
    assert_true(isnan(c->ratio)); /* not passing: no figure */
    hb_form_rows_free(&rows);
    write_text(csv, "m,n,k,mode,role,participant,verdict,speedup_paper\n64,64,64,offline,candidate,c,pass,\n");
    assert_int_equal(hb_form_rows_read(csv, &rows), HB_OK);
    assert_false(rows.has_refusals);
    hb_form_rows_free(&rows);
    hb_test_remove_tree(root);
}

/* `reproduce --status OUT`, into the log. */
static int status_of(const fake *f)
{
    char command[PATH * 4];
    snprintf(command, sizeof command, "'%.1000s' reproduce --status '%.1000s' > '%.1000s' 2>&1", hb_test_bench(),
             f->out, f->log);
    return hb_test_shell(command);
}

static double epoch_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* A state file naming this test's process (running) in a resumed sweep
 * whose journal holds 5 whole lines and a cut one, a log with two error
 * lines: --status says running, the stage and form, 5 of 10 done (2 before
 * the stage), an ETA, the last error.  The same with another start time:
 * not running.  The import's count is its progress line in the log; a
 * folder with no state file is exit 11. */
static void test_reproduce_status_says_where_it_stands(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 2, 33);
    assert_int_equal(status_of(&f), 11);
    assert_true(hb_test_file_contains(f.log, "no reproduce-state.json"));
    char sweep_dir[PATH], log[PATH], expect[PATH];
    snprintf(sweep_dir, PATH, "%.1500s/sweep", f.out);
    snprintf(log, PATH, "%.1500s/reproduce.log", f.out);
    hb_test_make_folder(f.out);
    hb_test_make_folder(sweep_dir);
    hb_repro_state s;
    memset(&s, 0, sizeof s);
    s.pid = (long)getpid();
    assert_true(hb_process_start_ticks(getpid(), &s.pid_start));
    s.started_s = epoch_now() - 3600;
    snprintf(s.stage, sizeof s.stage, "sweep");
    snprintf(s.form, sizeof s.form, "replay");
    s.stage_index = 3;
    s.stage_count = 5;
    s.stage_started_s = epoch_now() - 30;
    s.total = 10;
    s.done_at_start = 2;
    snprintf(s.journal, sizeof s.journal, "%.1500s/journal.jsonl", sweep_dir);
    write_text(s.journal, "{}\n{}\n{}\n{}\n{}\n{\"item\": 5, \"cut");
    write_text(log, "reproduce: stage 3 of 5\nhgemm-bench: error: the first error\nsweep: 4 of 10\r"
                    "hgemm-bench: error: the last error\nsweep: 5 of 10\n");
    assert_int_equal(hb_repro_state_write(f.out, "", &s), HB_OK);
    int rc = status_of(&f);
    if (rc != 0)
        fail_with_log(&f, "reproduce --status of a running sweep", rc);
    snprintf(expect, sizeof expect, "running (pid %ld), stage 3 of 5: sweep (replay form)", s.pid);
    assert_true(hb_test_file_contains(f.log, expect));
    assert_true(hb_test_file_contains(f.log, "items: 5 of 10 done (2 before this stage began: resumed)"));
    assert_true(hb_test_file_contains(f.log, "left at this stage's rate so far")); /* 3 in 30 s: 5 left, ~50 s */
    assert_true(hb_test_file_contains(f.log, "last error: hgemm-bench: error: the last error\n"));

    s.pid_start += 1; /* the pid, now another process's */
    assert_int_equal(hb_repro_state_write(f.out, "", &s), HB_OK);
    assert_int_equal(status_of(&f), 0);
    assert_true(hb_test_file_contains(f.log, "not running"));
    assert_true(hb_test_file_contains(f.log, "the same command resumes it"));

    s.pid_start -= 1;
    snprintf(s.stage, sizeof s.stage, "import");
    s.form[0] = s.journal[0] = '\0';
    s.stage_index = 1;
    s.total = 8;
    s.done_at_start = 0;
    write_text(log, "import: 1 of 8 built, 7 running; time left known after the first build\n"
                    "import: 3 of 8 built, 5 running; median build 52 s; about 2 min left\n");
    assert_int_equal(hb_repro_state_write(f.out, "", &s), HB_OK);
    assert_int_equal(status_of(&f), 0);
    assert_true(hb_test_file_contains(f.log, "stage 1 of 5: import,"));
    assert_true(hb_test_file_contains(f.log, "items: 3 of 8 done"));
    assert_true(hb_test_file_contains(f.log, "last error: none"));
    drop_repo(&f);
}

/* --detach: refused (exit 7, naming the pid, nothing started) while
 * OUT/reproduce.pid names a live process with its start time; started
 * otherwise, returning at once, the run's output in OUT/reproduce.log and
 * its state finished in OUT/reproduce-state.json once it ends (here
 * --tables-only, which needs no GPU). */
static void test_reproduce_detach_refuses_a_second_start(void **state)
{
    (void)state;
    fake f;
    make_repo(&f, 4, 34);
    char set_dir[PATH], sweep_dir[PATH], log[PATH], pid_file[PATH], path[PATH], args[PATH * 2], text[128];
    make_measured(&f, set_dir, sweep_dir);
    snprintf(log, PATH, "%.1500s/reproduce.log", f.out);
    snprintf(pid_file, PATH, "%.1500s/reproduce.pid", f.out);
    unsigned long long start;
    assert_true(hb_process_start_ticks(getpid(), &start));
    snprintf(text, sizeof text, "%ld %llu\n", (long)getpid(), start);
    write_text(pid_file, text);
    snprintf(args, sizeof args, "--set h100 --tables-only --no-plots --detach --out '%s'", f.out);
    assert_int_equal(bench(&f, args), 7);
    assert_true(hb_test_file_contains(f.log, "reproduce --detach: a reproduction already runs in"));
    snprintf(text, sizeof text, "(pid %ld)", (long)getpid());
    assert_true(hb_test_file_contains(f.log, text));
    assert_false(exists(log));

    snprintf(text, sizeof text, "%ld %llu\n", (long)getpid(), start + 1); /* the pid reused: not ours */
    write_text(pid_file, text);
    int rc = bench(&f, args);
    if (rc != 0)
        fail_with_log(&f, "reproduce --detach --tables-only", rc);
    assert_true(hb_test_file_contains(f.log, "reproduce --status"));
    assert_true(hb_test_file_contains(f.log, "/reproduce.log"));
    snprintf(path, PATH, "%.1500s/reproduce-state.json", f.out);
    hb_repro_state s;
    int ended = 0;
    for (int i = 0; i < 600 && !ended; i++) { /* at most 60 s */
        hb_diag_set_quiet(1);
        ended = hb_repro_state_read(path, &s) == HB_OK && s.ended;
        hb_diag_set_quiet(0);
        if (!ended)
            nanosleep(&(struct timespec){0, 100000000}, NULL);
    }
    if (!ended) {
        char *text_log = hb_test_read_file(log);
        fail_msg("the detached reproduction did not finish in 60 s; its log:\n%s", text_log ? text_log : "(none)");
    }
    assert_int_equal(s.exit_code, 0);
    assert_true(hb_test_file_contains(log, "reproduce --detach: started"));
    assert_true(hb_test_file_contains(log, "the summary page is"));
    assert_true(s.log[0] != '\0'); /* the run knew its stderr was the log */
    snprintf(path, PATH, "%.1500s/summary.md", f.out);
    assert_true(exists(path));
    assert_true(hb_test_file_contains(pid_file, " ")); /* the detached run's pid and start time */
    assert_int_equal(status_of(&f), 0);
    assert_true(hb_test_file_contains(f.log, "finished, exit 0"));
    drop_repo(&f);
}

hb_test_list hb_reproduce_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reproduce_usage_errors_touch_nothing),
        cmocka_unit_test(test_reproduce_plans_the_set_files_and_keeps_its_plan),
        cmocka_unit_test(test_reproduce_dry_run_prints_the_stages_and_writes_nothing),
        cmocka_unit_test(test_reproduce_tables_only_writes_the_summary_page),
        cmocka_unit_test(test_reproduce_tables_only_joins_the_shards),
        cmocka_unit_test(test_reproduce_draws_a_hostile_gpu_name_as_text),
        cmocka_unit_test(test_reproduce_page_shows_where_the_speedups_come_from),
        cmocka_unit_test(test_reproduce_summary_page_shows_hostile_texts_inert),
        cmocka_unit_test(test_reproduce_tables_only_without_a_sweep_says_measure_first),
        cmocka_unit_test(test_reproduce_tables_only_takes_the_modes_the_sweep_holds),
        cmocka_unit_test(test_reproduce_a_failed_stage_keeps_its_file),
        cmocka_unit_test(test_reproduce_page_header_without_a_plan_reads_the_sweep),
        cmocka_unit_test(test_reproduce_page_of_a_sweep_that_ran_nothing),
        cmocka_unit_test(test_reproduce_dry_run_without_a_gpu_prints_a_runnable_import),
        cmocka_unit_test(test_reproduce_forms_sweep_each_form_into_its_folder),
        cmocka_unit_test(test_reproduce_page_sets_the_forms_side_by_side),
        cmocka_unit_test(test_reproduce_forms_count_the_replay_refusals),
        cmocka_unit_test(test_reproduce_status_says_where_it_stands),
        cmocka_unit_test(test_reproduce_detach_refuses_a_second_start),
    };
    return HB_TEST_LIST(tests);
}
