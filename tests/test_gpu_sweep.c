/* A sweep on the GPU, killed with SIGKILL midway and resumed: the folder
 * ends with every item exactly once, the same columns and the same plan
 * (docs/sweeps.md, "Resume"). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static void sleep_s(double seconds)
{
    struct timespec t = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&t, NULL);
}

/* The sweep, started in the background: its pid. */
static pid_t start_sweep(const char *dir, const char *args)
{
    char command[4096];
    hb_test_make_folder(dir); /* out1.txt and err1.txt are redirected into it */
    snprintf(command, sizeof command, "exec %s sweep %s --out %s/sweep --no-progress >%s/out1.txt 2>%s/err1.txt",
             hb_test_bench(), args, dir, dir, dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Waits until the journal holds `lines` whole lines (or the sweep ended). */
static int wait_for_journal(const char *journal, pid_t pid, int lines, double timeout_s)
{
    for (double waited = 0; waited < timeout_s; waited += 0.05) {
        if (hb_test_count_lines(journal) >= lines)
            return 1;
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return 0;
        sleep_s(0.05);
    }
    return 0;
}

static void test_sweep_resumes_after_kill_9(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char dir[512], path[700], command[4096], args[2048], journal[700], csv[700];
    hb_test_make_temp_dir("hb-gpu-sweep", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/plan.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("64,64,64\n128,64,64\n64,128,128\n128_128_128\n256,128,64\n64,64,256\n", f);
    fclose(f);
    snprintf(args, sizeof args,
             "--candidate %s/candidates/sample_mma/manifest.json --mnk-file %s --modes offline,server --warmup-s 0.05 "
             "--time-s 0.3 --exact-reps 1 --autotune-cache %s/autotune.tsv --seed 3",
             hb_test_build_dir(), path, dir);
    snprintf(journal, sizeof journal, "%s/sweep/journal.jsonl", dir);
    snprintf(csv, sizeof csv, "%s/sweep/summary.csv", dir);
    pid_t pid = start_sweep(dir, args);
    int reached = wait_for_journal(journal, pid, 3, 240);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    if (!reached) {
        snprintf(path, sizeof path, "%s/err1.txt", dir);
        char *err = hb_test_read_file(path);
        fail_msg("the sweep ended or stalled before 3 items: %s", err ? err : "");
    }
    sleep_s(1.0); /* its workers die with it (PR_SET_PDEATHSIG) */
    snprintf(command, sizeof command, "cp %s/sweep/plan.json %s/plan-before.json", dir, dir);
    assert_int_equal(hb_test_shell(command), 0);
    int killed_at = hb_test_count_lines(journal);
    assert_true(killed_at >= 3 && killed_at < 12);
    snprintf(command, sizeof command, "%s sweep --resume %s/sweep --no-progress >%s/out2.txt 2>%s/err2.txt", hb_test_bench(),
             dir, dir, dir);
    int rc = hb_test_shell(command);
    if (rc != 0) {
        snprintf(path, sizeof path, "%s/err2.txt", dir);
        char *err = hb_test_read_file(path);
        fail_msg("resume exited %d: %s", rc, err ? err : "");
    }
    assert_int_equal(hb_test_count_lines(journal), 12);
    /* the same plan, byte for byte */
    snprintf(command, sizeof command, "cmp -s %s/sweep/plan.json %s/plan-before.json", dir, dir);
    assert_int_equal(hb_test_shell(command), 0);
    /* the same columns: the header is this harness's */
    snprintf(command, sizeof command, "head -n 1 %s | cmp -s - tests/data/summary_header.csv", csv);
    assert_int_equal(hb_test_shell(command), 0);
    /* every (configuration, mode, participant) exactly once: 12 candidate rows, 12 torch rows, no repeat */
    snprintf(command, sizeof command,
             "awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{print $2\",\"$3\",\"$4\",\"$(c[\"mode\"])\",\"$5}' %s "
             "> %s/keys.txt && test $(sort %s/keys.txt | uniq -d | wc -l) -eq 0 && "
             "test $(grep -c ',candidate$' %s/keys.txt) -eq 12 && test $(grep -c ',torch$' %s/keys.txt) -eq 12 && "
             "test $(grep -c ',server,torch$' %s/keys.txt) -eq 6",
             csv, dir, dir, dir, dir, dir);
    assert_int_equal(hb_test_shell(command), 0);
    snprintf(path, sizeof path, "%s/sweep/verdict.json", dir);
    json_t *verdict = hb_test_load_json(path);
    assert_true(json_is_true(json_object_get(verdict, "complete")));
    assert_int_equal(json_integer_value(json_object_get(verdict, "done")), 12);
    assert_int_equal(json_array_size(json_object_get(verdict, "not_run")), 0);
    json_decref(verdict);
    snprintf(path, sizeof path, "%s/sweep/env-session-2.json", dir);
    assert_true(access(path, R_OK) == 0); /* the resumed session's environment, beside the first's */
    hb_test_remove_tree(dir);
}

static const struct CMUnitTest gpu_sweep_tests[] = {
    cmocka_unit_test(test_sweep_resumes_after_kill_9),
};

hb_test_list hb_gpu_sweep_tests(void)
{
    return HB_TEST_LIST(gpu_sweep_tests);
}
