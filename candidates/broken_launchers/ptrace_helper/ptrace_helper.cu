// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: the process's code written by a helper process through ptrace.
// Its library constructor lets any process of the user trace it
// (prctl(PR_SET_PTRACER): Yama's ptrace_scope 1 lets only ancestors trace
// otherwise), forks a helper and waits for it.  The helper attaches to its
// parent (PTRACE_SEIZE, then PTRACE_INTERRUPT: the parent's one thread
// stops, its others run on), reads the first word of libcuda.so.1's
// cuEventElapsedTime_v2 (or cuEventElapsedTime; ../driver_entry.h) with
// PTRACE_PEEKTEXT and writes it back unchanged with PTRACE_POKETEXT (a write
// all the same: the kernel copies the page for the process), detaches and
// exits; its exit status says how far it got (broken_ptrace_helper_end()
// returns its wait status).  The launcher computes
// honestly (one cublasGemmEx as torch's) and prints nothing, unless
// HB_BROKEN_VERBOSE is set: then one line on stderr says what the helper did.
// What must catch it: the sandbox (mseal, seccomp, Landlock before the
// candidate loads), whose seccomp filter the helper inherits: its ptrace is
// refused, and the violation ends the process group with the verdict
// "timer-mismatch", check "sandbox" (exit 13), in check at 64^3.  (With
// --sandbox off, the page the helper wrote is a private copy of the
// process, which the code-page check finds: "code-integrity".)
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "../driver_entry.h"
#include "../launcher_cublas.cuh"

// The helper's exit statuses.
enum helper_end { POKED = 0, NO_SEIZE = 1, NO_STOP = 2, NO_PEEK = 3, NO_POKE = 4 };

static cublas_gemm gemm;
static int helper_end = -1; // the helper's wait status; -1 when none ran

// In the helper: the word at `at` of `parent` read and written back.
static int poke_parent(pid_t parent, void *at)
{
    if (ptrace(PTRACE_SEIZE, parent, nullptr, nullptr) != 0) // FAULT: the harness's process traced
        return NO_SEIZE;
    int status = 0;
    if (ptrace(PTRACE_INTERRUPT, parent, nullptr, nullptr) != 0 || waitpid(parent, &status, __WALL) != parent)
        return NO_STOP;
    errno = 0;
    const long word = ptrace(PTRACE_PEEKTEXT, parent, at, nullptr);
    if (errno != 0)
        return NO_PEEK;
    const bool poked = ptrace(PTRACE_POKETEXT, parent, at, reinterpret_cast<void *>(word)) == 0; // FAULT: its code written
    ptrace(PTRACE_DETACH, parent, nullptr, nullptr);
    return poked ? POKED : NO_POKE;
}

// What the helper did, as its end says; "" for nothing to say.
static const char *helper_story(int status)
{
    if (WIFSIGNALED(status))
        return strsignal(WTERMSIG(status));
    switch (WIFEXITED(status) ? WEXITSTATUS(status) : -1) {
    case POKED:
        return "read the first word of libcuda's elapsed-time entry point and wrote it back";
    case NO_SEIZE:
        return "could not attach (PTRACE_SEIZE refused)";
    case NO_STOP:
        return "attached but could not stop the launcher's thread";
    case NO_PEEK:
        return "could not read the word";
    case NO_POKE:
        return "read the word but could not write it";
    }
    return "ended in an unknown way";
}

__attribute__((constructor)) static void set_up(void)
{
    cublas_gemm_setup(&gemm);
    char why[256] = "";
    void *lib = driver_entry::library(why, sizeof why);
    void *target = driver_entry::function(lib, "cuEventElapsedTime_v2", sizeof(long), why, sizeof why);
    if (!target)
        target = driver_entry::function(lib, "cuEventElapsedTime", sizeof(long), why, sizeof why);
    const bool verbose = getenv("HB_BROKEN_VERBOSE") != nullptr;
    if (!target) {
        if (verbose)
            fprintf(stderr, "broken launcher ptrace_helper: no helper started: %s\n", why[0] ? why : "no entry point");
        return;
    }
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); // FAULT: any process may trace this one
    const pid_t parent = getpid();
    const pid_t helper = fork();
    if (helper == 0) // the helper touches no CUDA, runs no atexit handler
        _exit(poke_parent(parent, target));
    int status = 0;
    while (helper > 0 && waitpid(helper, &status, 0) < 0 && errno == EINTR) {
    }
    prctl(PR_SET_PTRACER, 0, 0, 0, 0);
    if (helper > 0)
        helper_end = status;
    if (verbose)
        fprintf(stderr, "broken launcher ptrace_helper: %s%s\n", helper < 0 ? "fork failed: " : "the helper ",
                helper < 0 ? strerror(errno) : helper_story(status));
}

// The helper's wait status (exit 0: it wrote the word), -1 when none ran.
extern "C" HGEMM_LAUNCH_EXPORT int broken_ptrace_helper_end(void) { return helper_end; }

HGEMM_LAUNCH_ENTRY(hgemm_launch) { return cublas_gemm_all(&gemm, args, args->stream); }
