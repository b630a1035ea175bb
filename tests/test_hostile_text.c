/* A result folder from elsewhere is data (docs/reports.md, "Text from a
 * folder in the outputs" and "Numbers read back"; docs/results.md, "Text
 * cells"): the texts it holds come out of report and compare as plain
 * text in Markdown and as text cells a spreadsheet does not run in CSV, and
 * the harness still reads its own outputs back (bench/core/md_text.h,
 * bench/core/csv_text.h); every number it reads back is range-checked, so a
 * figure at the edge of a double is refused naming its cell, and no table
 * prints one that is not finite (bench/analysis/number_ranges.h). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/analysis/csv_reader.h"
#include "bench/analysis/number_ranges.h"
#include "bench/analysis/published_layout.h"
#include "bench/core/csv_text.h"
#include "bench/core/diag.h"
#include "bench/core/md_text.h"
#include "bench/import/import_report.h"
#include "bench/report/csv_writer.h"
#include "bench/report/json_values.h"
#include "bench/result/config_result.h"
#include "tests/cli_test_util.h"
#include "tests/hostile_text.h"
#include "tests/result_fixture.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PATH 1024

/* --- Markdown plain text and code spans ------------------------------------------------------ */

static void test_md_text_is_plain_text(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"\n# Heading", "\\# Heading"},
        {"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
        {"| a | b |", "\\| a \\| b \\|"},
        {"`code`", "\\`code\\`"},
        {"=HYPERLINK(\"http://x\")", "=HYPERLINK(\"http://x\")"},
        {"-2+3", "-2+3"},
        {"- item", "\\- item"},
        {"+ item", "\\+ item"},
        {"12. item", "12\\. item"},
        {"v1.2", "v1.2"},
        {"*bold* and [link](http://x) ~s~ $x$ \\", "\\*bold\\* and \\[link\\](http://x) \\~s\\~ \\$x\\$ \\\\"},
        {"snake_case_name", "snake_case_name"},
        {"_x_ __init__", "\\_x\\_ \\_\\_init\\_\\_"},
        {"a & b &amp; <!-- c -->", "a &amp; b &amp;amp; &lt;!-- c --&gt;"},
        {"  two\r\n\tlines  \x1b[31m ", "two lines \\[31m"},
        {"", ""},
        {NULL, ""},
    };
    char out[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(hb_md_text(cases[i].in, out, sizeof out), cases[i].out);
    /* cut short between two escaped characters, never inside one */
    assert_string_equal(hb_md_text("<<<", out, 8), "&lt;"); /* "&lt;&lt;" needs 9 bytes */
    assert_string_equal(hb_md_text("ab", out, 1), "");
}

static void test_md_code_span_cannot_be_left(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        hb_md_place place;
        const char *out;
    } cases[] = {
        {"a b", HB_MD_IN_TEXT, "`a b`"},
        {"a`b", HB_MD_IN_TEXT, "``a`b``"},
        {"`x``", HB_MD_IN_TEXT, "``` `x`` ```"},
        {"x\n# Heading", HB_MD_IN_TEXT, "`x # Heading`"},
        {"a|b", HB_MD_IN_TEXT, "`a|b`"},
        {"a|b", HB_MD_IN_TABLE, "`a\\|b`"},
        {"a\\|b", HB_MD_IN_TABLE, "`a\\\\\\|b`"}, /* GFM pairs backslashes before it splits the row */
        {" lead", HB_MD_IN_TEXT, "`  lead `"},
        {"", HB_MD_IN_TEXT, "` `"},
    };
    char out[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(hb_md_code(cases[i].in, cases[i].place, out, sizeof out), cases[i].out);
    /* too long: cut inside the fence, which stays whole */
    assert_string_equal(hb_md_code("abcdefgh", HB_MD_IN_TEXT, out, 6), "`abc`");
    assert_string_equal(hb_md_link_target("a b/(c)<d>.png", out, sizeof out), "a%20b/%28c%29%3Cd%3E.png");
}

/* --- CSV text cells --------------------------------------------------------------------------- */

static char *written_field(const char *text)
{
    hb_test_capture capture;
    FILE *stream = hb_test_capture_open(&capture);
    hb_csv_write_field(stream, text);
    return hb_test_capture_close(&capture);
}

typedef struct read_back {
    char text[256];
} read_back;

static hb_status keep_cell(void *context, const hb_csv_row *row)
{
    snprintf(((read_back *)context)->text, sizeof ((read_back *)context)->text, "%s", row->text[0]);
    return HB_OK;
}

