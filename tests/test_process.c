/* Tests of bench/core/process.c, the one place the harness starts
 * processes: arguments reach a program byte for byte with no shell between,
 * a time limit or a stop kills the whole group, how a child ended is told
 * in words, a capture keeps what fits; and of what is built on it: a
 * command's output file that is a link or a FIFO is refused without
 * waiting, and `hgemm-bench import`'s nvcc version probe runs no shell code
 * held in the --nvcc path or $CUDA_HOME.  CPU only.
 *
 * The function children below run in a forked copy of this test program:
 * they never use cmocka's assertions (a failed one would longjmp back into
 * the runner inside the child) and end by returning or with _exit. */
#define _GNU_SOURCE /* mkfifo, realpath, setenv */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/out_file.h"
#include "bench/core/process.h"
#include "bench/driver/stage_child.h"
#include "bench/import/command_run.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* Words a shell would act on: quotes, backquotes, $(...), ;, spaces, a
 * redirection, a newline.  Each would create the file "pwned" in the
 * child's folder if a shell read it. */
static const char *const hostile[] = {
    "plain",
    "two words",
    "it's \"quoted\"",
    "`touch pwned`",
    "$(touch pwned)",
    "a;touch pwned;b",
    "x' ; touch pwned ; echo '",
    "> pwned",
    "| touch pwned",
    "line\nbreak && touch pwned",
    "back\\slash $HOME *",
    "",
};
#define HOSTILE_COUNT (sizeof hostile / sizeof hostile[0])

