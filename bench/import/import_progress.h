/* The import's progress on stderr while files build: how many are done,
 * how many run, the median build time so far and an estimate of the time
 * left, so a whole set's build time on a host is known early, not only at
 * the end (docs/importer.md, "Building a whole set"). */
#ifndef HB_IMPORT_PROGRESS_H
#define HB_IMPORT_PROGRESS_H

#include <stddef.h>

/* Seconds left for `remaining` builds (the running ones among them), `width`
 * at a time, each taking the median of the `n` build times `seconds` so far:
 * ceil(remaining / width) rounds of the median.  A rough estimate (a build
 * running for a while has less to go); -1 when no build has ended yet. */
double hb_import_eta_s(const double *seconds, size_t n, size_t remaining, int width);

/* "import: 12 of 200 built, 8 running; median build 52 s; about 4 min left"
 * (or "time left known after the first build") into `out`. */
void hb_import_progress_text(const double *seconds, size_t n_done, size_t total, int width, char *out, size_t size);

#endif