/* What the harness's reader makes of a one-column file holding `field`. */
static void read_field(const char *field, char *out, size_t size)
{
    static const char *const wanted[] = {"cell"};
    read_back r = {{0}};
    char text[512];
    snprintf(text, sizeof text, "cell\n%s\n", field);
    hb_csv_spec spec = {.what = "a test file", .wanted = wanted, .n_wanted = 1, .row = keep_cell, .context = &r};
    assert_int_equal(hb_csv_read_text("test.csv", text, strlen(text), &spec), HB_OK);
    snprintf(out, size, "%s", r.text);
}

static void test_csv_text_cells_are_guarded_and_read_back(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""},
        {"+1", "'+1"},
        {"-2+3", "'-2+3"},
        {"@SUM(A1)", "'@SUM(A1)"},
        {"\tx", "'\tx"},
        {"\rx", "\"'\rx\""},
        {"'quoted", "''quoted"},
        {"'", "''"},
        {"plain-text", "plain-text"},
        {"a=b", "a=b"},
        {"", ""},
    };
    char back[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = written_field(cases[i].in);
        assert_string_equal(got, cases[i].out);
        read_field(got, back, sizeof back);
        assert_string_equal(back, cases[i].in); /* the reader takes the guard's quote off, and only it */
        free(got);
    }
    /* a cell an older harness wrote unguarded reads as it is; a quote before anything else stays */
    read_field("=1+1", back, sizeof back);
    assert_string_equal(back, "=1+1");
    read_field("'tis", back, sizeof back);
    assert_string_equal(back, "'tis");
    assert_string_equal(hb_csv_text_unguard("'-0.25"), "-0.25");
    assert_false(hb_csv_text_guarded("0.25"));
}

/* import.csv: a file's name and a build's error line are text cells; m, n, k are numbers. */
static void test_import_csv_guards_its_text_cells(void **state)
{
    (void)state;
    char dir[PATH], csv[PATH + 16];
    hb_test_make_temp_dir("hb-hostile-import", dir, sizeof dir);
    static hb_import_item items[HB_HOSTILE_COUNT];
    memset(items, 0, sizeof items);
    for (size_t i = 0; i < HB_HOSTILE_COUNT; i++) {
        items[i].mnk = (hb_mnk){64 * (long)(i + 1), 64, 64};
        items[i].state = HB_ITEM_FAILED;
        snprintf(items[i].reason, sizeof items[i].reason, "%s", hb_hostile_texts[i]);
        snprintf(items[i].source, sizeof items[i].source, "%s", hb_hostile_texts[(i + 4) % HB_HOSTILE_COUNT]);
    }
    assert_int_equal(hb_import_report_write(dir, "import.csv", items, HB_HOSTILE_COUNT), HB_OK);
    snprintf(csv, sizeof csv, "%s/import.csv", dir);
    assert_true(hb_test_assert_csv_inert(csv) >= 8); /* four reasons and four names guarded */
    assert_true(hb_test_csv_has_field(csv, "'@SUM(A1)"));
    assert_true(hb_test_csv_has_field(csv, "128")); /* a number as it is */
    hb_test_remove_tree(dir);
}

/* --- report and compare over a folder of hostile texts ------------------------------------------ */

typedef struct hostile_run {
    char root[PATH], run[PATH], report[PATH], compare[PATH], err[PATH];
    hb_fixture fixture;
} hostile_run;

/* A run folder whose env.json (GPU, candidate, command line) and summary.csv
 * text cells (reason, trace_note, gpu_name) hold the hostile texts, written
 * by the harness's own writers. */
