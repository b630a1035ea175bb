/* Diagnostics: every error the harness reports says what the user can do
 * about it; a fault of the harness itself (HB_ERR_INTERNAL), or any error
 * under --verbose, also names the file:line that detected it. */
#ifndef HB_DIAG_H
#define HB_DIAG_H

#include <stdarg.h>

#include "bench/core/status.h"

#if defined(__GNUC__)
#define HB_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define HB_PRINTF(fmt_index, first_arg)
#endif

/* Prints "hgemm-bench: error: <message>" to stderr, with " [file:line]"
 * for HB_ERR_INTERNAL or under --verbose, and returns
 * `status`, so callers can write `return hb_fail(HB_ERR_IO, ...)`. */
hb_status hb_fail_at(const char *file, int line, hb_status status, const char *fmt, ...)
    HB_PRINTF(4, 5);
void hb_warn(const char *fmt, ...) HB_PRINTF(1, 2);

/* The last error message of the calling thread, kept so a result row can
 * carry its reason. */
const char *hb_last_error(void);

/* Tests silence stderr output of expected failures with this. */
void hb_diag_set_quiet(int quiet);
/* The program named at the head of errors and warnings ("hgemm-bench"
 * until set; the string must outlive every message). */
void hb_diag_set_program(const char *name);
const char *hb_diag_program(void);
int hb_diag_is_quiet(void);
/* --verbose: every error names its source location. */
void hb_diag_set_verbose(int verbose);
int hb_diag_is_verbose(void);

#define hb_fail(status, ...) hb_fail_at(__FILE__, __LINE__, (status), __VA_ARGS__)

#endif
