/* Tests of the sandbox (bench/driver/sandbox.h), CPU only.  Each case runs
 * in a child of hb_run_isolated (bench/driver/isolate.h), as the evaluating
 * child does: its own process group, the heartbeat pipe, the shared note; so
 * the test process itself is never sandboxed, and what a refused call leaves
 * is what the harness's parent reads.  The children never use cmocka's
 * assertions (a failure would longjmp into the runner inside the child):
 * they report through their result, or end, and the parent asserts.
 *
 * Where this kernel has no mseal or no Landlock the tests say so and check
 * what the sandbox does without it; the fallback without mseal (the range
 * filters alone) is also run on purpose here (without_mseal). */
#define _GNU_SOURCE /* ptrace, process_vm_writev, mremap, SHM_REMAP, syscall */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/core/child_note.h"
#include "bench/core/diag.h"
#include "bench/core/heartbeat.h"
#include "bench/driver/child_verdict.h"
#include "bench/driver/isolate.h"
#include "bench/driver/sandbox.h"
#include "bench/driver/sandbox_landlock.h"
#include "bench/driver/sandbox_seal.h"
#include "bench/result/run_options.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#ifndef SYS_mseal
#define SYS_mseal 462
#endif

/* How a child sandboxes itself. */
typedef struct mode {
    int without_mseal, without_landlock;
    int plain_user; /* become uid/gid 65534 first (the test runs as root) */
} mode;

/* What a child reports when it returns. */
typedef struct report {
    char summary[HB_CHILD_NOTE_SANDBOX];
    unsigned worked;  /* HONEST_* bits that worked */
    int errors[16];   /* errno of the calls a case expects to fail quietly */
    char failed[200]; /* the first step that went wrong, "" when none */
} report;

static int page_size(void)
{
    return (int)sysconf(_SC_PAGESIZE);
}

/* A page of this program's code: sealed (mapped before the sandbox, executable). */
static void *sealed_code_page(void)
{
    return (void *)((uintptr_t)&hb_sandbox_apply & ~(uintptr_t)(page_size() - 1));
}

static hb_status become_plain_user(report *out)
{
    if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0) {
        snprintf(out->failed, sizeof out->failed, "setuid to 65534: %s", strerror(errno));
        return HB_ERR_INTERNAL;
    }
    /* A credential change makes the process undumpable, its /proc files root's: as a plain user's own process. */
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    return HB_OK;
}

/* The sandbox as the evaluating child applies it: stdin, stdout, stderr and the heartbeat pipe protected. */
static hb_status sandbox_child(const mode *m, report *out)
{
    if (m->plain_user)
        HB_TRY(become_plain_user(out));
    hb_sandbox_setup setup = {.protected_fds = {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO, hb_heartbeat_descriptor()},
                              .n_fds = 4,
                              .note = hb_child_note_here(),
                              .without_mseal = m->without_mseal,
                              .without_landlock = m->without_landlock};
    hb_status status = hb_sandbox_apply(&setup, out->summary, sizeof out->summary);
    if (status != HB_OK)
        snprintf(out->failed, sizeof out->failed, "hb_sandbox_apply: %s", hb_last_error());
    return status;
}

/* --- what the kernel has ------------------------------------------------------------------ */

/* mseal on a page of a throwaway child. */
static int kernel_has_mseal(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        void *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        _exit(page != MAP_FAILED && syscall(SYS_mseal, page, 4096UL, 0UL) == 0 ? 0 : 1);
    }
    int status = 0;
    assert_true(pid > 0 && waitpid(pid, &status, 0) == pid);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void expected_summary(const mode *m, char *out, size_t size)
{
    const int mseal = !m->without_mseal && kernel_has_mseal();
    const int abi = m->without_landlock ? 0 : hb_landlock_abi();
    char landlock[16] = "";
    if (abi)
        snprintf(landlock, sizeof landlock, "+landlock%d", abi);
    snprintf(out, size, "%sseccomp%s", mseal ? "mseal+" : "", landlock);
    static int said;
    if (!said++) {
        if (!kernel_has_mseal())
            print_message("this kernel has no mseal: the range filters alone guard the sealed ranges\n");
        if (!hb_landlock_abi())
            print_message("this kernel has no Landlock: /proc/self/mem stays writable (the sandbox says so)\n");
    }
}

/* --- honest work under the sandbox ----------------------------------------------------------- */

enum {
    HONEST_MALLOC = 1u << 0,
    HONEST_MMAP = 1u << 1,
    HONEST_DLOPEN = 1u << 2,
    HONEST_THREAD = 1u << 3,
    HONEST_TMP_FILE = 1u << 4,
    HONEST_FORK = 1u << 5,
    HONEST_PROC_MEM_READ = 1u << 6,
    HONEST_SIGSYS_QUERY = 1u << 7,
    HONEST_DUP2_OWN = 1u << 8,
    HONEST_DEV_NULL_WRITE = 1u << 9,
    HONEST_ALL = (1u << 10) - 1
};