static void make_hostile_run(hostile_run *h)
{
    memset(h, 0, sizeof *h);
    hb_test_make_temp_dir("hb-hostile", h->root, sizeof h->root);
    snprintf(h->run, PATH, "%.900s/run", h->root);
    snprintf(h->report, PATH, "%.900s/report", h->root);
    snprintf(h->compare, PATH, "%.900s/compare", h->root);
    snprintf(h->err, PATH, "%.900s/stderr.txt", h->root);
    const hb_mode offline = HB_MODE_OFFLINE;
    assert_int_equal(hb_fixture_make(41, 24, &offline, 1, 0.5, &h->fixture), HB_OK);
    for (size_t i = 0; i < h->fixture.count; i++) {
        hb_fixture_config *c = &h->fixture.configs[i];
        hb_config_result *r = c->result;
        r->gpu.ordinal = 0;
        snprintf(r->gpu.name, sizeof r->gpu.name, "%s", hb_hostile_all);
        if (c->verdict != HB_VERDICT_PASS)
            snprintf(r->reason, sizeof r->reason, "%s", hb_hostile_texts[i % HB_HOSTILE_COUNT]);
        if (c->verdict == HB_VERDICT_PASS && i % 2)
            assert_int_equal(hb_fixture_set_timing(c, hb_hostile_texts[i % HB_HOSTILE_COUNT], 0), HB_OK);
        assert_int_equal(hb_fixture_rewrite(c), HB_OK);
    }
    assert_int_equal(hb_fixture_write_run(&h->fixture, 0, h->fixture.count, h->run, NULL), HB_OK);
    assert_int_equal(hb_fixture_write_env(h->run, hb_hostile_all, "<script>alert(1)</script>\n# Heading|`x`", 1, 7,
                                          "hgemm-bench run --mnk-file `x`|<b>y</b>\n#z --candidate c"),
                     HB_OK);
}

__attribute__((unused)) static void drop_hostile_run(hostile_run *h)
{
    hb_fixture_free(&h->fixture);
    hb_test_remove_tree(h->root);
}

/* Every CSV file in `folder` inert; how many cells were guarded. */
static size_t assert_folder_csvs_inert(const char *folder)
{
    DIR *d = opendir(folder);
    assert_non_null(d);
    size_t guarded = 0, files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t length = strlen(e->d_name);
        if (length < 4 || strcmp(e->d_name + length - 4, ".csv"))
            continue;
        char path[2 * PATH];
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        guarded += hb_test_assert_csv_inert(path);
        files++;
    }
    closedir(d);
    assert_true(files > 0);
    return guarded;
}

static int run_report(const char *const *words, const char *err)
{
    return hb_test_run(hb_test_report(), words, NULL, err);
}

static void test_hostile_texts_come_out_inert(void **state)
{
    (void)state;
    static hostile_run h;
    make_hostile_run(&h);
    char path[2 * PATH], published[2 * PATH];
    assert_int_equal(run_report(WORDS("report", h.run, "--out", h.report), h.err), 0);
    snprintf(path, sizeof path, "%s/report.md", h.report);
    hb_test_assert_markdown_inert(path, 0);
    assert_true(hb_test_file_contains(path, "&lt;script&gt;alert(1)&lt;/script&gt;")); /* shown, not dropped */
    assert_true(assert_folder_csvs_inert(h.report) > 0);
    snprintf(path, sizeof path, "%s/excluded.csv", h.report);
    assert_true(hb_test_csv_has_field(path, "'=HYPERLINK(\"http://x\")"));
    assert_true(hb_test_csv_has_field(path, "'+1"));
    /* JSON holds the texts as they are: it is data, and escapes its own way */
    snprintf(path, sizeof path, "%s/report.json", h.report);
    assert_true(hb_test_file_contains(path, "-2+3"));
    /* the folder's own summary.csv, through the run's writer: guarded too */
    snprintf(path, sizeof path, "%s/summary.csv", h.run);
    assert_true(hb_test_assert_csv_inert(path) > 0);

    /* the harness reads its own outputs: the report's published-layout CSV as compare's published file */
    snprintf(published, sizeof published, "%s/speedup_offline.csv", h.report);
    assert_int_equal(run_report(WORDS("compare", h.run, "--published", published, "--out", h.compare), h.err), 0);
    snprintf(path, sizeof path, "%s/compare.md", h.compare);
    hb_test_assert_markdown_inert(path, 0);
    assert_folder_csvs_inert(h.compare);
    /* and summary.csv's text cells read back as they were written */
    snprintf(path, sizeof path, "%s/summary.csv", h.run);
    size_t reasons = 0, notes = 0;
    for (size_t i = 0; i < h.fixture.count; i++) {
        const hb_fixture_config *c = &h.fixture.configs[i];
        char reason[512], note[256];
        hb_test_read_back_texts(path, &c->mnk, c->mode, reason, sizeof reason, note, sizeof note);
        if (c->verdict != HB_VERDICT_PASS) {
            assert_string_equal(reason, c->result->reason);
            reasons++;
        }
        if (c->result->trace_note[0]) {
            assert_string_equal(note, c->result->trace_note);
            notes++;
        }
    }
    assert_true(reasons >= 4 && notes >= 2);
    hb_fixture_free(&h.fixture); fprintf(stderr, "KEPT %s\n", h.root);
}

