/* A launcher with no GPU code, for the loader's tests without a GPU
 * (tests/test_launcher.c).  Built by make twice: as C11 and as C++11, both
 * with -pedantic-errors, so its build also checks that
 * bench/candidate/hgemm_launch.h compiles as either, with the same layout.
 *
 * What hgemm_launch does depends on args->m:
 *   1: checks what the harness passes (version, size, a cleared message
 *      buffer) and returns HGEMM_LAUNCH_OK, or 99 saying what was wrong;
 *   2: declines, HGEMM_LAUNCH_UNSUPPORTED, "sizes below 64 are not mine";
 *   3: returns 7 with a message of two lines;
 *   4: returns 5 and fills the whole message buffer, with no terminating NUL;
 *   5: returns 9 with no message. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bench/candidate/hgemm_launch.h"

/* The layout every compiler must agree on (LP64): the harness is C, a
 * launcher usually C++. */
#ifdef __cplusplus
#define LAYOUT(expr) static_assert(expr, #expr)
#else
#define LAYOUT(expr) _Static_assert(expr, #expr)
#endif
LAYOUT(offsetof(struct hgemm_launch_args, a) == 8);
LAYOUT(offsetof(struct hgemm_launch_args, m) == 40);
LAYOUT(offsetof(struct hgemm_launch_args, workspace) == 64);
LAYOUT(offsetof(struct hgemm_launch_args, stream) == 80);
LAYOUT(offsetof(struct hgemm_launch_args, accumulator) == 88);
LAYOUT(offsetof(struct hgemm_launch_args, error) == 96);
LAYOUT(sizeof(struct hgemm_launch_args) == 112);

HGEMM_LAUNCH_DEFINE_ABI_VERSION();

static int check_args(const struct hgemm_launch_args *args)
{
    const char *wrong = args->abi_version != HGEMM_LAUNCH_ABI_VERSION          ? "abi_version"
                        : args->struct_size != sizeof(struct hgemm_launch_args) ? "struct_size"
                        : args->error_size < 2 || args->error[0] != '\0'        ? "the message buffer"
                                                                                : NULL;
    if (!wrong)
        return HGEMM_LAUNCH_OK;
    snprintf(args->error, args->error_size, "fixture: %s is not what the harness should pass", wrong);
    return 99;
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    switch (args->m) {
    case 1:
        return check_args(args);
    case 2:
        snprintf(args->error, args->error_size, "sizes below 64 are not mine");
        return HGEMM_LAUNCH_UNSUPPORTED;
    case 3:
        snprintf(args->error, args->error_size, "line one\nline two");
        return 7;
    case 4:
        memset(args->error, 'x', args->error_size);
        return 5;
    default:
        return 9;
    }
}

/* A second entry, for a manifest's "entry". */
HGEMM_LAUNCH_ENTRY(other_entry)
{
    (void)args;
    return HGEMM_LAUNCH_OK;
}
