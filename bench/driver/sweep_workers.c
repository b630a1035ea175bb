#define _POSIX_C_SOURCE 200809L
#include "bench/driver/sweep_workers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/fd_io.h"
#include "bench/core/folders.h"
#include "bench/core/process.h"
#include "bench/driver/config_runner.h"
#include "bench/driver/interrupt.h"
#include "bench/driver/isolate.h"
#include "bench/gpu/device.h"

/* --- messages between the sweep and its workers ----------------------------------------
 * To a worker: one uint64 per item to run; the pipe closed means "no more".
 * From a worker: a header, then `size` bytes (an hb_device_info or an
 * hb_config_result).  One writer per pipe, so a message is never interleaved. */

enum { MSG_DEVICE = 1, MSG_RESULT = 2 };

typedef struct message_header {
    uint32_t kind;
    int32_t status;  /* MSG_DEVICE: whether the GPU opened */
    uint64_t item;   /* MSG_RESULT */
    uint32_t cut;    /* MSG_RESULT: a caught signal killed the item's child: nothing to record */
    uint32_t size;
} message_header;

static int send_message(int fd, message_header header, const void *payload)
{
    return hb_write_all(fd, &header, sizeof header) && hb_write_all(fd, payload, header.size);
}

/* --- the worker -------------------------------------------------------------------------- */

static hb_status read_device(void *context, void *result, size_t size)
{
    (void)size;
    return hb_device_open(*(const int *)context, result);
}

/* Its GPU's facts, read in a child like every GPU call of the harness. */
static hb_status open_worker_device(const hb_run_options *o, hb_device_info *device)
{
    hb_child_outcome outcome;
    memset(device, 0, sizeof *device);
    HB_TRY(hb_run_isolated(read_device, (void *)&o->device, device, sizeof *device, o->timeout_s, &outcome));
    if (outcome.end != HB_CHILD_RETURNED)
        return hb_fail(HB_ERR_CUDA, "reading GPU %d's properties failed: the process %s", o->device, outcome.message);
    return outcome.status;
}

/* --raw: <sweep>/raw/<mode>/, the two modes of a configuration apart. */
static void set_raw_dir(hb_run_options *o, const char *folder, hb_mode mode)
{
    static char raw_dir[4200];
    snprintf(raw_dir, sizeof raw_dir, "%s/raw/%s", folder, hb_mode_name(mode));
    if (hb_make_folders(raw_dir, "raw samples folder") == HB_OK)
        o->raw_dir = raw_dir;
}

static void run_items(hb_run_options *o, const hb_device_info *device, const hb_sweep_work *work,
                      hb_evaluators *evaluators, int in_fd, int out_fd)
{
    static hb_config_result result;
    uint64_t item;
    double idle_since = 0; /* when the last result was sent: the first item has no "between" */
    while (hb_read_all(in_fd, &item, sizeof item) == 1 && item < hb_plan_item_count(work->plan)) {
        const double start = hb_now_s();
        hb_plan_item it = hb_plan_item_at(work->plan, (size_t)item);
        o->mode = it.mode;
        if (o->raw)
            set_raw_dir(o, work->folder, it.mode);
        int cut = 0;
        hb_config_result_init(&result, &o->configs[it.config]);
        hb_status status = hb_config_run(o, device, work->sanitizer, work->folder, it.config, evaluators, &result,
                                         &cut);
        if (status != HB_OK) { /* the sanitize pass itself failed: the configuration's error */
            result.status = status;
            result.verdict = hb_verdict_of_status(status);
            snprintf(result.reason, sizeof result.reason, "%s", hb_last_error());
        }
        if (idle_since > 0)
            hb_item_cost_add(&result.cost, HB_COST_BETWEEN, start - idle_since);
        idle_since = hb_now_s();
        result.cost.wall_s = idle_since - start + result.cost.part_s[HB_COST_BETWEEN];
        message_header header = {MSG_RESULT, (int32_t)result.status, item, (uint32_t)cut, sizeof result};
        if (!send_message(out_fd, header, &result) || cut)
            return;
    }
}

static void worker_main(const hb_sweep_work *work, int ordinal, int in_fd, int out_fd)
{
    static hb_run_options options;
    options = *work->options;
    options.device = ordinal;
    options.progress = 0; /* the sweep prints one line for all */
    hb_device_info device;
    hb_status status = open_worker_device(&options, &device);
    message_header header = {MSG_DEVICE, (int32_t)status, 0, 0, sizeof device};
    if (status != HB_OK)
        snprintf(device.name, sizeof device.name, "%s", hb_last_error()); /* why, for the sweep to say */
    static hb_evaluators evaluators; /* the next item's process readied while one measures */
    hb_evaluators_init(&evaluators);
    if (send_message(out_fd, header, &device) && status == HB_OK)
        run_items(&options, &device, work, &evaluators, in_fd, out_fd);
    hb_evaluators_close(&evaluators);
}

