/* Running one command of a case in a child, with a time limit; the files a
 * case copies, damages and compares. */
#define _GNU_SOURCE /* nftw, setpgid, sched_setaffinity */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/folder_lock.h"
#include "bench/core/version.h"
#include "bench/driver/commands.h"
#include "bench/driver/options.h"
#include "tests/fuzz/fuzz.h"

double fuzz_timeout_s = 20.0;

/* Exit codes the sanitizers are told to use (fuzz_main.c sets ASAN_OPTIONS and UBSAN_OPTIONS). */
#define ASAN_EXIT 99
#define UBSAN_EXIT 98

/* main() of bench/driver/main.c, without the exec: the same parse and command,
 * and the same command line in the folder locks it takes (their holder's name). */
static int run_program(int argc, char **argv)
{
    static hb_cli cli;
    static char line[8192];
    hb_status status = hb_cli_parse(argc, argv, &cli);
    if (status != HB_OK)
        return status;
    if (cli.command == HB_CMD_VERSION)
        return printf("%s %s\n", hb_this_program.name, hb_harness_commit()) < 0 ? HB_ERR_IO : HB_OK;
    const hb_command_entry *command = hb_command_of(cli.command);
    size_t used = 0;
    for (int i = 0; i < argc && used + 1 < sizeof line; i++) {
        int n = snprintf(line + used, sizeof line - used, "%s%s", i ? " " : "", argv[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    hb_folder_lock_set_command(line);
    return command ? (int)command->run(command, &cli, "hgemm-fuzz") : HB_ERR_INTERNAL;
}

/* The log files of a child: out.txt and err.txt, or LOG-out.txt and LOG-err.txt. */
static void log_name(const fuzz_how *how, const char *which, char *name, size_t size)
{
    if (how->log)
        snprintf(name, size, "%s-%s.txt", how->log, which);
    else
        snprintf(name, size, "%s.txt", which);
}

/* A full disk without root: no file of the child (or of what it runs: the
 * limit is inherited across exec, and so is an ignored signal) grows past
 * `room` bytes, and a write past it fails with EFBIG instead of a SIGXFSZ. */
static void fill_disk(const fuzz_how *how)
{
    if (!how->full_disk)
        return;
    struct rlimit limit = {(rlim_t)how->room, (rlim_t)how->room};
    if (signal(SIGXFSZ, SIG_IGN) == SIG_ERR || setrlimit(RLIMIT_FSIZE, &limit) != 0)
        _exit(122);
}

/* In the child: its own process group (so a hang's workers die with it),
 * the case's folder, its output into files; then it waits for the gate. */
static void enter_child(const char *dir, const fuzz_how *how, const int *gate)
{
    char name[FUZZ_PATH];
    setpgid(0, 0);
    if (chdir(dir) != 0)
        _exit(120);
    log_name(how, "out", name, sizeof name);
    int out = how->quiet ? open("/dev/null", O_WRONLY) : open(name, O_WRONLY | O_CREAT | O_APPEND, 0644);
    log_name(how, "err", name, sizeof name);
    int err = open(name, O_WRONLY | O_CREAT | O_APPEND, 0644);
    int in = open("/dev/null", O_RDONLY);
    if (out < 0 || err < 0 || in < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 || dup2(in, 0) < 0)
        _exit(121);
    fill_disk(how);
    if (gate) {
        char byte;
        close(gate[1]);
        while (read(gate[0], &byte, 1) < 0 && errno == EINTR)
            ;
        close(gate[0]);
    }
    if (how->cpu > 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(how->cpu - 1, &one);
        sched_setaffinity(0, sizeof one, &one); /* best effort: without it they interleave less */
    }
    if (how->delay_s > 0) {
        struct timespec pause = {(time_t)how->delay_s, (long)(1e9 * (how->delay_s - (double)(time_t)how->delay_s))};
        nanosleep(&pause, NULL);
    }
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Kills the child's group and says why: it ran past its limit, or past its
 * grace after the SIGTERM. */
static int hang(fuzz_child *child, double term_at, fuzz_outcome *out)
{
    int status;
    kill(-child->pid, SIGKILL);
    kill(child->pid, SIGKILL);
    waitpid(child->pid, &status, 0);
    if (term_at > 0)
        snprintf(out->detail, sizeof out->detail, "hang: still running %.0f s after a SIGTERM (sent %.2f s after "
                 "its start)", FUZZ_TERM_GRACE_S, term_at - child->started);
    else
        snprintf(out->detail, sizeof out->detail, "hang: still running after %.0f s",
                 child->how.timeout_s > 0 ? child->how.timeout_s : fuzz_timeout_s);
    return -2;
}

/* Waits for the child, sending the SIGTERM it is due and killing its group
 * past the limit. */
static int wait_child(fuzz_child *child, fuzz_outcome *out)
{
    const fuzz_how *how = &child->how;
    double deadline = child->started + (how->timeout_s > 0 ? how->timeout_s : fuzz_timeout_s), term_at = 0;
    int status = 0;
    for (;;) {
        pid_t done = waitpid(child->pid, &status, WNOHANG);
        if (done == child->pid)
            break;
        if (done < 0 && errno != EINTR) {
            snprintf(out->detail, sizeof out->detail, "waitpid: %s", strerror(errno));
            return -3;
        }
        const double now = now_s();
        if (how->term_after_s > 0 && term_at == 0 && now >= child->started + how->term_after_s) {
            kill(child->pid, SIGTERM); /* as `kill PID` sends it: to the command, not its group */
            term_at = now;
            if (deadline > now + FUZZ_TERM_GRACE_S)
                deadline = now + FUZZ_TERM_GRACE_S;
        }
        if (now > deadline)
            return hang(child, term_at, out);
        struct timespec pause = {0, 2000000}; /* 2 ms */
        nanosleep(&pause, NULL);
    }
    kill(-child->pid, SIGKILL); /* anything it left behind (a sweep's workers) */
    if (WIFSIGNALED(status) && term_at > 0 && WTERMSIG(status) == SIGTERM)
        return 128 + SIGTERM;
    if (WIFSIGNALED(status)) {
        snprintf(out->detail, sizeof out->detail, "crash: killed by signal %d", WTERMSIG(status));
        return -3;
    }
    int code = WEXITSTATUS(status);
    if (code == ASAN_EXIT || code == UBSAN_EXIT) {
        snprintf(out->detail, sizeof out->detail, "%s report (see %s)", code == ASAN_EXIT ? "AddressSanitizer"
                                                                                          : "UBSan", child->err_name);
        return -3;
    }
    return code;
}

/* A sanitizer that reported and went on (a leak, a recoverable check) still shows in its stderr. */
static int sanitizer_said(const fuzz_child *child, fuzz_outcome *out)
{
    size_t size;
    char *text = fuzz_read_file(child->err, &size);
    int said = text && (strstr(text, "runtime error:") || strstr(text, "ERROR: AddressSanitizer") ||
                        strstr(text, "ERROR: LeakSanitizer"));
    if (said)
        snprintf(out->detail, sizeof out->detail, "a sanitizer report in %s", child->err_name);
    free(text);
    return said;
}

/* The harness's main over argv, in the forked child (fuzz_call). */
static int run_argv(void *arg)
{
    char **argv = arg;
    int argc = 0;
    while (argv[argc])
        argc++;
    return run_program(argc, argv);
}

/* Forks the child that runs fn(arg) in `dir` the way `how` says. */
static int start(const char *dir, int (*fn)(void *), void *arg, const fuzz_how *how, const int *gate,
                 fuzz_child *child, fuzz_outcome *out)
{
    child->how = *how;
    log_name(how, "err", child->err_name, sizeof child->err_name);
    snprintf(child->err, sizeof child->err, "%s/%s", dir, child->err_name);
    fflush(NULL);
    child->started = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(out->detail, sizeof out->detail, "fork: %s", strerror(errno));
        return -3;
    }
    if (pid == 0) {
        enter_child(dir, how, gate);
        int code = fn(arg);
        fflush(NULL);
        _exit(code);
    }
    child->pid = (int)pid;
    return 0;
}

int fuzz_finish(fuzz_child *child, fuzz_outcome *out)
{
    int code = wait_child(child, out);
    return code >= 0 && sanitizer_said(child, out) ? -3 : code;
}

int fuzz_call(const char *dir, int (*fn)(void *), void *arg, fuzz_outcome *out)
{
    static const fuzz_how plain;
    fuzz_child child;
    return start(dir, fn, arg, &plain, NULL, &child, out) != 0 ? -3 : fuzz_finish(&child, out);
}

int fuzz_start(const char *dir, const char *const *argv, const fuzz_how *how, const int *gate, fuzz_child *child,
               fuzz_outcome *out)
{
    return start(dir, run_argv, (void *)argv, how, gate, child, out);
}

int fuzz_command_as(const char *dir, const char *const *argv, const fuzz_how *how, fuzz_outcome *out)
{
    fuzz_child child;
    return fuzz_start(dir, argv, how, NULL, &child, out) != 0 ? -3 : fuzz_finish(&child, out);
}

int fuzz_command(const char *dir, const char *const *argv, fuzz_outcome *out)
{
    static const fuzz_how plain;
    return fuzz_command_as(dir, argv, &plain, out);
}

/* --- the fork server's pages ----------------------------------------------------------------- */

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25 /* linux/mman.h (Linux 6.1); glibc's sys/mman.h names it from 2.37 */
#endif

/* A region of /proc/self/smaps worth collapsing: private, writable, anonymous
 * (no file, or the heap), and mostly written (an ASan shadow region is
 * terabytes reserved and little used: collapsing it would fill it). */
static int worth_collapsing(const char *perms, const char *name, unsigned long size, unsigned long rss_kib)
{
    return perms[1] == 'w' && perms[3] == 'p' && (name[0] == '\0' || !strcmp(name, "[heap]")) &&
           rss_kib > 4096 && rss_kib * 1024 > size / 4;
}

void fuzz_huge_pages(void)
{
    FILE *maps = fopen("/proc/self/smaps", "r");
    char line[1024], perms[8] = "", name[512] = "";
    unsigned long start = 0, end = 0, rss;
    const unsigned long huge = 1ul << 21; /* 2 MiB */
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long a, b;
        int at = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &a, &b, perms, &at) == 3) {
            start = a;
            end = b;
            snprintf(name, sizeof name, "%s", line + at);
            name[strcspn(name, "\n")] = '\0';
            continue;
        }
        if (sscanf(line, "Rss: %lu kB", &rss) != 1 || !worth_collapsing(perms, name, end - start, rss))
            continue;
        const unsigned long first = (start + huge - 1) & ~(huge - 1), last = end & ~(huge - 1);
        if (last > first)
            madvise((void *)first, last - first, MADV_COLLAPSE); /* best effort: EINVAL before Linux 6.1 */
    }
    if (maps)
        fclose(maps);
}

