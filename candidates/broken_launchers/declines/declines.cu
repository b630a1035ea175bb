// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault (of a kind): declines every size with HGEMM_LAUNCH_UNSUPPORTED and a
// message, as a launcher does for sizes or devices it does not handle.
// Must be caught by: the launcher's return value, as verdict "unsupported",
// no check, exit code 4, with its message in the reason.
#include "../launcher_common.cuh"

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    return launcher_message(args, HGEMM_LAUNCH_UNSUPPORTED, "this launcher declines every size on purpose");  // FAULT
}
