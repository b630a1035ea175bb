/* Sweep folders of earlier harnesses (docs/sweeps.md, "Folders of earlier
 * harnesses"): tests/data/sweep_v1, the two shards of a sweep written by
 * harness 29b4d7b's own writers (plan.json version 1, summary.csv of its
 * 145 columns), read in place by report (tables and figures) and compare,
 * joined by merge into a folder of this harness's format, and refused by
 * `sweep --resume` with the build that resumes it; what the harness wrote
 * between plan_sha256 and its later columns (version 2, an earlier header)
 * and the first sweep harness's 119 columns, both made from it; a plan of a
 * newer version refused as a newer harness's; every check but plan_sha256
 * kept on version 1; merge refusing a header no version wrote.  The
 * tables are held to figures computed here from the fixture's summary.csv. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/status.h"
#include "bench/report/summary_columns.h"
#include "bench/sweep/plan_file.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 1024
#define FIXTURE "tests/data/sweep_v1"
#define SHARD0 FIXTURE "/shard-0-of-2"
#define SHARD1 FIXTURE "/shard-1-of-2"
#define SWEEP_ID "e7221957a83d6038"
#define OLD_COMMIT "29b4d7bf18c2"
#define TOLERANCE 1e-7 /* summary.csv keeps 9 digits */
#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* --- a scratch folder ------------------------------------------------------------------------ */

typedef struct scratch {
    char root[PATH], out[PATH], stdout_path[PATH], stderr_path[PATH];
} scratch;

static void make_scratch(scratch *s)
{
    memset(s, 0, sizeof *s);
    hb_test_make_temp_dir("hb-older", s->root, sizeof s->root);
    snprintf(s->out, sizeof s->out, "%.900s/out", s->root);
    snprintf(s->stdout_path, sizeof s->stdout_path, "%.900s/stdout.txt", s->root);
    snprintf(s->stderr_path, sizeof s->stderr_path, "%.900s/stderr.txt", s->root);
}

/* A copy of the fixture's shard `from` as <root>/<name>, into `to`. */
static void copy_shard(const scratch *s, const char *from, const char *name, char *to)
{
    snprintf(to, PATH, "%.900s/%.100s", s->root, name);
    char command[3 * PATH];
    snprintf(command, sizeof command, "cp -R '%s' '%s'", from, to);
    assert_int_equal(hb_test_shell(command), 0);
}

static void path_in(char *out, const char *folder, const char *name)
{
    snprintf(out, PATH, "%.900s/%.100s", folder, name);
}

static void assert_file_holds(const char *path, const char *needle)
{
    if (!hb_test_file_contains(path, needle)) {
        char *text = hb_test_read_file(path);
        fail_msg("%s lacks \"%s\"; it holds:\n%s", path, needle, text ? text : "(nothing)");
    }
}

/* --- summary.csv read plainly ------------------------------------------------------------------ */

/* A summary.csv split at commas and line ends: the fixture's cells hold no
 * comma, quote or line break (checked: every row is as wide as the header). */
typedef struct plain_csv {
    char *text;
    size_t columns, rows; /* rows after the header */
    char **cell;          /* (rows + 1) x columns, the header first */
} plain_csv;

static void plain_read(const char *path, plain_csv *c)
{
    memset(c, 0, sizeof *c);
    c->text = hb_test_read_file(path);
    assert_non_null(c->text);
    assert_null(strchr(c->text, '"'));
    size_t lines = 0, fields = 0;
    for (const char *p = c->text; *p; p++) {
        lines += *p == '\n';
        fields += *p == ',' || *p == '\n';
    }
    c->cell = calloc(fields + 1, sizeof *c->cell);
    assert_non_null(c->cell);
    size_t n = 0, in_row = 0;
    char *start = c->text;
    for (char *p = c->text; *p; p++) {
        if (*p != ',' && *p != '\n')
            continue;
        int end = *p == '\n';
        *p = '\0';
        c->cell[n++] = start;
        start = p + 1;
        in_row++;
        if (end) {
            if (!c->columns)
                c->columns = in_row;
            else if (in_row != c->columns)
                fail_msg("%s: a row of %zu fields under a header of %zu", path, in_row, c->columns);
            in_row = 0;
        }
    }
    c->rows = lines - 1;
}

