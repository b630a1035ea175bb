/* Two writers of one output at once, started together (a gate both wait
 * on, the second a few milliseconds later or not): two `report X --out D`
 * and `report Y --out D` (or compare), two `merge OUT S T`, a `sweep
 * --resume S` beside `report S --out S`.  Each exits 0 or 7, and a 7 says
 * the folder "is being written by another process"; at the end the output
 * is one writer's whole: D's list names one report's files, each of them
 * that report's bytes, and no staging folder is left; OUT's journal holds
 * each item once, report reads OUT and no OUT.partial is left; the sweep
 * kept every finished item and still reads.  (A merge that starts once
 * the other has finished finds OUT there: exit 2, as for any existing
 * OUT.)  Which one wins is the scheduler's: a replay may go either way. */
#define _GNU_SOURCE /* sched_getcpu */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/status.h"
#include "tests/fuzz/fuzz.h"

#define HOLDER_MESSAGE "being written by another process"

typedef struct pair {
    const char *const *argv[2];
    int code[2];
    fuzz_outcome outcome[2];
    char err[2][2 * FUZZ_PATH]; /* their stderr files */
} pair;

/* Both commands, released together. */
static int run_pair(const char *dir, hb_rng *rng, pair *p)
{
    int gate[2];
    fuzz_child child[2];
    static const char *const logs[2] = {"a", "b"};
    if (pipe(gate) != 0)
        return -1;
    const double delay = fuzz_below(rng, 2) ? 0.001 * (double)fuzz_below(rng, 30) : 0;
    const int cpu = fuzz_below(rng, 2) ? sched_getcpu() : -1; /* both on one CPU, or wherever they go */
    int started = 0;
    for (; started < 2; started++) {
        fuzz_how how = {.log = logs[started], .delay_s = started ? delay : 0, .cpu = cpu >= 0 ? cpu + 1 : 0};
        if (fuzz_start(dir, p->argv[started], &how, gate, &child[started], &p->outcome[started]) != 0)
            break;
        snprintf(p->err[started], sizeof p->err[started], "%s", child[started].err);
    }
    close(gate[0]);
    close(gate[1]); /* the gate opens */
    for (int i = 0; i < started; i++)
        p->code[i] = fuzz_finish(&child[i], &p->outcome[i]);
    return started == 2 ? 0 : -1;
}

static int said(const char *err_path, const char *text)
{
    size_t size;
    char *err = fuzz_read_file(err_path, &size);
    int found = err && strstr(err, text);
    free(err);
    return found;
}

/* Command i exited with one of `allowed`; else *out says what it did (a
 * crash or hang first). */
static void judge_one(const pair *p, int i, const char *name, const int *allowed, size_t n, fuzz_outcome *out)
{
    snprintf(out->command, sizeof out->command, "%s", name);
    if (out->failed)
        return;
    out->exit_code = p->code[i];
    if (p->code[i] < 0) {
        *out = p->outcome[i];
        out->failed = 1;
    } else if (!fuzz_allowed(p->code[i], allowed, n))
        fuzz_broke(out, "the %s command (%s) exited %d", i ? "second" : "first", p->argv[i][1], p->code[i]);
}

static void judge_pair(const pair *p, const char *name, const int *allowed, size_t n, fuzz_outcome *out)
{
    judge_one(p, 0, name, allowed, n, out);
    judge_one(p, 1, name, allowed, n, out);
}

/* A 7 names the other as the holder (checked last: what the output holds says more). */
static void check_holder(const pair *p, fuzz_outcome *out)
{
    for (int i = 0; i < 2 && !out->failed; i++)
        if (p->code[i] == HB_ERR_IO && !said(p->err[i], HOLDER_MESSAGE))
            fuzz_broke(out, "the %s command exited 7 without saying the folder is \"" HOLDER_MESSAGE "\" (%s)",
                       i ? "second" : "first", p->err[i]);
}

/* Two reports (or compares) into one --out: of different folders, or of
 * the same folder on different timers (the same work, so both reach their
 * publishing at about the same moment). */
