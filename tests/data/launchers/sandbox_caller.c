/* A launcher broken on purpose, with no GPU code, for the sandbox's tests
 * without a GPU (tests/test_sandbox.c).  Its fault: every call asks to be
 * traced (ptrace(PTRACE_TRACEME)), the first step of a helper that would
 * patch the harness's code.  What must catch it: the sandbox's call filter
 * (bench/driver/sandbox_filter.h), whose note names this library and the
 * offset of the call's return address in it, found on the stack below libc's
 * ptrace wrapper.  Built by make as C11 and as C++11, as the loader's
 * fixtures are. */
#include <stddef.h>
#include <sys/ptrace.h>

#include "bench/candidate/hgemm_launch.h"

HGEMM_LAUNCH_DEFINE_ABI_VERSION();

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) // FAULT: a launcher has no business with ptrace
        return 1;
    (void)args;
    return HGEMM_LAUNCH_OK;
}
