/* GPU tests of the fault paths through the driver binary: a harness killed
 * by SIGKILL while its worker is stuck in a never-finishing kernel leaves no
 * process behind (the worker dies with it and releases the GPU), and a run
 * interrupted by SIGINT during its first configuration writes what it has
 * and exits 130.  The harness is started in a session of its own (setsid),
 * so that every process it started can be found by its session id, which is
 * the harness's pid.  Each test skips, and is counted, without a GPU. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define MAX_MEMBERS 64

static void sleep_s(double seconds)
{
    struct timespec t = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

static const char *bench_path(void)
{
    const char *bench = getenv("HB_BENCH");
    return bench && *bench ? bench : "build/hgemm-bench";
}

/* Starts `hgemm-bench args...` (args[0] the command) in a new session, its
 * stdout and stderr into dir/stdout.txt and dir/stderr.txt; its pid, which
 * is also the session's id. */
static pid_t spawn_in_session(const char *const *args, const char *dir)
{
    char *argv[64];
    size_t n = 0;
    argv[n++] = (char *)bench_path();
    for (const char *const *a = args; *a && n < 63; a++)
        argv[n++] = (char *)*a;
    argv[n] = NULL;
    char out[700], err[700];
    snprintf(out, sizeof out, "%s/stdout.txt", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    hb_test_make_folder(dir); /* the child opens its stdout and stderr there */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644), e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (setsid() < 0 || o < 0 || e < 0 || dup2(o, STDOUT_FILENO) < 0 || dup2(e, STDERR_FILENO) < 0)
            _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

/* The live processes of session `sid` (zombies hold nothing and count as
 * gone), into pids; their number. */
static int session_members(pid_t sid, pid_t *pids, int max)
{
    DIR *proc = opendir("/proc");
    assert_non_null(proc);
    int count = 0;
    for (struct dirent *e; (e = readdir(proc));) {
        char *end = NULL;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0)
            continue;
        char path[64], text[1024];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *f = fopen(path, "r");
        if (!f)
            continue; /* gone meanwhile */
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        const char *after = strrchr(text, ')'); /* "pid (comm) S ppid pgrp session ..." */
        char state;
        int ppid, pgrp, session;
        if (!after || sscanf(after + 1, " %c %d %d %d", &state, &ppid, &pgrp, &session) != 4)
            continue;
        if (session == sid && state != 'Z' && state != 'X') {
            if (count < max)
                pids[count] = (pid_t)pid;
            count++;
        }
    }
    closedir(proc);
    return count;
}

/* Waits up to `seconds` for the session to have no live process left. */
static int session_empties_within(pid_t sid, double seconds)
{
    pid_t pids[MAX_MEMBERS];
    const double start = hb_now_s();
    while (session_members(sid, pids, MAX_MEMBERS) > 0) {
        if (hb_now_s() - start > seconds)
            return 0;
        sleep_s(0.1);
    }
    return 1;
}

/* Kills whatever is left of the session (so a failing test leaves nothing
 * holding the GPU) and fails naming it. */
static void fail_with_leftovers(pid_t sid, const char *what)
{
    pid_t pids[MAX_MEMBERS];
    int n = session_members(sid, pids, MAX_MEMBERS);
    char list[512] = "";
    for (int i = 0; i < n && i < MAX_MEMBERS; i++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, " %ld", (long)pids[i]);
        kill(pids[i], SIGKILL);
    }
    fail_msg("%s: %d process(es) of the harness's session still alive:%s", what, n, list);
}

