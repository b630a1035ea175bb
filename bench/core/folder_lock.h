/* One writer per folder: a sweep folder, a report's or compare's --out, a
 * merge's output, a reproduction's OUT.  The writer holds an exclusive
 * flock on FOLDER/.hgemm-lock while it writes, and the file says who holds
 * it (pid, command line, since when), so a second writer stops at once with
 * a message naming the first instead of interleaving journal lines or
 * mixing two reports' files.
 *
 * flock, not a lock file made with O_EXCL: the kernel drops the lock when
 * the holder dies, however it dies, so a killed sweep leaves no stale lock
 * to remove by hand.  The file itself stays (removing it would race with a
 * writer opening it).  The lock is inherited by forked children (a sweep's
 * GPU workers) and not by programs they exec (O_CLOEXEC): a reproduction's
 * stages lock their own folders. */
#ifndef HB_FOLDER_LOCK_H
#define HB_FOLDER_LOCK_H

#include "bench/core/status.h"

#define HB_FOLDER_LOCK_NAME ".hgemm-lock"

typedef struct hb_folder_lock {
    int fd; /* -1: not held */
    char path[4200];
} hb_folder_lock;

/* What a holder says it is, written into the lock file: the command line
 * (main() sets it; unset: the pid alone). */
void hb_folder_lock_set_command(const char *command_line);

/* Takes FOLDER's lock (the folder must exist).  HB_ERR_IO when another
 * process holds it (the message names the holder and `purpose`, e.g.
 * "report --out"), or when FOLDER/.hgemm-lock is a link, a FIFO or not
 * writable. */
hb_status hb_folder_lock_take(hb_folder_lock *lock, const char *folder, const char *purpose);

/* Lets it go (safe on a lock never taken or released already). */
void hb_folder_lock_release(hb_folder_lock *lock);

#endif
