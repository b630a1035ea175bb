/* The threads of this process as /proc shows them (/proc/self/task): each
 * thread's id, name and the CPU time it has used, read without any CUDA.
 * The thread watch (bench/core/thread_watch.h) compares two such readings. */
#ifndef HB_TASK_LIST_H
#define HB_TASK_LIST_H

#include <stddef.h>

#include "bench/core/status.h"

#define HB_TASK_NAME 16 /* TASK_COMM_LEN: the kernel keeps 15 bytes of a thread's name */

typedef struct hb_task {
    long tid;                      /* the thread's id (gettid) */
    unsigned long long cpu_ticks;  /* utime + stime, clock ticks (sysconf(_SC_CLK_TCK) a second) */
    char name[HB_TASK_NAME];       /* its comm: set by the thread itself, so a hint, never proof */
} hb_task;

typedef struct hb_task_list {
    hb_task *task;  /* sorted by tid */
    size_t count;
    size_t cap;
} hb_task_list;

/* Reads every thread of `task_dir` ("/proc/self/task", or a folder laid out
 * like it) into `out`, replacing what it held.  A thread that ends between
 * the folder's listing and the reading of its stat file is left out.
 * HB_ERR_IO naming the file when the folder or a stat file that exists
 * cannot be read or parsed; HB_ERR_INTERNAL when out of memory. */
hb_status hb_task_list_read(const char *task_dir, hb_task_list *out);

/* The thread `tid` of `list`, NULL when it is not there. */
const hb_task *hb_task_list_find(const hb_task_list *list, long tid);

void hb_task_list_free(hb_task_list *list);

/* Parses one /proc/<pid>/task/<tid>/stat line: the name between the first
 * '(' and the last ')' (a name may hold spaces and parentheses), then utime
 * and stime, the 14th and 15th fields.  1 on success, 0 when the line does
 * not have that shape. */
int hb_task_stat_parse(const char *line, char name[HB_TASK_NAME], unsigned long long *cpu_ticks);

/* Clock ticks a second of utime and stime (sysconf(_SC_CLK_TCK), 100 when it
 * cannot be read). */
long hb_task_ticks_per_s(void);

#endif