static void *thread_body(void *arg)
{
    return (char *)arg + 1;
}

static int anonymous_memory_works(void)
{
    const size_t bytes = 4 * (size_t)page_size();
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
    p[0] = 1;
    int ok = mprotect(p, bytes, PROT_READ) == 0 && mprotect(p, bytes, PROT_READ | PROT_WRITE) == 0;
    char *moved = ok ? mremap(p, bytes, 2 * bytes, MREMAP_MAYMOVE) : MAP_FAILED;
    ok = ok && moved != MAP_FAILED && moved[0] == 1;
    return munmap(ok ? moved : p, ok ? 2 * bytes : bytes) == 0 && ok;
}

static int tmp_file_works(void)
{
    char path[] = "/tmp/hb-sandbox-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    int ok = write(fd, "abc", 3) == 3 && ftruncate(fd, 1) == 0;
    close(fd);
    fd = open(path, O_WRONLY | O_TRUNC);
    ok = ok && fd >= 0;
    if (fd >= 0)
        close(fd);
    return unlink(path) == 0 && ok;
}

static int fork_works(void)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(7);
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 7;
}

static int proc_mem_read_works(void)
{
    static const char known[] = "read through /proc/self/mem";
    int fd = open("/proc/self/mem", O_RDONLY);
    char back[sizeof known] = "";
    int ok = fd >= 0 && pread(fd, back, sizeof back, (off_t)(uintptr_t)known) == (ssize_t)sizeof back &&
             !memcmp(back, known, sizeof known);
    if (fd >= 0)
        close(fd);
    return ok;
}

static int own_descriptors_work(void)
{
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    int ok = dup2(fds[0], fds[1]) == fds[1] && dup3(fds[0], fds[1], O_CLOEXEC) == fds[1];
    close(fds[0]);
    close(fds[1]);
    return ok;
}

static unsigned honest_work(void)
{
    unsigned worked = 0;
    char *big = malloc(64 << 20); /* above the mmap threshold: mmap and munmap underneath */
    if (big) {
        memset(big, 1, 64 << 20);
        free(big);
        worked |= HONEST_MALLOC;
    }
    worked |= anonymous_memory_works() ? HONEST_MMAP : 0;
    char path[4096]; /* a library loaded by nothing here */
    snprintf(path, sizeof path, "%s/tests/data/launchers/fixture_launcher.so", hb_test_build_dir());
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library && dlsym(library, "hgemm_launch_abi_version") && dlclose(library) == 0)
        worked |= HONEST_DLOPEN;
    pthread_t thread;
    void *back = NULL;
    static char arg[2];
    if (pthread_create(&thread, NULL, thread_body, arg) == 0 && pthread_join(thread, &back) == 0 && back == arg + 1)
        worked |= HONEST_THREAD;
    worked |= tmp_file_works() ? HONEST_TMP_FILE : 0;
    worked |= fork_works() ? HONEST_FORK : 0;
    worked |= proc_mem_read_works() ? HONEST_PROC_MEM_READ : 0;
    struct sigaction old;
    worked |= sigaction(SIGSYS, NULL, &old) == 0 ? HONEST_SIGSYS_QUERY : 0;
    worked |= own_descriptors_work() ? HONEST_DUP2_OWN : 0;
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0 && write(null, "x", 1) == 1)
        worked |= HONEST_DEV_NULL_WRITE;
    if (null >= 0)
        close(null);
    return worked;
}

static hb_status child_honest(void *context, void *result, size_t size)
{
    (void)size;
    report *out = result;
    HB_TRY(sandbox_child(context, out));
    out->worked = honest_work();
    /* What Landlock refuses, quietly: a /proc file opened for writing. */
    int fd = open("/proc/self/mem", O_RDWR);
    out->errors[0] = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    fd = open("/proc/self/comm", O_WRONLY);
    out->errors[1] = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    return HB_OK;
}

static void names_missing(unsigned worked, char *out, size_t size)
{
    static const char *const names[] = {"malloc",       "mmap/mprotect/mremap/munmap", "dlopen", "thread",
                                        "a /tmp file",  "fork",                         "/proc/self/mem read",
                                        "sigaction query of SIGSYS", "dup2 onto its own pipe", "/dev/null write"};
    out[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!(worked & (1u << i)))
            snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? ", " : "", names[i]);
}

