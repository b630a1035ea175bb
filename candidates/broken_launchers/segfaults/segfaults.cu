// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: its host code writes through a null pointer (SIGSEGV in the
// configuration's child process).  The pointer is read through a volatile
// variable, so the compiler cannot see that it is null and drop the store.
// Must be caught by: process isolation, as verdict "crashed", check
// "execution", exit code 8, the signal named in the reason.
#include "../launcher_common.cuh"

static int *volatile nowhere = nullptr;

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    *nowhere = (int)args->m;  // FAULT: a store to address 0
    return launch_simple_or_fail(args, args->stream);
}
