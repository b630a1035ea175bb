/* The sweep layer without a GPU (bench/sweep/): plans (the paper's grid,
 * axes, files, the stratified sample), shards, plan.json, the journal and
 * summary.csv kept in step across crashes, merge, and the CLI's plan
 * (--dry-run) and its refusals. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/status.h"
#include "bench/result/item_cost.h"
#include "bench/report/csv_writer.h"
#include "bench/sweep/journal.h"
#include "bench/sweep/merge.h"
#include "bench/sweep/mnk_file.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/shard.h"
#include "bench/sweep/sweep_plan.h"
#include "bench/sweep/sweep_store.h"
#include "tests/cli_test_util.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static hb_sweep_plan plan_a, plan_b;

static void test_paper_grid(void **state)
{
    (void)state;
    hb_plan_grid_paper(&plan_a);
    assert_int_equal(plan_a.n_configs, 1000);
    assert_int_equal(plan_a.configs[0].m, 64);
    assert_int_equal(plan_a.configs[1].k, 128); /* K fastest, as CUDA-L2's CSV rows */
    assert_int_equal(plan_a.configs[999].m, 16384);
    assert_int_equal(plan_a.configs[999].k, 16384);
    assert_int_equal(hb_plan_dedupe(&plan_a), 0);
}

static void test_axes_and_dedupe(void **state)
{
    (void)state;
    assert_int_equal(hb_plan_axes(&plan_a, "64,128", "256", "512,1024,64"), HB_OK);
    assert_int_equal(plan_a.n_configs, 6);
    assert_int_equal(plan_a.configs[5].m, 128);
    assert_int_equal(plan_a.configs[5].k, 64);
    hb_diag_set_quiet(1);
    assert_int_equal(hb_plan_axes(&plan_a, "64,x", "1", "1"), HB_ERR_USAGE);
    assert_int_equal(hb_plan_axes(&plan_a, "0", "1", "1"), HB_ERR_USAGE);
    assert_int_equal(hb_plan_axes(&plan_a, "64,", "1", "1"), HB_ERR_USAGE);
    hb_diag_set_quiet(0);
    plan_a.n_configs = 0;
    hb_mnk list[] = {{1, 2, 3}, {4, 5, 6}, {1, 2, 3}, {7, 8, 9}, {4, 5, 6}};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(hb_plan_add(&plan_a, list[i], "test"), HB_OK);
    assert_int_equal(hb_plan_dedupe(&plan_a), 2);
    assert_int_equal(plan_a.n_configs, 3);
    assert_int_equal(plan_a.configs[2].m, 7); /* first occurrences kept, in order */
}

static void test_mnk_lines(void **state)
{
    (void)state;
    hb_mnk mnk;
    int found, column;
    assert_int_equal(hb_mnk_line_parse("64,128,256", &mnk, &found, &column), HB_OK);
    assert_true(found && mnk.m == 64 && mnk.n == 128 && mnk.k == 256);
    assert_int_equal(hb_mnk_line_parse(" 64_128_256  # CUDA-L2's name", &mnk, &found, &column), HB_OK);
    assert_true(found && mnk.k == 256);
    assert_int_equal(hb_mnk_line_parse("   # only a comment", &mnk, &found, &column), HB_OK);
    assert_false(found);
    assert_int_equal(hb_mnk_line_parse("", &mnk, &found, &column), HB_OK);
    assert_false(found);
    assert_int_equal(hb_mnk_line_parse("64,128", &mnk, &found, &column), HB_ERR_USAGE);
    assert_int_equal(hb_mnk_line_parse("64_128,256", &mnk, &found, &column), HB_ERR_USAGE);
    assert_int_equal(column, 7); /* the mixed separator */
    assert_int_equal(hb_mnk_line_parse("64,128,0", &mnk, &found, &column), HB_ERR_USAGE);
    assert_int_equal(hb_mnk_line_parse("64,128,256,512", &mnk, &found, &column), HB_ERR_USAGE);
    assert_int_equal(column, 11);
}