static void two_readers(const fuzz_corpus *c, const char *dir, hb_rng *rng, int compare, fuzz_outcome *out,
                        char *how, size_t how_size)
{
    const char *command = compare ? "compare" : "report";
    const int timers = (int)fuzz_below(rng, 2);
    const char *seeds[2] = {c->sweep, timers ? c->sweep : c->run};
    const char *timer[2] = {"event", timers ? "wall" : "event"};
    const char *refs[2] = {compare ? c->compare_sweep : c->report_sweep,
                           timers ? (compare ? c->compare_sweep_wall : c->report_sweep_wall)
                                  : (compare ? c->compare_run : c->report_run)};
    const int swap = (int)fuzz_below(rng, 2);
    const char *argv[2][12];
    for (int i = 0; i < 2; i++) {
        const int k = i ? !swap : swap;
        size_t n = 0;
        argv[i][n++] = "hgemm-bench";
        argv[i][n++] = command;
        argv[i][n++] = seeds[k];
        if (compare) {
            argv[i][n++] = "--published";
            argv[i][n++] = c->published;
        }
        argv[i][n++] = "--timer";
        argv[i][n++] = timer[k];
        argv[i][n++] = "--out";
        argv[i][n++] = "d";
        argv[i][n] = NULL;
    }
    char d[FUZZ_PATH];
    fuzz_join(d, dir, "d");
    const int older = (int)fuzz_below(rng, 2);
    if (older && fuzz_copy_tree(refs[fuzz_below(rng, 2)], d) != 0) /* a report there already */
        return fuzz_broke(out, "cannot copy a report");
    snprintf(how, how_size, "two %ss into one --out (%s)%s", command,
             timers ? "of the sweep, on the events and on the wall clock" : "of the sweep and of the run",
             older ? ", which holds an older one" : "");
    pair p = {{argv[0], argv[1]}, {0}, {{0}}, {""}};
    if (run_pair(dir, rng, &p) != 0)
        return fuzz_broke(out, "cannot start the commands");
    static const int allowed[] = {0, HB_ERR_IO};
    judge_pair(&p, command, allowed, FUZZ_COUNT(allowed), out);
    if (out->failed)
        return;
    if (p.code[0] != 0 && p.code[1] != 0)
        return fuzz_broke(out, "neither %s wrote the folder", command);
    char why[256] = "";
    int whole = 0;
    for (int i = 0; i < 2 && !whole; i++)
        whole = p.code[i] == 0 && fuzz_published_is(d, command, refs[i ? !swap : swap], why, sizeof why);
    if (!whole)
        return fuzz_broke(out, "d does not hold one %s's files whole (%s): the two were mixed", command, why);
    fuzz_check_listed(d, command, out);
    fuzz_check_no_leftovers(d, out);
    check_holder(&p, out);
}

/* How many times each item is in a journal; 0 if all `items` are there once. */
static int items_once(const char *journal_path, size_t items, char *why, size_t why_size)
{
    size_t size;
    char *journal = fuzz_read_file(journal_path, &size);
    if (!journal) {
        snprintf(why, why_size, "no journal");
        return 0;
    }
    unsigned seen[64] = {0};
    size_t lines = 0;
    for (const char *at = journal; (at = strstr(at, "\"item\":")); at++) {
        long item = strtol(at + 7, NULL, 10);
        lines++;
        if (item >= 0 && item < 64)
            seen[item]++;
    }
    free(journal);
    for (size_t i = 0; i < items; i++)
        if (seen[i] != 1) {
            snprintf(why, why_size, "item %zu is there %u times (%zu lines for %zu items)", i, seen[i], lines, items);
            return 0;
        }
    return 1;
}