static void plain_free(plain_csv *c)
{
    free(c->text);
    free(c->cell);
}

static long plain_column(const plain_csv *c, const char *name)
{
    for (size_t i = 0; i < c->columns; i++)
        if (!strcmp(c->cell[i], name))
            return (long)i;
    return -1;
}

/* Row r's cell (r from 1: row 0 is the header); "" where the file has no such column. */
static const char *plain_at(const plain_csv *c, size_t r, const char *name)
{
    long column = plain_column(c, name);
    return column < 0 ? "" : c->cell[r * c->columns + (size_t)column];
}

/* --- the figures, computed here -------------------------------------------------------------------- */

typedef struct figures {
    size_t configs;
    double paper_mean, geomean; /* fractions: ratio - 1 */
} figures;

/* Table 1's row of (mode, baseline) over the summary.csv files `paths`:
 * over the configurations whose candidate passed, the mean of the
 * baseline row's speedup_paper + 1 and the geometric mean of its
 * speedup_geomean + 1. */
static figures expect_row(const char *const *paths, size_t n_paths, const char *mode, const char *baseline)
{
    figures f = {0, 0, 0};
    double log_sum = 0;
    for (size_t p = 0; p < n_paths; p++) {
        plain_csv c;
        plain_read(paths[p], &c);
        for (size_t r = 1; r <= c.rows; r++) {
            if (strcmp(plain_at(&c, r, "role"), "candidate") || strcmp(plain_at(&c, r, "mode"), mode) ||
                strcmp(plain_at(&c, r, "verdict"), "pass"))
                continue;
            for (size_t b = 1; b <= c.rows; b++)
                if (!strcmp(plain_at(&c, b, "participant"), baseline) &&
                    !strcmp(plain_at(&c, b, "mode"), mode) && !strcmp(plain_at(&c, b, "m"), plain_at(&c, r, "m")) &&
                    !strcmp(plain_at(&c, b, "n"), plain_at(&c, r, "n")) &&
                    !strcmp(plain_at(&c, b, "k"), plain_at(&c, r, "k"))) {
                    f.configs++;
                    f.paper_mean += strtod(plain_at(&c, b, "speedup_paper"), NULL) + 1;
                    log_sum += log(strtod(plain_at(&c, b, "speedup_geomean"), NULL) + 1);
                }
        }
        plain_free(&c);
    }
    if (f.configs) {
        f.paper_mean = f.paper_mean / (double)f.configs - 1;
        f.geomean = exp(log_sum / (double)f.configs) - 1;
    }
    return f;
}

/* --- a report's JSON ---------------------------------------------------------------------------------- */

static const json_t *cell_of(const json_t *table, size_t row, const char *column)
{
    return json_array_get(json_array_get(json_object_get(table, "rows"), row), hb_test_json_column(table, column));
}

static const char *text_at(const json_t *table, size_t row, const char *column)
{
    return json_string_value(cell_of(table, row, column));
}

