/* The end of a watched child (bench/driver/isolate.h) that becomes a
 * toolkit program running this binary again: compute-sanitizer for
 * --sanitize, ncu for --profile.  Shared so both hand on the same things;
 * the exec itself is bench/core/process.h's. */
#ifndef HB_WATCHED_EXEC_H
#define HB_WATCHED_EXEC_H

/* Passes the heartbeat's descriptor on, in the environment and kept open
 * across the exec (the inner hgemm-bench keeps the watch alive through it;
 * without it the pass would look silent and be killed at its timeout),
 * gives every signal its default back (the heartbeat ignores SIGPIPE in
 * this child, and an ignored signal survives execv), closes every other
 * descriptor, sends stdout and stderr to `log` when given (opened with
 * hb_open_output: never through a link or into a FIFO; NULL: kept), and
 * executes `words` (words[0] is the program's path).  Returns only by
 * exiting: 126 when the log cannot be opened, 127 when execv failed, with
 * the reason on stderr.  `program` names the tool in messages. */
_Noreturn void hb_exec_watched(char *const *words, const char *program, const char *log);

#endif
