#include "bench/core/thread_watch.h"

#include <stdio.h>
#include <string.h>

#include "bench/core/clock.h"
#include "bench/core/helper_thread.h"

#define TASK_DIR "/proc/self/task"
#define NAMED 3 /* threads the line names, the busiest first */

typedef struct busy_thread {
    const hb_task *task;
    unsigned long long ticks; /* in the window */
} busy_thread;

/* Keeps the NAMED busiest in `top` (sorted, most first). */
static void keep_busiest(busy_thread *top, int *kept, busy_thread t)
{
    int at = *kept < NAMED ? (*kept)++ : NAMED;
    while (at > 0 && top[at - 1].ticks < t.ticks) {
        if (at < NAMED)
            top[at] = top[at - 1];
        at--;
    }
    if (at < NAMED)
        top[at] = t;
}

static void describe(const busy_thread *top, int kept, int threads, unsigned long long total, long ticks_per_s,
                     double window_s, char *line, size_t size)
{
    size_t used = (size_t)snprintf(line, size, "%d thread%s started after its library loaded ran %.2f s of CPU in "
                                   "the %.1f s timed window (", threads, threads == 1 ? "" : "s",
                                   (double)total / (double)ticks_per_s, window_s);
    for (int i = 0; i < kept && used < size; i++)
        used += (size_t)snprintf(line + used, size - used, "%stid %ld \"%s\" %.2f s", i ? ", " : "",
                                 top[i].task->tid, top[i].task->name, (double)top[i].ticks / (double)ticks_per_s);
    if (used < size)
        snprintf(line + used, size - used, "%s); no timer charges it to the candidate", threads > kept ? ", ..." : "");
}

int hb_threads_judge(const hb_task_list *harness, const hb_task_list *start, const hb_task_list *end,
                     int (*is_harness_helper)(long tid), long ticks_per_s, double window_s, char *line, size_t size)
{
    busy_thread top[NAMED];
    int kept = 0, threads = 0;
    unsigned long long total = 0;
    if (size)
        line[0] = '\0';
    for (size_t i = 0; i < end->count; i++) {
        const hb_task *t = &end->task[i];
        if (hb_task_list_find(harness, t->tid) || (is_harness_helper && is_harness_helper(t->tid)))
            continue;
        const hb_task *before = hb_task_list_find(start, t->tid);
        const unsigned long long from = before && before->cpu_ticks <= t->cpu_ticks ? before->cpu_ticks : 0;
        const unsigned long long ticks = t->cpu_ticks - from;
        if (ticks == 0)
            continue;
        threads++;
        total += ticks;
        keep_busiest(top, &kept, (busy_thread){t, ticks});
    }
    if (threads && size)
        describe(top, kept, threads, total, ticks_per_s, window_s, line, size);
    return threads;
}

hb_status hb_thread_watch_begin(hb_thread_watch *w)
{
    hb_thread_watch_free(w);
    HB_TRY(hb_task_list_read(TASK_DIR, &w->harness));
    w->on = 1;
    return HB_OK;
}

hb_status hb_thread_watch_window_begin(hb_thread_watch *w)
{
    if (!w->on)
        return HB_OK;
    HB_TRY(hb_task_list_read(TASK_DIR, &w->start));
    w->window_start_s = hb_now_s();
    w->in_window = 1;
    return HB_OK;
}

hb_status hb_thread_watch_window_end(hb_thread_watch *w)
{
    if (!w->on || !w->in_window)
        return HB_OK;
    const double window_s = hb_now_s() - w->window_start_s;
    w->in_window = 0;
    HB_TRY(hb_task_list_read(TASK_DIR, &w->end));
    w->threads = hb_threads_judge(&w->harness, &w->start, &w->end, hb_helper_thread_is_running,
                                  hb_task_ticks_per_s(), window_s, w->line, sizeof w->line);
    return HB_OK;
}

void hb_thread_watch_free(hb_thread_watch *w)
{
    hb_task_list_free(&w->harness);
    hb_task_list_free(&w->start);
    hb_task_list_free(&w->end);
    *w = (hb_thread_watch){0};
}
