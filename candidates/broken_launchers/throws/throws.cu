// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: its host code throws a C++ exception out of the entry.  Nothing in
// the harness (C) catches it: std::terminate aborts the configuration's
// child process (SIGABRT).
// Must be caught by: process isolation, as verdict "crashed", check
// "execution", exit code 8, the signal named in the reason.
#include <stdexcept>

#include "../launcher_common.cuh"

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (args->m > 0) throw std::runtime_error("throws: a C++ exception out of hgemm_launch");  // FAULT
    return launch_simple_or_fail(args, args->stream);
}
