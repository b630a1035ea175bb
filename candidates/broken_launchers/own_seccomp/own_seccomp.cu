// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: a seccomp filter of its own over the harness's writes.  Its library
// constructor installs (no_new_privs first, as an unprivileged process
// must) a filter that fails with EPIPE every write() to a descriptor other
// than 0, 1 and 2: the pipe that carries the evaluating process's result to
// the harness's parent among them, so that no failing verdict could reach
// it (one step short of a trap handler that rewrites what is written).  It
// computes honestly (one cublasGemmEx as torch's) and prints nothing, unless
// HB_BROKEN_VERBOSE is set: then one line on stderr (descriptor 2, let
// through) says whether the filter went in.  On an architecture other than
// x86-64 and AArch64 it installs nothing and says so.
// What must catch it: the sandbox (mseal, seccomp, Landlock before the
// candidate loads), which refuses a seccomp filter of the candidate's own
// and ends the process: verdict "timer-mismatch", check "sandbox" (exit 13),
// in check at 64^3.
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>

#include "../launcher_cublas.cuh"

static cublas_gemm gemm;

#if defined(__x86_64__)
#define OWN_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define OWN_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

// The filter in place: "" or why not.
static void install_filter(char *why, size_t why_size)
{
#if defined(OWN_AUDIT_ARCH)
    const unsigned arg0_low = offsetof(struct seccomp_data, args[0]); // a descriptor fits the low 32 bits
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, OWN_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), // another ABI: left alone
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_write, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg0_low),
        BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 2, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPIPE), // FAULT: the harness's result channel refused
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {(unsigned short)(sizeof code / sizeof code[0]), code};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return (void)snprintf(why, why_size, "prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) // FAULT: a filter of its own
        snprintf(why, why_size, "seccomp(SECCOMP_SET_MODE_FILTER): %s", strerror(errno));
#else
    snprintf(why, why_size, "its filter is written for x86-64 and AArch64 only");
#endif
}

__attribute__((constructor)) static void set_up(void)
{
    cublas_gemm_setup(&gemm);
    char why[256] = "";
    install_filter(why, sizeof why);
    if (getenv("HB_BROKEN_VERBOSE"))
        fprintf(stderr, "broken launcher own_seccomp: %s%s\n",
                why[0] ? "no filter installed: " : "filter installed: write() to descriptors above 2 fails", why);
}

HGEMM_LAUNCH_ENTRY(hgemm_launch) { return cublas_gemm_all(&gemm, args, args->stream); }
