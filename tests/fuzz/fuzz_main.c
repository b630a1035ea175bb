/* hgemm-fuzz: see tests/fuzz/fuzz.h.  The cases run --jobs at a time, in
 * as many worker processes; a worker takes a case, copies a seed, damages
 * it, runs the commands (each a fork of the worker) and checks them, then
 * writes one line to a pipe; this process hands out the cases and counts
 * the lines.  --classes picks the classes, which take turns: case i is
 * class i mod their count, so a case is replayed with the same list.
 *
 * usage: hgemm-fuzz --candidates DIR --work DIR [--seed N] [--cases N] [--time-s S] [--jobs N]
 *                   [--timeout-s S] [--classes a,b] [--case I] [--keep DIR] [--verbose] */
#define _XOPEN_SOURCE 700 /* setenv, kill */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"

/* The sanitizers' settings, read by their runtimes before main: a report
 * ends the process with a code of its own (fuzz_exec.c tells them apart);
 * leaks are not what is looked for (a command that fails exits at once). */
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_leaks=0:exitcode=99:abort_on_error=0";
}
const char *__ubsan_default_options(void)
{
    return "halt_on_error=1:exitcode=98:print_stacktrace=1";
}

typedef struct options {
    const char *candidates, *work, *keep;
    uint64_t seed;
    long cases, only_case;
    double time_s;
    int jobs, verbose;
    unsigned char enabled[32];
} options;

typedef struct class_stats {
    long cases, failed;
    long exits[260]; /* by exit code; [256] hang, [257] crash or sanitizer */
    char commands[160];
} class_stats;

static int usage(const char *why)
{
    fprintf(stderr, "hgemm-fuzz: %s\nusage: hgemm-fuzz --candidates DIR --work DIR [--seed N] [--cases N] [--time-s S] "
            "[--jobs N] [--timeout-s S] [--classes a,b] [--case I] [--keep DIR] [--verbose]\nclasses:\n", why);
    for (size_t i = 0; i < fuzz_class_count; i++)
        fprintf(stderr, "  %-10s %s\n", fuzz_classes[i].name, fuzz_classes[i].what);
    return 2;
}

static int enable_classes(options *o, const char *list)
{
    memset(o->enabled, 0, sizeof o->enabled);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < fuzz_class_count && strcmp(fuzz_classes[i].name, name))
            i++;
        if (i == fuzz_class_count)
            return -1;
        o->enabled[i] = 1;
    }
    return 0;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.seed = 1, .cases = 2000, .only_case = -1, .time_s = 300, .jobs = 2};
    memset(o->enabled, 1, sizeof o->enabled);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--verbose")) {
            o->verbose = 1;
            continue;
        }
        if (!v)
            return usage("a flag without its value");
        i++;
        if (!strcmp(a, "--candidates"))
            o->candidates = v;
        else if (!strcmp(a, "--work"))
            o->work = v;
        else if (!strcmp(a, "--keep"))
            o->keep = v;
        else if (!strcmp(a, "--seed"))
            o->seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--cases"))
            o->cases = strtol(v, NULL, 10);
        else if (!strcmp(a, "--case"))
            o->only_case = strtol(v, NULL, 10);
        else if (!strcmp(a, "--time-s"))
            o->time_s = strtod(v, NULL);
        else if (!strcmp(a, "--timeout-s"))
            fuzz_timeout_s = strtod(v, NULL);
        else if (!strcmp(a, "--jobs"))
            o->jobs = (int)strtol(v, NULL, 10);
        else if (!strcmp(a, "--classes")) {
            if (enable_classes(o, v) != 0)
                return usage("an unknown class");
        } else
            return usage("an unknown flag");
    }
    if (!o->candidates || !o->work || o->cases < 1 || o->jobs < 1 || o->jobs > 64 || fuzz_timeout_s <= 0)
        return usage("--candidates and --work are needed; --cases, --jobs and --timeout-s must be positive");
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* --- one case, in its own process --------------------------------------------------------------- */