static double number_at(const json_t *table, size_t row, const char *column)
{
    const json_t *v = cell_of(table, row, column);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static size_t row_count(const json_t *table)
{
    return json_array_size(json_object_get(table, "rows"));
}

static void assert_close(double got, double want, const char *what)
{
    if (!(fabs(got - want) <= TOLERANCE))
        fail_msg("%s: the report says %.12g, computed here %.12g", what, got, want);
}

/* Every row of Table 1 held to the figures computed from `paths`; the rows of each mode counted. */
static void check_table1(const json_t *doc, const char *const *paths, size_t n_paths, size_t offline_configs,
                         size_t server_configs)
{
    const json_t *t = hb_test_json_table(doc, "table1");
    assert_int_equal(row_count(t), 2 * 10); /* two modes, seven baselines and three -max figures */
    for (size_t row = 0; row < row_count(t); row++) {
        const char *mode = text_at(t, row, "mode"), *baseline = text_at(t, row, "baseline");
        figures e = expect_row(paths, n_paths, mode, baseline);
        char what[160];
        snprintf(what, sizeof what, "table1 %s %s", mode, baseline);
        assert_int_equal((size_t)number_at(t, row, "configs"), e.configs);
        assert_int_equal(e.configs, strcmp(mode, "offline") ? server_configs : offline_configs);
        assert_close(number_at(t, row, "paper_mean_pct") / 100, e.paper_mean, what);
        assert_close(number_at(t, row, "geomean_pct") / 100, e.geomean, what);
    }
}

/* `report FOLDERS... --out OUT --format json` (exit 0), its report.json. */
static json_t *report_json(const scratch *s, const char *const *folders, size_t count)
{
    const char *words[16] = {"report"};
    size_t n = 1;
    for (size_t i = 0; i < count; i++)
        words[n++] = folders[i];
    words[n++] = "--out";
    words[n++] = s->out;
    words[n++] = "--format";
    words[n++] = "json";
    words[n] = NULL;
    char command_out[PATH];
    path_in(command_out, s->root, "report-stdout.json");
    int code = hb_test_run(hb_test_report(), words, command_out, s->stderr_path);
    if (code != 0) {
        char *err = hb_test_read_file(s->stderr_path);
        fail_msg("report exited %d: %s", code, err ? err : "");
    }
    char path[PATH];
    path_in(path, s->out, "report.json");
    return hb_test_load_json(path);
}

/* --- report and compare in place ----------------------------------------------------------------------- */

/* report of the two shards, as they lie in tests/data: Table 1 held to
 * summary.csv's figures (4 offline and 3 server configurations pass), the
 * failed ones left out, the item never run listed, each plan's version
 * noted; the folders are only read. */
static void test_v1_shards_report_in_place(void **state)
{
    (void)state;
    scratch s;
    make_scratch(&s);
    const char *folders[] = {SHARD0, SHARD1};
    json_t *doc = report_json(&s, folders, 2);
    const char *csvs[] = {SHARD0 "/summary.csv", SHARD1 "/summary.csv"};
    check_table1(doc, csvs, 2, 4, 3);
    const json_t *excluded = hb_test_json_table(doc, "excluded");
    assert_int_equal(row_count(excluded), 2);
    const json_t *not_run = hb_test_json_table(doc, "not_run");
    assert_int_equal(row_count(not_run), 1);
    assert_string_equal(text_at(not_run, 0, "mnk"), "8192_8192_2048");
    assert_string_equal(text_at(not_run, 0, "mode"), "server");
    json_decref(doc);
    char md[PATH];
    path_in(md, s.out, "report.md");
    assert_file_holds(md, SHARD0 "/plan.json is a plan of version 1 (harness " OLD_COMMIT ")");
    assert_file_holds(md, SHARD1 "/plan.json is a plan of version 1 (harness " OLD_COMMIT ")");
    assert_int_equal(hb_test_count_entries(SHARD0), 5);
    assert_int_equal(hb_test_count_entries(SHARD1), 5);
    hb_test_remove_tree(s.root);
}

static size_t files_ending(const char *folder, const char *suffix)
{
    DIR *dir = opendir(folder);
    assert_non_null(dir);
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t n = strlen(e->d_name), m = strlen(suffix);
        char path[PATH];
        struct stat info;
        path_in(path, folder, e->d_name);
        count += n > m && !strcmp(e->d_name + n - m, suffix) && stat(path, &info) == 0 && info.st_size > 0;
    }
    closedir(dir);
    return count;
}

/* report --plots of the shards draws its figures (with gnuplot). */
static void test_v1_shards_report_plots(void **state)
{
    (void)state;
    HB_TEST_SKIP_WITHOUT_GNUPLOT();
    scratch s;
    make_scratch(&s);
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", SHARD0, SHARD1, "--plots", "--out", s.out),
                                 s.stdout_path, s.stderr_path),
                     0);
    assert_true(files_ending(s.out, ".png") >= 2); /* one figure at least for each mode */
    assert_true(files_ending(s.out, ".svg") >= 2);
    hb_test_remove_tree(s.root);
}

