/* A folder from elsewhere with something planted in it: a symbolic link or
 * a FIFO at a name a command reads, writes or uses as a temporary.
 *
 * links: a file the command reads that links out of its folder is refused
 * (exit 11); one that links inside it may be read.  A link at a name it
 * writes (an output, a temporary, its lock, a staging folder's name, a
 * merge's OUT.partial) never makes a write land where it points: the
 * command succeeds (replacing the link) or refuses (7 or 11), and every
 * target, a file, a folder or a name not there yet, is as it was.  Also a
 * --out folder whose list of what report published (.hgemm-report.files)
 * was forged to name files report never wrote: report never removes them.
 *
 * fifos: a FIFO at the same names: no hang, nothing written into it, and a
 * SIGTERM sent while the command runs ends it within FUZZ_TERM_GRACE_S.
 *
 * Either way a command that succeeded published its files whole and wrote
 * its verdicts: regular files of whole JSON, not the link or FIFO left in
 * their place. */
#define _XOPEN_SOURCE 700 /* mkfifo, symlink */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/status.h"
#include "tests/fuzz/fuzz.h"

#define MAX_PLANTS 3

static size_t count_names(const char *const *names)
{
    size_t n = 0;
    while (names[n])
        n++;
    return n;
}

/* One of `names` that `folder` holds, from a random one on (a run's folder
 * has no journal or plan); NULL if none. */
static const char *existing(const char *folder, const char *const *names, hb_rng *rng)
{
    const size_t n = count_names(names), first = fuzz_below(rng, n);
    for (size_t i = 0; i < n; i++) {
        char path[FUZZ_PATH];
        fuzz_join(path, folder, names[(first + i) % n]);
        if (fuzz_exists(path))
            return names[(first + i) % n];
    }
    return NULL;
}

/* The command, judged; what it wrote, once it succeeded: a published set
 * whole, its verdicts written (not left a link or a FIFO) and whole. */
static int run_job(fuzz_job *job, const fuzz_how *how, fuzz_outcome *out)
{
    int code = fuzz_command_as(job->dir, job->argv, how, out);
    fuzz_judge(out, job->name, code, job->allowed, job->n_allowed);
    if (!out->failed && job->owner && code == 0)
        fuzz_check_listed(job->output, job->owner, out);
    if (!out->failed)
        fuzz_job_check_written(job, code, out);
    return code;
}

/* What a command may answer to something planted: 7 or 11, and for merge
 * (whose planted name is OUT.partial) 2, "exists: remove it first"
 * (docs/sweeps.md). */
static void plant_refusals(fuzz_job *job)
{
    fuzz_job_refusals(job);
    if (job->kind == FUZZ_JOB_MERGE)
        fuzz_job_allow(job, HB_ERR_USAGE);
}

/* --- links ------------------------------------------------------------------------------------- */

/* A file outside the case's folders for a link to point at: its text names it. */
static int outside_file(const char *dir, const char *name, char *path)
{
    char outside[FUZZ_PATH], text[FUZZ_PATH + 32];
    fuzz_join(outside, dir, "outside");
    if (mkdir(outside, 0755) != 0 && errno != EEXIST)
        return -1;
    fuzz_join(path, outside, name);
    int n = snprintf(text, sizeof text, "outside the folder: %s\n", name);
    return fuzz_write_file(path, text, (size_t)n);
}

/* Replaces `path` by a link to something outside (a file, a folder, a name
 * not there yet), by its absolute path or a relative one. */
