/* Hostile text in every text field of a folder from elsewhere: env.json's
 * strings (the GPU, driver, candidate, command line, ...), summary.csv's
 * text cells (reason, check, gpu_name, algorithm, conduct_detail, ...),
 * the journal's reason and check, plan.json's command line.  The strings
 * try each way in: backquotes and $(...) running a command that makes a
 * canary file, gnuplot's system() after a closed quote, macros (@),
 * newlines and # headings, <script>, table-breaking |, spreadsheet
 * formulas (=HYPERLINK, +, -2+3, @SUM), quotes and backslashes, a very
 * long string, bytes that are not UTF-8, NUL (\u0000 in JSON).  Then
 * report --out (with --plots, where gnuplot is on PATH), compare --out, or
 * merge and report of what it made.  It exits 0 or 11 (compare 14 too);
 * no canary is ever made; the markdown it writes has no heading of hostile
 * text, no <script> and whole tables; no CSV cell of it begins with = + -
 * or @ unless it is a number; its gnuplot scripts hold hostile text only in
 * single-quoted strings, where gnuplot substitutes nothing. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/analysis/figures.h"
#include "bench/core/status.h"
#include "tests/fuzz/fuzz.h"

#define LONG_TEXT 70000 /* past 64 KiB: longer than any buffer a reader might keep a field in */

typedef struct hostile {
    hb_rng *rng;
    const char *dir;  /* the case's folder: the canaries' */
    int json;         /* for a JSON file: bytes that are not UTF-8 as FUZZ_NOT_UTF8, NUL allowed */
    int share;        /* one field in `share` gets a hostile string */
    int journal;      /* editing journal.jsonl, not env.json */
    int json_refused; /* this case's JSON may hold what a JSON reader refuses: not UTF-8, NUL */
    int long_made;    /* the case's one very long string is made */
    char text[LONG_TEXT + 4096];
} hostile;

/* One way in (each carries the marker fuzz_outputs.c looks for: HOSTILE). */
static size_t one_piece(hostile *h, char *out, size_t room)
{
    const char *dir = h->dir;
    int n;
    uint64_t way = fuzz_below(h->rng, 20);
    if (h->json && (way == 17 || way == 18) && !h->json_refused)
        way = 19; /* a JSON reader refuses both (exit 11): in few cases, so most read on to the outputs */
    switch (way) {
    case 0:
        n = snprintf(out, room, "HOSTILE`touch %s/" FUZZ_CANARY "backquote`", dir);
        break;
    case 1:
        n = snprintf(out, room, "HOSTILE$(touch %s/" FUZZ_CANARY "dollar)", dir);
        break;
    case 2:
        n = snprintf(out, room, "HOSTILE\"; system('touch %s/" FUZZ_CANARY "double'); print \"", dir);
        break;
    case 3:
        n = snprintf(out, room, "HOSTILE'; system('touch %s/" FUZZ_CANARY "single'); print '", dir);
        break;
    case 4:
        n = snprintf(out, room, "HOSTILE\\\"; `touch %s/" FUZZ_CANARY "backslash` \\", dir);
        break;
    case 5:
        n = snprintf(out, room, "HOSTILE\nsystem('touch %s/" FUZZ_CANARY "newline')\n", dir);
        break;
    case 6:
        n = snprintf(out, room, "HOSTILE @GPVAL_PWD @ARG0 @canary");
        break;
    case 7:
        n = snprintf(out, room, "x\n# HOSTILE heading\n\n## HOSTILE too");
        break;
    case 8:
        n = snprintf(out, room, "x\r\n# HOSTILE after a carriage return");
        break;
    case 9:
        n = snprintf(out, room, "<script>alert('HOSTILE')</script><img src=x onerror=alert(1)>");
        break;
    case 10:
        n = snprintf(out, room, "HOSTILE | a | b |\n| --- |");
        break;
    case 11:
        n = snprintf(out, room, "=HYPERLINK(\"http://example.invalid/HOSTILE\",\"x\")");
        break;
    case 12:
        n = snprintf(out, room, "%s", fuzz_below(h->rng, 2) ? "+1" : "+HOSTILE");
        break;
    case 13:
        n = snprintf(out, room, "-2+3+cmd|' /C calc'!A0 HOSTILE");
        break;
    case 14:
        n = snprintf(out, room, "@SUM(1+1)*cmd|' /C calc'!A0 HOSTILE");
        break;
    case 15:
        n = snprintf(out, room, "HOSTILE \"quoted\" 'single' \\back\\slash\\ \\\\ \\n %%s %%n");
        break;
    case 16: {
        if (room <= LONG_TEXT || h->long_made++) /* one a case: a file of them would only be slow to read */
            return 0;
        memcpy(out, "HOSTILE", 7);
        memset(out + 7, 'L', LONG_TEXT - 7);
        out[LONG_TEXT] = '\0';
        return LONG_TEXT;
    }
    case 17:
        n = snprintf(out, room, "HOSTILE%s", h->json ? FUZZ_NOT_UTF8 : "\xff\xfe\xc3\x28\xed\xa0\x80");
        break;
    case 18:
        if (!h->json)
            return (size_t)snprintf(out, room, "HOSTILE\\u0000 after");
        n = snprintf(out, room, "HOSTILE%c after a NUL", 0); /* the NUL is in the count */
        return n > 0 && (size_t)n < room ? 7 + 1 + strlen(" after a NUL") : 0;
    default:
        n = snprintf(out, room, "HOSTILE\t\x1b[31mred\x1b[0m\a\b\f\v");
        break;
    }
    return n > 0 && (size_t)n < room ? (size_t)n : 0;
}

