// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: returns 7, a failure (not HGEMM_LAUNCH_UNSUPPORTED), with a message,
// without launching anything.
// Must be caught by: the launcher's return value, as verdict "crashed",
// check "execution", exit code 8, with "returned 7" and the message in the
// reason.
#include "../launcher_common.cuh"

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    return launcher_message(args, 7, "returns_error fails on purpose at M=%lld", (long long)args->m);  // FAULT
}
