/* --json: one JSON object per configuration on stdout, as each ends, and
 * nothing else there.  For a kernel-generation loop that reads the harness's
 * stdout line by line (docs/gate.md, "--json").
 *
 * stdout is the loop's channel, so nothing else may write to it: not the
 * table, not a warning, and not a candidate's launcher, whose code runs in
 * the evaluating process and could print a line that reads like a verdict.
 * hb_json_lines_open therefore keeps a private copy of the original stdout
 * and points descriptor 1 at stderr for the rest of the process and every
 * child it starts; only this sink writes to the copy.  Forked children
 * (which run candidate code) close the copy at once
 * (hb_json_lines_forget_in_child), and it is close-on-exec for the programs
 * the harness runs (compute-sanitizer, ncu). */
#ifndef HB_JSON_LINES_H
#define HB_JSON_LINES_H

#include "bench/report/sink.h"

/* The line format's name, the first key of every line. */
#define HB_JSON_LINES_FORMAT "hgemm-bench-config/1"

/* Takes stdout for the lines and sends descriptor 1 to stderr.  Once per
 * process, before anything is printed; fails with HB_ERR_IO naming the call. */
hb_status hb_json_lines_open(void);

/* In a forked child: drops the copy without flushing it (the parent owns
 * what is buffered).  A no-op when --json is off. */
void hb_json_lines_forget_in_child(void);

/* The sink: each configuration's verdict item, compact on one line, flushed
 * at once.  Needs hb_json_lines_open first. */
hb_sink hb_json_lines_sink(void);

#endif