static void run_honest(const mode *m)
{
    report *out = calloc(1, sizeof *out);
    assert_non_null(out);
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_honest, (void *)m, out, sizeof *out, 30, &outcome), HB_OK);
    if (outcome.end != HB_CHILD_RETURNED || outcome.status != HB_OK)
        fail_msg("the sandboxed child: %s (%s); note \"%s\"", outcome.message, out->failed, outcome.note);
    char expected[64], missing[300];
    expected_summary(m, expected, sizeof expected);
    assert_string_equal(out->summary, expected);
    assert_string_equal(outcome.sandbox, expected); /* the note carries it to the parent too */
    assert_string_equal(outcome.note, "");
    names_missing(out->worked, missing, sizeof missing);
    if (out->worked != HONEST_ALL)
        fail_msg("honest work failed under the sandbox (%s): %s", expected, missing);
    const int landlock = strstr(expected, "landlock") != NULL;
    assert_int_equal(out->errors[0], landlock ? EACCES : 0); /* /proc/self/mem for writing */
    assert_int_equal(out->errors[1], landlock ? EACCES : 0); /* any /proc file */
    free(out);
}

static void test_sandbox_honest_work_runs(void **state)
{
    (void)state;
    const mode full = {0, 0, 0};
    run_honest(&full);
}

static void test_sandbox_honest_work_runs_without_mseal_or_landlock(void **state)
{
    (void)state;
    const mode no_mseal = {1, 0, 0}, no_landlock = {0, 1, 0};
    run_honest(&no_mseal);
    run_honest(&no_landlock);
}

static void test_sandbox_as_a_plain_user(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("skipped: the plain-user case becomes uid 65534 from root, and this test runs as uid %ld\n",
                      (long)geteuid());
        skip();
        return;
    }
    const mode plain = {0, 0, 1};
    run_honest(&plain);
}

/* --- what it refuses ----------------------------------------------------------------------- */

/* A forbidden call, made after the sandbox; if it returns, its errno is the report's errors[0]. */
typedef struct forbidden {
    const char *name;
    long (*call)(void);
    const char *note; /* what the note must hold; NULL: the call must fail quietly with errno `quiet` */
    int quiet;
    mode mode;
} forbidden;

static long call_ptrace_traceme(void)
{
    return ptrace(PTRACE_TRACEME, 0, NULL, NULL);
}

static long call_ptrace_attach(void)
{
    return ptrace(PTRACE_ATTACH, getpid(), NULL, NULL);
}

static long call_process_vm_writev(void)
{
    static char here[8], there[8];
    struct iovec local = {here, sizeof here}, remote = {there, sizeof there};
    return process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
}

static long call_process_vm_readv(void)
{
    static char here[8], there[8];
    struct iovec local = {here, sizeof here}, remote = {there, sizeof there};
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
}

static long call_seccomp(void)
{
    unsigned action = SECCOMP_RET_KILL_PROCESS; /* a question that installs nothing */
    return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action);
}

static long call_prctl_seccomp(void)
{
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL, 0, 0); /* a NULL program: EFAULT if it got through */
}

static long call_dup2_heartbeat(void)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    return dup2(fds[1], hb_heartbeat_descriptor());
}

static long call_dup3_stdout(void)
{
    int fd = open("/dev/null", O_WRONLY);
    return fd < 0 ? -1 : dup3(fd, STDOUT_FILENO, 0);
}

static void ignore(int sig)
{
    (void)sig;
}

static long call_sigaction_sigsys(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = ignore;
    return sigaction(SIGSYS, &action, NULL);
}

static long call_mprotect_code(void)
{
    return mprotect(sealed_code_page(), (size_t)page_size(), PROT_READ | PROT_WRITE | PROT_EXEC);
}

static long call_pkey_mprotect_code(void)
{
    return syscall(SYS_pkey_mprotect, sealed_code_page(), (size_t)page_size(), PROT_READ | PROT_WRITE | PROT_EXEC, -1);
}

static long call_mmap_over_code(void)
{
    void *p = mmap(sealed_code_page(), (size_t)page_size(), PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS |
                   MAP_FIXED, -1, 0);
    return p == MAP_FAILED ? -1 : 0;
}

static long call_munmap_code(void)
{
    return munmap(sealed_code_page(), (size_t)page_size());
}

static long call_mremap_code(void)
{
    void *p = mremap(sealed_code_page(), (size_t)page_size(), 2 * (size_t)page_size(), MREMAP_MAYMOVE);
    return p == MAP_FAILED ? -1 : 0;
}

