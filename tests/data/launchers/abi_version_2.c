/* A launcher that says it was built for ABI version 2 (tests/test_launcher.c):
 * the harness must refuse it, naming both versions. */
#include "bench/candidate/hgemm_launch.h"

HGEMM_LAUNCH_EXTERN_C HGEMM_LAUNCH_EXPORT int hgemm_launch_abi_version(void)
{
    return 2;
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    (void)args;
    return HGEMM_LAUNCH_OK;
}
