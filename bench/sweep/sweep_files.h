/* A sweep folder's journal and summary.csv read back and checked against
 * each other as a whole (docs/sweeps.md, "A damaged folder"), before
 * anything in the folder is changed: `sweep --resume` (bench/sweep/
 * sweep_store.h), `merge` and `report` all start here, so none of them
 * acts on a folder whose files disagree.
 *
 * A folder agrees when
 * - every journal line is whole and right on its own, and its csv_end lies
 *   past the previous line's (bench/sweep/journal.h);
 * - summary.csv is a regular file whose first line is a whole header (with
 *   HB_SWEEP_FILES_OUR_HEADER: exactly this harness's; with
 *   HB_SWEEP_FILES_EARLIER_HEADER: this harness's or an earlier one's,
 *   bench/sweep/summary_header.h) and it holds what
 *   the journal vouches for: the first csv_end lies past the header, the
 *   last within the file, and each one at the end of a line;
 * - no rows lie in summary.csv without a journal to vouch for them (a
 *   folder with rows past its header and no journal.jsonl);
 * - what lies past the last csv_end (rows written before a crash took the
 *   journal line that would have vouched for them) is the rows of at most
 *   one configuration and mode: the sweep writes one item at a time, so
 *   more means the journal lost lines, and cutting them would lose
 *   finished results;
 * - each item's rows are its configuration's, and their candidate row's
 *   verdict, check and reason are its journal line's
 *   (bench/sweep/candidate_rows.h): so every entry's status, verdict,
 *   check and reason are what summary.csv says, and a sweep's verdict
 *   built from them is summary.csv's.
 * Any disagreement is HB_ERR_BAD_RESULTS naming the file and, where one is
 * to blame, the journal line. */
#ifndef HB_SWEEP_FILES_H
#define HB_SWEEP_FILES_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/sweep/journal.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/summary_header.h"

/* summary.csv of a sweep of HB_MAX_CONFIGS x 2 modes is about 25 MiB
 * (11 rows of about 1 KiB per item); 1 GiB is far beyond any sweep. */
#define HB_SUMMARY_MAX_BYTES ((size_t)1 << 30)

/* Which headers of summary.csv are taken (none given: any whole line, for
 * readers that find their columns by name): exactly this harness's (resume
 * appends rows of this harness's columns), or also an earlier harness's
 * (merge writes its rows with this harness's columns). */
enum { HB_SWEEP_FILES_OUR_HEADER = 1, HB_SWEEP_FILES_EARLIER_HEADER = 2 };

typedef struct hb_sweep_files {
    char journal_path[4200];
    char csv_path[4200];
    hb_journal_entry *entries; /* the journal's whole lines, in order, held to their rows (malloc'd) */
    size_t count;
    int has_journal, has_csv;
    long long journal_valid;   /* bytes of whole lines */
    long long journal_tail;    /* bytes of a last line cut short */
    char *csv;                 /* summary.csv, whole (malloc'd; NULL without one) */
    size_t csv_size;
    size_t header_bytes;       /* its first line, '\n' included */
    hb_summary_header header;  /* its columns against this harness's (read with a header flag) */
    size_t vouched;            /* where the rows the journal vouches for end: the last csv_end, or header_bytes */
    char tail_config[140];     /* the configuration and mode of the rows past `vouched`, if any ("64_64_64 offline") */
} hb_sweep_files;

/* Reads and checks <folder>/journal.jsonl and <folder>/summary.csv against
 * the folder's plan.  `flags`: one of the header flags, or 0.  Changes nothing
 * on disk.  Free with hb_sweep_files_free, whatever it returns. */
hb_status hb_sweep_files_read(const char *folder, const hb_plan_file *plan, int flags, hb_sweep_files *out);

void hb_sweep_files_free(hb_sweep_files *files);

#endif