/* A published file of the fixture's five sizes: t_b/t_c = 1.1 for every baseline. */
static void write_published(const char *path)
{
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs("mnk,torch.matmul,cuBLAS-tn,cuBLAS-nn,cuBLAS-max,cuBLASLt-heuristic-tn,cuBLASLt-heuristic-nn,"
          "cuBLASLt-heuristic-max,cuBLASLt-auto-tuning-tn,cuBLASLt-auto-tuning-nn,cuBLASLt-auto-tuning-max\n",
          out);
    static const char *const sizes[] = {"128_256_64", "512_512_512", "1024_2048_1024", "4096_4096_4096",
                                        "8192_8192_2048"};
    for (size_t i = 0; i < 5; i++)
        fprintf(out, "%s,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1,1.1\n", sizes[i]);
    assert_int_equal(fclose(out), 0);
}

/* compare of each shard with a published file: the configurations both
 * have that count (4 offline, 3 server), ours the fixture's figures. */
static void test_v1_shard_compares(void **state)
{
    (void)state;
    scratch s;
    make_scratch(&s);
    char published[PATH], json_path[PATH];
    path_in(published, s.root, "cuda_l2_published.csv");
    write_published(published);
    static const char *const shards[] = {SHARD0, SHARD1}, *const modes[] = {"offline", "server"},
                             *const csvs[] = {SHARD0 "/summary.csv", SHARD1 "/summary.csv"};
    static const size_t counted[] = {4, 3};
    for (size_t i = 0; i < 2; i++) {
        hb_test_remove_tree(s.out);
        int code = hb_test_run(hb_test_report(),
                               ARGS("compare", shards[i], "--published", published, "--mode", modes[i], "--out", s.out,
                                    "--format", "json"),
                               s.stdout_path, s.stderr_path);
        if (code != 0)
            fail_msg("compare %s exited %d", shards[i], code);
        path_in(json_path, s.out, "compare.json");
        json_t *doc = hb_test_load_json(json_path);
        const json_t *t = hb_test_json_table(doc, "compare_summary");
        assert_int_equal(row_count(t), 10);
        for (size_t row = 0; row < row_count(t); row++) {
            const char *baseline = text_at(t, row, "baseline");
            figures e = expect_row(&csvs[i], 1, modes[i], baseline);
            assert_int_equal((size_t)number_at(t, row, "configs"), counted[i]);
            assert_int_equal(e.configs, counted[i]);
            assert_close(number_at(t, row, "ours_mean_pct") / 100, e.paper_mean, baseline);
            assert_close(number_at(t, row, "published_mean_pct") / 100, 0.1, baseline);
        }
        json_decref(doc);
    }
    hb_test_remove_tree(s.root);
}

/* --- merge ------------------------------------------------------------------------------------------------ */

/* `hgemm-bench merge OUT DIRS...` (exit 0); its stdout in s->stdout_path. */
static void merge(const scratch *s, const char *out, const char *const *folders, size_t count)
{
    const char *words[8] = {"merge", out};
    for (size_t i = 0; i < count; i++)
        words[2 + i] = folders[i];
    words[2 + count] = NULL;
    int code = hb_test_run(hb_test_bench(), words, s->stdout_path, s->stderr_path);
    if (code != 0) {
        char *err = hb_test_read_file(s->stderr_path);
        fail_msg("merge exited %d: %s", code, err ? err : "");
    }
}

/* Each row of `merged` is a row of `sources` (the same configuration,
 * participant and mode), each cell the source's where the source has the
 * column and empty where it has not; every source row is there once. */
static void check_merged_rows(const char *merged, const char *const *sources, size_t count)
{
    plain_csv m;
    plain_read(merged, &m);
    size_t matched = 0;
    for (size_t s = 0; s < count; s++) {
        plain_csv c;
        plain_read(sources[s], &c);
        for (size_t r = 1; r <= c.rows; r++) {
            size_t found = 0;
            for (size_t mr = 1; mr <= m.rows; mr++) {
                static const char *const key[] = {"m", "n", "k", "mode", "participant"};
                int same = 1;
                for (size_t k = 0; k < 5 && same; k++)
                    same = !strcmp(plain_at(&m, mr, key[k]), plain_at(&c, r, key[k]));
                if (!same)
                    continue;
                found++;
                for (size_t col = 0; col < m.columns; col++) {
                    const char *name = m.cell[col];
                    if (strcmp(plain_at(&m, mr, name), plain_at(&c, r, name)))
                        fail_msg("merged %s row %zu, column %s: '%s', the source's '%s'", merged, mr, name,
                                 plain_at(&m, mr, name), plain_at(&c, r, name));
                }
            }
            assert_int_equal(found, 1);
            matched++;
        }
        plain_free(&c);
    }
    assert_int_equal(matched, m.rows);
    plain_free(&m);
}

