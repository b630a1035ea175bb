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

#define COUNT(list) (sizeof(list) / sizeof((list)[0]))

static uint64_t below(hb_rng *rng, uint64_t bound)
{
    return bound ? hb_rng_below(rng, bound) : 0;
}

static void join(char *out, const char *folder, const char *name)
{
    if ((size_t)snprintf(out, FUZZ_PATH, "%s/%s", folder, name) >= FUZZ_PATH)
        out[0] = '\0';
}

/* The command's exit code against those the class allows; *out says what broke. */
static void judge(fuzz_outcome *out, const char *command, int code, const int *allowed, size_t n)
{
    snprintf(out->command, sizeof out->command, "%s", command);
    out->exit_code = code;
    if (code < 0) {
        out->failed = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (code == allowed[i])
            return;
    out->failed = 1;
    snprintf(out->detail, sizeof out->detail, "exit %d is not one %s may give here", code, command);
}

static void broke(fuzz_outcome *out, const char *what)
{
    out->failed = 1;
    snprintf(out->detail, sizeof out->detail, "%s", what);
}

/* "<how it was damaged>: <what broke>", for the log. */
static void say_how(fuzz_outcome *out, const char *how)
{
    char detail[sizeof out->detail];
    if (snprintf(detail, sizeof detail, "%s%s%s", how, out->detail[0] ? " -> " : "", out->detail) >=
        (int)sizeof detail)
        detail[sizeof detail - 2] = '~'; /* cut: the case's own log has the rest */
    memcpy(out->detail, detail, sizeof detail);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* --- a sweep folder: resume, report, merge -------------------------------------------------------- */

/* The csv_end of the last whole line of a journal's text (-1: none). */
static long long last_csv_end(const char *journal, size_t size)
{
    size_t end = size;
    while (end > 0 && journal[end - 1] != '\n')
        end--; /* past the whole lines: a line cut short vouches for nothing */
    for (size_t i = end; i > 0; i--) {
        if (i < end && journal[i - 1] == '\n')
            break; /* only the last whole line */
        const char *key = "\"csv_end\":";
        if (i + strlen(key) <= end && !memcmp(journal + i - 1, key, strlen(key)))
            return strtoll(journal + i - 1 + strlen(key), NULL, 10);
    }
    return -1;
}

/* Where `key` first lies in text[0, size), or NULL (the text may hold NUL bytes). */
static const char *find(const char *text, size_t size, const char *key)
{
    const size_t n = strlen(key);
    for (size_t i = 0; i + n <= size; i++)
        if (!memcmp(text + i, key, n))
            return text + i;
    return NULL;
}

/* The most severe "status" of the journal's whole lines (0: none). */
static int worst_status(const char *journal, size_t size)
{
    int worst = 0;
    const char *key = "\"status\":";
    for (size_t at = 0; at < size;) {
        const char *line_end = memchr(journal + at, '\n', size - at);
        if (!line_end)
            break; /* a line cut short vouches for nothing */
        const char *field = find(journal + at, (size_t)(line_end - journal) - at, key);
        long status = field ? strtol(field + strlen(key), NULL, 10) : 0;
        if (status >= 0 && status < 256 && hb_status_severity((hb_status)status) > hb_status_severity(worst))
            worst = (int)status;
        at = (size_t)(line_end - journal) + 1;
    }
    return worst;
}

/* A resume that accepted the folder kept every finished item: the journal's
 * whole lines and the rows up to the last one's csv_end, byte for byte. */
static void check_kept(const char *folder, char *journal, size_t journal_size, char *csv, size_t csv_size,
                       fuzz_outcome *out)
{
    char path[FUZZ_PATH];
    size_t whole = journal_size;
    while (journal && whole > 0 && journal[whole - 1] != '\n')
        whole--;
    long long vouched = journal ? last_csv_end(journal, journal_size) : -1;
    size_t header = csv ? strcspn(csv, "\n") + 1 : 0;
    if (!journal && csv && csv_size > header)
        return broke(out, "accepted a folder whose summary.csv has rows but no journal vouches for them");
    if (vouched > 0 && (!csv || (size_t)vouched > csv_size))
        return broke(out, "accepted a journal that vouches for more than summary.csv holds");
    size_t after_size;
    join(path, folder, "journal.jsonl");
    char *after = fuzz_read_file(path, &after_size);
    if (journal && whole && (!after || after_size < whole || memcmp(after, journal, whole)))
        broke(out, "a whole journal line was changed or dropped");
    free(after);
    join(path, folder, "summary.csv");
    after = fuzz_read_file(path, &after_size);
    if (vouched > 0 && (!after || after_size < (size_t)vouched || memcmp(after, csv, (size_t)vouched)))
        broke(out, "a finished item's rows in summary.csv were changed or cut");
    free(after);
}

static void resume(const char *dir, const char *folder, fuzz_outcome *out)
{
    char path[FUZZ_PATH];
    size_t journal_size, csv_size;
    join(path, folder, "journal.jsonl");
    char *journal = fuzz_read_file(path, &journal_size);
    join(path, folder, "summary.csv");
    char *csv = fuzz_read_file(path, &csv_size);
    uint64_t before = fuzz_tree_digest(folder);
    const char *argv[] = {"hgemm-bench", "sweep", "--resume", "s", "--no-progress", NULL};
    /* refused; items left to run and the GPU hidden; or, with nothing to run, the worst
     * status its journal records (docs/sweeps.md: the exit code is the most severe item's) */
    const int allowed[] = {11, 5, journal ? worst_status(journal, journal_size) : 0};
    int code = fuzz_command(dir, argv, out);
    judge(out, "resume", code, allowed, COUNT(allowed));
    if (code == 11 && fuzz_tree_digest(folder) != before)
        broke(out, "refused the folder, but changed it");
    if (code != 11 && code >= 0)
        check_kept(folder, journal, journal_size, csv, csv_size, out);
    free(journal);
    free(csv);
}

static void report(const char *dir, const char *operand, hb_rng *rng, fuzz_outcome *out, const char *name)
{
    static const char *const formats[] = {"md", "csv", "json"}, *const timers[] = {"event", "wall", "kernel"};
    const char *argv[] = {"hgemm-bench", "report", operand, "--format", formats[below(rng, 3)], "--timer",
                          timers[below(rng, 3)], NULL};
    char path[FUZZ_PATH];
    join(path, dir, operand);
    uint64_t before = fuzz_tree_digest(path);
    static const int allowed[] = {0, 11};
    judge(out, name, fuzz_command(dir, argv, out), allowed, COUNT(allowed));
    if (fuzz_tree_digest(path) != before)
        broke(out, "report changed the folder it read");
}

static void merge(const char *dir, const char *sibling, hb_rng *rng, fuzz_outcome *out)
{
    char s[FUZZ_PATH], t[FUZZ_PATH], merged[FUZZ_PATH], partial[FUZZ_PATH];
    join(s, dir, "s");
    join(t, dir, "t");
    join(merged, dir, "out");
    join(partial, dir, "out.partial");
    if (sibling && fuzz_copy_tree(sibling, t) != 0)
        return broke(out, "cannot copy the sibling shard");
    const int swap = sibling && below(rng, 2);
    const char *argv[] = {"hgemm-bench", "merge", "out", swap ? "t" : "s", sibling ? (swap ? "s" : "t") : NULL, NULL};
    uint64_t before_s = fuzz_tree_digest(s), before_t = sibling ? fuzz_tree_digest(t) : 0;
    static const int allowed[] = {0, 11};
    int code = fuzz_command(dir, argv, out);
    judge(out, "merge", code, allowed, COUNT(allowed));
    if (fuzz_tree_digest(s) != before_s || (sibling && fuzz_tree_digest(t) != before_t))
        broke(out, "merge changed a folder it read");
    if (code == 11 && (exists(merged) || exists(partial)))
        broke(out, "merge refused, yet left an output folder");
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
        join(path, folder, names[what]);
        return fuzz_damage(path, FUZZ_LINES, rng, how, how_size);
    }
    if (below(rng, 4) == 0) { /* a sweep that has not begun: plan.json alone */
        for (size_t i = 0; i < 2; i++) {
            join(path, folder, names[i]);
            remove(path);
        }
        snprintf(how, how_size, "plan.json and env.json alone");
        return;
    }
    const char *name = names[below(rng, COUNT(names))];
    join(path, folder, name);
    int n = snprintf(how, how_size, "%s: ", name);
    fuzz_replace_file(path, rng, how + n, how_size - (size_t)n);
}

static void sweep_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out, int what)
{
    const char *seeds[] = {c->sweep, c->shard[0], c->shard[1], c->partial};
    const size_t seed = below(rng, COUNT(seeds));
    char folder[FUZZ_PATH], how[400];
    join(folder, dir, "s");
    if (fuzz_copy_tree(seeds[seed], folder) != 0)
        return broke(out, "cannot copy the seed");
    damage_sweep(folder, what, rng, how, sizeof how);
    uint64_t command = below(rng, 10);
    if (command < 4)
        resume(dir, folder, out);
    else if (command < 7)
        report(dir, "s", rng, out, "report");
    else
        merge(dir, seed == 1 ? c->shard[1] : seed == 2 ? c->shard[0] : NULL, rng, out);
    say_how(out, how);
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
                          "--format", formats[below(rng, 3)], NULL};
    char path[FUZZ_PATH];
    join(path, dir, published);
    uint64_t before = published[0] == '/' ? 0 : fuzz_tree_digest(path);
    static const int allowed[] = {0, 11, 14}; /* 14: damage left no configuration of the mode, or another class */
    judge(out, "compare", fuzz_command(dir, argv, out), allowed, COUNT(allowed));
    if (published[0] != '/' && fuzz_tree_digest(path) != before)
        broke(out, "compare changed the file it read");
}

