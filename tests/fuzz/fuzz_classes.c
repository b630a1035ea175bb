/* The classes of damage and what each must keep (tests/fuzz/fuzz.h). */
#define _XOPEN_SOURCE 700 /* mkfifo */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/candidate/cubin_elf.h"
#include "bench/core/status.h"
#include "tests/fuzz/fuzz.h"

#define COUNT FUZZ_COUNT

static void resume(const char *dir, const char *folder, fuzz_outcome *out)
{
    char path[FUZZ_PATH];
    size_t journal_size, csv_size;
    fuzz_join(path, folder, "journal.jsonl");
    char *journal = fuzz_read_file(path, &journal_size);
    fuzz_join(path, folder, "summary.csv");
    char *csv = fuzz_read_file(path, &csv_size);
    uint64_t before = fuzz_tree_digest(folder);
    const char *argv[] = {"hgemm-bench", "sweep", "--resume", "s", "--no-progress", NULL};
    /* refused; items left to run and the GPU hidden; or, with nothing to run, the worst
     * status its journal records (docs/sweeps.md: the exit code is the most severe item's) */
    const int allowed[] = {11, 5, journal ? fuzz_worst_status(journal, journal_size) : 0};
    int code = fuzz_command(dir, argv, out);
    fuzz_judge(out, "resume", code, allowed, COUNT(allowed));
    if (code == 11 && fuzz_tree_digest(folder) != before)
        fuzz_broke(out, "refused the folder, but changed it");
    if (code != 11 && code >= 0)
        fuzz_check_kept(folder, journal, journal_size, csv, csv_size, out);
    free(journal);
    free(csv);
}

static void report(const char *dir, const char *operand, hb_rng *rng, fuzz_outcome *out, const char *name)
{
    static const char *const formats[] = {"md", "csv", "json"}, *const timers[] = {"event", "wall", "kernel"};
    const char *argv[] = {"hgemm-bench", "report", operand, "--format", formats[fuzz_below(rng, 3)], "--timer",
                          timers[fuzz_below(rng, 3)], NULL};
    char path[FUZZ_PATH];
    fuzz_join(path, dir, operand);
    uint64_t before = fuzz_tree_digest(path);
    static const int allowed[] = {0, 11};
    fuzz_judge(out, name, fuzz_command(dir, argv, out), allowed, COUNT(allowed));
    if (fuzz_tree_digest(path) != before)
        fuzz_broke(out, "report changed the folder it read");
}

static void merge(const char *dir, const char *sibling, hb_rng *rng, fuzz_outcome *out)
{
    char s[FUZZ_PATH], t[FUZZ_PATH], merged[FUZZ_PATH], partial[FUZZ_PATH];
    fuzz_join(s, dir, "s");
    fuzz_join(t, dir, "t");
    fuzz_join(merged, dir, "out");
    fuzz_join(partial, dir, "out.partial");
    if (sibling && fuzz_copy_tree(sibling, t) != 0)
        return fuzz_broke(out, "cannot copy the sibling shard");
    const int swap = sibling && fuzz_below(rng, 2);
    const char *argv[] = {"hgemm-bench", "merge", "out", swap ? "t" : "s", sibling ? (swap ? "s" : "t") : NULL, NULL};
    uint64_t before_s = fuzz_tree_digest(s), before_t = sibling ? fuzz_tree_digest(t) : 0;
    static const int allowed[] = {0, 11};
    int code = fuzz_command(dir, argv, out);
    fuzz_judge(out, "merge", code, allowed, COUNT(allowed));
    if (fuzz_tree_digest(s) != before_s || (sibling && fuzz_tree_digest(t) != before_t))
        fuzz_broke(out, "merge changed a folder it read");
    if (code == 11 && (fuzz_exists(merged) || fuzz_exists(partial)))
        fuzz_broke(out, "merge refused, yet left an output folder");
    if (code != 0 || out->failed)
        return;
    fuzz_outcome again = {0};
    report(dir, "out", rng, &again, "report-merged");
    if (again.exit_code != 0) {
        snprintf(out->detail, sizeof out->detail, "merge succeeded but report of its folder exits %d",
                 again.exit_code);
        out->failed = 1;
    }
}

