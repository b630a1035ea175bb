/* A launcher without hgemm_launch_abi_version (tests/test_launcher.c): the
 * harness must refuse it, saying how to define it. */
#include "bench/candidate/hgemm_launch.h"

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    (void)args;
    return HGEMM_LAUNCH_OK;
}