static void published_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    char path[FUZZ_PATH], how[400];
    join(path, dir, "p_offline.csv");
    size_t size;
    char *text = fuzz_read_file(c->published, &size);
    if (!text || fuzz_write_file(path, text, size) != 0) {
        free(text);
        return broke(out, "cannot copy the published CSV");
    }
    if (below(rng, 10) == 0) { /* the header alone: no rows to sort */
        fuzz_write_file(path, text, strcspn(text, "\n") + 1);
        snprintf(how, sizeof how, "the header alone");
    } else {
        fuzz_damage(path, FUZZ_LINES, rng, how, sizeof how);
    }
    free(text);
    compare(dir, c->sweep, "p_offline.csv", rng, out);
    say_how(out, how);
}

static void run_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    char folder[FUZZ_PATH], path[FUZZ_PATH], how[400];
    join(folder, dir, "r");
    if (fuzz_copy_tree(c->run, folder) != 0)
        return broke(out, "cannot copy the run folder");
    join(path, folder, below(rng, 4) ? "summary.csv" : "env.json");
    fuzz_damage(path, FUZZ_LINES, rng, how, sizeof how);
    if (below(rng, 3))
        report(dir, "r", rng, out, "report");
    else
        compare(dir, "r", c->published, rng, out);
    say_how(out, how);
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
            join(out, folder, e->d_name);
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
    const char *argv[] = {"hgemm-bench", "check", "--candidate", candidate, "--mnk", sizes[below(rng, 4)], "--mnk",
                          sizes[below(rng, 4)], "--no-progress", "--out", "o", NULL};
    char folder[FUZZ_PATH];
    join(folder, dir, "c");
    uint64_t before = fuzz_tree_digest(folder);
    static const int allowed[] = {3, 4, 5}; /* bad input, unsupported, or through to the (hidden) GPU */
    judge(out, "check", fuzz_command(dir, argv, out), allowed, COUNT(allowed));
    if (fuzz_tree_digest(folder) != before)
        broke(out, "check changed the candidate's folder");
}

