/* A note an isolated child leaves its parent that outlives the child
 * (bench/driver/isolate.h): one page of anonymous memory mapped shared
 * before the fork, so that whatever the child, or any process it forks,
 * writes there is still there when the parent has reaped it.  The sandbox
 * (bench/driver/sandbox.h) writes what it applied when it is applied, and
 * the one line naming the call it refused from its SIGSYS handler, then
 * kills the child's process group: the result pipe carries nothing then,
 * and the note is the only account.
 *
 * The child's code can write the page like any of its memory; a note is
 * evidence against the candidate only (it can forge one only to fail
 * itself), so the parent believes it. */
#ifndef HB_CHILD_NOTE_H
#define HB_CHILD_NOTE_H

#include <stddef.h>

#include "bench/core/status.h"

#define HB_CHILD_NOTE_SANDBOX 64 /* "mseal+seccomp+landlock7" and kin */
#define HB_CHILD_NOTE_TEXT 400   /* one line, the verdict's reason without its tail */

typedef struct hb_child_note {
    int claimed;                        /* the first writer of `text` sets it (atomic exchange); later ones leave it */
    int written;                        /* 1 once `text` is whole (stored last, with release order) */
    char sandbox[HB_CHILD_NOTE_SANDBOX]; /* what the child applied; "" before the sandbox */
    char text[HB_CHILD_NOTE_TEXT];      /* the violation; "" while none */
} hb_child_note;

/* A fresh, zeroed shared page (parent, before the fork).  NULL with
 * hb_fail(HB_ERR_INTERNAL) when it cannot be mapped. */
hb_child_note *hb_child_note_map(void);
void hb_child_note_unmap(hb_child_note *note);

/* In the child: `note` is this process's note (NULL: none). */
void hb_child_note_adopt(hb_child_note *note);
/* This process's note, NULL outside an isolated child. */
hb_child_note *hb_child_note_here(void);

/* Writes `text` as the note's violation unless one was written first;
 * async-signal-safe (the sandbox's SIGSYS handler calls it).  1 when this
 * call wrote it. */
int hb_child_note_write(hb_child_note *note, const char *text);

/* Copies what the note holds into text[text_size] (a violation, "" when
 * none is whole) and sandbox[sandbox_size]; NUL-terminated whatever the
 * page holds. */
void hb_child_note_read(const hb_child_note *note, char *text, size_t text_size, char *sandbox, size_t sandbox_size);

#endif