static long call_mremap_onto_code(void)
{
    void *own = mmap(NULL, (size_t)page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (own == MAP_FAILED)
        return -1;
    void *p = mremap(own, (size_t)page_size(), (size_t)page_size(), MREMAP_MAYMOVE | MREMAP_FIXED,
                     sealed_code_page());
    return p == MAP_FAILED ? -1 : 0;
}

static long call_shmat_remap(void)
{
    int id = shmget(IPC_PRIVATE, (size_t)page_size(), IPC_CREAT | 0600);
    if (id < 0)
        return -1;
    void *p = shmat(id, sealed_code_page(), SHM_REMAP);
    shmctl(id, IPC_RMID, NULL);
    return p == (void *)-1 ? -1 : 0;
}

static long call_x32(void)
{
    return syscall(0x40000000L | SYS_getpid);
}

#if defined(__x86_64__)
/* getpid through the 32-bit entry: a call of another architecture, which the filters' rules do not read. */
static long call_int80(void)
{
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
    return r;
}
#endif

/* The read-only table a harness keeps (as bench/gpu/entry_points.c does), made before the sandbox. */
static char *harness_table;

static long call_mprotect_table(void)
{
    return mprotect(harness_table, (size_t)page_size(), PROT_READ | PROT_WRITE);
}

static long call_munmap_table(void)
{
    return munmap(harness_table, (size_t)page_size());
}

static long call_open_proc_mem(void)
{
    int fd = open("/proc/self/mem", O_RDWR);
    if (fd >= 0)
        close(fd);
    return fd < 0 ? -1 : 0;
}

static hb_status child_forbidden(void *context, void *result, size_t size)
{
    (void)size;
    const forbidden *f = context;
    report *out = result;
    harness_table = mmap(NULL, (size_t)page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (harness_table == MAP_FAILED || mprotect(harness_table, (size_t)page_size(), PROT_READ) != 0)
        return HB_ERR_INTERNAL;
    HB_TRY(sandbox_child(&f->mode, out));
    errno = 0;
    long r = f->call();
    out->errors[0] = r < 0 ? errno : 0;
    return HB_OK;
}

static void expect_sandbox_verdict(const char *name, const hb_child_outcome *outcome, const char *note)
{
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    hb_record_child_end(r, outcome, "the evaluating process");
    if (r->verdict != HB_VERDICT_TIMER_MISMATCH || r->status != HB_ERR_TIMER_MISMATCH || strcmp(r->check, "sandbox"))
        fail_msg("%s: verdict %s, check \"%s\"; want timer-mismatch, sandbox", name, hb_verdict_name(r->verdict),
                 r->check);
    if (note && !strstr(r->reason, note))
        fail_msg("%s: the reason \"%s\" does not name \"%s\"", name, r->reason, note);
    if (!strstr(r->reason, "refused by the sandbox"))
        fail_msg("%s: the reason \"%s\" does not say the sandbox refused it", name, r->reason);
    assert_string_equal(r->sandbox, outcome->sandbox);
    free(r);
}

/* Each case in a child of its own: a trap ends it by SIGKILL with a note naming the call; a quiet refusal returns. */
static void run_forbidden(const forbidden *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const forbidden *f = &cases[i];
        report *out = calloc(1, sizeof *out);
        assert_non_null(out);
        hb_child_outcome outcome;
        assert_int_equal(hb_run_isolated(child_forbidden, (void *)f, out, sizeof *out, 30, &outcome), HB_OK);
        if (!f->note) {
            if (outcome.end != HB_CHILD_RETURNED || outcome.note[0] || out->errors[0] != f->quiet)
                fail_msg("%s: want a quiet %s; got: %s, errno %d (%s), note \"%s\" %s", f->name, strerror(f->quiet),
                         outcome.message, out->errors[0], strerror(out->errors[0]), outcome.note, out->failed);
        } else {
            if (outcome.end != HB_CHILD_SIGNALED || outcome.signal != SIGKILL || !strstr(outcome.note, f->note))
                fail_msg("%s: want SIGKILL and a note naming \"%s\"; got: %s, note \"%s\" %s (errno %d)", f->name,
                         f->note, outcome.message, outcome.note, out->failed, out->errors[0]);
            assert_true(outcome.sandbox[0] != '\0');
            expect_sandbox_verdict(f->name, &outcome, f->note);
        }
        free(out);
    }
}

static void test_sandbox_refuses_the_calls(void **state)
{
    (void)state;
    static const forbidden cases[] = {
        {"ptrace(PTRACE_TRACEME)", call_ptrace_traceme, "called ptrace (request 0)", 0, {0}},
        {"ptrace(PTRACE_ATTACH)", call_ptrace_attach, "called ptrace (request 16)", 0, {0}},
        {"process_vm_writev", call_process_vm_writev, "called process_vm_writev on process", 0, {0}},
        {"process_vm_readv", call_process_vm_readv, "called process_vm_readv on process", 0, {0}},
        {"seccomp", call_seccomp, "called seccomp: a filter of its own", 0, {0}},
        {"prctl(PR_SET_SECCOMP)", call_prctl_seccomp, "called prctl(PR_SET_SECCOMP)", 0, {0}},
        {"dup2 onto the result pipe", call_dup2_heartbeat, "called dup2 onto descriptor", 0, {0}},
        {"dup3 onto stdout", call_dup3_stdout, "called dup3 onto descriptor 1, one of the harness's", 0, {0}},
        {"sigaction(SIGSYS)", call_sigaction_sigsys, "called rt_sigaction(SIGSYS)", 0, {0}},
        {"mprotect of sealed code", call_mprotect_code, "called mprotect (PROT_WRITE) of hgemm-tests's code", 0, {0}},
        {"pkey_mprotect of sealed code", call_pkey_mprotect_code, "called pkey_mprotect (PROT_WRITE) of hgemm-tests's "
                                                                  "code", 0, {0}},
        {"mmap over sealed code", call_mmap_over_code, "called mmap (MAP_FIXED) over hgemm-tests's code", 0, {0}},
        {"mremap of sealed code", call_mremap_code, "called mremap of hgemm-tests's code", 0, {0}},
        {"mremap onto sealed code", call_mremap_onto_code, "called mremap (MREMAP_FIXED) onto hgemm-tests's code", 0,
         {0}},
        {"shmat with SHM_REMAP", call_shmat_remap, "called shmat with SHM_REMAP", 0, {0}},
        {"mprotect of a harness's table", call_mprotect_table, "(a read-only table of the harness's)", 0, {0}},
#if defined(__x86_64__)
        {"an x32 call", call_x32, "called an x32 system call", 0, {0}},
#endif
    };
    run_forbidden(cases, sizeof cases / sizeof *cases);
}

/* int 0x80 on x86-64: trapped whatever its number (a kernel without the 32-bit entry ends it by SIGSEGV). */
static void test_sandbox_refuses_other_architectures(void **state)
{
    (void)state;
#if defined(__x86_64__)
    const forbidden f = {"int 0x80", call_int80, "called a system call of another architecture (audit arch 0x40000003, "
                                                 "number 20)", 0, {0}};
    report *out = calloc(1, sizeof *out);
    assert_non_null(out);
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_forbidden, (void *)&f, out, sizeof *out, 30, &outcome), HB_OK);
    free(out);
    if (outcome.end == HB_CHILD_SIGNALED && outcome.signal == SIGSEGV && !outcome.note[0]) {
        print_message("skipped: this kernel has no 32-bit system call entry (int 0x80 faults)\n");
        skip();
        return;
    }
    run_forbidden(&f, 1);