/* One to three ways in, one after the other. */
static const char *hostile_text(hostile *h, size_t *length)
{
    size_t used = 0;
    for (uint64_t i = 0, n = 1 + fuzz_below(h->rng, 3); i < n; i++)
        used += one_piece(h, h->text + used, sizeof h->text - used);
    *length = used;
    return h->text;
}

/* --- the fields ------------------------------------------------------------------------------------ */

/* summary.csv's text columns: what a row says of itself, and of its GPU and conduct. */
static const char *const text_columns[] = {
    "reason",         "check",       "algorithm",   "gpu_name",      "gpu_uuid",    "conduct",
    "conduct_detail", "trace_note",  "timer_reason", "clock_warning", "throttle_reasons", "compute_type",
    "algo_source",    "stopped_by",  "peak_source", "deviation_rule", "b_layout",   "headline_timer"};

static const char *hostile_cell(void *context, size_t row, const char *column, const char *value, size_t *length)
{
    hostile *h = context;
    (void)row;
    (void)value;
    for (size_t i = 0; i < FUZZ_COUNT(text_columns); i++)
        if (!strcmp(column, text_columns[i]))
            return fuzz_below(h->rng, (uint64_t)h->share) == 0 ? hostile_text(h, length) : NULL;
    return NULL;
}

/* env.json: every string but its format (a file of another format is refused before any is read);
 * the journal: the text of an item's outcome (its mode and verdict are checked against the plan). */
static const char *hostile_string(void *context, const char *key, size_t *length)
{
    hostile *h = context;
    const int wanted = h->journal ? !strcmp(key, "reason") || !strcmp(key, "check") : strcmp(key, "format") != 0;
    return wanted && fuzz_below(h->rng, (uint64_t)h->share) == 0 ? hostile_text(h, length) : NULL;
}

/* An env.json with every string field a run writes that report and compare read or show. */
static int write_env(const char *folder)
{
    static const char text[] =
        "{\n  \"format\": \"hgemm-bench-env/1\",\n  \"run_id\": \"20261128T000000Z-fuzz\",\n"
        "  \"command_line\": \"hgemm-bench run --candidate candidates/sample_mma/manifest.json --mnk 64,64,64\",\n"
        "  \"candidate\": \"candidates/sample_mma/manifest.json\",\n  \"seed\": 1,\n"
        "  \"gpu\": {\"name\": \"NVIDIA H100 80GB HBM3 (fuzz corpus)\", \"uuid\": \"GPU-fuzz\", "
        "\"pci_bus_id\": \"0000:01:00.0\", \"architecture\": \"sm_90\"},\n"
        "  \"software\": {\"nvidia_driver\": \"550.54.15\", \"cuda_driver\": \"12.4\", \"cuda_runtime\": \"12.4\", "
        "\"cublas\": \"12.4.5\", \"harness_commit\": \"0123456789ab\"},\n"
        "  \"method\": {\"mode\": \"offline\", \"acc_class\": \"fp32\", \"warmup_s\": 10, \"time_s\": 30, "
        "\"l2_policy\": \"fresh\", \"stream\": \"legacy\", \"headline_timer\": \"cuda-events\", "
        "\"trace\": {\"enabled\": true, \"tool\": \"CUPTI\"}, \"stopping\": {\"target_ci_halfwidth\": null}, "
        "\"isolated\": true}\n}\n";
    char path[FUZZ_PATH];
    fuzz_join(path, folder, "env.json");
    return fuzz_write_file(path, text, sizeof text - 1);
}

/* Hostile strings into a result folder's text fields, its journal kept in step. */
static int make_hostile(const char *folder, hostile *h)
{
    char env[FUZZ_PATH], csv[FUZZ_PATH], journal[FUZZ_PATH], plan[FUZZ_PATH];
    fuzz_join(env, folder, "env.json");
    fuzz_join(csv, folder, "summary.csv");
    fuzz_join(journal, folder, "journal.jsonl");
    fuzz_join(plan, folder, "plan.json");
    const int sweep = fuzz_exists(plan);
    h->share = 1 + (int)fuzz_below(h->rng, 3);
    if (sweep && fuzz_below(h->rng, 2)) {
        size_t length;
        h->json = 0; /* the plan's writer takes UTF-8 text without NUL */
        do
            hostile_text(h, &length);
        while (memchr(h->text, 0, length) || strstr(h->text, "\xff"));
        h->text[length < 8000 ? length : 8000] = '\0';
        if (fuzz_set_plan_command_line(folder, h->text) != 0)
            return -1;
    }
    h->json = 1;
    if (write_env(folder) != 0 || fuzz_edit_json_file(env, hostile_string, h) != 0)
        return -1;
    h->journal = 1;
    if (sweep && fuzz_edit_json_lines(journal, hostile_string, h) != 0)
        return -1;
    h->journal = 0;
    h->json = 0;
    return fuzz_edit_csv(csv, sweep ? journal : NULL, hostile_cell, h);
}

