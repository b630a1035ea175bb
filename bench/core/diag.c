#include "bench/core/diag.h"

#include <stdio.h>
#include <string.h>

/* Each thread's own: --target-ci's worker thread may fail (out of memory)
 * while the timing thread does, and neither may garble the other's reason. */
static _Thread_local char last_error[1024];
static int quiet_mode;
/* --verbose: every error names the source line that found it.  Without it
 * only the harness's own faults (HB_ERR_INTERNAL) do: a user acts on the
 * message, a maintainer on the location. */
static int verbose_mode;
/* Who speaks: hgemm-bench, or hgemm-report (bench/driver/main.c sets it). */
static const char *program = "hgemm-bench";

void hb_diag_set_program(const char *name) { program = name; }
const char *hb_diag_program(void) { return program; }

hb_status hb_fail_at(const char *file, int line, hb_status status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, args);
    va_end(args);
    if (quiet_mode)
        return status;
    if (verbose_mode || status == HB_ERR_INTERNAL)
        fprintf(stderr, "%s: error: %s [%s:%d]\n", program, last_error, file, line);
    else
        fprintf(stderr, "%s: error: %s\n", program, last_error);
    return status;
}

void hb_warn(const char *fmt, ...)
{
    if (quiet_mode)
        return;
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "%s: warning: ", program);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

const char *hb_last_error(void) { return last_error; }

void hb_diag_set_quiet(int quiet) { quiet_mode = quiet; }

int hb_diag_is_quiet(void) { return quiet_mode; }

void hb_diag_set_verbose(int verbose) { verbose_mode = verbose; }

int hb_diag_is_verbose(void) { return verbose_mode; }