/* --- trees ----------------------------------------------------------------------------- */

char *fuzz_read_file(const char *path, size_t *size)
{
    struct stat st;
    *size = 0;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    FILE *f = fopen(path, "rb");
    char *data = f ? malloc((size_t)st.st_size + 1) : NULL;
    if (data && fread(data, 1, (size_t)st.st_size, f) == (size_t)st.st_size) {
        data[st.st_size] = '\0';
        *size = (size_t)st.st_size;
    } else {
        free(data);
        data = NULL;
    }
    if (f)
        fclose(f);
    return data;
}

int fuzz_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* The copy nftw makes (it takes no context): where the tree is copied from and to. */
static size_t copy_from_length;
static const char *copy_to;

static int copy_file(const char *from, const char *to, mode_t mode)
{
    size_t size;
    char *data = fuzz_read_file(from, &size);
    int fd = data ? open(to, O_WRONLY | O_CREAT | O_EXCL, mode & 07777) : -1;
    int failed = fd < 0 || (size && write(fd, data, size) != (ssize_t)size);
    if (fd >= 0 && close(fd) != 0)
        failed = 1;
    free(data);
    return failed ? -1 : 0;
}

static int copy_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    char to[2 * FUZZ_PATH + 16], target[FUZZ_PATH];
    if ((size_t)snprintf(to, sizeof to, "%s%s", copy_to, path + copy_from_length) >= sizeof to)
        return -1;
    if (type == FTW_D)
        return mkdir(to, st->st_mode & 07777);
    if (S_ISLNK(st->st_mode)) {
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n < 0)
            return -1;
        target[n] = '\0';
        return symlink(target, to);
    }
    if (S_ISFIFO(st->st_mode))
        return mkfifo(to, st->st_mode & 07777);
    return S_ISREG(st->st_mode) ? copy_file(path, to, st->st_mode) : 0; /* nothing else is in a case */
}

