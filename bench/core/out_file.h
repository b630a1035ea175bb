/* Every file the harness writes, written one way (git's tempfile.c and
 * lockfile.c): a file that replaces another is written whole into a new
 * temporary beside it and renamed over it; nothing is ever opened for
 * writing through a symbolic link or into a FIFO, device or folder.
 *
 * Why: the folders the harness writes into may come from elsewhere (a
 * result folder downloaded with a paper, a shard from a cluster), and a
 * name in one may be a link planted to make a write land outside it (a
 * `verdict.json.tmp` pointing at ~/.bashrc) or a FIFO that makes the open
 * wait forever.  So:
 *
 * - a temporary is made with a fresh name (`.NAME.XXXXXX`, O_CREAT|O_EXCL:
 *   an existing entry of that name, link or FIFO, makes it pick another), in
 *   the target's own folder, so the rename is atomic;
 * - a file that must be new (a run folder's summary.csv, a staged report
 *   file) is created with O_EXCL|O_NOFOLLOW: it never opens what is there;
 * - a file appended to (a sweep's journal and summary.csv) is opened with
 *   O_NOFOLLOW and O_NONBLOCK and refused unless it is a regular file;
 * - every write is checked through fflush, fsync and close, so a full disk
 *   is an error (HB_ERR_IO) and the cut-short temporary is removed, never
 *   renamed over the good file.
 *
 * A crash between creating a temporary and its rename leaves a hidden
 * `.NAME.XXXXXX` beside the target; the target itself is the old file or
 * the whole new one, never half of either. */
#ifndef HB_OUT_FILE_H
#define HB_OUT_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "bench/core/status.h"

#define HB_OUT_PATH_SIZE 4200

typedef struct hb_out_file {
    FILE *stream;                /* write through this; NULL once committed or abandoned */
    char path[HB_OUT_PATH_SIZE]; /* the file it becomes */
    char temp[HB_OUT_PATH_SIZE]; /* DIR/.NAME.XXXXXX while it is written */
} hb_out_file;

/* Starts writing `path`: a new temporary beside it, open in f->stream.
 * HB_ERR_IO naming the folder when it cannot be made (no folder, not
 * writable, the path too long). */
hb_status hb_out_file_begin(hb_out_file *f, const char *path);

/* Flushes, fsyncs and closes the temporary and renames it over `path`
 * (then fsyncs the folder, so the rename survives a power cut).  On any
 * failure the temporary is removed, `path` is left as it was and the
 * result is HB_ERR_IO with the cause ("No space left on device").  Either
 * way f is finished with. */
hb_status hb_out_file_commit(hb_out_file *f);

/* Closes and removes the temporary: `path` is left as it was. */
void hb_out_file_abandon(hb_out_file *f);

/* `size` bytes of `data` as the whole of `path`, through the above. */
hb_status hb_out_file_write(const char *path, const void *data, size_t size);

/* Creates `path`, which must not exist (O_CREAT|O_EXCL|O_NOFOLLOW): *fd is
 * open for writing.  An existing entry of any kind is HB_ERR_IO naming it
 * and `label` ("summary.csv of the run"; NULL: the path). */
hb_status hb_create_new_file(const char *path, const char *label, int *fd);

/* Opens the existing `path` for appending: a regular file, not a symbolic
 * link, opened without waiting (a FIFO is refused, not waited on).
 * Anything else is `failure` with a message naming `label`. */
hb_status hb_open_for_append(const char *path, const char *label, hb_status failure, int *fd);

/* Opens `path` for a child's output or a log: created if missing, else a
 * regular file that is not a link (truncated unless `append`); never a
 * FIFO, device or link.  HB_ERR_IO naming it otherwise. */
hb_status hb_open_output(const char *path, int append, int *fd);

/* fflush, ferror, fsync and fclose of a stream written to `label`:
 * HB_ERR_IO with the cause when any of them failed (the stream is closed
 * either way). */
hb_status hb_finish_stream(FILE *stream, const char *label);

/* fsync of a folder, so that a rename or a new entry in it is on disk. */
hb_status hb_sync_folder(const char *folder);

#endif