enum { DAMAGE_JOURNAL, DAMAGE_SUMMARY, DAMAGE_PLAN, DAMAGE_FILES };

static void damage_sweep(const char *folder, int what, hb_rng *rng, char *how, size_t how_size)
{
    static const char *const names[] = {"journal.jsonl", "summary.csv", "plan.json", "env.json"};
    char path[FUZZ_PATH];
    if (what != DAMAGE_FILES) {
        fuzz_join(path, folder, names[what]);
        return fuzz_damage(path, FUZZ_LINES, rng, how, how_size);
    }
    if (fuzz_below(rng, 4) == 0) { /* a sweep that has not begun: plan.json alone */
        for (size_t i = 0; i < 2; i++) {
            fuzz_join(path, folder, names[i]);
            remove(path);
        }
        snprintf(how, how_size, "plan.json and env.json alone");
        return;
    }
    const char *name = names[fuzz_below(rng, COUNT(names))];
    fuzz_join(path, folder, name);
    int n = snprintf(how, how_size, "%s: ", name);
    fuzz_replace_file(path, rng, how + n, how_size - (size_t)n);
}

static void sweep_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out, int what)
{
    const char *seeds[] = {c->sweep, c->shard[0], c->shard[1], c->partial};
    const size_t seed = fuzz_below(rng, COUNT(seeds));
    char folder[FUZZ_PATH], how[400];
    fuzz_join(folder, dir, "s");
    if (fuzz_copy_tree(seeds[seed], folder) != 0)
        return fuzz_broke(out, "cannot copy the seed");
    damage_sweep(folder, what, rng, how, sizeof how);
    uint64_t command = fuzz_below(rng, 10);
    if (command < 4)
        resume(dir, folder, out);
    else if (command < 7)
        report(dir, "s", rng, out, "report");
    else
        merge(dir, seed == 1 ? c->shard[1] : seed == 2 ? c->shard[0] : NULL, rng, out);
    fuzz_say_how(out, how);
}

static void journal_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    sweep_case(c, dir, rng, out, DAMAGE_JOURNAL);
}

static void summary_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    sweep_case(c, dir, rng, out, DAMAGE_SUMMARY);
}

static void plan_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    sweep_case(c, dir, rng, out, DAMAGE_PLAN);
}

static void files_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    sweep_case(c, dir, rng, out, DAMAGE_FILES);
}

/* --- a run's folder, a published CSV ---------------------------------------------------------------- */

static void compare(const char *dir, const char *ours, const char *published, hb_rng *rng, fuzz_outcome *out)
{
    static const char *const formats[] = {"md", "csv", "json"};
    const char *argv[] = {"hgemm-bench", "compare", ours, "--published", published, "--mode", "offline",
                          "--format", formats[fuzz_below(rng, 3)], NULL};
    char path[FUZZ_PATH];
    fuzz_join(path, dir, published);
    uint64_t before = published[0] == '/' ? 0 : fuzz_tree_digest(path);
    static const int allowed[] = {0, 11, 14}; /* 14: damage left no configuration of the mode, or another class */
    fuzz_judge(out, "compare", fuzz_command(dir, argv, out), allowed, COUNT(allowed));
    if (published[0] != '/' && fuzz_tree_digest(path) != before)
        fuzz_broke(out, "compare changed the file it read");
}

static void published_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    char path[FUZZ_PATH], how[400];
    fuzz_join(path, dir, "p_offline.csv");
    size_t size;
    char *text = fuzz_read_file(c->published, &size);
    if (!text || fuzz_write_file(path, text, size) != 0) {
        free(text);
        return fuzz_broke(out, "cannot copy the published CSV");
    }
    if (fuzz_below(rng, 10) == 0) { /* the header alone: no rows to sort */
        fuzz_write_file(path, text, strcspn(text, "\n") + 1);
        snprintf(how, sizeof how, "the header alone");
    } else {
        fuzz_damage(path, FUZZ_LINES, rng, how, sizeof how);
    }
    free(text);
    compare(dir, c->sweep, "p_offline.csv", rng, out);
    fuzz_say_how(out, how);
}