static void sleep_s(double seconds)
{
    struct timespec t = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

static int gone_soon(pid_t pid)
{
    for (int i = 0; i < 40; i++) {
        if (kill(pid, 0) == -1 && errno == ESRCH)
            return 1;
        char path[64], text[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
        FILE *f = fopen(path, "r");
        if (!f)
            return 1;
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        const char *paren = strrchr(text, ')'); /* "pid (comm) S ...": a zombie waits for init */
        if (paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'))
            return 1;
        sleep_s(0.05);
    }
    return 0;
}

static void expect_missing(const char *path)
{
    if (access(path, F_OK) == 0)
        fail_msg("%s exists: a shell ran", path);
}

/* --- children ------------------------------------------------------------------------------ */

static int child_exits_3(void *context)
{
    (void)context;
    return 3;
}

static int child_segfaults(void *context)
{
    (void)context;
    raise(SIGSEGV); /* its action is the default: the child's set-up reset it */
    return 91;
}

static void write_pid(int fd)
{
    pid_t pid = getpid();
    ssize_t n = write(fd, &pid, sizeof pid);
    (void)n;
}

/* Starts a grandchild, both report their pids and sleep. */
static int child_with_grandchild(void *context)
{
    const int fd = *(const int *)context;
    pid_t pid = fork();
    if (pid == 0) {
        write_pid(fd);
        for (;;)
            pause();
    }
    write_pid(fd);
    for (;;)
        pause();
    return 0;
}

static int child_sleeps(void *context)
{
    (void)context;
    for (;;)
        pause();
    return 0;
}

static int child_floods_stdout(void *context)
{
    (void)context;
    char block[4096];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 64; i++)
        if (write(STDOUT_FILENO, block, sizeof block) != (ssize_t)sizeof block)
            return 90;
    return 0;
}

static int stop_calls;
static int stop_after_a_few(void)
{
    return ++stop_calls > 5;
}

/* --- tests ----------------------------------------------------------------------------------- */

/* Every hostile word reaches printf (found in $PATH) as one argument, byte
 * for byte, and no shell runs any of it. */
static void test_process_passes_arguments_verbatim(void **state)
{
    (void)state;
    char dir[512];
    hb_test_make_temp_dir("hb-process", dir, sizeof dir);
    char *argv[HOSTILE_COUNT + 3] = {"printf", "[%s]"};
    char expected[2048] = "";
    for (size_t i = 0; i < HOSTILE_COUNT; i++) {
        argv[2 + i] = (char *)hostile[i];
        strcat(expected, "[");
        strcat(expected, hostile[i]);
        strcat(expected, "]");
    }
    hb_process p = HB_PROCESS_INIT;
    p.argv = argv;
    p.search_path = 1;
    p.cwd = dir;
    char text[4096];
    hb_capture out = {text, sizeof text, 0, 0};
    hb_process_end end;
    assert_int_equal(hb_process_capture(&p, 10, &out, &end), HB_OK);
    assert_true(end.exited);
    assert_int_equal(end.code, 0);
    assert_string_equal(text, expected);
    assert_int_equal(out.length, strlen(expected));
    assert_int_equal(out.cut, 0);
    char pwned[600];
    snprintf(pwned, sizeof pwned, "%s/pwned", dir);
    expect_missing(pwned);
    expect_missing("pwned");
    hb_test_remove_tree(dir);
}

/* A file the kernel cannot execute (no #!) is an error, never handed to
 * /bin/sh as execvp would: the commands in it do not run. */
static void test_process_runs_no_script_through_a_shell(void **state)
{
    (void)state;
    char dir[512], script[600], pwned[600];
    hb_test_make_temp_dir("hb-process", dir, sizeof dir);
    snprintf(script, sizeof script, "%s/not-a-program", dir);
    snprintf(pwned, sizeof pwned, "%s/pwned", dir);
    char text[700];
    snprintf(text, sizeof text, "touch '%s'\n", pwned);
    assert_int_equal(hb_out_file_write(script, text, strlen(text)), HB_OK);
    assert_int_equal(chmod(script, 0755), 0);
    char *argv[] = {script, NULL};
    hb_process p = HB_PROCESS_INIT;
    p.argv = argv;
    hb_process_end end;
    hb_diag_set_quiet(1);
    hb_status status = hb_process_run(&p, 10, NULL, &end);
    hb_diag_set_quiet(0);
    assert_int_equal(status, HB_ERR_INTERNAL);
    assert_non_null(strstr(hb_last_error(), "cannot run"));
    assert_non_null(strstr(hb_last_error(), strerror(ENOEXEC)));
    assert_true(p.reaped); /* nothing left to wait for */
    expect_missing(pwned);
    hb_test_remove_tree(dir);
}

/* What cannot be started says why: a missing program, one not in PATH, a
 * folder that is not there. */
static void test_process_start_failures_say_why(void **state)
{
    (void)state;
    hb_process_end end;
    char *missing[] = {"/nonexistent/hb-no-such-program", NULL};
    hb_process p = HB_PROCESS_INIT;
    p.argv = missing;
    hb_diag_set_quiet(1);
    assert_int_equal(hb_process_run(&p, 10, NULL, &end), HB_ERR_INTERNAL);
    hb_diag_set_quiet(0);
    assert_non_null(strstr(hb_last_error(), "cannot run /nonexistent/hb-no-such-program"));
    assert_non_null(strstr(hb_last_error(), strerror(ENOENT)));

    char *unknown[] = {"hb-no-such-program-anywhere", NULL};
    p = (hb_process)HB_PROCESS_INIT;
    p.argv = unknown;
    p.search_path = 1;
    hb_diag_set_quiet(1);
    assert_int_equal(hb_process_run(&p, 10, NULL, &end), HB_ERR_INTERNAL);
    hb_diag_set_quiet(0);
    assert_non_null(strstr(hb_last_error(), "not found in the absolute folders of PATH"));

    char *true_program[] = {"true", NULL};
    p = (hb_process)HB_PROCESS_INIT;
    p.argv = true_program;
    p.search_path = 1;
    p.cwd = "/nonexistent-folder-of-hb";
    hb_diag_set_quiet(1);
    assert_int_equal(hb_process_run(&p, 10, NULL, &end), HB_ERR_INTERNAL);
    hb_diag_set_quiet(0);
    assert_non_null(strstr(hb_last_error(), "in /nonexistent-folder-of-hb"));
}

/* A program keeps its standard streams and the descriptors named, and no
 * other: a descriptor the harness holds open does not reach it. */
static void test_process_closes_descriptors_not_kept(void **state)
{
    (void)state;
    int kept = open("/dev/null", O_RDONLY), other = open("/dev/null", O_RDONLY); /* neither close-on-exec */
    assert_true(kept > 2 && other > 2);
    char kept_path[64], other_path[64];
    snprintf(kept_path, sizeof kept_path, "/proc/self/fd/%d", kept);
    snprintf(other_path, sizeof other_path, "/proc/self/fd/%d", other);
    hb_process_end end;
    char text[256];
    hb_capture out = {text, sizeof text, 0, 0};
    char *ask_kept[] = {"readlink", kept_path, NULL};
    hb_process p = HB_PROCESS_INIT;
    p.argv = ask_kept;
    p.search_path = 1;
    p.keep[p.keep_count++] = kept;
    assert_int_equal(hb_process_capture(&p, 10, &out, &end), HB_OK);
    assert_true(end.exited && end.code == 0);
    assert_string_equal(text, "/dev/null\n");
    char *ask_other[] = {"readlink", other_path, NULL};
    p.argv = ask_other;
    p.err = HB_FD_NULL;
    assert_int_equal(hb_process_capture(&p, 10, &out, &end), HB_OK);
    assert_true(end.exited);
    assert_int_not_equal(end.code, 0); /* no such descriptor in the program */
    assert_string_equal(text, "");
    close(kept);
    close(other);
}

/* At the time limit the whole group is killed, a grandchild too, and the
 * end says so. */
static void test_process_timeout_kills_the_group(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    hb_process p = HB_PROCESS_INIT;
    p.fn = child_with_grandchild;
    p.context = &fds[1];
    p.new_group = 1;
    hb_process_end end;
    const double start = hb_now_s();
    assert_int_equal(hb_process_run(&p, 0.5, NULL, &end), HB_OK);
    assert_true(hb_now_s() - start < 5);
    assert_true(end.timed_out);
    assert_int_equal(end.signal, SIGKILL);
    char text[96];
    hb_process_end_text(&end, text, sizeof text);
    assert_string_equal(text, "timed out after 0.5 s");
    pid_t pids[2] = {0, 0};
    size_t got = 0;
    while (got < 2) {
        struct pollfd ready = {fds[0], POLLIN, 0};
        assert_int_equal(poll(&ready, 1, 1000), 1);
        assert_int_equal(read(fds[0], &pids[got], sizeof pids[got]), (ssize_t)sizeof pids[got]);
        got++;
    }
    for (size_t i = 0; i < 2; i++)
        if (!gone_soon(pids[i])) {
            kill(pids[i], SIGKILL);
            fail_msg("process %ld of the timed-out group is still alive", (long)pids[i]);
        }
    close(fds[0]);
    close(fds[1]);
}

/* The stop function is polled while the child runs; when it asks, the
 * child is killed and the end says stopped. */
static void test_process_stop_function_ends_it(void **state)
{
    (void)state;
    hb_process p = HB_PROCESS_INIT;
    p.fn = child_sleeps;
    p.new_group = 1;
    stop_calls = 0;
    hb_process_end end;
    const double start = hb_now_s();
    assert_int_equal(hb_process_run(&p, 60, stop_after_a_few, &end), HB_OK);
    assert_true(hb_now_s() - start < 5);
    assert_true(end.stopped);
    assert_false(end.timed_out);
    assert_true(stop_calls > 5);
    char text[96];
    hb_process_end_text(&end, text, sizeof text);
    assert_string_equal(text, "stopped");
}

/* How a child ended, in the words logs and reasons use. */
static void test_process_end_descriptions(void **state)
{
    (void)state;
    hb_process_end end;
    char text[96];
    hb_process p = HB_PROCESS_INIT;
    p.fn = child_exits_3;
    assert_int_equal(hb_process_run(&p, 10, NULL, &end), HB_OK);
    assert_true(end.exited);
    assert_int_equal(end.code, 3);
    hb_process_end_text(&end, text, sizeof text);
    assert_string_equal(text, "exit 3");

    p = (hb_process)HB_PROCESS_INIT;
    p.fn = child_segfaults;
    p.default_signals = 1; /* cmocka's handler is not the child's */
    assert_int_equal(hb_process_run(&p, 10, NULL, &end), HB_OK);
    assert_false(end.exited);
    assert_int_equal(end.code, -1);
    assert_int_equal(end.signal, SIGSEGV);
    hb_process_end_text(&end, text, sizeof text);
    assert_string_equal(text, "signal 11 (SIGSEGV)");
    /* a finished child is polled and waited for again without blocking */
    assert_int_equal(hb_process_poll(&p, &end), 1);
    assert_int_equal(end.signal, SIGSEGV);
    assert_int_equal(hb_process_wait(&p, 0, NULL, &end), HB_OK);
    assert_int_equal(end.signal, SIGSEGV);
}

/* A capture keeps what fits and reads the rest away, so the child is not
 * blocked and exits as it would; a capture that outlives its limit is
 * killed. */
static void test_process_capture_keeps_what_fits(void **state)
{
    (void)state;
    char text[64];
    hb_capture out = {text, sizeof text, 0, 0};
    hb_process_end end;
    hb_process p = HB_PROCESS_INIT;
    p.fn = child_floods_stdout;
    assert_int_equal(hb_process_capture(&p, 10, &out, &end), HB_OK);
    assert_true(end.exited);
    assert_int_equal(end.code, 0);
    assert_int_equal(out.length, sizeof text - 1);
    assert_int_equal(strlen(text), sizeof text - 1);
    assert_true(out.cut);

    p = (hb_process)HB_PROCESS_INIT;
    p.fn = child_sleeps;
    const double start = hb_now_s();
    assert_int_equal(hb_process_capture(&p, 0.3, &out, &end), HB_OK);
    assert_true(hb_now_s() - start < 5);
    assert_true(end.timed_out);
    assert_int_equal(out.length, 0);
    char how[96];
    hb_process_end_text(&end, how, sizeof how);
    assert_string_equal(how, "timed out after 0.3 s");
}

/* The checks below run in a watched child: a version that waits on the
 * FIFO is killed at the limit instead of hanging the tests. */
typedef struct output_case {
    const char *stdout_path, *log_path;
} output_case;

static int command_with_outputs(void *context)
{
    const output_case *c = context;
    char *argv[] = {"/bin/true", NULL};
    hb_command_end end;
    hb_diag_set_quiet(1);
    return hb_command_run(argv, NULL, c->stdout_path, c->log_path, 10, &end) == HB_ERR_IO ? 0 : 1;
}

static int stage_with_output(void *context)
{
    const output_case *c = context;
    hb_argv argv;
    memset(&argv, 0, sizeof argv);
    hb_argv_add(&argv, "hgemm-bench");
    hb_argv_add(&argv, "help");
    hb_stage_end end;
    hb_diag_set_quiet(1);
    static const int accepted[] = {0, -1};
    return hb_stage_child_run(&argv, c->stdout_path, accepted, &end) == HB_ERR_IO ? 0 : 1;
}

static void expect_refused_in_time(hb_process_fn fn, const output_case *c, const char *what)
{
    hb_process p = HB_PROCESS_INIT;
    p.fn = fn;
    p.context = (void *)c;
    p.new_group = 1;
    hb_process_end end;
    assert_int_equal(hb_process_run(&p, 5, NULL, &end), HB_OK);
    if (end.timed_out)
        fail_msg("%s: the open waited on the FIFO", what);
    if (!end.exited || end.code != 0)
        fail_msg("%s: not refused with HB_ERR_IO (exit %d)", what, end.code);
}

/* A command's stdout or log that is a symbolic link or a FIFO is refused
 * at once (HB_ERR_IO), and the link's target is left as it was. */
static void test_process_output_links_and_fifos_refused(void **state)
{
    (void)state;
    char dir[512], target[600], link_path[600], fifo[600], log[600];
    hb_test_make_temp_dir("hb-process", dir, sizeof dir);
    snprintf(target, sizeof target, "%s/target", dir);
    snprintf(link_path, sizeof link_path, "%s/link", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    assert_int_equal(hb_out_file_write(target, "keep me\n", 8), HB_OK);
    assert_int_equal(symlink(target, link_path), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const output_case cases[] = {{link_path, log}, {fifo, log}, {NULL, link_path}, {NULL, fifo}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_refused_in_time(command_with_outputs, &cases[i], cases[i].stdout_path ? cases[i].stdout_path
                                                                                     : cases[i].log_path);
    const output_case stage_cases[] = {{link_path, NULL}, {fifo, NULL}};
    for (size_t i = 0; i < sizeof stage_cases / sizeof stage_cases[0]; i++)
        expect_refused_in_time(stage_with_output, &stage_cases[i], stage_cases[i].stdout_path);
    char *text = hb_test_read_file(target);
    assert_non_null(text);
    assert_string_equal(text, "keep me\n");
    free(text);
    hb_test_remove_tree(dir);
}

/* --- item: the nvcc version probe ---------------------------------------------------------- */

/* A stand-in nvcc in DIR/<name>/bin/nvcc that prints a version. */
static void stand_in_nvcc(const char *folder, char *nvcc, size_t size)
{
    char bin[1100];
    snprintf(bin, sizeof bin, "%s/bin", folder);
    hb_test_make_folder(bin);
    snprintf(nvcc, size, "%s/nvcc", bin);
    const char *script = "#!/bin/sh\necho 'nvcc: NVIDIA (R) Cuda compiler driver'\necho 'Build cuda_hb_stand_in.r1'\n";
    assert_int_equal(hb_out_file_write(nvcc, script, strlen(script)), HB_OK);
    assert_int_equal(chmod(nvcc, 0755), 0);
}

/* `hgemm-bench import cuda-l2` in `dir`, stderr and stdout into LOG; it stops
 * at the missing CUTLASS, after the version probe.  The exit code. */
static int import_in(const char *dir, const char *nvcc, const char *log)
{
    char bench[PATH_MAX], kernels[PATH_MAX], out[1024], cutlass[1024];
    assert_non_null(realpath(hb_test_bench(), bench));
    assert_non_null(realpath("tests/data/cuda_l2/a100_F16F16F16F16", kernels));
    snprintf(out, sizeof out, "%s/set", dir);
    snprintf(cutlass, sizeof cutlass, "%s/no-cutlass", dir);
    char *argv[16] = {bench, "import", "cuda-l2", "--kernels", kernels, "--out", out, "--arch", "sm_80",
                      "--cutlass", cutlass};
    if (nvcc) {
        argv[11] = "--nvcc";
        argv[12] = (char *)nvcc;
    }
    int log_fd;
    assert_int_equal(hb_open_output(log, 0, &log_fd), HB_OK);
    hb_process p = HB_PROCESS_INIT;
    p.argv = argv;
    p.cwd = dir;
    p.in = HB_FD_NULL;
    p.out = p.err = log_fd;
    p.new_group = 1;
    hb_process_end end;
    assert_int_equal(hb_process_run(&p, 120, NULL, &end), HB_OK);
    close(log_fd);
    assert_true(end.exited);
    return end.code;
}

static void expect_in(const char *path, const char *needle)
{
    if (!hb_test_file_contains(path, needle)) {
        char *text = hb_test_read_file(path);
        fail_msg("%s lacks \"%s\":\n%s", path, needle, text ? text : "(missing)");
    }
}

/* A single quote and `;touch FILE;` in the folder of --nvcc, and in
 * $CUDA_HOME: the probe runs the stand-in and reads its version; no shell
 * runs the name. */
static void test_import_nvcc_probe_runs_no_shell_code(void **state)
{
    (void)state;
    char dir[512], folder[1024], nvcc[1200], log[1024], pwned[1024], line[1400];
    hb_test_make_temp_dir("hb-process", dir, sizeof dir);
    snprintf(folder, sizeof folder, "%s/cuda 'x;touch pwned;' $(touch pwned) `touch pwned`", dir);
    stand_in_nvcc(folder, nvcc, sizeof nvcc);
    snprintf(log, sizeof log, "%s/import.log", dir);
    snprintf(pwned, sizeof pwned, "%s/pwned", dir);

    /* --nvcc PATH */
    assert_int_equal(import_in(dir, nvcc, log), HB_ERR_BAD_INPUT); /* no CUTLASS: after the probe */
    snprintf(line, sizeof line, "import: nvcc %s (Build cuda_hb_stand_in.r1)", nvcc);
    expect_in(log, line);
    expect_missing(pwned);

    /* $CUDA_HOME */
    const char *home = getenv("CUDA_HOME");
    char saved[1024] = "";
    if (home)
        snprintf(saved, sizeof saved, "%s", home);
    assert_int_equal(setenv("CUDA_HOME", folder, 1), 0);
    int code = import_in(dir, NULL, log);
    if (home)
        setenv("CUDA_HOME", saved, 1);
    else
        unsetenv("CUDA_HOME");
    assert_int_equal(code, HB_ERR_BAD_INPUT);
    expect_in(log, line);
    expect_missing(pwned);

    /* an nvcc the kernel cannot run (no #!) is refused with the reason, its text not run by a shell */
    const char *not_a_program = "touch pwned\n";
    assert_int_equal(hb_out_file_write(nvcc, not_a_program, strlen(not_a_program)), HB_OK);
    assert_int_equal(chmod(nvcc, 0755), 0);
    assert_int_equal(import_in(dir, nvcc, log), HB_ERR_BAD_INPUT);
    expect_in(log, strerror(ENOEXEC));
    expect_in(log, "cannot be run");
    expect_missing(pwned);
    hb_test_remove_tree(dir);
}

static const struct CMUnitTest process_tests[] = {
    cmocka_unit_test(test_process_passes_arguments_verbatim),
    cmocka_unit_test(test_process_runs_no_script_through_a_shell),
    cmocka_unit_test(test_process_start_failures_say_why),
    cmocka_unit_test(test_process_closes_descriptors_not_kept),
    cmocka_unit_test(test_process_timeout_kills_the_group),
    cmocka_unit_test(test_process_stop_function_ends_it),
    cmocka_unit_test(test_process_end_descriptions),
    cmocka_unit_test(test_process_capture_keeps_what_fits),
    cmocka_unit_test(test_process_output_links_and_fifos_refused),
    cmocka_unit_test(test_import_nvcc_probe_runs_no_shell_code),
};

hb_test_list hb_process_tests(void) { return HB_TEST_LIST(process_tests); }