static void link_out(const char *dir, const char *path, size_t index, hb_rng *rng, char *how, size_t how_size)
{
    char outside[FUZZ_PATH], target[FUZZ_PATH], name[64], relative[FUZZ_PATH];
    const uint64_t kind = fuzz_below(rng, 4);
    snprintf(name, sizeof name, "target-%zu", index);
    fuzz_join(outside, dir, "outside");
    mkdir(outside, 0755);
    if (kind == 2) { /* a folder holding a file: a staging folder's or OUT.partial's name */
        char file[FUZZ_PATH];
        fuzz_join(target, outside, name);
        mkdir(target, 0755);
        fuzz_join(file, target, "kept.txt");
        fuzz_write_file(file, "kept\n", 5);
    } else if (kind == 3) { /* a name not there yet: a write through it would create it */
        fuzz_join(target, outside, name);
    } else {
        outside_file(dir, name, target);
    }
    unlink(path);
    const int absolute = fuzz_below(rng, 2);
    /* the planted name lies one folder below the case's (s/, d/, vd/) or in it (out.partial) */
    const int below_case = strncmp(path + strlen(dir) + 1, "out.partial", 11) != 0;
    snprintf(relative, sizeof relative, "%soutside/%s", below_case ? "../" : "", name);
    if (symlink(absolute ? target : relative, path) != 0)
        fprintf(stderr, "hgemm-fuzz: cannot plant a link at %s\n", path);
    static const char *const kinds[] = {"a file", "a file", "a folder", "a name not there yet"};
    snprintf(how, how_size, "%s -> %s outside (%s)", path + strlen(dir) + 1, kinds[kind],
             absolute ? "absolute" : "relative");
}

/* A row after the journal's last line, as a sweep killed in an item leaves
 * it: summary.csv's first row again, at its end. */
static void add_row_in_flight(const char *csv)
{
    size_t size;
    char *text = fuzz_read_file(csv, &size);
    const char *row = text ? memchr(text, '\n', size) : NULL;
    const char *end = row ? memchr(row + 1, '\n', size - (size_t)(row + 1 - text)) : NULL;
    FILE *file = end ? fopen(csv, "ab") : NULL;
    if (file) {
        fwrite(row + 1, 1, (size_t)(end - row), file);
        fclose(file);
    }
    free(text);
}

/* A file the command reads, moved out of its folder (or to another name in
 * it) and replaced by a link to it. */
static int link_input(const fuzz_job *job, hb_rng *rng, int inside, char *how, size_t how_size)
{
    const char *name = existing(job->input, job->inputs, rng);
    char path[FUZZ_PATH], moved[FUZZ_PATH], moved_name[64];
    if (!name)
        return -1;
    fuzz_join(path, job->input, name);
    if (inside) {
        snprintf(moved_name, sizeof moved_name, "real-%s", name);
        fuzz_join(moved, job->input, moved_name);
    } else {
        char outside[FUZZ_PATH];
        fuzz_join(outside, job->dir, "outside");
        mkdir(outside, 0755);
        fuzz_join(moved, outside, name);
        snprintf(moved_name, sizeof moved_name, "../outside/%s", name);
    }
    const int absolute = !inside && fuzz_below(rng, 2);
    const int in_flight = job->kind == FUZZ_JOB_RESUME && !strcmp(name, "summary.csv") && fuzz_below(rng, 2);
    if (in_flight)
        add_row_in_flight(path); /* which resume cuts before it runs the rest */
    if (rename(path, moved) != 0 || symlink(absolute ? moved : moved_name, path) != 0)
        return -1;
    snprintf(how, how_size, "%s's %s -> %s (%s)%s", job->name, name,
             inside ? "a file inside its folder" : "outside", absolute ? "absolute" : "relative",
             in_flight ? ", with rows in flight" : "");
    return 0;
}

/* The files a forged list names that report never writes. */
static const char *const never_written[] = {"summary.csv", "journal.jsonl", "plan.json", "env.json", "notes.txt"};

/* .hgemm-report.files forged to name files report never writes: in --out
 * S itself (the folder it reads) or beside others' files in D. */
static int forge_list(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_job *job, char *how, size_t how_size)
{
    if (fuzz_job_make(c, dir, FUZZ_JOB_REPORT, rng, 1, job) != 0)
        return -1;
    const int into_input = fuzz_below(rng, 2);
    if (into_input) { /* report s --out s */
        job->argv[4] = "s";
        snprintf(job->output, sizeof job->output, "%s", job->input);
    } else {
        for (size_t i = 0; i < FUZZ_COUNT(never_written); i++) {
            char path[FUZZ_PATH];
            fuzz_join(path, job->output, never_written[i]);
            fuzz_write_file(path, "a file of someone else\n", 23);
        }
    }
    char list[FUZZ_PATH];
    fuzz_join(list, job->output, ".hgemm-report.files");
    const char text[] = "summary.csv\njournal.jsonl\nplan.json\nenv.json\nnotes.txt\nreport.md\n";
    snprintf(how, how_size, "report --out %s with a .hgemm-report.files naming its inputs",
             into_input ? "the folder it reads" : "a folder of others' files");
    return fuzz_write_file(list, text, sizeof text - 1);
}