static void run_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    char folder[FUZZ_PATH], path[FUZZ_PATH], how[400];
    fuzz_join(folder, dir, "r");
    if (fuzz_copy_tree(c->run, folder) != 0)
        return fuzz_broke(out, "cannot copy the run folder");
    fuzz_join(path, folder, fuzz_below(rng, 4) ? "summary.csv" : "env.json");
    fuzz_damage(path, FUZZ_LINES, rng, how, sizeof how);
    if (fuzz_below(rng, 3))
        report(dir, "r", rng, out, "report");
    else
        compare(dir, "r", c->published, rng, out);
    fuzz_say_how(out, how);
}

/* --- kernel files: check, and the cubin reader itself -------------------------------------------------- */

/* The first file of `folder` whose name ends in `suffix`. */
static int first_named(const char *folder, const char *suffix, char *out)
{
    DIR *d = opendir(folder);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d))) {
        size_t n = strlen(e->d_name), s = strlen(suffix);
        if (n > s && !strcmp(e->d_name + n - s, suffix)) {
            fuzz_join(out, folder, e->d_name);
            found = 1;
        }
    }
    if (d)
        closedir(d);
    return found;
}

static void check(const char *dir, const char *candidate, hb_rng *rng, fuzz_outcome *out)
{
    static const char *const sizes[] = {"64,64,64", "128,256,512", "4096,4096,4096", "100,100,100"};
    const char *argv[] = {"hgemm-bench", "check", "--candidate", candidate, "--mnk", sizes[fuzz_below(rng, 4)], "--mnk",
                          sizes[fuzz_below(rng, 4)], "--no-progress", "--out", "o", NULL};
    char folder[FUZZ_PATH];
    fuzz_join(folder, dir, "c");
    uint64_t before = fuzz_tree_digest(folder);
    static const int allowed[] = {3, 4, 5}; /* bad input, unsupported, or through to the (hidden) GPU */
    fuzz_judge(out, "check", fuzz_command(dir, argv, out), allowed, COUNT(allowed));
    if (fuzz_tree_digest(folder) != before)
        fuzz_broke(out, "check changed the candidate's folder");
}

static void manifest_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    char folder[FUZZ_PATH], path[FUZZ_PATH], copy[FUZZ_PATH], how[400];
    fuzz_join(folder, dir, "c");
    if (fuzz_copy_tree(fuzz_below(rng, 2) ? c->cubin_set : c->launcher_set, folder) != 0)
        return fuzz_broke(out, "cannot copy the candidate");
    fuzz_join(path, folder, "manifest.json");
    if (fuzz_below(rng, 4) == 0) { /* a candidate set: this size's manifest, or the generic one, damaged */
        size_t size;
        char *text = fuzz_read_file(path, &size);
        fuzz_join(copy, folder, fuzz_below(rng, 2) ? "64_64_64.json" : "generic.json");
        fuzz_write_file(copy, text ? text : "", size);
        free(text);
        fuzz_damage(copy, FUZZ_LINES, rng, how, sizeof how);
        remove(path);
        check(dir, "c", rng, out);
    } else {
        fuzz_damage(path, FUZZ_LINES, rng, how, sizeof how);
        check(dir, "c/manifest.json", rng, out);
    }
    fuzz_say_how(out, how);
}

/* The cubin reader on its own, as the module-state check and the checks before the GPU call it. */
static int read_cubin(void *path)
{
    hb_module_state state;
    hb_status checked = hb_cubin_elf_check(path, NULL), read = hb_cubin_module_state(path, &state);
    return checked != HB_OK ? (int)checked : (int)read;
}