/* The header this harness writes, as a string. */
static char *our_header(void)
{
    hb_test_capture capture;
    FILE *out = hb_test_capture_open(&capture);
    for (size_t i = 0; i < hb_summary_column_count(); i++)
        fprintf(out, "%s%s", i ? "," : "", hb_summary_column(i)->name);
    fputc('\n', out);
    return hb_test_capture_close(&capture);
}

static void assert_header_is_ours(const char *csv)
{
    char *text = hb_test_read_file(csv), *ours = our_header();
    assert_non_null(text);
    assert_true(strlen(text) > strlen(ours));
    assert_memory_equal(text, ours, strlen(ours));
    free(text);
    free(ours);
}

/* The two shards merge into one folder of this harness's format: plan.json
 * of version 2 with its plan_sha256, the sweep's id and commit kept;
 * summary.csv with this harness's header, every row of the shards once,
 * its cells as they were and the columns the earlier harness lacked empty;
 * the item never run listed; the merged folder reports as the shards do. */
static void test_v1_shards_merge(void **state)
{
    (void)state;
    scratch s;
    make_scratch(&s);
    char merged[PATH];
    path_in(merged, s.root, "merged");
    const char *folders[] = {SHARD0, SHARD1};
    merge(&s, merged, folders, 2);
    assert_file_holds(s.stdout_path, "note: " SHARD0 " has a plan of version 1 (harness " OLD_COMMIT);
    assert_file_holds(s.stdout_path, "summary.csv has an earlier harness's 145 columns");
    assert_file_holds(s.stdout_path, "merged: 9 of 10 items, 0 duplicates dropped, 1 missing");
    assert_file_holds(s.stdout_path, "missing: item 9 (8192_8192_2048 server)");
    static hb_plan_file plan;
    assert_int_equal(hb_plan_file_read(merged, &plan), HB_OK);
    assert_int_equal(plan.version, HB_PLAN_VERSION);
    assert_string_equal(plan.sweep_id, SWEEP_ID);
    assert_string_equal(plan.harness_commit, OLD_COMMIT);
    assert_int_equal(plan.shard.count, 1);
    char plan_path[PATH], csv[PATH];
    path_in(plan_path, merged, "plan.json");
    assert_file_holds(plan_path, "\"" HB_PLAN_DIGEST_KEY "\"");
    path_in(csv, merged, "summary.csv");
    assert_header_is_ours(csv);
    const char *sources[] = {SHARD0 "/summary.csv", SHARD1 "/summary.csv"};
    check_merged_rows(csv, sources, 2);
    /* the merged folder reports the shards' tables */
    json_t *doc = report_json(&s, (const char *const[]){merged}, 1);
    check_table1(doc, sources, 2, 4, 3);
    assert_int_equal(row_count(hb_test_json_table(doc, "not_run")), 1);
    json_decref(doc);
    hb_test_remove_tree(s.root);
}

/* --- resume -------------------------------------------------------------------------------------------------- */

/* sweep --resume of a version 1 folder: refused (11) before anything, naming
 * the build that resumes it; the folder is left as it was, without a lock
 * file.  A version 1 plan is not resumed even by a build of its own commit. */
static void test_v1_resume_refused(void **state)
{
    (void)state;
    scratch s;
    make_scratch(&s);
    char copy[PATH], csv[PATH];
    copy_shard(&s, SHARD1, "shard-1-of-2", copy);
    path_in(csv, copy, "summary.csv");
    char *before = hb_test_read_file(csv);
    assert_int_equal(hb_test_run(hb_test_bench(), ARGS("sweep", "--resume", copy), s.stdout_path, s.stderr_path),
                     HB_ERR_BAD_RESULTS);
    assert_file_holds(s.stderr_path, "is a plan of version 1, written by harness " OLD_COMMIT);
    assert_file_holds(s.stderr_path, "Resume it with the build that planned it (harness " OLD_COMMIT ": check out that "
                                     "commit, make, and run its hgemm-bench sweep --resume");
    char *after = hb_test_read_file(csv);
    assert_string_equal(before, after);
    free(before);
    free(after);
    assert_int_equal(hb_test_count_entries(copy), 5); /* no lock file, nothing added */
    static hb_plan_file plan;
    assert_int_equal(hb_plan_file_read(copy, &plan), HB_OK);
    assert_int_equal(plan.version, 1);
    hb_diag_set_quiet(1);
    assert_int_equal(hb_plan_file_check_resumable(&plan, copy, plan.harness_commit), HB_ERR_BAD_RESULTS);
    hb_diag_set_quiet(0);
    hb_test_remove_tree(s.root);
}

