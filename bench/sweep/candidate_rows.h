/* Each finished item's outcome as summary.csv records it, held to its
 * journal line (docs/sweeps.md, "A damaged folder").  summary.csv holds the
 * results; the journal says which bytes of it are whose (an item's rows lie
 * between the previous line's csv_end and its own).  A sweep's verdict
 * (bench/sweep/sweep_verdict.h) is built from the journal's entries, so
 * they must say what the rows say: an edited status would otherwise turn 15
 * failed configurations into a clean "ok".
 *
 * An item's rows agree with its journal line when
 * - every row is of the item's configuration (columns m, n, k);
 * - exactly one of them is the candidate's (role "candidate": it carries
 *   the verdict; a configuration whose child crashed or hung has no other);
 * - that row's verdict, check and reason are the line's, byte for byte.
 * Each row is read only as far as those columns, all near its start: the
 * check costs a memchr pass over summary.csv and a parse of a few dozen
 * bytes a row, not a parse of every column (which the report does).
 * The line's status was held to its verdict when it was read
 * (bench/sweep/journal.h): every verdict admits one status, error one of
 * the harness's failures (bench/result/verdict.h).  So once the rows agree,
 * an entry's status, verdict, check and reason are what its candidate row
 * says, and the exit code follows from summary.csv. */
#ifndef HB_CANDIDATE_ROWS_H
#define HB_CANDIDATE_ROWS_H

#include "bench/core/status.h"
#include "bench/sweep/sweep_files.h"

/* Holds every entry of `files` (read, its csv_ends checked to lie in
 * summary.csv at line ends and to grow) to its rows.  HB_ERR_BAD_RESULTS
 * naming the journal line and the summary.csv line that disagree, or the
 * header column that is missing. */
hb_status hb_candidate_rows_hold(const hb_sweep_files *files);

#endif
