/* One stage of `reproduce` (import, sweep, merge, report, compare): this very
 * binary run again as a child with the stage's command line, so each stage
 * checks its own flags, resumes by its own rules and writes its own files,
 * as if typed.  The child's stderr (its progress and messages) is the
 * terminal's; its stdout (the tables report and compare print) goes to a file
 * through bench/core/out_file.h: a new temporary beside it, renamed over it
 * only when the stage ended with a code the caller accepts, so a failed or
 * interrupted stage leaves the file as it was (never empty, never half of
 * it).  Started by bench/core/process.h.
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
 * `stdout_path` (NULL: reproduce's own stdout), which is replaced only when
 * the stage exits with one of `accepted` (a list ended by -1) and no signal
 * reached reproduce meanwhile.  HB_ERR_INTERNAL when the child cannot be
 * started, HB_ERR_IO when `stdout_path` is a link, a FIFO or anything but
 * a regular file (before the stage runs), or its temporary cannot be made
 * or it cannot be replaced; otherwise HB_OK with how it ended in *end. */
hb_status hb_stage_child_run(hb_argv *argv, const char *stdout_path, const int *accepted, hb_stage_end *end);

#endif
