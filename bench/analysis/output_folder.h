/* --out DIR for report and compare: the files appear in DIR as a whole set
 * or not at all, one writer at a time, and nothing in DIR that the harness
 * did not write itself is ever removed.
 *
 * - One writer: DIR's lock (bench/core/folder_lock.h) is held from begin to
 *   publish or abandon; a second report into DIR stops at once, naming the
 *   first.
 * - Staged: every file is written into a staging folder inside DIR
 *   (DIR/.hgemm-OWNER-XXXXXX, same file system), each created new (never
 *   through a link) and fsync'd when closed, so a full disk is an error
 *   before anything is published.
 * - Published as a set: the staging folder gets the new manifest
 *   DIR/.hgemm-OWNER.files (each file's SHA-256, size and name), is renamed
 *   whole to DIR/.hgemm-OWNER-publishing (the point of no return), its files
 *   are renamed into DIR, and the manifest last.  A process killed midway
 *   leaves the publishing folder; the next writer of DIR (under the lock)
 *   finishes the job before anything else, so DIR never stays half old,
 *   half new.  Readers trust the manifest: it is written last.
 * - Stale files: once the new set is in place, a file the previous manifest
 *   lists and the new one does not (a speedup_server.csv from a report that
 *   had a server mode) is removed, but only if it is a regular file with a
 *   name the owner writes (report.md, table1.csv, report_*.png, ...) and
 *   still holds the bytes that manifest recorded.  A manifest from
 *   elsewhere naming summary.csv, or a file changed since, removes nothing.
 * - Staging folders a killed writer left (DIR/.hgemm-OWNER-XXXXXX) are
 *   cleared by the next writer: the files in them with names the owner
 *   writes, then the folder; anything else is left and said. */
#ifndef HB_OUTPUT_FOLDER_H
#define HB_OUTPUT_FOLDER_H

#include <stdio.h>

#include "bench/core/folder_lock.h"
#include "bench/core/status.h"

#define HB_OUTPUT_PATH_SIZE 4200

typedef struct hb_output_folder {
    char final[HB_OUTPUT_PATH_SIZE]; /* DIR */
    char stage[HB_OUTPUT_PATH_SIZE]; /* DIR/.hgemm-OWNER-XXXXXX */
    char owner[32];                  /* "report", "compare" */
    hb_folder_lock lock;
} hb_output_folder;

/* Creates DIR (mkdir -p), takes its lock, finishes a publication a killed
 * writer left, clears stale staging folders and makes this one's.
 * HB_ERR_IO naming the place (or the lock's holder) otherwise. */
hb_status hb_output_begin(hb_output_folder *out, const char *folder, const char *owner);

/* The staged path of a file `name` (no '/'). */
hb_status hb_output_path(const hb_output_folder *out, const char *name, char *path, size_t size);

/* Creates the staged file `name` for writing; NULL with the error reported. */
FILE *hb_output_open(const hb_output_folder *out, const char *name);
/* Flushes, fsyncs and closes it: HB_ERR_IO if anything written was lost (disk full). */
hb_status hb_output_close(FILE *file, const char *name);

/* Publishes the staged files as above, then lets the lock go. */
hb_status hb_output_publish(hb_output_folder *out);
/* Removes the staging folder and what it holds (after an error), and lets
 * the lock go: DIR is as it was. */
void hb_output_abandon(hb_output_folder *out);

#endif
