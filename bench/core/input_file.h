/* An input file opened the one way every reader of the harness opens one
 * (a result folder's files, a published CSV, a plan, a manifest, a kernel
 * file): only a regular file, never more than a size the reader can hold.
 *
 * Why: anything else under a file's name can hang or sink the harness.  A
 * FIFO blocks open() until a writer comes (forever, and the interrupt
 * handler's SA_RESTART resumes the wait); /dev/zero reads until memory runs
 * out; a folder fails later with a stale errno.  So the file is opened with
 * O_NONBLOCK (an open that cannot wait), fstat'd, refused unless it is a
 * regular file or is larger than `max_bytes`, and only then is O_NONBLOCK
 * cleared.  The check is on the descriptor itself, so a file swapped
 * between a stat() and the open cannot slip through.  A regular file's
 * open and reads do not wait on anything, so a signal that arrives while
 * one is read is seen by the caller's next check (bench/driver/interrupt.h). */
#ifndef HB_INPUT_FILE_H
#define HB_INPUT_FILE_H

#include <stddef.h>

#include "bench/core/status.h"

/* Opens `path` for reading.  On success *fd is the descriptor (close it)
 * and *size the file's length in bytes.  `label` names the file in
 * messages ("cubin x named by m.json"; NULL: the path).  A missing file is
 * HB_OK with *fd = -1 when missing_ok (a symbolic link to nothing is not
 * missing: it is refused); any other failure, and a file that is not a
 * regular file or is over `max_bytes`, is `failure` with a message naming
 * the file and what it is ("a FIFO (named pipe), not a regular file"). */
hb_status hb_input_open(const char *path, const char *label, size_t max_bytes, hb_status failure, int missing_ok,
                        int *fd, size_t *size);

/* The whole file, opened as hb_input_open opens it: *text is malloc'd
 * (free it) and NUL-terminated, *size its length (the text may hold NUL
 * bytes of its own: compare *size, not strlen).  A missing file is HB_OK
 * with *text NULL when missing_ok.  A file that grows past `max_bytes`
 * while it is read is refused as one that was over it. */
hb_status hb_input_read(const char *path, const char *label, size_t max_bytes, hb_status failure, int missing_ok,
                        char **text, size_t *size);

/* A file of a result folder (plan.json, summary.csv, the journal, env.json)
 * that is a symbolic link must lead to a file inside its own folder (the
 * folder `path` names it in): a folder from elsewhere cannot make the
 * harness read, or a resume append to, a file outside it.  HB_OK when
 * `path` is not a link (the open's own checks apply) or leads inside;
 * `failure` naming the link and where it leads otherwise. */
hb_status hb_input_inside_folder(const char *path, hb_status failure);

/* Where `text` (size bytes) holds a NUL byte, 1-based, into *line and
 * *column; 0 when it holds none.  A text file (CSV, JSON, a journal) never
 * does, and a JSON parser may skip one without a word: one is damage. */
int hb_text_nul_at(const char *text, size_t size, size_t *line, size_t *column);

/* What kind of entry `path` is, for a message ("a FIFO (named pipe)",
 * "a folder", ...; "missing" when there is nothing). */
const char *hb_input_kind(const char *path);

#endif