/* The harness's exit status within `seconds`, or -1 (then it is killed). */
static int exit_status_within(pid_t pid, double seconds)
{
    const double start = hb_now_s();
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (hb_now_s() - start > seconds) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        sleep_s(0.05);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The run folder under `out` once it holds summary.csv (the device was read
 * and the sinks began: the first configuration's worker is starting). */
static int wait_for_run_folder(const char *out, pid_t harness, double seconds, char *run_dir, size_t size)
{
    const double start = hb_now_s();
    while (hb_now_s() - start < seconds) {
        if (waitpid(harness, NULL, WNOHANG) == harness)
            return 0; /* it ended: nothing to interrupt */
        DIR *d = opendir(out);
        for (struct dirent *e; d && (e = readdir(d));) {
            char path[1024];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s/summary.csv", out, e->d_name);
            if (e->d_name[0] != '.' && stat(path, &st) == 0) {
                snprintf(run_dir, size, "%s/%s", out, e->d_name);
                closedir(d);
                return 1;
            }
        }
        if (d)
            closedir(d);
        sleep_s(0.1);
    }
    return 0;
}

static void fail_with_stderr(const char *dir, const char *what)
{
    char path[700];
    snprintf(path, sizeof path, "%s/stderr.txt", dir);
    char *text = hb_test_read_file(path);
    fail_msg("%s; the harness's stderr:\n%s", what, text ? text : "(none)");
}

/* kill -9 of the harness while its worker spins in never_finishes' kernel
 * (timeout 600 s, so only the worker's death with its parent can end it):
 * within seconds nothing of the harness's session is left. */
static void test_gpu_killed_harness_leaves_no_worker(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char dir[512], out[700], candidate[1024], run_dir[1024];
    hb_test_make_temp_dir("hb-kill9", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(candidate, sizeof candidate, "%s/candidates/broken/never_finishes", hb_test_build_dir());
    const char *args[] = {"check", "--candidate", candidate, "--mnk", "64,64,64", "--timeout-s", "600", "--out", out,
                          "--no-progress", "--autotune-cache", "none", "--no-autotune-search", NULL};
    pid_t harness = spawn_in_session(args, dir);
    if (!wait_for_run_folder(out, harness, 120, run_dir, sizeof run_dir)) {
        kill(harness, SIGKILL);
        fail_with_stderr(dir, "the harness never began its run");
    }
    sleep_s(8); /* the worker's set-up, then the first exact-match call: the kernel that never ends */
    pid_t pids[MAX_MEMBERS];
    int members = session_members(harness, pids, MAX_MEMBERS);
    if (members < 2) { /* the harness and its worker */
        kill(harness, SIGKILL);
        waitpid(harness, NULL, 0);
        fail_with_stderr(dir, "no worker was running the kernel");
    }
    assert_int_equal(kill(harness, SIGKILL), 0);
    assert_int_equal(waitpid(harness, NULL, 0), harness);
    if (!session_empties_within(harness, 15))
        fail_with_leftovers(harness, "15 s after kill -9 of the harness");
    hb_test_remove_tree(dir);
}

/* SIGINT during the first of three configurations: exit 130; summary.csv is
 * its header; env.json whole; verdict.json interrupted, with the three
 * configurations not run; no process left. */
static void test_gpu_sigint_writes_what_it_has(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char dir[512], out[700], candidate[1024], run_dir[1024], path[1200];
    hb_test_make_temp_dir("hb-sigint", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(candidate, sizeof candidate, "%s/candidates/sample_simple", hb_test_build_dir());
    const char *args[] = {"run", "--candidate", candidate, "--mnk", "64,64,64", "--mnk", "128,128,128", "--mnk",
                          "256,256,256", "--warmup-s", "60", "--time-s", "60", "--out", out, "--no-progress", "--seed",
                          "7", NULL};
    pid_t harness = spawn_in_session(args, dir);
    if (!wait_for_run_folder(out, harness, 120, run_dir, sizeof run_dir)) {
        kill(harness, SIGKILL);
        fail_with_stderr(dir, "the harness never began its run");
    }
    sleep_s(3); /* inside the first configuration: its set-up, checks or 60 s warm-up */
    assert_int_equal(kill(harness, SIGINT), 0);
    int rc = exit_status_within(harness, 30);
    if (rc != 130)
        fail_with_stderr(dir, rc < 0 ? "the harness did not exit within 30 s of SIGINT" : "the exit status is not 130");
    if (!session_empties_within(harness, 10))
        fail_with_leftovers(harness, "10 s after SIGINT");

    snprintf(path, sizeof path, "%s/summary.csv", run_dir);
    char *csv = hb_test_read_file(path);
    char *header = hb_test_read_file("tests/data/summary_header.csv");
    assert_non_null(csv);
    assert_non_null(header);
    assert_string_equal(csv, header); /* the header, flushed at begin; no configuration finished */
    free(csv);
    free(header);
    snprintf(path, sizeof path, "%s/env.json", run_dir);
    json_t *env = hb_test_load_json(path);
    assert_true(json_is_object(json_object_get(env, "gpu")));
    json_decref(env);
    snprintf(path, sizeof path, "%s/verdict.json", run_dir);
    json_t *v = hb_test_load_json(path);
    assert_true(json_is_true(json_object_get(v, "interrupted")));
    assert_string_equal(json_string_value(json_object_get(v, "signal")), "SIGINT");
    assert_string_equal(json_string_value(json_object_get(v, "verdict")), "interrupted");
    assert_int_equal(json_integer_value(json_object_get(v, "exit_code")), 130);
    assert_int_equal(json_array_size(json_object_get(v, "configs")), 0);
    json_t *not_run = json_object_get(v, "not_run");
    assert_int_equal(json_array_size(not_run), 3);
    const long sizes[3] = {64, 128, 256};
    for (size_t i = 0; i < 3; i++)
        for (size_t d = 0; d < 3; d++)
            assert_int_equal(json_integer_value(json_array_get(json_array_get(not_run, i), d)), sizes[i]);
    json_decref(v);
    snprintf(path, sizeof path, "%s/stdout.txt", dir);
    assert_true(hb_test_file_contains(path, "verdict: interrupted (exit 130)"));
    hb_test_remove_tree(dir);
}

hb_test_list hb_gpu_fault_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_killed_harness_leaves_no_worker),
        cmocka_unit_test(test_gpu_sigint_writes_what_it_has),
    };
    return HB_TEST_LIST(tests);
}