static void manifest_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    char folder[FUZZ_PATH], path[FUZZ_PATH], copy[FUZZ_PATH], how[400];
    join(folder, dir, "c");
    if (fuzz_copy_tree(below(rng, 2) ? c->cubin_set : c->launcher_set, folder) != 0)
        return broke(out, "cannot copy the candidate");
    join(path, folder, "manifest.json");
    if (below(rng, 4) == 0) { /* a candidate set: this size's manifest, or the generic one, damaged */
        size_t size;
        char *text = fuzz_read_file(path, &size);
        join(copy, folder, below(rng, 2) ? "64_64_64.json" : "generic.json");
        fuzz_write_file(copy, text ? text : "", size);
        free(text);
        fuzz_damage(copy, FUZZ_LINES, rng, how, sizeof how);
        remove(path);
        check(dir, "c", rng, out);
    } else {
        fuzz_damage(path, FUZZ_LINES, rng, how, sizeof how);
        check(dir, "c/manifest.json", rng, out);
    }
    say_how(out, how);
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
    join(folder, dir, "c");
    if (fuzz_copy_tree(seed, folder) != 0 || !first_named(folder, suffix, path))
        return broke(out, "cannot copy the candidate");
    fuzz_damage(path, FUZZ_ELF, rng, how, sizeof how);
    if (!strcmp(suffix, ".cubin") && below(rng, 2)) {
        static const int allowed[] = {0, 3, 4};
        judge(out, "cubin-reader", fuzz_call(dir, read_cubin, path, out), allowed, COUNT(allowed));
    } else {
        check(dir, "c/manifest.json", rng, out);
    }
    say_how(out, how);
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
    join(fifo, dir, "fifo_offline.csv");
    mkfifo(fifo, 0644);
    const char *argv[40] = {"hgemm-bench"};
    size_t argc = 1;
    const char *command = commands[below(rng, COUNT(commands))];
    argv[argc++] = command;
    if (!strcmp(command, "merge"))
        argv[argc++] = "o"; /* OUT in the case's folder, never beside the corpus */
    for (size_t i = 0, n = below(rng, 6); i < n && argc < 34; i++) {
        if (below(rng, 3) == 0) {
            argv[argc++] = operands[below(rng, COUNT(operands))];
            continue;
        }
        const flag *f = &flags[below(rng, COUNT(flags))];
        argv[argc++] = f->name;
        size_t values = 0;
        while (values < 6 && f->values[values])
            values++;
        if (values)
            argv[argc++] = value_of(f->values[below(rng, values)], c);
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
    judge(out, "cli", fuzz_command(dir, argv, out), allowed, COUNT(allowed));
    if (fuzz_tree_digest(c->root) != before)
        broke(out, "the command changed the corpus");
    say_how(out, how);
}

static void mnk_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    char path[FUZZ_PATH], how[400];
    join(path, dir, "plan.txt");
    size_t size;
    char *text = fuzz_read_file(c->mnk_file, &size);
    fuzz_write_file(path, text ? text : "", size);
    free(text);
    fuzz_damage(path, FUZZ_LINES, rng, how, sizeof how);
    static const char *const shards[] = {"0/1", "1/3", "2/3"};
    const char *argv[] = {"hgemm-bench", "sweep", "--candidate", "x", "--mnk-file", "plan.txt", "--shard",
                          shards[below(rng, 3)], "--dry-run", NULL};
    static const int allowed[] = {0, 2};
    judge(out, "sweep-dry-run", fuzz_command(dir, argv, out), allowed, COUNT(allowed));
    say_how(out, how);
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
};
const size_t fuzz_class_count = COUNT(fuzz_classes);
