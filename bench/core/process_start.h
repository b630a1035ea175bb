/* A process named by its pid and its start time, so that a pid written in a
 * file (reproduce's OUT/reproduce.pid) is known for the same process later,
 * not another that was given the pid once the first ended: the kernel's
 * start time (/proc/PID/stat, field 22: clock ticks after boot) differs. */
#ifndef HB_PROCESS_START_H
#define HB_PROCESS_START_H

#include <sys/types.h>

/* `pid`'s start time in clock ticks after boot: 1, or 0 when there is no
 * such process (or /proc cannot be read). */
int hb_process_start_ticks(pid_t pid, unsigned long long *ticks);

/* 1 when `pid` runs and started at `ticks`: the process recorded. */
int hb_process_is_same(pid_t pid, unsigned long long ticks);

#endif