/* --- the sweep's side ---------------------------------------------------------------------- */

typedef struct worker {
    hb_process process;
    int to;          /* items to the worker */
    int from;        /* messages from it */
    int busy;        /* an item is in flight */
    uint64_t item;
    int alive;
} worker;

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* What a worker process is started with. */
typedef struct worker_start {
    const hb_sweep_work *work;
    const worker *all; /* the workers started before this one */
    size_t index;
    int to[2], from[2];
} worker_start;

static int worker_process(void *context)
{
    const worker_start *s = context;
    signal(SIGPIPE, SIG_IGN); /* a sweep gone: write fails with EPIPE and the worker ends */
    for (size_t i = 0; i < s->index; i++) { /* the other workers' pipes are not this one's */
        close(s->all[i].to);
        close(s->all[i].from);
    }
    close(s->to[1]);
    close(s->from[0]);
    worker_main(s->work, s->work->ordinals[s->index], s->to[0], s->from[1]);
    return 0;
}

static hb_status start_worker(const hb_sweep_work *work, worker *all, size_t index)
{
    worker_start s = {work, all, index, {-1, -1}, {-1, -1}};
    if (pipe(s.to) != 0 || pipe(s.from) != 0) {
        int error = errno;
        for (int i = 0; i < 2; i++)
            close_fd(&s.to[i]);
        return hb_fail(HB_ERR_INTERNAL, "cannot create a pipe for GPU worker %zu: %s", index, strerror(error));
    }
    /* In the sweep's own process group (a Ctrl-C at the terminal reaches it), keeping the sweep's interrupt
     * handlers (hb_interrupted() tells it to stop), dying with the sweep. */
    hb_process process = HB_PROCESS_INIT;
    process.fn = worker_process;
    process.context = &s;
    process.die_with_parent = 1;
    hb_status started = hb_process_start(&process);
    close(s.to[0]);
    close(s.from[1]);
    if (started != HB_OK) {
        close(s.to[1]);
        close(s.from[0]);
        return started;
    }
    all[index] = (worker){process, s.to[1], s.from[0], 0, 0, 1};
    return HB_OK;
}

/* Every worker's first message: its GPU. */
static hb_status collect_devices(const hb_sweep_work *work, worker *all, const hb_sweep_hooks *hooks)
{
    static hb_device_info devices[HB_MAX_WORKERS];
    hb_status status[HB_MAX_WORKERS];
    size_t usable = 0;
    for (size_t w = 0; w < work->workers; w++) {
        message_header header;
        memset(&devices[w], 0, sizeof devices[w]);
        if (hb_read_all(all[w].from, &header, sizeof header) != 1 || header.kind != MSG_DEVICE ||
            header.size != sizeof devices[w] || hb_read_all(all[w].from, &devices[w], sizeof devices[w]) != 1) {
            status[w] = hb_interrupted() ? HB_OK : HB_ERR_CUDA;
            snprintf(devices[w].name, sizeof devices[w].name, "the worker of GPU %d ended before reading it",
                     work->ordinals[w]);
        } else {
            status[w] = (hb_status)header.status;
        }
        if (status[w] != HB_OK || hb_interrupted())
            all[w].alive = 0;
        usable += all[w].alive;
    }
    if (hb_interrupted())
        return HB_OK;
    HB_TRY(hooks->on_devices(hooks->context, status, devices, work->workers));
    if (usable == 0)
        return hb_fail(HB_ERR_CUDA, "no GPU of the sweep could be opened (the errors above say why)");
    return HB_OK;
}

static int hand_out(worker *w, const hb_sweep_work *work, size_t *next)
{
    if (*next >= work->count)
        return 0;
    uint64_t item = work->items[*next];
    if (!hb_write_all(w->to, &item, sizeof item))
        return 0;
    (*next)++;
    w->busy = 1;
    w->item = item;
    return 1;
}

/* One message from worker w (it is readable).  A worker that ends midway
 * leaves its item not run: the next --resume runs it. */
