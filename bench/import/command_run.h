/* One external command of an import (nvcc, cuobjdump, the launch recorder):
 * run in its own process group with a time limit, its output appended to a
 * log after the command line itself, so a build's log reads as a shell
 * session.  Started by bench/core/process.h: an argument vector, no shell;
 * the log and the stdout file opened with hb_open_output (never through a
 * link or into a FIFO). */
#ifndef HB_COMMAND_RUN_H
#define HB_COMMAND_RUN_H

#include <stddef.h>

#include "bench/core/process.h"
#include "bench/core/status.h"

/* How a command ended: exited and code, signal, timed_out, stopped (killed
 * because hb_command_set_stop's function asked), seconds (wall time). */
typedef hb_process_end hb_command_end;

/* Runs argv[0] (a path) with `argv` in `cwd` (NULL: here), its stdin
 * /dev/null.  Its stdout goes to `stdout_path` when given, else to the log;
 * its stderr to the log.  HB_ERR_IO when the files cannot be opened (or
 * are a link, a FIFO or a device), HB_ERR_INTERNAL when it cannot be
 * started (the reason is in the log too); otherwise HB_OK, with how it
 * ended in *end. */
hb_status hb_command_run(char *const argv[], const char *cwd, const char *stdout_path, const char *log_path,
                         int timeout_s, hb_command_end *end);

/* From now on a command this process runs is killed as soon as `stop`
 * returns nonzero (polled every 10 ms; NULL: never): the import's parent
 * stops the adapter's build on an interrupt. */
void hb_command_set_stop(int (*stop)(void));

/* From now on SIGINT, SIGTERM and SIGHUP to this process kill the command
 * it is running (its whole process group: nvcc's cicc and ptxas too) and
 * end it with 128 + the signal.  For a build process of the job pool. */
void hb_command_end_with_process(void);

/* Removes a folder and everything below it (rm -rf): a cache entry being
 * rebuilt, a build's intermediates.  Best effort: a failure leaves files. */
void hb_remove_tree(const char *dir);

/* "exit 1", "signal 11 (SIGSEGV)", "timed out after 60 s". */
void hb_command_end_text(const hb_command_end *end, int timeout_s, char *out, size_t size);

/* The first line of `log_path` that reports an error (nvcc's "error:",
 * ptxas's "error", the linker's "undefined reference"), trimmed; "" when none. */
void hb_first_error_line(const char *log_path, char *out, size_t size);

#endif
