/* One stage of `reproduce` (import, sweep, merge, report, compare): this very
 * binary run again as a child with the stage's command line, so each stage
 * checks its own flags, resumes by its own rules and writes its own files,
 * as if typed.  The child's stderr (its progress and messages) is the
 * terminal's; its stdout (the tables report and compare print) goes to a file
 * (opened with hb_open_output: never through a link or into a FIFO).  Started
 * by bench/core/process.h.
 *
 * The child runs in a process group of its own: a Ctrl-C at the terminal
 * reaches reproduce alone, which passes the signal on once, so the stage ends
 * as it would if interrupted by itself (a sweep writes what it finished), and
 * reproduce then stops with 128 + the signal. */
#ifndef HB_STAGE_CHILD_H
#define HB_STAGE_CHILD_H

#include "bench/core/status.h"
#include "bench/driver/child_argv.h"

typedef struct hb_stage_end {
    int code;   /* the child's exit code; 128 + N when signal N ended it */
    int signal; /* the signal that reached reproduce while the stage ran, else 0 */
    double seconds;
} hb_stage_end;

/* Runs `argv` (argv->word[0] is ignored: this binary is run) with stdout to
 * `stdout_path` (NULL: reproduce's own stdout).  HB_ERR_INTERNAL when the
 * child cannot be started, HB_ERR_IO when the file cannot be opened (or is
 * a link, a FIFO or a device);
 * otherwise HB_OK with how it ended in *end. */
hb_status hb_stage_child_run(hb_argv *argv, const char *stdout_path, hb_stage_end *end);

#endif