/* --- versions ------------------------------------------------------------------------------------------------- */

/* plan.json of `folder` with "version" set to `version` (NULL: left) and, with `digest`, a plan_sha256 added. */
static void edit_plan(const char *folder, json_t *version, int digest)
{
    char path[PATH];
    path_in(path, folder, "plan.json");
    json_t *plan = hb_test_load_json(path);
    if (version)
        json_object_set_new(plan, "version", version);
    if (digest)
        json_object_set_new(plan, HB_PLAN_DIGEST_KEY, json_string("0000"));
    assert_int_equal(json_dump_file(plan, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER), 0);
    json_decref(plan);
}

/* report of `folder` exits 11 saying `what`. */
static void report_refuses(const scratch *s, const char *folder, const char *what)
{
    assert_int_equal(hb_test_run(hb_test_report(), ARGS("report", folder), s->stdout_path, s->stderr_path),
                     HB_ERR_BAD_RESULTS);
    assert_file_holds(s->stderr_path, what);
}

/* A newer harness's plan (version 3) is refused as one, saying which
 * versions this harness reads; a version no harness wrote, a version 1
 * plan with a plan_sha256, and a version that is not a number are edits. */
static void test_plan_versions_refused(void **state)
{
    (void)state;
    scratch s;
    make_scratch(&s);
    char copy[PATH];
    copy_shard(&s, SHARD0, "shard", copy);
    edit_plan(copy, json_integer(3), 0);
    report_refuses(&s, copy, "plan version 3, made by a newer harness (" OLD_COMMIT "); this one reads versions 1 "
                             "and 2");
    assert_int_equal(hb_test_run(hb_test_bench(), ARGS("merge", s.out, copy), s.stdout_path, s.stderr_path),
                     HB_ERR_BAD_RESULTS);
    assert_file_holds(s.stderr_path, "made by a newer harness");
    assert_int_equal(hb_test_run(hb_test_bench(), ARGS("sweep", "--resume", copy), s.stdout_path, s.stderr_path),
                     HB_ERR_BAD_RESULTS);
    assert_file_holds(s.stderr_path, "made by a newer harness");
    edit_plan(copy, json_integer(0), 0);
    report_refuses(&s, copy, "plan version 0, which no harness wrote");
    edit_plan(copy, json_string("1"), 0);
    report_refuses(&s, copy, "no \"version\"");
    edit_plan(copy, json_integer(1), 1);
    report_refuses(&s, copy, "a plan of version 1 with a \"" HB_PLAN_DIGEST_KEY "\"");
    struct stat info;
    assert_int_not_equal(stat(s.out, &info), 0); /* the refused merge made nothing */
    hb_test_remove_tree(s.root);
}

/* --- every other check kept -------------------------------------------------------------------------------------- */

/* Replaces the first `from` in `path` with `to` (the same length or not). */
static void edit_file(const char *path, const char *from, const char *to)
{
    char *text = hb_test_read_file(path);
    assert_non_null(text);
    char *at = strstr(text, from);
    assert_non_null(at);
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    assert_int_equal(fclose(out), 0);
    free(text);
}

/* Without plan_sha256 a version 1 folder keeps every other check: an item
 * of the plan changed (its sweep_id no longer matches), a journal that
 * calls the incorrect item passed, and a summary.csv cut short are refused. */