/* --- the commands ------------------------------------------------------------------------------------- */

static void add_plots(const char **argv, hb_rng *rng, int *plots)
{
    size_t n = 0;
    while (argv[n])
        n++;
    *plots = fuzz_below(rng, 8) == 0 && hb_gnuplot_available(); /* gnuplot's PNGs are most of a case's time */
    if (*plots)
        argv[n++] = "--plots";
    argv[n] = NULL;
}

/* One command that reads `operand` and writes `out_dir` (--out), judged and its outputs checked. */
static int read_and_write(const char *dir, const char **argv, const char *owner, const char *read,
                          const int *allowed, size_t n, fuzz_outcome *out)
{
    char folder[FUZZ_PATH], written[FUZZ_PATH];
    fuzz_join(folder, dir, read);
    fuzz_join(written, dir, "d");
    const uint64_t before = fuzz_tree_digest(folder);
    int code = fuzz_command(dir, argv, out);
    fuzz_judge(out, owner, code, allowed, n);
    if (!out->failed && fuzz_tree_digest(folder) != before)
        fuzz_broke(out, "%s changed the folder it read", owner);
    fuzz_check_canaries(dir, out);
    if (!out->failed && code == 0)
        fuzz_check_listed(written, owner, out);
    if (!out->failed)
        fuzz_check_text(written, FUZZ_CHECK_HOSTILE, out);
    return code;
}

void fuzz_hostile_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    static hostile h;
    h.rng = rng;
    h.dir = dir;
    h.journal = 0;
    h.json_refused = fuzz_below(rng, 8) == 0;
    h.long_made = 0;
    char s[FUZZ_PATH], t[FUZZ_PATH], how[400];
    static const char *const formats[] = {"md", "csv", "json"};
    const uint64_t command = fuzz_below(rng, 5); /* 0-1 report, 2-3 compare, 4 merge */
    const char *seeds[] = {c->sweep, c->run, c->shard[0]};
    const char *seed = command >= 4 ? c->shard[0] : seeds[fuzz_below(rng, FUZZ_COUNT(seeds))];
    fuzz_join(s, dir, "s");
    if (fuzz_copy_tree(seed, s) != 0 || make_hostile(s, &h) != 0)
        return fuzz_broke(out, "cannot make the hostile folder");
    int plots = 0;
    const char *argv[16] = {"hgemm-bench"};
    if (command < 2) { /* report */
        const char *tail[] = {"report", "s", "--format", formats[fuzz_below(rng, 3)], "--out", "d", NULL};
        memcpy(argv + 1, tail, sizeof tail);
        add_plots(argv, rng, &plots);
        static const int allowed[] = {0, HB_ERR_BAD_RESULTS};
        read_and_write(dir, argv, "report", "s", allowed, FUZZ_COUNT(allowed), out);
    } else if (command < 4) { /* compare, against the published file of its own sizes */
        char published[FUZZ_PATH];
        fuzz_join(published, seed == c->run ? c->report_run : c->report_sweep, "speedup_offline.csv");
        const char *tail[] = {"compare", "s", "--published", published, "--mode", "offline", "--out", "d", NULL};
        memcpy(argv + 1, tail, sizeof tail);
        add_plots(argv, rng, &plots);
        static const int allowed[] = {0, HB_ERR_BAD_RESULTS, HB_ERR_PUBLISHED_MISMATCH};
        read_and_write(dir, argv, "compare", "s", allowed, FUZZ_COUNT(allowed), out);
    } else { /* merge copies the first shard's env.json: then report of what it made */
        fuzz_join(t, dir, "t");
        const char *merge[] = {"hgemm-bench", "merge", "out", "s", "t", NULL};
        static const int merged[] = {0, HB_ERR_BAD_RESULTS};
        if (fuzz_copy_tree(c->shard[1], t) != 0)
            return fuzz_broke(out, "cannot copy the other shard");
        int code = fuzz_command(dir, merge, out);
        fuzz_judge(out, "merge", code, merged, FUZZ_COUNT(merged));
        fuzz_check_canaries(dir, out);
        if (code == 0 && !out->failed) {
            const char *tail[] = {"report", "out", "--out", "d", NULL};
            memcpy(argv + 1, tail, sizeof tail);
            add_plots(argv, rng, &plots);
            static const int allowed[] = {0};
            read_and_write(dir, argv, "report", "out", allowed, FUZZ_COUNT(allowed), out);
        }
    }
    snprintf(how, sizeof how, "hostile text in %s's fields; %s%s", seed == c->run ? "the run" : "a sweep",
             command < 2 ? "report" : command < 4 ? "compare" : "merge, report", plots ? " --plots" : "");
    fuzz_say_how(out, how);
}
