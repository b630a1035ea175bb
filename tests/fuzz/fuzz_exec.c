/* Running one command of a case in a child, with a time limit; the files a
 * case copies, damages and compares. */
#define _XOPEN_SOURCE 700 /* nftw, setpgid */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/version.h"
#include "bench/driver/commands.h"
#include "bench/driver/options.h"
#include "tests/fuzz/fuzz.h"

double fuzz_timeout_s = 20.0;

/* Exit codes the sanitizers are told to use (fuzz_main.c sets ASAN_OPTIONS and UBSAN_OPTIONS). */
#define ASAN_EXIT 99
#define UBSAN_EXIT 98

/* main() of bench/driver/main.c, without the exec: the same parse and command. */
static int run_program(int argc, char **argv)
{
    static hb_cli cli;
    hb_status status = hb_cli_parse(argc, argv, &cli);
    if (status != HB_OK)
        return status;
    if (cli.command == HB_CMD_VERSION)
        return printf("%s %s\n", hb_this_program.name, hb_harness_commit()) < 0 ? HB_ERR_IO : HB_OK;
    const hb_command_entry *command = hb_command_of(cli.command);
    return command ? (int)command->run(command, &cli, "hgemm-fuzz") : HB_ERR_INTERNAL;
}

/* In the child: its own process group (so a hang's workers die with it),
 * the case's folder, its output into files. */
static void enter_child(const char *dir)
{
    char path[FUZZ_PATH + 16];
    setpgid(0, 0);
    if (chdir(dir) != 0)
        _exit(120);
    snprintf(path, sizeof path, "out.txt");
    int out = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    snprintf(path, sizeof path, "err.txt");
    int err = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    int in = open("/dev/null", O_RDONLY);
    if (out < 0 || err < 0 || in < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 || dup2(in, 0) < 0)
        _exit(121);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Waits for the child, killing its group past the limit. */
static int wait_child(pid_t pid, fuzz_outcome *out)
{
    const double deadline = now_s() + fuzz_timeout_s;
    int status = 0;
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        if (done < 0 && errno != EINTR) {
            snprintf(out->detail, sizeof out->detail, "waitpid: %s", strerror(errno));
            return -3;
        }
        if (now_s() > deadline) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            snprintf(out->detail, sizeof out->detail, "hang: still running after %.0f s", fuzz_timeout_s);
            return -2;
        }
        struct timespec pause = {0, 2000000}; /* 2 ms */
        nanosleep(&pause, NULL);
    }
    kill(-pid, SIGKILL); /* anything it left behind (a sweep's workers) */
    if (WIFSIGNALED(status)) {
        snprintf(out->detail, sizeof out->detail, "crash: killed by signal %d", WTERMSIG(status));
        return -3;
    }
    int code = WEXITSTATUS(status);
    if (code == ASAN_EXIT || code == UBSAN_EXIT) {
        snprintf(out->detail, sizeof out->detail, "%s report (see err.txt)", code == ASAN_EXIT ? "AddressSanitizer"
                                                                                                 : "UBSan");
        return -3;
    }
    return code;
}

/* A sanitizer that reported and went on (a leak, a recoverable check) still shows in err.txt. */
static int sanitizer_said(const char *dir, fuzz_outcome *out)
{
    char path[FUZZ_PATH + 16];
    snprintf(path, sizeof path, "%s/err.txt", dir);
    size_t size;
    char *text = fuzz_read_file(path, &size);
    int said = text && (strstr(text, "runtime error:") || strstr(text, "ERROR: AddressSanitizer") ||
                        strstr(text, "ERROR: LeakSanitizer"));
    if (said)
        snprintf(out->detail, sizeof out->detail, "a sanitizer report in err.txt");
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

int fuzz_call(const char *dir, int (*fn)(void *), void *arg, fuzz_outcome *out)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(out->detail, sizeof out->detail, "fork: %s", strerror(errno));
        return -3;
    }
    if (pid == 0) {
        enter_child(dir);
        int code = fn(arg);
        fflush(NULL);
        _exit(code);
    }
    int code = wait_child(pid, out);
    return code >= 0 && sanitizer_said(dir, out) ? -3 : code;
}

int fuzz_command(const char *dir, const char *const *argv, fuzz_outcome *out)
{
    return fuzz_call(dir, run_argv, (void *)argv, out);
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

int fuzz_copy_tree(const char *from, const char *to)
{
    char command[3 * FUZZ_PATH];
    snprintf(command, sizeof command, "cp -R '%s' '%s'", from, to);
    return system(command) == 0 ? 0 : -1;
}

static uint64_t tree_hash;
static size_t tree_root_length;

static void hash_bytes(const void *data, size_t size)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i++)
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