static size_t class_of(const options *o, long index)
{
    size_t enabled[32], n = 0;
    for (size_t i = 0; i < fuzz_class_count; i++)
        if (o->enabled[i])
            enabled[n++] = i;
    return enabled[(size_t)index % n]; /* round robin: every class its share, whatever --cases says */
}

static void run_case(const options *o, const fuzz_corpus *corpus, long index, int pipe_out)
{
    const size_t k = class_of(o, index);
    char dir[FUZZ_PATH];
    snprintf(dir, sizeof dir, "%s/case-%ld", o->work, index);
    fuzz_outcome out = {.exit_code = -1};
    hb_rng rng;
    hb_rng_seed(&rng, o->seed * 0x9E3779B97F4A7C15ULL ^ (uint64_t)index);
    if (mkdir(dir, 0755) != 0) {
        snprintf(out.detail, sizeof out.detail, "cannot make the case's folder: %s", strerror(errno));
        out.failed = 1;
    } else {
        fuzz_classes[k].run(corpus, dir, &rng, &out);
    }
    if (out.failed && o->keep) {
        char kept[2 * FUZZ_PATH];
        snprintf(kept, sizeof kept, "%s/case-%ld", o->keep, index);
        fuzz_remove_tree(kept); /* a case of an earlier run */
        fuzz_copy_tree(dir, kept);
    }
    fuzz_remove_tree(dir);
    if (!out.command[0]) /* it failed before running any: the line still counts it */
        snprintf(out.command, sizeof out.command, "-");
    char line[4096];
    for (char *p = out.detail; *p; p++)
        if (*p == '\n' || *p == '\t')
            *p = ' ';
    int n = snprintf(line, sizeof line, "%ld\t%zu\t%s\t%d\t%d\t%s\n", index, k, out.command, out.exit_code, out.failed,
                     out.detail);
    if (n > 0 && write(pipe_out, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
        _exit(3);
}

/* --- the pool --------------------------------------------------------------------------------- */

/* A worker runs cases one after the other, each in its own folder, and
 * forks only for the commands: a fork of this process per case was a
 * tenth of the time.  After WORKER_CASES it is replaced, so what a
 * long-lived process gathers (ASan's quarantine, leaks it does not look
 * for) never makes its forks dearer. */
#define WORKER_CASES 50

typedef struct worker {
    pid_t pid;   /* 0: none */
    int task_fd; /* where it reads the index of its next case */
    long index;  /* the case it runs, -1: none */
    long cases;  /* how many it was given */
} worker;

typedef struct pool {
    const options *o;
    const fuzz_corpus *corpus;
    int pipe_in, pipe_out;
    int out_of_time;
    long next, last, done, failures;
    worker workers[64];
    class_stats stats[32];
    char pending[8192];
    size_t pending_size;
} pool;

static void count_line(pool *p, char *line)
{
    long index;
    size_t k;
    char command[64] = "", detail[600] = "";
    int code, failed;
    if (sscanf(line, "%ld\t%zu\t%63[^\t]\t%d\t%d\t%599[^\n]", &index, &k, command, &code, &failed, detail) < 5 ||
        k >= fuzz_class_count)
        return;
    for (int i = 0; i < p->o->jobs; i++)
        if (p->workers[i].index == index)
            p->workers[i].index = -1;
    class_stats *s = &p->stats[k];
    s->cases++;
    s->failed += failed;
    s->exits[code >= 0 && code < 256 ? code : code == -2 ? 256 : 257]++;
    if (command[0] && !strstr(s->commands, command) && strlen(s->commands) + strlen(command) + 2 < sizeof s->commands)
        snprintf(s->commands + strlen(s->commands), sizeof s->commands - strlen(s->commands), "%s%s",
                 s->commands[0] ? "," : "", command);
    p->done++;
    p->failures += failed;
    if (failed || p->o->verbose)
        printf("%s case %ld (%s, %s): exit %d: %s\n", failed ? "FAIL" : "ok", index, fuzz_classes[k].name, command,
               code, detail);
}

static void drain(pool *p)
{
    for (;;) {
        ssize_t n = read(p->pipe_in, p->pending + p->pending_size, sizeof p->pending - 1 - p->pending_size);
        if (n <= 0)
            return;
        p->pending_size += (size_t)n;
        p->pending[p->pending_size] = '\0';
        char *start = p->pending, *newline;
        while ((newline = strchr(start, '\n'))) {
            *newline = '\0';
            count_line(p, start);
            start = newline + 1;
        }
        p->pending_size = strlen(start);
        memmove(p->pending, start, p->pending_size + 1);
    }
}

/* In the worker: the cases it is given, until it reads a negative index or the end. */
static void work(pool *p, int task_fd)
{
    long index;
    while (read(task_fd, &index, sizeof index) == (ssize_t)sizeof index && index >= 0)
        run_case(p->o, p->corpus, index, p->pipe_out);
    _exit(0);
}

static int start_worker(pool *p, worker *w)
{
    int task[2];
    if (pipe(task) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p->pipe_in);
        close(task[1]);
        for (int i = 0; i < p->o->jobs; i++) /* the others' ends: theirs alone */
            if (p->workers[i].pid > 0)
                close(p->workers[i].task_fd);
        work(p, task[0]);
    }
    close(task[0]);
    if (pid < 0) {
        close(task[1]);
        fprintf(stderr, "hgemm-fuzz: fork: %s\n", strerror(errno));
        return -1;
    }
    *w = (worker){.pid = pid, .task_fd = task[1], .index = -1, .cases = 0};
    return 0;
}

static void stop_worker(worker *w)
{
    const long stop = -1;
    if (write(w->task_fd, &stop, sizeof stop) < 0) { /* it is gone already: reap says so */
    }
    close(w->task_fd);
    w->task_fd = -1;
}

/* Gives an idle worker (a new one in place of one that ran its share) the next case. */
static void assign(pool *p, worker *w)
{
    if (w->pid > 0 && w->cases >= WORKER_CASES) {
        stop_worker(w);
        w->pid = 0; /* reap takes it */
    }
    if (w->pid <= 0 && start_worker(p, w) != 0)
        return;
    const long index = p->next;
    if (write(w->task_fd, &index, sizeof index) != (ssize_t)sizeof index)
        return;
    w->index = p->next++;
    w->cases++;
}

/* A worker that ended with a case unanswered: that case failed (the harness's own bug). */
static void reap(pool *p)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        for (int i = 0; i < p->o->jobs; i++) {
            worker *w = &p->workers[i];
            if (w->pid != pid)
                continue;
            drain(p); /* its last line may be in the pipe still */
            if (w->index >= 0) {
                printf("FAIL case %ld: the worker running it ended (status %d): a bug of the fuzzer\n", w->index,
                       status);
                p->failures++;
                w->index = -1;
            }
            close(w->task_fd);
            w->pid = 0;
        }
}