static void kernel_file_case(const char *seed, const char *suffix, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    char folder[FUZZ_PATH], path[FUZZ_PATH], how[400];
    fuzz_join(folder, dir, "c");
    if (fuzz_copy_tree(seed, folder) != 0 || !first_named(folder, suffix, path))
        return fuzz_broke(out, "cannot copy the candidate");
    fuzz_damage(path, FUZZ_ELF, rng, how, sizeof how);
    if (!strcmp(suffix, ".cubin") && fuzz_below(rng, 2)) {
        static const int allowed[] = {0, 3, 4};
        fuzz_judge(out, "cubin-reader", fuzz_call(dir, read_cubin, path, out), allowed, COUNT(allowed));
    } else {
        check(dir, "c/manifest.json", rng, out);
    }
    fuzz_say_how(out, how);
}

static void cubin_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    kernel_file_case(c->cubin_set, ".cubin", dir, rng, out);
}

static void library_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    kernel_file_case(c->launcher_set, ".so", dir, rng, out);
}

/* --- the command line ------------------------------------------------------------------------------ */

typedef struct flag {
    const char *name;
    const char *values[6]; /* NULL-ended; none: a switch */
} flag;

static const flag flags[] = {
    {"--format", {"md", "csv", "json", "xml", ""}},
    {"--timer", {"event", "wall", "cpu"}},
    {"--out", {"o", "o/deeper", "/dev/null/x", ""}},
    {"--published", {"@published", "/dev/zero", "fifo_offline.csv", "missing_server.csv", "o"}},
    {"--mode", {"offline", "server", "both"}},
    {"--grid", {"paper", "small"}},
    {"--mnk", {"64,64,64", "0,0,0", "1,2", "262145,1,1", "x", "64_64_64"}},
    {"--mnk-file", {"@mnk", "fifo_offline.csv", "/dev/zero", "missing"}},
    {"--m", {"64,128", "", "-1", "64,,64"}},
    {"--n", {"64", "1e3"}},
    {"--k", {"64", "4096,8192"}},
    {"--sample", {"3", "0", "-1", "99999"}},
    {"--seed", {"1", "-5", "18446744073709551616"}},
    {"--modes", {"offline,server", "server", "bad", "offline,offline"}},
    {"--shard", {"0/2", "2/2", "1/0", "x"}},
    {"--candidate", {"x", "@candidate"}},
    {"--devices", {"0,0", "all", "0", "1,x"}},
    {"--time-s", {"1", "-1", "1e9"}},
    {"--help", {NULL}},
    {"--no-progress", {NULL}},
};

/* A path of the corpus (read only: no command below writes where it reads) or of the case. */
static const char *value_of(const char *value, const fuzz_corpus *c)
{
    if (!strcmp(value, "@published"))
        return c->published;
    if (!strcmp(value, "@mnk"))
        return c->mnk_file;
    if (!strcmp(value, "@candidate"))
        return c->cubin_set;
    return value;
}

static void cli_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    static const char *const commands[] = {"report", "compare", "merge", "sweep", "help", "baselines", "--version",
                                           "frobnicate"};
    const char *operands[] = {c->sweep, c->run, c->shard[0], c->shard[1], "missing", "/dev/zero", "fifo_offline.csv",
                              "o", "", "-"};
    char fifo[FUZZ_PATH];
    fuzz_join(fifo, dir, "fifo_offline.csv");
    mkfifo(fifo, 0644);
    const char *argv[40] = {"hgemm-bench"};
    size_t argc = 1;
    const char *command = commands[fuzz_below(rng, COUNT(commands))];
    argv[argc++] = command;
    if (!strcmp(command, "merge"))
        argv[argc++] = "o"; /* OUT in the case's folder, never beside the corpus */
    for (size_t i = 0, n = fuzz_below(rng, 6); i < n && argc < 34; i++) {
        if (fuzz_below(rng, 3) == 0) {
            argv[argc++] = operands[fuzz_below(rng, COUNT(operands))];
            continue;
        }
        const flag *f = &flags[fuzz_below(rng, COUNT(flags))];
        argv[argc++] = f->name;
        size_t values = 0;
        while (values < 6 && f->values[values])
            values++;
        if (values)
            argv[argc++] = value_of(f->values[fuzz_below(rng, values)], c);
    }
    if (!strcmp(command, "sweep"))
        argv[argc++] = "--dry-run"; /* the plan only: no folder, no GPU */
    argv[argc] = NULL;
    char how[400];
    size_t used = 0;
    for (size_t i = 1; i < argc && used < sizeof how; i++)
        used += (size_t)snprintf(how + used, sizeof how - used, "%s%s", i > 1 ? " " : "", argv[i]);
    uint64_t before = fuzz_tree_digest(c->root);
    /* done; usage; an output not writable; bad results; compare of a published file of another mode or class */
    static const int allowed[] = {0, 2, 7, 11, 14};
    fuzz_judge(out, "cli", fuzz_command(dir, argv, out), allowed, COUNT(allowed));
    if (fuzz_tree_digest(c->root) != before)
        fuzz_broke(out, "the command changed the corpus");
    fuzz_say_how(out, how);
}