static hb_status take_message(worker *w, int ordinal, const hb_sweep_hooks *hooks, size_t index)
{
    static hb_config_result result;
    message_header header;
    int got = hb_read_all(w->from, &header, sizeof header);
    if (got == 1 && header.kind == MSG_RESULT && header.size == sizeof result &&
        hb_read_all(w->from, &result, sizeof result) == 1) {
        w->busy = 0;
        return header.cut ? HB_OK : hooks->on_result(hooks->context, index, (size_t)header.item, &result);
    }
    if (w->busy && !hb_interrupted())
        fprintf(stderr, "hgemm-bench: the worker of GPU %d ended while running item %llu; it is left for --resume\n",
                ordinal, (unsigned long long)w->item);
    w->busy = 0;
    w->alive = 0;
    return HB_OK;
}

/* SIGINT at a terminal reaches the workers too; a SIGTERM or SIGHUP sent to
 * the sweep alone is passed on, so each worker kills its configuration's
 * child and stops. */
static void pass_on_interrupt(worker *all, size_t count, int *passed)
{
    int signal_number = hb_interrupted();
    if (!signal_number || *passed)
        return;
    *passed = 1;
    for (size_t w = 0; w < count; w++) {
        close_fd(&all[w].to);
        if (all[w].alive)
            hb_process_kill(&all[w].process, signal_number);
    }
}

static size_t busy_count(const worker *all, size_t count)
{
    size_t busy = 0;
    for (size_t w = 0; w < count; w++)
        busy += all[w].alive && all[w].busy;
    return busy;
}

static hb_status dispatch(const hb_sweep_work *work, worker *all, const hb_sweep_hooks *hooks)
{
    size_t next = 0;
    int stopping = 0, passed = 0;
    hb_status failure = HB_OK;
    for (size_t w = 0; w < work->workers; w++)
        if (all[w].alive && !hand_out(&all[w], work, &next))
            close_fd(&all[w].to);
    while (busy_count(all, work->workers) > 0) {
        pass_on_interrupt(all, work->workers, &passed);
        struct pollfd fds[HB_MAX_WORKERS];
        for (size_t w = 0; w < work->workers; w++)
            fds[w] = (struct pollfd){all[w].alive && all[w].busy ? all[w].from : -1, POLLIN, 0};
        if (poll(fds, work->workers, 1000) < 0 && errno != EINTR)
            return hb_fail(HB_ERR_INTERNAL, "waiting for the GPU workers: poll: %s", strerror(errno));
        for (size_t w = 0; w < work->workers; w++) {
            if (!(fds[w].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            hb_status recorded = take_message(&all[w], work->ordinals[w], hooks, w);
            if (recorded != HB_OK && failure == HB_OK)
                failure = recorded, stopping = 1;
            if (!all[w].busy && (stopping || hb_interrupted() || !all[w].alive || !hand_out(&all[w], work, &next)))
                close_fd(&all[w].to);
        }
    }
    return failure;
}

static void stop_workers(worker *all, size_t count)
{
    for (size_t w = 0; w < count; w++) {
        close_fd(&all[w].to);
        close_fd(&all[w].from);
        hb_process_end end;
        if (all[w].process.pid > 0)
            hb_process_wait(&all[w].process, 0, NULL, &end);
    }
}

hb_status hb_sweep_workers_run(const hb_sweep_work *work, const hb_sweep_hooks *hooks)
{
    worker all[HB_MAX_WORKERS];
    if (work->workers == 0 || work->workers > HB_MAX_WORKERS)
        return hb_fail(HB_ERR_USAGE, "a sweep runs on 1 to %d GPUs, not %zu", HB_MAX_WORKERS, work->workers);
    for (size_t w = 0; w < work->workers; w++)
        all[w] = (worker){.to = -1, .from = -1};
    hb_status status = HB_OK;
    for (size_t w = 0; status == HB_OK && w < work->workers; w++)
        status = start_worker(work, all, w);
    if (status == HB_OK)
        status = collect_devices(work, all, hooks);
    if (status == HB_OK && !hb_interrupted())
        status = dispatch(work, all, hooks);
    stop_workers(all, work->workers);
    return status;
}

/* --- how many GPUs ---------------------------------------------------------------------------- */

static hb_status count_devices(void *context, void *result, size_t size)
{
    (void)context;
    (void)size;
    return hb_device_count(result);
}

hb_status hb_sweep_device_count(double timeout_s, int *count)
{
    hb_child_outcome outcome;
    *count = 0;
    HB_TRY(hb_run_isolated(count_devices, NULL, count, sizeof *count, timeout_s, &outcome));
    if (outcome.end != HB_CHILD_RETURNED)
        return hb_fail(HB_ERR_CUDA, "counting the GPUs failed: the process %s", outcome.message);
    return outcome.status;
}