static void two_merges(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out, char *how,
                       size_t how_size)
{
    char s[FUZZ_PATH], t[FUZZ_PATH], merged[FUZZ_PATH], partial[FUZZ_PATH], journal[FUZZ_PATH];
    fuzz_join(s, dir, "s");
    fuzz_join(t, dir, "t");
    fuzz_join(merged, dir, "out");
    fuzz_join(partial, dir, "out.partial");
    if (fuzz_copy_tree(c->shard[0], s) != 0 || fuzz_copy_tree(c->shard[1], t) != 0)
        return fuzz_broke(out, "cannot copy the shards");
    const int swap = (int)fuzz_below(rng, 2);
    const char *a[] = {"hgemm-bench", "merge", "out", "s", "t", NULL};
    const char *b[] = {"hgemm-bench", "merge", "out", swap ? "t" : "s", swap ? "s" : "t", NULL};
    snprintf(how, how_size, "two merges of the shards into one OUT%s", swap ? ", the shards in either order" : "");
    pair p = {{a, b}, {0}, {{0}}, {""}};
    if (run_pair(dir, rng, &p) != 0)
        return fuzz_broke(out, "cannot start the commands");
    static const int allowed[] = {0, HB_ERR_USAGE, HB_ERR_IO};
    judge_pair(&p, "merge", allowed, FUZZ_COUNT(allowed), out);
    for (int i = 0; i < 2 && !out->failed; i++)
        if (p.code[i] == HB_ERR_USAGE && (p.code[!i] != 0 || !said(p.err[i], "exists")))
            fuzz_broke(out, "the %s merge exited 2, yet the other did not finish OUT first", i ? "second" : "first");
    if (out->failed)
        return;
    if (p.code[0] != 0 && p.code[1] != 0)
        return fuzz_broke(out, "neither merge made OUT");
    char why[256];
    fuzz_join(journal, merged, "journal.jsonl");
    if (!items_once(journal, c->sweep_items, why, sizeof why))
        return fuzz_broke(out, "OUT's journal does not hold each item once: %s", why);
    if (fuzz_exists(partial))
        return fuzz_broke(out, "%s is left behind", partial);
    for (int i = 0; i < 2; i++)
        if (said(p.err[i], "left for inspection"))
            return fuzz_broke(out, "the %s merge names an unfinished folder left for inspection that is not there",
                              i ? "second" : "first");
    const char *report[] = {"hgemm-bench", "report", "out", NULL};
    fuzz_outcome again = {0};
    int code = fuzz_command(dir, report, &again);
    if (code != 0)
        fuzz_broke(out, "report of the merged OUT exits %d", code);
    check_holder(&p, out);
}

static void resume_beside_report(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out, char *how,
                                 size_t how_size)
{
    char s[FUZZ_PATH], path[FUZZ_PATH];
    const int partial = (int)fuzz_below(rng, 2);
    fuzz_join(s, dir, "s");
    if (fuzz_copy_tree(partial ? c->partial : c->sweep, s) != 0)
        return fuzz_broke(out, "cannot copy the sweep");
    size_t journal_size, csv_size;
    fuzz_join(path, s, "journal.jsonl");
    char *journal = fuzz_read_file(path, &journal_size);
    fuzz_join(path, s, "summary.csv");
    char *csv = fuzz_read_file(path, &csv_size);
    const int swap = (int)fuzz_below(rng, 2);
    const char *resume[] = {"hgemm-bench", "sweep", "--resume", "s", "--no-progress", NULL};
    const char *report[] = {"hgemm-bench", "report", "s", "--out", "s", NULL};
    snprintf(how, how_size, "sweep --resume S beside report S --out S (%s sweep)",
             partial ? "a half-done" : "a finished");
    const int r = swap ? 0 : 1; /* which of the two is the resume */
    pair p = {{r == 0 ? resume : report, r == 0 ? report : resume}, {0}, {{0}}, {""}};
    if (run_pair(dir, rng, &p) != 0) {
        free(journal);
        free(csv);
        return fuzz_broke(out, "cannot start the commands");
    }
    const int resumed[] = {HB_ERR_CUDA, HB_ERR_IO, journal ? fuzz_worst_status(journal, journal_size) : 0};
    static const int reported[] = {0, HB_ERR_IO};
    judge_one(&p, r, "resume+report", resumed, FUZZ_COUNT(resumed), out);
    judge_one(&p, !r, "resume+report", reported, FUZZ_COUNT(reported), out);
    const int report_code = p.code[!r];
    if (!out->failed)
        fuzz_check_kept(s, journal, journal_size, csv, csv_size, out);
    free(journal);
    free(csv);
    if (out->failed)
        return;
    if (report_code == 0)
        fuzz_check_listed(s, "report", out);
    fuzz_check_no_leftovers(s, out);
    const char *read_again[] = {"hgemm-bench", "report", "s", NULL};
    fuzz_outcome again = {0};
    int code = out->failed ? 0 : fuzz_command(dir, read_again, &again);
    if (code != 0)
        fuzz_broke(out, "report of the sweep folder afterwards exits %d", code);
    check_holder(&p, out);
}

void fuzz_writers_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    char how[400] = "";
    switch (fuzz_below(rng, 8)) {
    case 0:
    case 1:
    case 2:
        two_readers(c, dir, rng, 0, out, how, sizeof how);
        break;
    case 3:
        two_readers(c, dir, rng, 1, out, how, sizeof how);
        break;
    case 4:
    case 5:
        two_merges(c, dir, rng, out, how, sizeof how);
        break;
    default:
        resume_beside_report(c, dir, rng, out, how, sizeof how);
        break;
    }
    fuzz_say_how(out, how);
}