static void test_mnk_file_errors_name_the_line(void **state)
{
    (void)state;
    char dir[512], path[600];
    hb_test_make_temp_dir("hb-mnkfile", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/plan.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# the plan\n64,64,64\n\n128_128_128\n64,64,x\n", f);
    fclose(f);
    plan_a.n_configs = 0;
    hb_diag_set_quiet(1);
    assert_int_equal(hb_mnk_file_read(path, &plan_a), HB_ERR_USAGE);
    hb_diag_set_quiet(0);
    char where[700];
    snprintf(where, sizeof where, "%s:5:7", path);
    assert_non_null(strstr(hb_last_error(), where));
    hb_test_remove_tree(dir);
}

static double log2_size(const hb_mnk *c)
{
    return log2((double)c->m) + log2((double)c->n) + log2((double)c->k);
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Reproducible, in plan order, and stratified: the i-th smallest of the
 * sample lies in the i-th of `count` equal groups of the sorted sizes. */
static void test_sample_is_stratified_and_reproducible(void **state)
{
    (void)state;
    static double sizes[1000], chosen[40];
    hb_plan_grid_paper(&plan_a);
    for (size_t i = 0; i < 1000; i++)
        sizes[i] = log2_size(&plan_a.configs[i]);
    qsort(sizes, 1000, sizeof sizes[0], by_double);
    hb_plan_sample(&plan_a, 40, 11);
    hb_plan_grid_paper(&plan_b);
    hb_plan_sample(&plan_b, 40, 11);
    assert_int_equal(plan_a.n_configs, 40);
    assert_memory_equal(plan_a.configs, plan_b.configs, 40 * sizeof plan_a.configs[0]);
    for (size_t i = 0; i < 40; i++)
        chosen[i] = log2_size(&plan_a.configs[i]);
    for (size_t i = 1; i < 40; i++) { /* plan order: M, then N, then K ascending */
        const hb_mnk *p = &plan_a.configs[i - 1], *c = &plan_a.configs[i];
        assert_true(p->m < c->m || (p->m == c->m && (p->n < c->n || (p->n == c->n && p->k < c->k))));
    }
    qsort(chosen, 40, sizeof chosen[0], by_double);
    for (size_t g = 0; g < 40; g++) {
        assert_true(chosen[g] >= sizes[g * 1000 / 40]);
        assert_true(chosen[g] <= sizes[(g + 1) * 1000 / 40 - 1]);
    }
    hb_plan_grid_paper(&plan_b);
    hb_plan_sample(&plan_b, 40, 12);
    assert_memory_not_equal(plan_a.configs, plan_b.configs, 40 * sizeof plan_a.configs[0]);
}

static void test_shards_partition_the_plan(void **state)
{
    (void)state;
    hb_shard shard;
    hb_diag_set_quiet(1);
    assert_int_equal(hb_shard_parse("3/3", &shard), HB_ERR_USAGE);
    assert_int_equal(hb_shard_parse("1/0", &shard), HB_ERR_USAGE);
    assert_int_equal(hb_shard_parse("-1/3", &shard), HB_ERR_USAGE);
    assert_int_equal(hb_shard_parse("1/3x", &shard), HB_ERR_USAGE);
    hb_diag_set_quiet(0);
    for (size_t n = 1; n <= 7; n++) {
        for (size_t items = 0; items < 30; items++) {
            size_t covered = 0, sizes = 0;
            for (size_t i = 0; i < n; i++) {
                char text[32];
                snprintf(text, sizeof text, "%zu/%zu", i, n);
                assert_int_equal(hb_shard_parse(text, &shard), HB_OK);
                sizes += hb_shard_size(&shard, items);
                for (size_t item = 0; item < items; item++)
                    covered += hb_shard_holds(&shard, item);
            }
            assert_int_equal(covered, items); /* each item in exactly one shard */
            assert_int_equal(sizes, items);
        }
    }
}

/* A small plan file in `dir`: 3 configurations x 2 modes, the shard given. */
static void make_plan_file(hb_plan_file *f, hb_shard shard)
{
    memset(f, 0, sizeof *f);
    hb_mnk list[] = {{64, 64, 64}, {128, 64, 256}, {256, 256, 256}};
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(hb_plan_add(&f->plan, list[i], "test"), HB_OK);
    assert_int_equal(hb_plan_set_modes(&f->plan, "offline,server"), HB_OK);
    f->shard = shard;
    snprintf(f->harness_commit, sizeof f->harness_commit, "test-commit");
    snprintf(f->created_utc, sizeof f->created_utc, "2026-11-23T00:00:00Z");
    snprintf(f->command_line, sizeof f->command_line, "hgemm-bench sweep --mnk ...");
    char *words[] = {"--candidate", "some dir/manifest.json", "--time-s", "1", "--modes", "offline,server"};
    assert_int_equal(hb_plan_file_set_words(f, words, 6), HB_OK);
    hb_plan_file_identify(f);
}

static void test_plan_file_round_trip(void **state)
{
    (void)state;
    static hb_plan_file written, read, other;
    char dir[512], path[600];
    hb_test_make_temp_dir("hb-plan", dir, sizeof dir);
    make_plan_file(&written, (hb_shard){1, 4});
    assert_int_equal(hb_plan_file_write(dir, &written), HB_OK);
    assert_int_equal(hb_plan_file_read(dir, &read), HB_OK);
    assert_string_equal(read.sweep_id, written.sweep_id);
    assert_int_equal(read.plan.n_configs, 3);
    assert_int_equal(read.plan.n_modes, 2);
    assert_int_equal(read.shard.index, 1);
    assert_int_equal(read.shard.count, 4);
    assert_int_equal(read.n_words, 6);
    assert_string_equal(read.words[1], "some dir/manifest.json");
    assert_memory_equal(read.plan.configs, written.plan.configs, 3 * sizeof written.plan.configs[0]);
    /* the shard is not part of the identity; a setting is */
    make_plan_file(&other, (hb_shard){0, 1});
    assert_string_equal(other.sweep_id, written.sweep_id);
    char *words[] = {"--candidate", "some dir/manifest.json", "--time-s", "2", "--modes", "offline,server"};
    assert_int_equal(hb_plan_file_set_words(&other, words, 6), HB_OK);
    hb_plan_file_identify(&other);
    assert_string_not_equal(other.sweep_id, written.sweep_id);
    /* an edited plan no longer matches its id: refused */
    snprintf(path, sizeof path, "%s/plan.json", dir);
    char *text = hb_test_read_file(path);
    assert_non_null(text);
    char *k = strstr(text, "\"k\": 256");
    assert_non_null(k);
    memcpy(k, "\"k\": 512", 8);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    hb_diag_set_quiet(1);
    assert_int_equal(hb_plan_file_read(dir, &read), HB_ERR_BAD_RESULTS);
    /* not a sweep folder */
    assert_int_equal(hb_plan_file_read("/nonexistent-hb-folder", &read), HB_ERR_BAD_RESULTS);
    f = fopen(path, "w");
    fputs("{\"format\": \"something else\"}", f);
    fclose(f);
    assert_int_equal(hb_plan_file_read(dir, &read), HB_ERR_BAD_RESULTS);
    f = fopen(path, "w");
    fputs("{\"format\": \n", f);
    fclose(f);
    assert_int_equal(hb_plan_file_read(dir, &read), HB_ERR_BAD_RESULTS);
    hb_diag_set_quiet(0);
    assert_non_null(strstr(hb_last_error(), "plan.json:2:"));
    hb_test_remove_tree(dir);
}

/* A configuration's result with rows whose values come from the item, so
 * that two writes of the same item are the same bytes. */
static void synthetic_result(const hb_sweep_plan *plan, size_t item, hb_config_result *r)
{
    hb_plan_item it = hb_plan_item_at(plan, item);
    hb_config_result_init(r, &plan->configs[it.config]);
    r->count = 3;
    snprintf(r->participants[1].name, sizeof r->participants[1].name, "torch");
    snprintf(r->participants[2].name, sizeof r->participants[2].name, "cublas-nn");
    r->timing.mode = it.mode;
    r->seconds = 1.0 + (double)item;
    if (item % 5 == 3) {
        r->status = HB_ERR_INCORRECT;
        r->verdict = HB_VERDICT_INCORRECT;
        snprintf(r->reason, sizeof r->reason, "item %zu, wrong, \"quoted\"", item);
    }
}

static void append_item(hb_sweep_store *store, const hb_plan_file *f, size_t item)
{
    static hb_config_result r;
    synthetic_result(&f->plan, item, &r);
    hb_journal_entry entry = {.item = item, .mode = hb_plan_item_at(&f->plan, item).mode, .device = (int)(item % 2)};
    snprintf(entry.gpu_uuid, sizeof entry.gpu_uuid, "GPU-test-%d", entry.device);
    assert_int_equal(hb_sweep_store_append(store, f->sweep_id, "fp32", &r, &entry), HB_OK);
}

static long file_size(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 ? (long)info.st_size : -1;
}

static void append_bytes(const char *path, const char *text)
{
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Rows of an item whose journal line never made it, and a journal line cut
 * short: both dropped when the folder is opened again; the rest kept. */
static void test_store_survives_a_crash(void **state)
{
    (void)state;
    static hb_plan_file f;
    static hb_sweep_store store;
    char dir[512], csv[600], journal[600];
    hb_test_make_temp_dir("hb-store", dir, sizeof dir);
    make_plan_file(&f, (hb_shard){0, 1});
    snprintf(csv, sizeof csv, "%s/summary.csv", dir);
    snprintf(journal, sizeof journal, "%s/" HB_JOURNAL_NAME, dir);
    assert_int_equal(hb_sweep_store_create(&store, dir, &f.plan), HB_OK);
    append_item(&store, &f, 0);
    append_item(&store, &f, 3);
    long csv_vouched = file_size(csv), journal_whole = file_size(journal);
    hb_sweep_store_close(&store);
    append_bytes(csv, "partial,rows,of,an,item,in,flight\n");
    append_bytes(journal, "{\"item\": 5, \"m\": 2");
    hb_diag_set_quiet(1);
    quiet_stderr();
    assert_int_equal(hb_sweep_store_open(&store, dir, &f), HB_OK);
    assert_int_equal(hb_sweep_store_drop_in_flight(&store), HB_OK); /* a sweep does it once a GPU is open */
    restore_stderr();
    hb_diag_set_quiet(0);
    assert_int_equal(file_size(csv), csv_vouched);
    assert_int_equal(file_size(journal), journal_whole);
    assert_int_equal(store.count, 2);
    assert_true(store.done[0] && store.done[3] && !store.done[5]);
    append_item(&store, &f, 5);
    hb_sweep_store_close(&store);
    assert_int_equal(hb_sweep_store_open(&store, dir, &f), HB_OK);
    assert_int_equal(store.count, 3);
    assert_int_equal(store.entries[1].status, HB_ERR_INCORRECT);
    assert_string_equal(store.entries[1].verdict, "incorrect");
    assert_string_equal(store.entries[2].gpu_uuid, "GPU-test-1");
    hb_sweep_store_close(&store);
    /* 1 header + 3 items x 3 rows */
    assert_int_equal(hb_test_count_lines(csv), 10);
    /* a CSV shorter than the journal vouches for: refused */
    assert_int_equal(truncate(csv, 100), 0);
    hb_diag_set_quiet(1);
    assert_int_equal(hb_sweep_store_open(&store, dir, &f), HB_ERR_BAD_RESULTS);
    hb_sweep_store_close(&store);
    /* a bad line in the middle of the journal: refused, naming its line */
    FILE *j = fopen(journal, "w");
    fputs("not json\n{}\n", j);
    fclose(j);
    assert_int_equal(hb_sweep_store_open(&store, dir, &f), HB_ERR_BAD_RESULTS);
    hb_sweep_store_close(&store);
    hb_diag_set_quiet(0);
    assert_non_null(strstr(hb_last_error(), HB_JOURNAL_NAME ":1:"));
    hb_test_remove_tree(dir);
}

static void test_journal_refuses_items_not_in_the_plan(void **state)
{
    (void)state;
    static hb_plan_file f;
    char dir[512], journal[600], line[2048];
    hb_test_make_temp_dir("hb-journal", dir, sizeof dir);
    make_plan_file(&f, (hb_shard){0, 1});
    snprintf(journal, sizeof journal, "%s/" HB_JOURNAL_NAME, dir);
    hb_journal_entry e = {.item = 1, .mnk = {64, 64, 64}, .mode = HB_MODE_SERVER, .verdict = "pass", .device = 0,
                          .csv_end = 10};
    assert_int_equal(hb_journal_format(&e, line, sizeof line), HB_OK);
    hb_journal_entry *entries;
    size_t count;
    long long valid, tail;
    int exists;
    append_bytes(journal, line);
    assert_int_equal(hb_journal_read(journal, &f.plan, NULL, &entries, &count, &valid, &tail, &exists), HB_OK);
    assert_int_equal(count, 1);
    assert_int_equal(entries[0].mode, HB_MODE_SERVER);
    free(entries);
    append_bytes(journal, line); /* the same item twice */
    hb_diag_set_quiet(1);
    assert_int_equal(hb_journal_read(journal, &f.plan, NULL, &entries, &count, &valid, &tail, &exists), HB_ERR_BAD_RESULTS);
    assert_non_null(strstr(hb_last_error(), ":2:"));
    e.mode = HB_MODE_OFFLINE; /* item 1 is the server mode's */
    assert_int_equal(hb_journal_format(&e, line, sizeof line), HB_OK);
    FILE *j = fopen(journal, "w");
    fputs(line, j);
    fclose(j);
    assert_int_equal(hb_journal_read(journal, &f.plan, NULL, &entries, &count, &valid, &tail, &exists), HB_ERR_BAD_RESULTS);
    hb_diag_set_quiet(0);
    hb_test_remove_tree(dir);
}

/* An item's cost goes into its journal line and comes back, parts by name; a line without one (an older journal)
 * reads with none, and a part that is not a time is refused. */
static void test_journal_keeps_an_items_cost(void **state)
{
    (void)state;
    static hb_plan_file f;
    char dir[512], journal[600], line[4096];
    hb_test_make_temp_dir("hb-journal-cost", dir, sizeof dir);
    make_plan_file(&f, (hb_shard){0, 1});
    snprintf(journal, sizeof journal, "%s/" HB_JOURNAL_NAME, dir);
    hb_journal_entry e = {.item = 0, .mnk = {64, 64, 64}, .mode = HB_MODE_OFFLINE, .verdict = "pass", .device = 0,
                          .csv_end = 10, .has_cost = 1};
    e.cost.wall_s = 2.5;
    e.cost.part_s[HB_COST_TIMED] = 0.75;
    e.cost.part_s[HB_COST_CONTEXT] = 0.125;
    e.cost.ahead_s[HB_COST_CUPTI] = 0.25;
    assert_int_equal(hb_journal_format(&e, line, sizeof line), HB_OK);
    assert_non_null(strstr(line, "\"cost\":{\"wall\":2.5,\"context\":0.125,\"timed\":0.75}"));
    assert_non_null(strstr(line, "\"ahead\":{\"cupti\":0.25}"));
    append_bytes(journal, line);
    e.item = 1, e.mode = HB_MODE_SERVER, e.csv_end = 20, e.has_cost = 0;
    assert_int_equal(hb_journal_format(&e, line, sizeof line), HB_OK);
    assert_null(strstr(line, "cost"));
    append_bytes(journal, line);
    hb_journal_entry *entries;
    size_t count;
    long long valid, tail;
    int exists;
    assert_int_equal(hb_journal_read(journal, &f.plan, NULL, &entries, &count, &valid, &tail, &exists), HB_OK);
    assert_int_equal(count, 2);
    assert_int_equal(entries[0].has_cost, 1);
    assert_true(entries[0].cost.wall_s == 2.5 && entries[0].cost.part_s[HB_COST_TIMED] == 0.75);
    assert_true(entries[0].cost.ahead_s[HB_COST_CUPTI] == 0.25 && entries[0].cost.part_s[HB_COST_CUPTI] == 0);
    assert_int_equal(entries[1].has_cost, 0);
    free(entries);
    FILE *j = fopen(journal, "w");
    fputs("{\"item\":0,\"m\":64,\"n\":64,\"k\":64,\"mode\":\"offline\",\"status\":0,\"verdict\":\"pass\",\"check\":\"\","
          "\"reason\":\"\",\"device\":0,\"gpu_uuid\":\"\",\"seconds\":1,\"csv_end\":10,\"finished_utc\":\"x\","
          "\"cost\":{\"wall\":1,\"timed\":-3}}\n", j);
    fclose(j);
    hb_diag_set_quiet(1);
    assert_int_equal(hb_journal_read(journal, &f.plan, NULL, &entries, &count, &valid, &tail, &exists),
                     HB_ERR_BAD_RESULTS);
    hb_diag_set_quiet(0);
    assert_non_null(strstr(hb_last_error(), "not a time"));
    hb_test_remove_tree(dir);
}

/* The parts on an item's path add up to its wall time with "other" the rest; the inner parts (autotune within the
 * handles, the output scan within the windows) are not counted twice; the described line names the parts. */
static void test_item_cost_adds_up(void **state)
{
    (void)state;
    hb_item_cost c = {.wall_s = 3.0};
    double since = 10.0;
    hb_item_cost_lap(&c, HB_COST_CONTEXT, &since, 10.25);
    assert_true(since == 10.25 && c.part_s[HB_COST_CONTEXT] == 0.25);
    hb_item_cost_add(&c, HB_COST_WARMUP, 0.5);
    hb_item_cost_add(&c, HB_COST_TIMED, 1.0);
    hb_item_cost_add(&c, HB_COST_HANDLES, 0.5);
    hb_item_cost_add(&c, HB_COST_AUTOTUNE, 0.4);    /* inside the handles */
    hb_item_cost_add(&c, HB_COST_OUTPUT_SCAN, 0.1); /* inside the windows */
    hb_item_cost_add(&c, HB_COST_BATTERY, -1.0);    /* a clock that stepped back counts nothing */
    assert_true(c.part_s[HB_COST_BATTERY] == 0);
    assert_true(hb_item_cost_windows_s(&c) == 1.5);
    assert_true(hb_item_cost_overhead_s(&c) == 1.5);
    assert_true(fabs(hb_item_cost_other_s(&c) - 0.75) < 1e-12);
    hb_item_cost total = {0};
    hb_item_cost_sum(&total, &c);
    hb_item_cost_sum(&total, &c);
    assert_true(total.wall_s == 6.0 && total.part_s[HB_COST_TIMED] == 2.0);
    char line[1400];
    hb_item_cost_describe(&total, 2, line, sizeof line);
    assert_non_null(strstr(line, "2 items, 3.00 s an item: windows 1.50 s, beyond them 1.50 s"));
    assert_non_null(strstr(line, "summed (s): context 0.50,"));
    assert_non_null(strstr(line, "other 1.50"));
    assert_null(strstr(line, "battery"));
    hb_cost_part part;
    assert_true(hb_cost_part_parse("process_start", &part) && part == HB_COST_PROCESS_START);
    assert_false(hb_cost_part_parse("wall", &part));
    assert_string_equal(hb_cost_part_name(HB_COST_RESULT), "result");
    assert_null(hb_cost_part_name(HB_COST_PART_COUNT));
}

/* The lines of a file after its first, sorted: a multiset to compare. */
static char *sorted_rows(const char *path)
{
    char command[1024];
    snprintf(command, sizeof command, "tail -n +2 '%s' | LC_ALL=C sort", path);
    FILE *p = popen(command, "r");
    assert_non_null(p);
    static char buffer[1 << 20];
    size_t n = fread(buffer, 1, sizeof buffer - 1, p);
    buffer[n] = '\0';
    pclose(p);
    return strdup(buffer);
}

/* Three shards run separately, one of them twice over an item, merge into
 * the very rows the unsharded sweep writes; an item no shard finished is
 * listed; shards of another sweep are refused. */
static void test_shards_merge_into_the_unsharded_sweep(void **state)
{
    (void)state;
    static hb_plan_file whole, part[4];
    static hb_sweep_store store;
    char root[512], dirs[5][700], out[700], path[800];
    hb_test_make_temp_dir("hb-merge", root, sizeof root);
    make_plan_file(&whole, (hb_shard){0, 1});
    snprintf(dirs[3], sizeof dirs[3], "%s/whole", root);
    mkdir(dirs[3], 0755);
    assert_int_equal(hb_sweep_store_create(&store, dirs[3], &whole.plan), HB_OK);
    for (size_t item = 0; item < 6; item++)
        append_item(&store, &whole, item);
    hb_sweep_store_close(&store);
    for (size_t s = 0; s < 3; s++) {
        make_plan_file(&part[s], (hb_shard){s, 3});
        snprintf(dirs[s], sizeof dirs[s], "%s/shard-%zu", root, s);
        mkdir(dirs[s], 0755);
        assert_int_equal(hb_plan_file_write(dirs[s], &part[s]), HB_OK);
        assert_int_equal(hb_sweep_store_create(&store, dirs[s], &part[s].plan), HB_OK);
        for (size_t item = 6; item-- > 0;) /* journal order differs from plan order */
            if (hb_shard_holds(&part[s].shard, item))
                append_item(&store, &part[s], item);
        hb_sweep_store_close(&store);
    }
    /* shard 0 run a second time, on another node: its item 0 again */
    make_plan_file(&part[3], (hb_shard){0, 3});
    snprintf(dirs[4], sizeof dirs[4], "%s/shard-0-again", root);
    mkdir(dirs[4], 0755);
    assert_int_equal(hb_plan_file_write(dirs[4], &part[3]), HB_OK);
    assert_int_equal(hb_sweep_store_create(&store, dirs[4], &part[3].plan), HB_OK);
    append_item(&store, &part[3], 0);
    hb_sweep_store_close(&store);
    snprintf(out, sizeof out, "%s/merged", root);
    const char *folders[] = {dirs[0], dirs[1], dirs[2], dirs[4]};
    hb_test_capture capture;
    FILE *report = hb_test_capture_open(&capture);
    assert_int_equal(hb_sweep_merge(out, folders, 4, report), HB_OK);
    char *text = hb_test_capture_close(&capture);
    assert_non_null(strstr(text, "duplicate: item 0"));
    assert_non_null(strstr(text, "merged: 6 of 6 items, 1 duplicate dropped, 0 missing"));
    free(text);
    snprintf(path, sizeof path, "%s/summary.csv", out);
    char merged_csv[800], whole_csv[800];
    snprintf(merged_csv, sizeof merged_csv, "%s", path);
    snprintf(whole_csv, sizeof whole_csv, "%s/summary.csv", dirs[3]);
    char *a = sorted_rows(merged_csv), *b = sorted_rows(whole_csv);
    assert_string_equal(a, b);
    free(a);
    free(b);
    static hb_plan_file merged;
    assert_int_equal(hb_plan_file_read(out, &merged), HB_OK);
    assert_string_equal(merged.sweep_id, whole.sweep_id);
    assert_int_equal(merged.shard.count, 1);
    assert_int_equal(hb_sweep_store_open(&store, out, &merged), HB_OK); /* a sweep folder like any other */
    assert_int_equal(store.count, 6);
    hb_sweep_store_close(&store);
    /* without shard 1: its items are missing */
    snprintf(out, sizeof out, "%s/merged-partly", root);
    const char *two[] = {dirs[0], dirs[2]};
    report = hb_test_capture_open(&capture);
    assert_int_equal(hb_sweep_merge(out, two, 2, report), HB_OK);
    text = hb_test_capture_close(&capture);
    assert_non_null(strstr(text, "missing: item 1 (64_64_64 server)"));
    assert_non_null(strstr(text, "missing: item 4 (256_256_256 offline)"));
    free(text);
    /* a shard of another sweep */
    static hb_plan_file stranger;
    make_plan_file(&stranger, (hb_shard){1, 3});
    char *words[] = {"--candidate", "another", "--modes", "offline,server"};
    assert_int_equal(hb_plan_file_set_words(&stranger, words, 4), HB_OK);
    hb_plan_file_identify(&stranger);
    assert_int_equal(hb_plan_file_write(dirs[1], &stranger), HB_OK);
    snprintf(out, sizeof out, "%s/merged-wrong", root);
    report = hb_test_capture_open(&capture);
    hb_diag_set_quiet(1);
    assert_int_equal(hb_sweep_merge(out, folders, 3, report), HB_ERR_BAD_RESULTS);
    hb_diag_set_quiet(0);
    free(hb_test_capture_close(&capture));
    struct stat info;
    assert_int_not_equal(stat(out, &info), 0); /* nothing left that looks like a merge */
    hb_test_remove_tree(root);
}

/* --- the command line ----------------------------------------------------------------- */


/* The shards' --dry-run item lines, together, are the unsharded plan's. */
static void test_dry_run_shards_cover_the_plan(void **state)
{
    (void)state;
    char dir[512], command[2048], whole[700], shards[700];
    hb_test_make_temp_dir("hb-dryrun", dir, sizeof dir);
    const char *plan = "--candidate x --grid paper --sample 25 --seed 5 --modes offline,server";
    snprintf(whole, sizeof whole, "%s/whole.txt", dir);
    snprintf(shards, sizeof shards, "%s/shards.txt", dir);
    snprintf(command, sizeof command, "%s sweep %s --dry-run | grep -v '^#' | tail -n +2 | sort > %s", hb_test_bench(), plan,
             whole);
    assert_int_equal(hb_test_shell(command), 0);
    snprintf(command, sizeof command,
             "for i in 0 1 2 3; do %s sweep %s --shard $i/4 --dry-run | grep -v '^#' | tail -n +2; done | sort > %s",
             hb_test_bench(), plan, shards);
    assert_int_equal(hb_test_shell(command), 0);
    assert_int_equal(hb_test_count_lines(whole), 50);
    char *a = hb_test_read_file(whole), *b = hb_test_read_file(shards);
    assert_string_equal(a, b);
    free(a);
    free(b);
    /* the same sweep_id in every shard */
    snprintf(command, sizeof command,
             "for i in 0 1 2 3; do %s sweep %s --shard $i/4 --dry-run | grep '^# sweep_id'; done | sort -u | wc -l | "
             "grep -qx 1",
             hb_test_bench(), plan);
    assert_int_equal(hb_test_shell(command), 0);
    hb_test_remove_tree(dir);
}

static void test_sweep_usage_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "sweep --candidate x --dry-run",                                 /* no plan */
        "sweep --candidate x --grid paper --mnk 1,1,1 --dry-run",        /* two plans */
        "sweep --candidate x --m 64 --n 64 --dry-run",                   /* --k missing */
        "sweep --candidate x --grid small --dry-run",                    /* unknown grid */
        "sweep --candidate x --grid paper --shard 4/4 --dry-run",        /* shard out of range */
        "sweep --candidate x --grid paper --modes fast --dry-run",       /* unknown mode */
        "sweep --candidate x --grid paper --mode server --modes server", /* both */
        "sweep --candidate x --grid paper --qps 10 --dry-run",           /* server flags without server */
        "sweep --candidate x --grid paper --no-isolate --dry-run",
        "sweep --resume somewhere --time-s 1", /* settings come from the plan */
        "merge onlyone",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char command[1024];
        snprintf(command, sizeof command, "%s %s >/dev/null 2>&1", hb_test_bench(), bad[i]);
        int rc = hb_test_shell(command);
        if (rc != HB_ERR_USAGE)
            fail_msg("'%s' exited %d, not 2", bad[i], rc);
    }
    char command[1024];
    snprintf(command, sizeof command, "%s sweep --resume /nonexistent-hb-sweep >/dev/null 2>&1", hb_test_bench());
    assert_int_equal(hb_test_shell(command), HB_ERR_BAD_RESULTS);
    snprintf(command, sizeof command,
             "%s sweep --candidate x --grid paper --modes server --qps 100 --dry-run >/dev/null 2>&1", hb_test_bench());
    assert_int_equal(hb_test_shell(command), 0);
}

static const struct CMUnitTest sweep_tests[] = {
    cmocka_unit_test(test_paper_grid),
    cmocka_unit_test(test_axes_and_dedupe),
    cmocka_unit_test(test_mnk_lines),
    cmocka_unit_test(test_mnk_file_errors_name_the_line),
    cmocka_unit_test(test_sample_is_stratified_and_reproducible),
    cmocka_unit_test(test_shards_partition_the_plan),
    cmocka_unit_test(test_plan_file_round_trip),
    cmocka_unit_test(test_store_survives_a_crash),
    cmocka_unit_test(test_journal_refuses_items_not_in_the_plan),
    cmocka_unit_test(test_journal_keeps_an_items_cost),
    cmocka_unit_test(test_item_cost_adds_up),
    cmocka_unit_test(test_shards_merge_into_the_unsharded_sweep),
    cmocka_unit_test(test_dry_run_shards_cover_the_plan),
    cmocka_unit_test(test_sweep_usage_errors),
};

hb_test_list hb_sweep_tests(void)
{
    return HB_TEST_LIST(sweep_tests);
}