static void test_v1_checks_kept(void **state)
{
    (void)state;
    scratch s;
    make_scratch(&s);
    char copy[PATH], path[PATH];
    copy_shard(&s, SHARD0, "items", copy);
    path_in(path, copy, "plan.json");
    edit_file(path, "\"m\": 128", "\"m\": 256"); /* items 0 and 1: the configuration in both modes */
    edit_file(path, "\"m\": 128", "\"m\": 256");
    report_refuses(&s, copy, "its sweep_id " SWEEP_ID " does not match its contents");

    copy_shard(&s, SHARD0, "journal", copy);
    path_in(path, copy, "journal.jsonl");
    edit_file(path, "\"status\":6,\"verdict\":\"incorrect\"", "\"status\":0,\"verdict\":\"pass\"");
    report_refuses(&s, copy, "journal.jsonl:3");

    copy_shard(&s, SHARD0, "cut", copy);
    path_in(path, copy, "summary.csv");
    assert_int_equal(truncate(path, 20000), 0);
    report_refuses(&s, copy, "was cut short or replaced");
    hb_test_remove_tree(s.root);
}

/* --- earlier headers ---------------------------------------------------------------------------------------------- */

/* The folder's plan.json rewritten by this harness (version 2, with its
 * plan_sha256): what the harness wrote between plan_sha256 and its later
 * columns, whose summary.csv had the earlier header. */
static void plan_to_version_2(const char *folder)
{
    static hb_plan_file plan;
    assert_int_equal(hb_plan_file_read(folder, &plan), HB_OK);
    assert_int_equal(hb_plan_file_write(folder, &plan), HB_OK);
    assert_int_equal(hb_plan_file_read(folder, &plan), HB_OK);
    assert_int_equal(plan.version, HB_PLAN_VERSION);
}

/* Where each line of `text` ends (past its '\n'), lines 0.. (0: the header). */
static long *line_ends(const char *text, size_t *count)
{
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    long *ends = calloc(n + 1, sizeof *ends);
    assert_non_null(ends);
    n = 0;
    for (const char *p = text; *p; p++)
        if (*p == '\n')
            ends[n++] = (long)(p - text) + 1;
    *count = n;
    return ends;
}

/* The folder's summary.csv cut to its columns up to `last` (a harness
 * with fewer), its journal's csv_ends moved to the same rows' new ends. */
static void cut_columns(const char *folder, const char *last)
{
    char csv_path[PATH], journal_path[PATH];
    path_in(csv_path, folder, "summary.csv");
    path_in(journal_path, folder, "journal.jsonl");
    char *old_text = hb_test_read_file(csv_path);
    assert_non_null(old_text);
    size_t lines;
    long *old_end = line_ends(old_text, &lines);
    plain_csv c;
    plain_read(csv_path, &c);
    long keep = plain_column(&c, last) + 1;
    assert_true(keep > 0 && (size_t)keep < c.columns);
    long *new_end = calloc(lines, sizeof *new_end);
    assert_non_null(new_end);
    FILE *out = fopen(csv_path, "w");
    assert_non_null(out);
    for (size_t r = 0; r < lines; r++) {
        for (long col = 0; col < keep; col++)
            fprintf(out, "%s%s", col ? "," : "", c.cell[r * c.columns + (size_t)col]);
        fputc('\n', out);
        new_end[r] = ftell(out);
    }
    assert_int_equal(fclose(out), 0);
    char *journal = hb_test_read_file(journal_path);
    assert_non_null(journal);
    out = fopen(journal_path, "w");
    assert_non_null(out);
    for (char *line = strtok(journal, "\n"); line; line = strtok(NULL, "\n")) {
        json_t *entry = json_loads(line, 0, NULL);
        assert_non_null(entry);
        long end = (long)json_integer_value(json_object_get(entry, "csv_end"));
        size_t r = 0;
        while (r < lines && old_end[r] != end)
            r++;
        assert_true(r < lines);
        json_object_set_new(entry, "csv_end", json_integer(new_end[r]));
        char *text = json_dumps(entry, JSON_COMPACT | JSON_PRESERVE_ORDER);
        fprintf(out, "%s\n", text);
        free(text);
        json_decref(entry);
    }
    assert_int_equal(fclose(out), 0);
    free(journal);
    free(old_text);
    free(old_end);
    free(new_end);
    plain_free(&c);
}

