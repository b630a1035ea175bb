/* A helper thread of the harness (telemetry sampling, --target-ci's
 * bootstrap worker): it blocks every signal, so process-directed ones
 * (SIGINT, SIGTERM from the isolating parent) reach the main thread and its
 * handlers, never a thread that does not expect them.  And it is known by
 * its thread id while it runs, so that the thread watch
 * (bench/core/thread_watch.h) does not take it for a candidate's. */
#ifndef HB_HELPER_THREAD_H
#define HB_HELPER_THREAD_H

#include <pthread.h>

/* pthread_create with every signal blocked in the new thread; returns once
 * the thread has recorded its id.  Returns 0 or the errno-style code of the
 * call that failed (the thread then does not exist). */
int hb_helper_thread_create(pthread_t *thread, void *(*body)(void *), void *arg);

/* 1 when `tid` is a helper thread of the harness that has not returned. */
int hb_helper_thread_is_running(long tid);

#endif