static int busy(const pool *p)
{
    for (int i = 0; i < p->o->jobs; i++)
        if (p->workers[i].index >= 0)
            return 1;
    return 0;
}

static void run_pool(pool *p, double deadline)
{
    while (p->next < p->last || busy(p)) {
        for (int i = 0; i < p->o->jobs && p->next < p->last && now_s() < deadline; i++)
            if (p->workers[i].index < 0)
                assign(p, &p->workers[i]);
        if (now_s() >= deadline && p->next < p->last) {
            p->last = p->next; /* the time is up: finish what runs */
            p->out_of_time = 1;
        }
        drain(p);
        reap(p);
        struct timespec pause = {0, 2000000}; /* 2 ms */
        nanosleep(&pause, NULL);
    }
    drain(p);
    for (int i = 0; i < p->o->jobs; i++)
        if (p->workers[i].pid > 0)
            stop_worker(&p->workers[i]);
    while (wait(NULL) > 0)
        ;
}

static void print_summary(const pool *p, double seconds, uint64_t seed)
{
    printf("\nhgemm-fuzz: seed %llu, %ld cases in %.1f s, %ld failed\n", (unsigned long long)seed, p->done, seconds,
           p->failures);
    printf("%-10s %7s %7s  %-34s %s\n", "class", "cases", "failed", "commands", "exit codes (code:cases)");
    for (size_t k = 0; k < fuzz_class_count; k++) {
        const class_stats *s = &p->stats[k];
        if (!s->cases)
            continue;
        char codes[512] = "";
        size_t used = 0;
        for (int c = 0; c < 258 && used < sizeof codes; c++) {
            if (!s->exits[c])
                continue;
            char name[16];
            if (c >= 256)
                snprintf(name, sizeof name, "%s", c == 256 ? "hang" : "crash");
            else
                snprintf(name, sizeof name, "%d", c);
            used += (size_t)snprintf(codes + used, sizeof codes - used, "%s%s:%ld", used ? " " : "", name,
                                     s->exits[c]);
        }
        printf("%-10s %7ld %7ld  %-34s %s\n", fuzz_classes[k].name, s->cases, s->failed, s->commands, codes);
    }
}