/* --- numbers at the edges ------------------------------------------------------------------------ */

static void test_number_ranges(void **state)
{
    (void)state;
    static const struct {
        hb_number_kind kind;
        const char *text;
        int fits;
    } cases[] = {
        {HB_NUM_DIMENSION, "262144", 1}, {HB_NUM_DIMENSION, "262145", 0}, {HB_NUM_DIMENSION, "0", 0},
        {HB_NUM_DIMENSION, "-1", 0},     {HB_NUM_DIMENSION, "1e3", 0},    {HB_NUM_DIMENSION, "64.0", 0},
        {HB_NUM_SPEEDUP, "-0.25", 1},    {HB_NUM_SPEEDUP, "-1", 0},       {HB_NUM_SPEEDUP, "1e308", 0},
        {HB_NUM_SPEEDUP, "nan", 0},      {HB_NUM_SPEEDUP, "-0", 1},       {HB_NUM_RATIO, "1e-10", 0},
        {HB_NUM_TIME_US, "12.5", 1},     {HB_NUM_TIME_US, "1e308", 0},    {HB_NUM_TIME_US, "-0", 0},
        {HB_NUM_TIME_US, "4.9e-324", 0}, {HB_NUM_TIME_US, "inf", 0},      {HB_NUM_TIME_US, "-1", 0},
        {HB_NUM_REL_STDEV, "0", 1},      {HB_NUM_REL_STDEV, "0.02", 1},   {HB_NUM_REL_STDEV, "1e308", 0},
        {HB_NUM_REL_STDEV, "-0.1", 0},   {HB_NUM_REL_STDEV, "nan", 0},    {HB_NUM_SECONDS, "12.5", 1},
        {HB_NUM_SECONDS, "-1", 0},       {HB_NUM_EXCESS_RATIO, "inf", 1}, {HB_NUM_EXCESS_RATIO, "nan", 0},
        {HB_NUM_EXCESS_RATIO, "-1", 0},  {HB_NUM_FRACTION, "1.5", 0},     {HB_NUM_WINDOW_SECONDS, "86401", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double value;
        if (hb_number_parse(cases[i].kind, cases[i].text, &value) != cases[i].fits)
            fail_msg("%s as kind %d: %s", cases[i].text, (int)cases[i].kind, cases[i].fits ? "refused" : "taken");
    }
    /* every range keeps a mean and a sum of a million of its numbers finite */
    for (int k = 0; k < HB_NUM_KIND_COUNT; k++)
        if (k != HB_NUM_EXCESS_RATIO) /* shown one by one, never summed */
            assert_true(isfinite(hb_number_range_of((hb_number_kind)k)->max * 1e6));
    assert_int_equal(hb_column_number_kind("wall_rel_stdev"), HB_NUM_REL_STDEV);
    assert_int_equal(hb_column_number_kind("reason"), -1);
}

/* The column `name`'s field on line `line` (1-based) of the CSV at `path` replaced by `value`. */
static void set_cell(const char *path, size_t line, const char *name, const char *value)
{
    char *text = hb_test_read_file(path);
    assert_non_null(text);
    size_t column = 0, at = 0;
    for (const char *c = text; *c != '\n'; column++) {
        size_t length = strcspn(c, ",\n");
        if (length == strlen(name) && !strncmp(c, name, length))
            break;
        c += length + (c[length] == ',');
        assert_true(*c);
    }
    for (size_t l = 1; l < line; l++)
        at += strcspn(text + at, "\n") + 1;
    for (size_t field = 0, quoted = 0; field < column; at++) { /* to the field's start, past quoted commas */
        quoted ^= text[at] == '"';
        field += text[at] == ',' && !quoted;
    }
    size_t end = at;
    while (text[end] != ',' && text[end] != '\n')
        end++;
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%.*s%s%s", (int)at, text, value, text + end);
    assert_int_equal(fclose(f), 0);
    free(text);
}

/* A published file with a figure for every configuration of the fixture. */
static void write_published(const hb_fixture *fixture, const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s\n", hb_published_header());
    for (size_t i = 0; i < fixture->count; i++) {
        fprintf(f, "%ld_%ld_%ld", fixture->configs[i].mnk.m, fixture->configs[i].mnk.n, fixture->configs[i].mnk.k);
        for (size_t c = 0; c < hb_speedup_column_count(); c++)
            fputs(",1.2", f);
        fputc('\n', f);
    }
    assert_int_equal(fclose(f), 0);
}

static void test_compare_refuses_numbers_at_the_edges(void **state)
{
    (void)state;
    char root[PATH], run[PATH + 8], csv[PATH + 32], published[PATH + 32], err[PATH + 16], out[PATH + 8];
    hb_test_make_temp_dir("hb-edges", root, sizeof root);
    snprintf(run, sizeof run, "%s/run", root);
    snprintf(csv, sizeof csv, "%s/summary.csv", run);
    snprintf(published, sizeof published, "%s/published_offline.csv", root);
    snprintf(err, sizeof err, "%s/err.txt", root);
    snprintf(out, sizeof out, "%s/out", root);
    static hb_fixture fixture;
    const hb_mode offline = HB_MODE_OFFLINE;
    assert_int_equal(hb_fixture_make(43, 4, &offline, 1, 0.0, &fixture), HB_OK);
    write_published(&fixture, published);
    static const struct {
        const char *column, *value;
    } edges[] = {
        {"wall_rel_stdev", "1e308"}, {"wall_rel_stdev", "nan"}, {"wall_rel_stdev", "-1"},
        {"wall_mean_us", "1e308"},   {"wall_mean_us", "-0"},    {"wall_mean_us", "4.9e-324"},
        {"wall_mean_us", "inf"},     {"wall_mean_us", "-inf"},  {"speedup_ci95_low", "nan"},
        {"speedup_ci95_high", "1e308"}, {"speedup_paper_event", "-1"}, {"speedup_kernel", "-1.5"},
        {"m", "-1"},                 {"m", "1e3"},
    };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        assert_int_equal(hb_fixture_write_run(&fixture, 0, fixture.count, run, "Test GPU"), HB_OK);
        set_cell(csv, 3, edges[i].column, edges[i].value); /* line 3: the first configuration's first baseline */
        int rc = run_report(WORDS("compare", run, "--published", published), err);
        char *message = hb_test_read_file(err);
        char place[128];
        snprintf(place, sizeof place, "summary.csv:3: column ");
        if (rc != 11 || !message || !strstr(message, place) || !strstr(message, edges[i].column))
            fail_msg("%s = %s: exit %d, %s", edges[i].column, edges[i].value, rc, message ? message : "");
        free(message);
    }
    /* the ends of the ranges: taken, and every figure compare prints is finite */
    static const struct {
        size_t line;
        const char *column, *value;
    } ends[] = {
        {2, "wall_mean_us", "0.001"}, {2, "wall_rel_stdev", "1000"}, {3, "wall_mean_us", "1e9"},
        {4, "wall_rel_stdev", "0"},   {5, "speedup_ci95_high", "999999999"},
    };
    assert_int_equal(hb_fixture_write_run(&fixture, 0, fixture.count, run, "Test GPU"), HB_OK);
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
        set_cell(csv, ends[i].line, ends[i].column, ends[i].value);
    assert_int_equal(run_report(WORDS("compare", run, "--published", published, "--out", out), err), 0);
    char md[2 * PATH];
    snprintf(md, sizeof md, "%s/compare.md", out);
    char *text = hb_test_read_file(md);
    assert_non_null(text);
    for (const char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n')) {
        size_t length = strcspn(line, "\n");
        char row[4096];
        snprintf(row, sizeof row, "%.*s", (int)length, line);
        if (row[0] == '|' && (strstr(row, "inf") || strstr(row, "nan")))
            fail_msg("a figure that is not finite: %s", row);
    }
    free(text);
    hb_fixture_free(&fixture);
    hb_test_remove_tree(root);
}