#else
    print_message("skipped: the 32-bit entry is x86-64's\n");
    skip();
#endif
}

/* With mseal, an unmap of sealed memory fails alone (EPERM): the harness's tear-down unmaps its own tables. */
static void test_sandbox_mseal_refuses_unmaps_quietly(void **state)
{
    (void)state;
    if (!kernel_has_mseal()) {
        print_message("skipped: this kernel has no mseal (the fallback's test traps the unmap)\n");
        skip();
        return;
    }
    static const forbidden cases[] = {
        {"munmap of sealed code", call_munmap_code, NULL, EPERM, {0}},
        {"munmap of a harness's table", call_munmap_table, NULL, EPERM, {0}},
    };
    run_forbidden(cases, sizeof cases / sizeof *cases);
}

/* Without mseal, the range filters alone: the same calls trap, an unmap of code too; a table's unmap passes. */
static void test_sandbox_without_mseal_filters_the_ranges(void **state)
{
    (void)state;
    static const forbidden cases[] = {
        {"mprotect of code, no mseal", call_mprotect_code, "called mprotect (PROT_WRITE) of hgemm-tests's code", 0,
         {1, 0, 0}},
        {"mmap over code, no mseal", call_mmap_over_code, "called mmap (MAP_FIXED) over hgemm-tests's code", 0,
         {1, 0, 0}},
        {"mremap of code, no mseal", call_mremap_code, "called mremap of hgemm-tests's code", 0, {1, 0, 0}},
        {"munmap of code, no mseal", call_munmap_code, "called munmap of hgemm-tests's code", 0, {1, 0, 0}},
        {"mprotect of a table, no mseal", call_mprotect_table, "(a read-only table of the harness's)", 0, {1, 0, 0}},
        {"munmap of a table, no mseal", call_munmap_table, NULL, 0, {1, 0, 0}},
    };
    run_forbidden(cases, sizeof cases / sizeof *cases);
}

