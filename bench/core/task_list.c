#define _POSIX_C_SOURCE 200809L /* openat, fdopendir */
#include "bench/core/task_list.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/array_room.h"
#include "bench/core/diag.h"

int hb_task_stat_parse(const char *line, char name[HB_TASK_NAME], unsigned long long *cpu_ticks)
{
    const char *open = strchr(line, '(');
    const char *close = strrchr(line, ')');
    if (!open || !close || close < open)
        return 0;
    size_t len = (size_t)(close - open - 1);
    if (len >= HB_TASK_NAME)
        len = HB_TASK_NAME - 1;
    memcpy(name, open + 1, len);
    name[len] = '\0';
    /* After the name: field 3 (state) on; utime and stime are fields 14 and 15. */
    unsigned long long utime = 0, stime = 0;
    if (sscanf(close + 1, " %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu", &utime, &stime) != 2)
        return 0;
    *cpu_ticks = utime + stime;
    return 1;
}

long hb_task_ticks_per_s(void)
{
    long ticks = sysconf(_SC_CLK_TCK);
    return ticks > 0 ? ticks : 100;
}

/* One thread's stat file, read whole.  *gone when the thread ended since the
 * listing (the file, or the thread's folder, is no longer there, or reads
 * empty). */
static hb_status read_stat(int dir_fd, const char *task_dir, const char *tid, hb_task *out, int *gone)
{
    char path[64];
    snprintf(path, sizeof path, "%s/stat", tid);
    *gone = 0;
    int fd = openat(dir_fd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *gone = errno == ENOENT || errno == ESRCH;
        return *gone ? HB_OK : hb_fail(HB_ERR_IO, "cannot open %s/%s: %s", task_dir, path, strerror(errno));
    }
    char line[1024];
    ssize_t n = read(fd, line, sizeof line - 1);
    int read_errno = errno;
    close(fd);
    if (n <= 0) {
        *gone = n == 0 || read_errno == ESRCH;
        return *gone ? HB_OK : hb_fail(HB_ERR_IO, "cannot read %s/%s: %s", task_dir, path, strerror(read_errno));
    }
    line[n] = '\0';
    out->tid = strtol(tid, NULL, 10);
    if (!hb_task_stat_parse(line, out->name, &out->cpu_ticks))
        return hb_fail(HB_ERR_IO, "%s/%s does not read like a thread's stat line: %.80s", task_dir, path, line);
    return HB_OK;
}

static int is_tid(const char *name)
{
    if (!*name)
        return 0;
    for (const char *c = name; *c; c++)
        if (*c < '0' || *c > '9')
            return 0;
    return 1;
}

static int by_tid(const void *a, const void *b)
{
    long x = ((const hb_task *)a)->tid, y = ((const hb_task *)b)->tid;
    return (x > y) - (x < y);
}

/* Every numbered entry of the open folder `dir` into `out`. */
static hb_status read_tasks(DIR *dir, const char *task_dir, hb_task_list *out)
{
    for (;;) {
        errno = 0;
        struct dirent *entry = readdir(dir);
        if (!entry)
            return errno ? hb_fail(HB_ERR_IO, "cannot list %s: %s", task_dir, strerror(errno)) : HB_OK;
        if (!is_tid(entry->d_name))
            continue;
        if (!hb_array_room((void **)&out->task, &out->cap, out->count, sizeof *out->task))
            return hb_fail(HB_ERR_INTERNAL, "out of memory reading the threads of %s", task_dir);
        int gone = 0;
        HB_TRY(read_stat(dirfd(dir), task_dir, entry->d_name, &out->task[out->count], &gone));
        if (!gone)
            out->count++;
    }
}

hb_status hb_task_list_read(const char *task_dir, hb_task_list *out)
{
    out->count = 0;
    DIR *dir = opendir(task_dir);
    if (!dir)
        return hb_fail(HB_ERR_IO, "cannot open %s to count this process's threads: %s", task_dir, strerror(errno));
    hb_status status = read_tasks(dir, task_dir, out);
    closedir(dir);
    if (status == HB_OK && out->count > 1)
        qsort(out->task, out->count, sizeof *out->task, by_tid);
    return status;
}

const hb_task *hb_task_list_find(const hb_task_list *list, long tid)
{
    hb_task key = {.tid = tid};
    return list->count ? bsearch(&key, list->task, list->count, sizeof key, by_tid) : NULL;
}

void hb_task_list_free(hb_task_list *list)
{
    free(list->task);
    *list = (hb_task_list){0};
}