/* --- text a JSON file cannot hold as it is --------------------------------------------------------- */

static void test_json_text_repair(void **state)
{
    (void)state;
    char valid[] = "caf\xc3\xa9 ok"; /* left as it is */
    hb_json_text_repair(valid);
    assert_string_equal(valid, "caf\xc3\xa9 ok");
    char cut[] = "caf\xc3\xa9 caf\xc3"; /* a character cut short at the end: dropped */
    hb_json_text_repair(cut);
    assert_string_equal(cut, "caf\xc3\xa9 caf");
    char cut3[] = "euro \xe2\x82"; /* three bytes, two kept */
    hb_json_text_repair(cut3);
    assert_string_equal(cut3, "euro ");
    char inside[] = "a\xff b \xc3\xa9"; /* invalid inside: every byte >= 0x80 made '?' */
    hb_json_text_repair(inside);
    assert_string_equal(inside, "a? b ??");
    assert_true(hb_json_text_is_valid(inside));
}

/* A sweep's reason cut mid-character (a long path of accented letters in
 * a 512-byte reason) is journaled, the same in summary.csv and the journal,
 * and the folder reads back; a setting that is not UTF-8 cannot go into
 * plan.json and is refused before anything is made (exit 2).  No GPU is
 * needed: every configuration fails before it. */