/* Landlock's refusal is an error to the caller, not a verdict; without Landlock the open works (and says so). */
static void test_sandbox_landlock_refuses_proc_mem_writes(void **state)
{
    (void)state;
    if (!hb_landlock_abi()) {
        print_message("this kernel has no Landlock: /proc/self/mem opens for writing under the sandbox\n");
        static const forbidden open_works[] = {{"open /proc/self/mem O_RDWR", call_open_proc_mem, NULL, 0, {0}}};
        run_forbidden(open_works, 1);
        return;
    }
    static const forbidden cases[] = {
        {"open /proc/self/mem O_RDWR", call_open_proc_mem, NULL, EACCES, {0}},
        {"open /proc/self/mem O_RDWR, no Landlock", call_open_proc_mem, NULL, 0, {0, 1, 0}},
    };
    run_forbidden(cases, sizeof cases / sizeof *cases);
}

/* --- where the call came from ----------------------------------------------------------------- */

/* A library loaded after the seal (tests/data/launchers/sandbox_caller.c) calls ptrace from its entry. */
static hb_status child_calls_from_library(void *context, void *result, size_t size)
{
    (void)size;
    report *out = result;
    HB_TRY(sandbox_child(&(mode){0, 0, 0}, out));
    void *library = dlopen(context, RTLD_NOW | RTLD_LOCAL);
    int (*entry)(const void *) = library ? (int (*)(const void *))dlsym(library, "hgemm_launch") : NULL;
    if (!entry) {
        snprintf(out->failed, sizeof out->failed, "dlopen %s: %s", (const char *)context, dlerror());
        return HB_ERR_INTERNAL;
    }
    out->errors[0] = entry(NULL);
    return HB_OK;
}

static void test_sandbox_note_names_the_candidates_library(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/launchers/sandbox_caller.so", hb_test_build_dir());
    if (access(path, R_OK) != 0)
        fail_msg("no %s: run make test (it builds tests/data/launchers/)", path);
    report *out = calloc(1, sizeof *out);
    assert_non_null(out);
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_calls_from_library, path, out, sizeof *out, 30, &outcome), HB_OK);
    if (!strstr(outcome.note, "the candidate called ptrace (request 0) (from sandbox_caller.so+0x"))
        fail_msg("the note \"%s\" (%s; %s) does not name the library", outcome.note, outcome.message, out->failed);
    expect_sandbox_verdict("ptrace from a library", &outcome, "sandbox_caller.so+0x");
    free(out);
}

/* --- processes the candidate forks ----------------------------------------------------------- */

typedef struct grandchild {
    int own_group; /* the grandchild leaves the child's process group first */
    int block_sigsys; /* the child blocks SIGSYS and calls ptrace itself */
} grandchild;

static hb_status child_forks_a_tracer(void *context, void *result, size_t size)
{
    (void)size;
    const grandchild *g = context;
    report *out = result;
    HB_TRY(sandbox_child(&(mode){0, 0, 0}, out));
    if (g->block_sigsys) {
        sigset_t sys;
        sigemptyset(&sys);
        sigaddset(&sys, SIGSYS);
        sigprocmask(SIG_BLOCK, &sys, NULL);
        out->errors[0] = (int)ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        return HB_OK;
    }
    pid_t pid = fork();
    if (pid == 0) {
        if (g->own_group)
            setpgid(0, 0);
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0); /* the grandchild's trap kills this process here */
    out->errors[0] = status;
    return HB_OK;
}

static void test_sandbox_binds_forked_processes(void **state)
{
    (void)state;
    const grandchild in_group = {0, 0}, own_group = {1, 0};
    const grandchild *cases[] = {&in_group, &own_group};
    for (size_t i = 0; i < 2; i++) {
        report *out = calloc(1, sizeof *out);
        assert_non_null(out);
        hb_child_outcome outcome;
        assert_int_equal(hb_run_isolated(child_forks_a_tracer, (void *)cases[i], out, sizeof *out, 30, &outcome),
                         HB_OK);
        if (outcome.end != HB_CHILD_SIGNALED || outcome.signal != SIGKILL ||
            !strstr(outcome.note, "called ptrace (request 0)") || !strstr(outcome.note, "in a process it forked (pid "))
            fail_msg("grandchild %s: %s, note \"%s\" %s", i ? "in its own group" : "in the group", outcome.message,
                     outcome.note, out->failed);
        expect_sandbox_verdict("a forked helper's ptrace", &outcome, "in a process it forked");
        free(out);
    }
}

/* A call trapped while SIGSYS is blocked kills by SIGSYS, the handler unreachable: still the sandbox's verdict. */
static void test_sandbox_blocked_sigsys_still_a_verdict(void **state)
{
    (void)state;
    const grandchild blocked = {0, 1};
    report *out = calloc(1, sizeof *out);
    assert_non_null(out);
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_forks_a_tracer, (void *)&blocked, out, sizeof *out, 30, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_SIGNALED);
    assert_int_equal(outcome.signal, SIGSYS);
    assert_string_equal(outcome.note, "");
    assert_true(outcome.sandbox[0] != '\0');
    expect_sandbox_verdict("ptrace with SIGSYS blocked", &outcome, "killed by SIGSYS");
    free(out);
}

