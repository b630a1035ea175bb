/* The progress line on stderr: rewritten in place on a terminal, one line
 * every few seconds otherwise (logs of long sweeps stay readable). */
#ifndef HB_PROGRESS_H
#define HB_PROGRESS_H

#include <stddef.h>

typedef struct hb_progress {
    int enabled;
    int is_tty;
    double last_print_s;
    char label[96]; /* e.g. "[2/3 1024x1024x1024]" */
} hb_progress;

void hb_progress_init(hb_progress *p, int enabled);
void hb_progress_set_label(hb_progress *p, size_t index, size_t count, long m, long n, long k);
/* Rate-limited: prints at most every 0.5 s (terminal) or 10 s (log). */
void hb_progress_update(hb_progress *p, const char *phase, double elapsed_s, double window_s, size_t rounds);
void hb_progress_done(hb_progress *p);

#endif
