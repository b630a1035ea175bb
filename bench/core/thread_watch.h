/* Threads a launcher leaves running (docs/methodology.md, "Threat model";
 * the conduct finding `thread`, docs/trace.md).  A launcher's host code can
 * start threads that outlive its calls: one that spins on the driver, or
 * waits for the baselines' calls to slow them, runs between and beside the
 * timed calls, where no timer charges it to the candidate.  So the threads
 * of the evaluating process are read (/proc/self/task) before the launcher's
 * library loads (the harness's: the main thread, the CUDA driver's, CUPTI's)
 * and at the start and the end of the timed window.  A thread that is
 * neither the harness's then nor a running helper thread of the harness
 * (bench/core/helper_thread.h), that is alive at the window's end and that
 * used CPU in the window (utime + stime at the end less at the start, or all
 * of it for a thread started inside the window) is named, with its CPU
 * seconds.  Which code started a thread cannot be read from /proc: a thread a
 * library starts lazily after the launcher has loaded would be named too, by
 * its name (comm), so the line can be judged.  A thread that ends inside the
 * window is not seen. */
#ifndef HB_THREAD_WATCH_H
#define HB_THREAD_WATCH_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/core/task_list.h"

#define HB_THREAD_WATCH_LINE 224

typedef struct hb_thread_watch {
    int on;                   /* begun: a launcher's library is about to load */
    int in_window;            /* between window_begin and window_end */
    double window_start_s;    /* hb_now_s at window_begin */
    hb_task_list harness;     /* the threads before any candidate code */
    hb_task_list start;       /* at the timed window's start */
    hb_task_list end;         /* at its end */
    int threads;              /* threads of its own alive at the window's end that used CPU in it */
    char line[HB_THREAD_WATCH_LINE]; /* what they did; "" when none */
} hb_thread_watch;

/* Before the launcher's library loads: the harness's threads.  HB_ERR_IO
 * when /proc/self/task cannot be read. */
hb_status hb_thread_watch_begin(hb_thread_watch *watch);

/* At the timed window's start and end (nothing when the watch was not
 * begun, or, for the end, when no window began); the end judges, into
 * `threads` and `line`.  HB_ERR_IO when /proc/self/task cannot be read. */
hb_status hb_thread_watch_window_begin(hb_thread_watch *watch);
hb_status hb_thread_watch_window_end(hb_thread_watch *watch);

void hb_thread_watch_free(hb_thread_watch *watch);

/* The judgement on three readings: the threads of `end` that are not in
 * `harness` and for which is_harness_helper(tid) is 0, with the CPU ticks
 * they used since `start` (all of theirs when not in it), those above 0
 * counted.  `line` names them, the busiest first, with their seconds
 * (`ticks_per_s` a second) and the window's `window_s`; "" when none. */
int hb_threads_judge(const hb_task_list *harness, const hb_task_list *start, const hb_task_list *end,
                     int (*is_harness_helper)(long tid), long ticks_per_s, double window_s, char *line, size_t size);

#endif