/* --- the parent's side and the options ------------------------------------------------------- */

static void test_sandbox_note_decides_a_returned_child(void **state)
{
    (void)state;
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->status = HB_OK;
    r->verdict = HB_VERDICT_PASS;
    r->measured = 1;
    snprintf(r->sandbox, sizeof r->sandbox, "mseal+seccomp+landlock7");
    hb_child_outcome outcome = {.end = HB_CHILD_RETURNED, .status = HB_OK};
    snprintf(outcome.note, sizeof outcome.note, "the candidate called ptrace (request 16) (from x.so+0x10) in a "
                                                "process it forked (pid 9)");
    hb_record_child_end(r, &outcome, "the evaluating process");
    assert_int_equal(r->verdict, HB_VERDICT_TIMER_MISMATCH);
    assert_int_equal(r->status, HB_ERR_TIMER_MISMATCH);
    assert_string_equal(r->check, "sandbox");
    assert_int_equal(r->measured, 0);
    assert_non_null(strstr(r->reason, "the candidate called ptrace (request 16)"));
    assert_string_equal(r->sandbox, "mseal+seccomp+landlock7"); /* the child's own word stands */
    /* A crash without a note, under a sandbox, stays a crash; the note's summary fills an empty record. */
    memset(r, 0, sizeof *r);
    hb_child_outcome crash = {.end = HB_CHILD_SIGNALED, .signal = SIGSEGV};
    snprintf(crash.sandbox, sizeof crash.sandbox, "mseal+seccomp");
    hb_record_child_end(r, &crash, "the evaluating process");
    assert_int_equal(r->verdict, HB_VERDICT_CRASHED);
    assert_string_equal(r->check, "execution");
    assert_string_equal(r->sandbox, "mseal+seccomp");
    free(r);
}

static void test_sandbox_options_off_and_no_isolate(void **state)
{
    (void)state;
    hb_run_options o;
    memset(&o, 0, sizeof o);
    char summary[64];
    o.isolate = 0, o.sandbox = 1;
    assert_int_equal(hb_sandbox_enter(&o, summary, sizeof summary), HB_OK);
    assert_string_equal(summary, "none (--no-isolate)");
    o.isolate = 1, o.sandbox = 0;
    assert_int_equal(hb_sandbox_enter(&o, summary, sizeof summary), HB_OK);
    assert_string_equal(summary, "off");
}

/* hb_sandbox_enter as the evaluating child calls it: the heartbeat pipe is among the protected descriptors. */
static hb_status child_enters(void *context, void *result, size_t size)
{
    (void)context, (void)size;
    report *out = result;
    hb_run_options o;
    memset(&o, 0, sizeof o);
    o.isolate = 1, o.sandbox = 1;
    HB_TRY(hb_sandbox_enter(&o, out->summary, sizeof out->summary));
    int fd = open("/dev/null", O_WRONLY);
    dup2(fd, hb_heartbeat_descriptor());
    return HB_OK;
}

static void test_sandbox_enter_protects_the_result_pipe(void **state)
{
    (void)state;
    report *out = calloc(1, sizeof *out);
    assert_non_null(out);
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_enters, NULL, out, sizeof *out, 30, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_SIGNALED);
    assert_non_null(strstr(outcome.note, "called dup2 onto descriptor"));
    char expected[64];
    expected_summary(&(mode){0, 0, 0}, expected, sizeof expected);
    assert_string_equal(outcome.sandbox, expected);
    free(out);
}

