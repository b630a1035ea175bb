// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: its host code never returns: it sleeps in an endless loop (no GPU
// work is pending; the harness's thread is simply stuck in the call).
// Must be caught by: the child's silence timeout (--timeout-s), as verdict
// "timed-out", check "timeout", exit code 8.
#include <unistd.h>

#include "../launcher_common.cuh"

static volatile int forever = 1;

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    while (forever) sleep(1);  // FAULT: nothing ever clears it
    return launch_simple_or_fail(args, args->stream);
}
