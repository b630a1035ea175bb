// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: the harness's result channel taken over.  Its library constructor
// finds every pipe among the process's descriptors above 2 (fstat: the
// links of /proc/self/fd would read "pipe:[...]"), among them the one that
// carries the evaluating process's heartbeats and result to the harness's
// parent, makes a pipe of its own and dup2()s that pipe's write end over
// each: whatever the harness writes to its parent from then on lands in a
// pipe this launcher holds both ends of, to read and rewrite at leisure.
// It computes honestly (one cublasGemmEx as torch's) and prints nothing,
// unless HB_BROKEN_VERBOSE is set: then one line on stderr says how many
// descriptors it replaced.
// What must catch it: the sandbox (mseal, seccomp, Landlock before the
// candidate loads), which refuses a dup2 or dup3 onto the harness's
// descriptors and ends the process: verdict "timer-mismatch", check
// "sandbox" (exit 13), in check at 64^3.  (Without it the parent would hear
// nothing more: a silence, killed at the timeout.)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "../launcher_cublas.cuh"

constexpr int kMostDescriptors = 1024;

static cublas_gemm gemm;

// The pipes among descriptors 3..kMostDescriptors-1, into `fds`; their number.
static int find_pipes(int *fds, int most)
{
    int n = 0;
    for (int fd = 3; fd < kMostDescriptors && n < most; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
            fds[n++] = fd;
    }
    return n;
}

__attribute__((constructor)) static void set_up(void)
{
    cublas_gemm_setup(&gemm);
    int found[64], own[2] = {-1, -1};
    const int n = find_pipes(found, 64); // before its own pipe exists
    int replaced = 0;
    char why[160] = "";
    if (n > 0 && pipe2(own, O_CLOEXEC) != 0)
        snprintf(why, sizeof why, ": pipe2: %s", strerror(errno));
    for (int i = 0; i < n && own[1] >= 0; i++) {
        if (dup2(own[1], found[i]) == found[i]) // FAULT: the harness's descriptor now writes into its pipe
            replaced++;
        else
            snprintf(why, sizeof why, ": dup2 onto %d: %s", found[i], strerror(errno));
    }
    if (getenv("HB_BROKEN_VERBOSE"))
        fprintf(stderr, "broken launcher dup_result: %d of %d pipe descriptors replaced%s\n", replaced, n, why);
}

HGEMM_LAUNCH_ENTRY(hgemm_launch) { return cublas_gemm_all(&gemm, args, args->stream); }