static void mnk_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    char path[FUZZ_PATH], how[400];
    fuzz_join(path, dir, "plan.txt");
    size_t size;
    char *text = fuzz_read_file(c->mnk_file, &size);
    fuzz_write_file(path, text ? text : "", size);
    free(text);
    fuzz_damage(path, FUZZ_LINES, rng, how, sizeof how);
    static const char *const shards[] = {"0/1", "1/3", "2/3"};
    const char *argv[] = {"hgemm-bench", "sweep", "--candidate", "x", "--mnk-file", "plan.txt", "--shard",
                          shards[fuzz_below(rng, 3)], "--dry-run", NULL};
    static const int allowed[] = {0, 2};
    fuzz_judge(out, "sweep-dry-run", fuzz_command(dir, argv, out), allowed, COUNT(allowed));
    fuzz_say_how(out, how);
}

const fuzz_class fuzz_classes[] = {
    {"journal", "journal.jsonl damaged; resume, report or merge", journal_case},
    {"summary", "summary.csv damaged; resume, report or merge", summary_case},
    {"plan", "plan.json damaged; resume, report or merge", plan_case},
    {"files", "a sweep folder's file missing or not a regular file; resume, report or merge", files_case},
    {"published", "a published CSV damaged; compare", published_case},
    {"run", "a run folder's summary.csv or env.json damaged; report or compare", run_case},
    {"manifest", "a manifest (or a candidate set's) damaged; check", manifest_case},
    {"cubin", "a cubin damaged; check, or the cubin reader alone", cubin_case},
    {"library", "a launcher library damaged; check", library_case},
    {"cli", "command lines of the commands that need no GPU (sweep with --dry-run)", cli_case},
    {"mnk-file", "a --mnk-file damaged; sweep --dry-run", mnk_case},
    {"links", "a link in a folder from elsewhere: at a file read (out of its folder: exit 11), at a name written "
              "or used as a temporary (nothing lands where it points); a forged list of a report's files",
     fuzz_links_case},
    {"fifos", "a FIFO at a name read, written or used as a temporary: no hang, nothing written into it, a "
              "SIGTERM ends the command",
     fuzz_fifos_case},
    {"writers", "two writers of one output at once (report/compare --out D, merge OUT, resume beside report S "
                "--out S): each exits 0 or 7, the output is one writer's whole",
     fuzz_writers_case},
    {"full-disk", "no file may grow past a random size (a full disk): exit 0 with whole outputs or 7; a --out "
                  "folder holds the old set or the whole new one",
     fuzz_full_disk_case},
    {"hostile", "hostile text in every text field (env.json, summary.csv, the journal, the plan's command line); "
                "report, compare, merge: nothing runs, the markdown, CSV and gnuplot written escape it",
     fuzz_hostile_case},
    {"edges", "numbers at the edges (1e308, 5e-324, -0, nan, inf, 2^64, negative counts) in summary.csv and a "
              "published CSV; report, compare: no figure written is inf or nan",
     fuzz_edges_case},
};
const size_t fuzz_class_count = COUNT(fuzz_classes);