static void test_sweep_reasons_and_settings_that_are_not_json_text(void **state)
{
    (void)state;
    char root[PATH], out[PATH], candidate[PATH], err[PATH + 16], journal[PATH + 16];
    hb_test_make_temp_dir("hb-hostile-text", root, sizeof root);
    snprintf(out, sizeof out, "%.900s/sweep", root);
    snprintf(err, sizeof err, "%s/err.txt", root);
    const char *const prefixes[] = {"/nonexistent/x", "/nonexistent/xy"}; /* one of the two cuts a character */
    for (size_t p = 0; p < 2; p++) {
        size_t used = (size_t)snprintf(candidate, sizeof candidate, "%s", prefixes[p]);
        for (size_t i = 0; i < 250; i++) /* 2 bytes each: the reason's 512 bytes end among them */
            used += (size_t)snprintf(candidate + used, sizeof candidate - used, "%s", i == 130 ? "/" : "\xc3\xa9");
        snprintf(candidate + used, sizeof candidate - used, ".json");
        const char *words[] = {"sweep", "--candidate", candidate, "--mnk", "64,64,64", "--out", out, "--no-progress",
                               NULL};
        assert_int_equal(hb_test_run(hb_test_bench(), words, "/dev/null", err), HB_ERR_BAD_INPUT);
        snprintf(journal, sizeof journal, "%s/journal.jsonl", out);
        json_error_t error;
        json_t *line = json_load_file(journal, 0, &error);
        if (!line)
            fail_msg("the journal has no line for the item: %s", error.text);
        const char *reason = json_string_value(json_object_get(line, "reason"));
        assert_non_null(reason);
        assert_non_null(strstr(reason, "\xc3\xa9\xc3\xa9/\xc3\xa9"));
        json_decref(line);
        const char *resume[] = {"sweep", "--resume", out, "--no-progress", NULL}; /* reads back: 3 again, not 11 */
        assert_int_equal(hb_test_run(hb_test_bench(), resume, "/dev/null", err), HB_ERR_BAD_INPUT);
        hb_test_remove_tree(out);
    }

    const char *not_utf8[] = {"sweep", "--candidate", "/nonexistent/\xff.json", "--mnk", "64,64,64", "--out", out,
                              "--no-progress", NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), not_utf8, "/dev/null", err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "the value of --candidate is not UTF-8 text"));
    struct stat st;
    assert_int_not_equal(stat(out, &st), 0);
    /* a run has no plan: its env.json keeps the path, the bytes that are not UTF-8 made '?' */
    const char *run_words[] = {"run", "--candidate", "/nonexistent/\xff.json", "--mnk", "64,64,64", "--out", out, NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), run_words, "/dev/null", err), HB_ERR_BAD_INPUT);
    char command[4 * PATH];
    snprintf(command, sizeof command, "grep -q '\"candidate\": \"/nonexistent/?.json\"' %s/*/env.json && "
             "grep -q '\"command_line\": \".*/nonexistent/?.json' %s/*/env.json", out, out);
    assert_int_equal(hb_test_shell(command), 0);
    hb_test_remove_tree(root);
}

hb_test_list hb_hostile_text_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_md_text_is_plain_text),
        cmocka_unit_test(test_md_code_span_cannot_be_left),
        cmocka_unit_test(test_csv_text_cells_are_guarded_and_read_back),
        cmocka_unit_test(test_import_csv_guards_its_text_cells),
        cmocka_unit_test(test_hostile_texts_come_out_inert),
        cmocka_unit_test(test_number_ranges),
        cmocka_unit_test(test_compare_refuses_numbers_at_the_edges),
        cmocka_unit_test(test_json_text_repair),
        cmocka_unit_test(test_sweep_reasons_and_settings_that_are_not_json_text),
    };
    return HB_TEST_LIST(tests);
}
