/* The sweep's one progress line on stderr (docs/sweeps.md): items done of
 * the folder's total, failures, the rate and the time left, for the whole
 * sweep whatever the number of GPUs.  Rewritten in place on a terminal,
 * printed every 30 s into a log (a Slurm job's output stays short). */
#ifndef HB_SWEEP_PROGRESS_H
#define HB_SWEEP_PROGRESS_H

#include <stddef.h>

typedef struct hb_sweep_progress {
    int enabled;
    int is_tty;
    double started_s;
    double last_print_s;
    size_t total;        /* items of this folder (its shard) */
    size_t done_before;  /* finished in earlier sessions */
    size_t done;         /* finished in this one */
    size_t failed;       /* of all finished, those whose verdict is not pass */
    size_t workers;
} hb_sweep_progress;

void hb_sweep_progress_init(hb_sweep_progress *p, int enabled, size_t total, size_t done_before, size_t failed_before,
                            size_t workers);
/* One more item finished; prints when the line is due. */
void hb_sweep_progress_item(hb_sweep_progress *p, int failed);
/* The line as it stands, into out (for tests and the last line). */
void hb_sweep_progress_format(const hb_sweep_progress *p, double now_s, char *out, size_t size);
void hb_sweep_progress_end(hb_sweep_progress *p);

#endif