/* What the forged list names, as it is before the report (NULL: not there). */
static void keep_files(const char *folder, char **kept, size_t *sizes)
{
    for (size_t i = 0; i < FUZZ_COUNT(never_written); i++) {
        char path[FUZZ_PATH];
        fuzz_join(path, folder, never_written[i]);
        kept[i] = fuzz_read_file(path, &sizes[i]);
    }
}

static void check_not_removed(const char *folder, char **kept, const size_t *sizes, fuzz_outcome *out)
{
    for (size_t i = 0; i < FUZZ_COUNT(never_written); i++) {
        char path[FUZZ_PATH];
        size_t size;
        fuzz_join(path, folder, never_written[i]);
        char *now = fuzz_read_file(path, &size);
        if (kept[i] && !out->failed && (!now || size != sizes[i] || memcmp(now, kept[i], size)))
            fuzz_broke(out, "report %s %s, a file it did not write", now ? "changed" : "removed", path);
        free(now);
        free(kept[i]);
    }
}

void fuzz_links_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    static fuzz_job job;
    char outside[FUZZ_PATH], how[400] = "";
    fuzz_join(outside, dir, "outside");
    mkdir(outside, 0755);
    const uint64_t variant = fuzz_below(rng, 8);
    static const fuzz_how plain;
    if (variant == 0) { /* a forged list of what report published */
        char *kept[FUZZ_COUNT(never_written)];
        size_t sizes[FUZZ_COUNT(never_written)];
        if (forge_list(c, dir, rng, &job, how, sizeof how) != 0)
            return fuzz_broke(out, "cannot set up the case");
        plant_refusals(&job);
        keep_files(job.output, kept, sizes);
        run_job(&job, &plain, out);
        check_not_removed(job.output, kept, sizes, out);
        fuzz_job_free(&job);
        return fuzz_say_how(out, how);
    }
    if (variant <= 2) { /* a file it reads links out of its folder, or inside it */
        static const int readers[] = {FUZZ_JOB_REPORT, FUZZ_JOB_COMPARE, FUZZ_JOB_MERGE, FUZZ_JOB_RESUME};
        const int inside = variant == 2;
        if (fuzz_job_make(c, dir, readers[fuzz_below(rng, FUZZ_COUNT(readers))], rng, 1, &job) != 0 ||
            link_input(&job, rng, inside, how, sizeof how) != 0)
            return fuzz_broke(out, "cannot set up the case");
        const int resume_unread = job.kind == FUZZ_JOB_RESUME && strstr(how, "env.json"); /* resume reads no env.json */
        if (inside || resume_unread) {
            plant_refusals(&job);
        } else {
            job.n_allowed = 0;
            fuzz_job_allow(&job, HB_ERR_BAD_RESULTS);
        }
        const uint64_t before = fuzz_tree_digest(outside), input = fuzz_tree_digest(job.input);
        int code = run_job(&job, &plain, out);
        if (!inside && !resume_unread && code >= 0 && code != HB_ERR_BAD_RESULTS)
            fuzz_broke(out, "exit %d: it read a file that links out of its folder instead of refusing it (11)", code);
        if (fuzz_tree_digest(outside) != before)
            fuzz_broke(out, "a file outside the folder, which a link in it points at, was changed");
        else if (code == HB_ERR_BAD_RESULTS && fuzz_tree_digest(job.input) != input)
            fuzz_broke(out, "refused the folder, but changed it");
        fuzz_job_free(&job);
        return fuzz_say_how(out, how);
    }
    /* links planted at names it writes */
    if (fuzz_job_make(c, dir, (int)fuzz_below(rng, FUZZ_JOB_KINDS), rng, 1, &job) != 0)
        return fuzz_broke(out, "cannot set up the case");
    plant_refusals(&job);
    const size_t n = count_names(job.names), plants = 1 + fuzz_below(rng, n < MAX_PLANTS ? n : MAX_PLANTS);
    size_t used = (size_t)snprintf(how, sizeof how, "%s:", job.name), chosen[MAX_PLANTS];
    for (size_t i = 0; i < plants && used < sizeof how; i++) {
        char path[FUZZ_PATH], one[200];
        chosen[i] = fuzz_below(rng, n);
        for (size_t j = 0; j < i; j++)
            if (chosen[j] == chosen[i]) { /* each name once: the next one not taken */
                chosen[i] = (chosen[i] + 1) % n;
                j = (size_t)-1;
            }
        fuzz_join(path, job.output, job.names[chosen[i]]);
        link_out(dir, path, i, rng, one, sizeof one);
        used += (size_t)snprintf(how + used, sizeof how - used, " %s", one);
    }
    const uint64_t before = fuzz_tree_digest(outside);
    run_job(&job, &plain, out);
    if (fuzz_tree_digest(outside) != before)
        fuzz_broke(out, "a write went through a link: what it points at, outside the folder, was changed");
    fuzz_job_free(&job);
    fuzz_say_how(out, how);
}