int main(int argc, char **argv)
{
    options o;
    if (parse(argc, argv, &o) != 0)
        return 2;
    /* No command of a case may reach a GPU: those that get that far find none. */
    if (setenv("CUDA_VISIBLE_DEVICES", "", 1) != 0 || signal(SIGPIPE, SIG_IGN) == SIG_ERR)
        return 1;
    fuzz_remove_tree(o.work);
    char cache[FUZZ_PATH];
    snprintf(cache, sizeof cache, "%s/cache", o.work);
    if (mkdir(o.work, 0755) != 0 || mkdir(cache, 0755) != 0 || setenv("HGEMM_BENCH_CACHE_DIR", cache, 1) != 0) {
        fprintf(stderr, "hgemm-fuzz: cannot make %s: %s\n", o.work, strerror(errno));
        return 1;
    }
    /* absolute: every case runs in a folder of its own */
    static char work[PATH_MAX], candidates[PATH_MAX], keep[PATH_MAX];
    if (!realpath(o.work, work) || !realpath(o.candidates, candidates)) {
        fprintf(stderr, "hgemm-fuzz: %s or %s: %s\n", o.work, o.candidates, strerror(errno));
        return 1;
    }
    o.work = work;
    o.candidates = candidates;
    if (o.keep && mkdir(o.keep, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "hgemm-fuzz: cannot make %s: %s\n", o.keep, strerror(errno));
        return 1;
    }
    if (o.keep && realpath(o.keep, keep))
        o.keep = keep;
    static fuzz_corpus corpus;
    if (fuzz_make_corpus(o.work, o.candidates, &corpus) != 0)
        return 1;
    fuzz_huge_pages();
    const uint64_t corpus_digest = fuzz_tree_digest(corpus.root);
    int fds[2];
    if (pipe(fds) != 0 || fcntl(fds[0], F_SETFL, O_NONBLOCK) != 0)
        return 1;
    static pool p;
    p = (pool){.o = &o, .corpus = &corpus, .pipe_in = fds[0], .pipe_out = fds[1], .next = 0, .last = o.cases};
    for (int i = 0; i < o.jobs; i++)
        p.workers[i] = (worker){.pid = 0, .task_fd = -1, .index = -1};
    if (o.only_case >= 0) {
        p.next = o.only_case;
        p.last = o.only_case + 1;
    }
    const double start = now_s();
    run_pool(&p, start + o.time_s);
    print_summary(&p, now_s() - start, o.seed);
    if (fuzz_tree_digest(corpus.root) != corpus_digest) {
        printf("FAIL: the corpus in %s was changed by a case\n", corpus.root);
        p.failures++;
    }
    if (p.out_of_time)
        printf("note: the time limit (--time-s %.0f) ended the run after %ld of %ld cases\n", o.time_s, p.done,
               o.cases);
    return p.failures ? 1 : 0;
}