/* In this process, not through cp(1): a fork and two execs a copy were a
 * tenth of a case's time. */
int fuzz_copy_tree(const char *from, const char *to)
{
    copy_from_length = strlen(from);
    copy_to = to;
    return nftw(from, copy_entry, 16, FTW_PHYS) == 0 ? 0 : -1;
}

static uint64_t tree_hash;
static size_t tree_root_length;

/* FNV-1a over 8 bytes at a time (the corpus is hashed around every cli
 * case); each step is a bijection of the hash, so a change to any one word
 * always changes the digest. */
static void hash_bytes(const void *data, size_t size)
{
    const unsigned char *p = data;
    size_t i = 0;
    for (uint64_t word; i + sizeof word <= size; i += sizeof word) {
        memcpy(&word, p + i, sizeof word);
        tree_hash = (tree_hash ^ word) * 1099511628211ULL;
    }
    for (; i < size; i++)
        tree_hash = (tree_hash ^ p[i]) * 1099511628211ULL;
}

static int hash_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    const char *name = path + tree_root_length;
    hash_bytes(name, strlen(name) + 1);
    hash_bytes(&st->st_mode, sizeof st->st_mode);
    hash_bytes(&type, sizeof type);
    if (S_ISREG(st->st_mode)) {
        size_t size;
        char *data = fuzz_read_file(path, &size);
        hash_bytes(&size, sizeof size);
        if (data)
            hash_bytes(data, size);
        free(data);
    } else if (S_ISLNK(st->st_mode)) {
        char target[FUZZ_PATH];
        ssize_t n = readlink(path, target, sizeof target);
        if (n > 0)
            hash_bytes(target, (size_t)n);
    }
    return 0;
}

uint64_t fuzz_tree_digest(const char *path)
{
    tree_hash = 1469598103934665603ULL;
    tree_root_length = strlen(path);
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    nftw(path, hash_entry, 16, FTW_PHYS);
    return tree_hash;
}

/* A case's folder goes whatever it holds; what cannot be removed stays in the work folder. */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if ((type == FTW_DP ? rmdir(path) : unlink(path)) != 0 && errno != ENOENT)
        fprintf(stderr, "hgemm-fuzz: cannot remove %s: %s\n", path, strerror(errno));
    return 0;
}

void fuzz_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
        chmod(path, 0755);
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
