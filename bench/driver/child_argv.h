/* A command line the harness builds for a child process (the sanitize and
 * profile passes' inner `check`, reproduce's stages, a sweep's settings):
 * its words, and the flags that give a command the settings parsed, from the
 * command's own option rows. */
#ifndef HB_CHILD_ARGV_H
#define HB_CHILD_ARGV_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/driver/command_line.h"

#define HB_ARGV_MAX 96
typedef struct hb_argv {
    char *word[HB_ARGV_MAX + 1]; /* NULL-terminated, as execv wants */
    size_t count;
    char text[16384];            /* the words' bytes */
    size_t used;
    int overflow;                /* a word did not fit: the build failed */
} hb_argv;

/* Appends one word (a copy). */
void hb_argv_add(hb_argv *argv, const char *word);

/* Appends the flags that give `command` the settings in `run`: every flag
 * that `command` takes whose value differs from its default, except the flags
 * in `except` (NULL-terminated names without "--", which the caller sets
 * itself) and the repeatable --mnk.  HB_ERR_INTERNAL if the words do not fit. */
hb_status hb_argv_add_options(hb_argv *argv, const hb_run_options *run, hb_command command,
                              const char *const *except);

#endif