/* --- fifos ------------------------------------------------------------------------------------- */

/* Bytes a command wrote into a FIFO the case holds open (0: none). */
static size_t drained(int fd)
{
    char buffer[4096];
    size_t total = 0;
    ssize_t n;
    while (fd >= 0 && (n = read(fd, buffer, sizeof buffer)) > 0)
        total += (size_t)n;
    return total;
}

void fuzz_fifos_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    static fuzz_job job;
    char how[400], path[FUZZ_PATH];
    const int input = fuzz_below(rng, 4) == 0;
    static const int readers[] = {FUZZ_JOB_REPORT, FUZZ_JOB_COMPARE, FUZZ_JOB_MERGE, FUZZ_JOB_RESUME};
    const int kind = input ? readers[fuzz_below(rng, FUZZ_COUNT(readers))] : (int)fuzz_below(rng, FUZZ_JOB_KINDS);
    if (fuzz_job_make(c, dir, kind, rng, 1, &job) != 0)
        return fuzz_broke(out, "cannot set up the case");
    const char *name =
        input ? existing(job.input, job.inputs, rng) : job.names[fuzz_below(rng, count_names(job.names))];
    if (!name)
        return fuzz_broke(out, "cannot set up the case");
    fuzz_join(path, input ? job.input : job.output, name);
    unlink(path);
    if (mkfifo(path, 0644) != 0)
        return fuzz_broke(out, "cannot make a FIFO at %s", path);
    /* held: a write into it lands in its buffer, where the case finds it;
     * else a command that opens it waits for the other end */
    const int held = fuzz_below(rng, 2);
    const int fd = held ? open(path, O_RDWR | O_NONBLOCK) : -1;
    fuzz_how run = {.timeout_s = 8};
    if (fuzz_below(rng, 2))
        run.term_after_s = 0.05 + 0.4 * hb_rng_uniform(rng);
    if (input && !(job.kind == FUZZ_JOB_RESUME && !strcmp(name, "env.json"))) { /* resume reads no env.json */
        job.n_allowed = 0; /* an input that is not a regular file is refused (docs/reports.md) */
        fuzz_job_allow(&job, HB_ERR_BAD_RESULTS);
    } else {
        plant_refusals(&job);
    }
    if (run.term_after_s > 0)
        fuzz_job_allow(&job, 128 + SIGTERM);
    snprintf(how, sizeof how, "%s: a FIFO at %s%s%s", job.name, path + strlen(dir) + 1,
             held ? " (held open by the case)" : "", run.term_after_s > 0 ? ", SIGTERM while it runs" : "");
    run_job(&job, &run, out);
    size_t written = drained(fd);
    if (written) /* what else broke follows from it */
        fuzz_broke(out, "%zu bytes were written into the FIFO", written);
    if (fd >= 0)
        close(fd);
    fuzz_job_free(&job);
    fuzz_say_how(out, how);
}