/* The seal's choice of mappings, on made-up maps. */
static void test_sandbox_seal_takes_code_and_read_only(void **state)
{
    (void)state;
    static const char maps_text[] =
        "55e88bece000-55e88becf000 r--p 00000000 fe:00 11013425 /usr/bin/prog\n"
        "55e88becf000-55e88bed0000 r-xp 00001000 fe:00 11013425 /usr/bin/prog\n"
        "55e88bed0000-55e88bed2000 r--p 00002000 fe:00 11013425 /usr/bin/prog\n"
        "55e88bed2000-55e88bed3000 rw-p 00003000 fe:00 11013425 /usr/bin/prog\n"
        "7f0000000000-7f0000001000 r--p 00000000 00:00 0 \n"
        "7f0000001000-7f0000002000 r--p 00000000 fe:00 12 /usr/lib/libc.so.6\n"
        "7f0000003000-7f0000004000 ---p 00000000 00:00 0 \n"
        "7f0000004000-7f0000005000 rw-s 00000000 00:05 77 /dev/nvidiactl\n"
        "7f0000005000-7f0000006000 r--p 00000000 00:05 78 /dev/nvidia0\n"
        "7f0000006000-7f0000007000 r--s 00000000 00:05 79 /memfd:shared (deleted)\n"
        "7ffd00000000-7ffd00001000 r-xp 00000000 00:00 0 [vdso]\n"
        "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]\n";
    hb_memory_maps maps;
    assert_int_equal(hb_memory_maps_parse(maps_text, &maps), HB_OK);
    hb_sealed_set set;
    assert_int_equal(hb_seal_spans(&maps, &set), HB_OK);
    assert_int_equal(set.mappings, 6); /* prog's 3 read-only and code, the table, libc's page, [vdso] */
    assert_int_equal(set.count, 4);    /* prog joined; the table apart from libc, which touches it; [vdso] */
    assert_true(set.spans[0].start == 0x55e88bece000 && set.spans[0].end == 0x55e88bed2000 && !set.spans[0].anonymous);
    assert_true(set.spans[1].start == 0x7f0000000000 && set.spans[1].end == 0x7f0000001000 && set.spans[1].anonymous);
    assert_true(set.spans[2].start == 0x7f0000001000 && set.spans[2].end == 0x7f0000002000 && !set.spans[2].anonymous);
    assert_true(set.spans[3].start == 0x7ffd00000000 && !set.spans[3].anonymous);
    hb_sealed_set_free(&set);
    hb_memory_maps_free(&maps);
}

/* --- on a GPU: the evaluating child sandboxed, and the record of it ---------------------------- */

/* The sample launcher's check at 64^3 passes under the sandbox, with it off and without isolation, and
 * summary.csv's sandbox column says which: what this host's kernel gave, "off", "none (--no-isolate)". */
static void test_gpu_sandbox_recorded(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static const struct {
        const char *args, *sandbox; /* NULL: as the kernel allows */
    } runs[] = {{"", NULL}, {"--sandbox off", "off"}, {"--no-isolate", "none (--no-isolate)"}};
    char expected[64];
    expected_summary(&(mode){0, 0, 0}, expected, sizeof expected);
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        char out[512], args[1024], csv[1200], cell[128];
        hb_test_make_temp_dir("hb-sandbox-gpu", out, sizeof out);
        snprintf(args, sizeof args, "--candidate %s/candidates/sample_mma_launcher --mnk 64,64,64 --autotune-cache none "
                 "--no-autotune-search %s", hb_test_build_dir(), runs[i].args);
        int rc = hb_test_run_bench("check", args, out);
        hb_test_summary_path(out, csv, sizeof csv);
        hb_test_csv_text(csv, "candidate", 64, "verdict", cell, sizeof cell);
        if (rc != 0 || strcmp(cell, "pass"))
            fail_msg("check %s: exit %d, verdict %s (see %s)", runs[i].args, rc, cell, out);
        hb_test_csv_text(csv, "candidate", 64, "sandbox", cell, sizeof cell);
        assert_string_equal(cell, runs[i].sandbox ? runs[i].sandbox : expected);
        hb_test_remove_tree(out);
    }
}

static const struct CMUnitTest sandbox_tests[] = {
    cmocka_unit_test(test_sandbox_seal_takes_code_and_read_only),
    cmocka_unit_test(test_sandbox_options_off_and_no_isolate),
    cmocka_unit_test(test_sandbox_note_decides_a_returned_child),
    cmocka_unit_test(test_sandbox_honest_work_runs),
    cmocka_unit_test(test_sandbox_honest_work_runs_without_mseal_or_landlock),
    cmocka_unit_test(test_sandbox_as_a_plain_user),
    cmocka_unit_test(test_sandbox_refuses_the_calls),
    cmocka_unit_test(test_sandbox_refuses_other_architectures),
    cmocka_unit_test(test_sandbox_mseal_refuses_unmaps_quietly),
    cmocka_unit_test(test_sandbox_without_mseal_filters_the_ranges),
    cmocka_unit_test(test_sandbox_landlock_refuses_proc_mem_writes),
    cmocka_unit_test(test_sandbox_note_names_the_candidates_library),
    cmocka_unit_test(test_sandbox_binds_forked_processes),
    cmocka_unit_test(test_sandbox_blocked_sigsys_still_a_verdict),
    cmocka_unit_test(test_sandbox_enter_protects_the_result_pipe),
    cmocka_unit_test(test_gpu_sandbox_recorded),
};

hb_test_list hb_sandbox_tests(void) { return HB_TEST_LIST(sandbox_tests); }