/* A folder of version 2 with the fixture's earlier header, and one of the
 * first sweep harness's 119 columns (up to gpu_name): report reads both
 * (the same figures as the fixture itself; no note of version 1 on the
 * first), and merge writes both with this harness's header. */
static void test_earlier_headers_read_and_merge(void **state)
{
    (void)state;
    scratch s;
    make_scratch(&s);
    char v2[PATH], first[PATH], merged[PATH], csv[PATH], md[PATH];
    copy_shard(&s, SHARD0, "version-2", v2);
    plan_to_version_2(v2);
    copy_shard(&s, SHARD0, "first-harness", first);
    cut_columns(first, "gpu_name");
    const char *fixture_csv[] = {SHARD0 "/summary.csv"};
    for (int which = 0; which < 2; which++) {
        const char *folder = which ? first : v2;
        hb_test_remove_tree(s.out);
        json_t *doc = report_json(&s, &folder, 1);
        const json_t *t = hb_test_json_table(doc, "table1");
        assert_int_equal(row_count(t), 10); /* offline alone */
        for (size_t row = 0; row < row_count(t); row++) {
            figures e = expect_row(fixture_csv, 1, "offline", text_at(t, row, "baseline"));
            assert_int_equal((size_t)number_at(t, row, "configs"), 4);
            assert_close(number_at(t, row, "paper_mean_pct") / 100, e.paper_mean, text_at(t, row, "baseline"));
            assert_close(number_at(t, row, "geomean_pct") / 100, e.geomean, text_at(t, row, "baseline"));
        }
        json_decref(doc);
        path_in(md, s.out, "report.md");
        if (!which)
            assert_false(hb_test_file_contains(md, "plan of version 1"));
        path_in(merged, s.root, which ? "merged-first" : "merged-v2");
        merge(&s, merged, &folder, 1);
        assert_file_holds(s.stdout_path, which ? "summary.csv has an earlier harness's 119 columns"
                                               : "summary.csv has an earlier harness's 145 columns");
        path_in(csv, merged, "summary.csv");
        assert_header_is_ours(csv);
        char source[PATH];
        path_in(source, folder, "summary.csv");
        const char *sources[] = {source};
        check_merged_rows(csv, sources, 1);
    }
    hb_test_remove_tree(s.root);
}

/* merge takes only this harness's header or an earlier one's: a column it
 * does not write (a newer harness's) and two columns out of its order are
 * refused, naming the column, and nothing is made. */
static void test_merge_refuses_headers_no_version_wrote(void **state)
{
    (void)state;
    scratch s;
    make_scratch(&s);
    char copy[PATH], path[PATH];
    static const char *const from[] = {",host_gap_us\n", ",event_p10_us,event_p90_us,"};
    static const char *const to[] = {",host_gap_xx\n", ",event_p90_us,event_p10_us,"};
    static const char *const said[] = {"its column 145, \"host_gap_xx\", is not one this harness writes",
                                       "its column 29, \"event_p10_us\", is out of this harness's order"};
    for (int i = 0; i < 2; i++) {
        copy_shard(&s, SHARD0, i ? "swapped" : "newer", copy);
        path_in(path, copy, "summary.csv");
        edit_file(path, from[i], to[i]); /* the same length: the journal's csv_ends still hold */
        assert_int_equal(hb_test_run(hb_test_bench(), ARGS("merge", s.out, copy), s.stdout_path, s.stderr_path),
                         HB_ERR_BAD_RESULTS);
        assert_file_holds(s.stderr_path, said[i]);
        struct stat info;
        assert_int_not_equal(stat(s.out, &info), 0);
    }
    hb_test_remove_tree(s.root);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_v1_shards_report_in_place),
    cmocka_unit_test(test_v1_shards_report_plots),
    cmocka_unit_test(test_v1_shard_compares),
    cmocka_unit_test(test_v1_shards_merge),
    cmocka_unit_test(test_v1_resume_refused),
    cmocka_unit_test(test_plan_versions_refused),
    cmocka_unit_test(test_v1_checks_kept),
    cmocka_unit_test(test_earlier_headers_read_and_merge),
    cmocka_unit_test(test_merge_refuses_headers_no_version_wrote),
};

hb_test_list hb_older_folder_tests(void)
{
    return HB_TEST_LIST(tests);
}
