#define _GNU_SOURCE /* gettid, pthread_setname_np */
/* Threads a launcher leaves running (bench/core/thread_watch.h): the reading
 * of /proc/self/task (bench/core/task_list.h) with threads of the test's own,
 * the judgement on made-up readings, and the harness's helper threads kept
 * apart (bench/core/helper_thread.h).  No GPU. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/helper_thread.h"
#include "bench/core/task_list.h"
#include "bench/core/thread_watch.h"
#include "tests/test_registry.h"

/* --- a thread of the test's own -------------------------------------------------------------- */

typedef struct test_thread {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    long tid;            /* set by the thread */
    double spin_s;       /* CPU seconds to burn when told to */
    int spin;            /* 1: burn spin_s, then set it back to 0 */
    int stop;
} test_thread;

static double thread_cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Burns CPU until this thread has used `seconds` more of it. */
static void burn(double seconds)
{
    const double until = thread_cpu_s() + seconds;
    volatile unsigned long sink = 0;
    while (thread_cpu_s() < until)
        for (int i = 0; i < 10000; i++)
            sink += (unsigned long)i;
}

/* Waits (using no CPU) until told to spin or to stop. */
static void *test_thread_main(void *p)
{
    test_thread *t = p;
    pthread_setname_np(pthread_self(), "hb-test-spin");
    pthread_mutex_lock(&t->lock);
    t->tid = (long)gettid();
    pthread_cond_broadcast(&t->changed);
    for (;;) {
        while (!t->spin && !t->stop)
            pthread_cond_wait(&t->changed, &t->lock);
        if (t->stop)
            break;
        pthread_mutex_unlock(&t->lock);
        burn(t->spin_s);
        pthread_mutex_lock(&t->lock);
        t->spin = 0;
        pthread_cond_broadcast(&t->changed);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

static void test_thread_start(test_thread *t, int as_helper)
{
    memset(t, 0, sizeof *t);
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->changed, NULL);
    int err = as_helper ? hb_helper_thread_create(&t->thread, test_thread_main, t)
                        : pthread_create(&t->thread, NULL, test_thread_main, t);
    assert_int_equal(err, 0);
    pthread_mutex_lock(&t->lock);
    while (!t->tid)
        pthread_cond_wait(&t->changed, &t->lock);
    pthread_mutex_unlock(&t->lock);
}

/* Has the thread burn `seconds` of CPU and waits until it has. */
static void test_thread_spin(test_thread *t, double seconds)
{
    pthread_mutex_lock(&t->lock);
    t->spin_s = seconds;
    t->spin = 1;
    pthread_cond_broadcast(&t->changed);
    while (t->spin)
        pthread_cond_wait(&t->changed, &t->lock);
    pthread_mutex_unlock(&t->lock);
}

static void test_thread_stop(test_thread *t)
{
    pthread_mutex_lock(&t->lock);
    t->stop = 1;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
    assert_int_equal(pthread_join(t->thread, NULL), 0);
    pthread_cond_destroy(&t->changed);
    pthread_mutex_destroy(&t->lock);
}

/* 80 ms of CPU is 8 ticks at the usual 100 a second: enough for the
 * kernel's accounting to show at least one. */
#define SPIN_S 0.08

/* --- the stat line ------------------------------------------------------------------------------ */

static void test_task_stat_parse_reads_name_and_cpu(void **state)
{
    (void)state;
    char name[HB_TASK_NAME];
    unsigned long long ticks = 0;
    /* A name holding ") (" and spaces, as a thread may set it; utime 120, stime 7. */
    const char *line = "4242 (a) b (c) S 1 4242 4242 0 -1 4194624 155 0 0 0 120 7 0 0 20 0 3 0 9999 0 0";
    assert_true(hb_task_stat_parse(line, name, &ticks));
    assert_string_equal(name, "a) b (c");
    assert_int_equal(ticks, 127);
    assert_false(hb_task_stat_parse("4242 no parentheses S 1 2 3", name, &ticks));
    assert_false(hb_task_stat_parse("4242 (short) S 1 2", name, &ticks));
}

/* --- /proc/self/task with a thread of the test's own ---------------------------------------------- */

static void test_task_list_sees_a_thread_and_its_cpu(void **state)
{
    (void)state;
    test_thread t;
    test_thread_start(&t, 0);
    hb_task_list before = {0}, busy = {0}, after = {0};
    assert_int_equal(hb_task_list_read("/proc/self/task", &before), HB_OK);
    test_thread_spin(&t, SPIN_S);
    assert_int_equal(hb_task_list_read("/proc/self/task", &busy), HB_OK);
    const long tid = t.tid;
    test_thread_stop(&t);
    /* pthread_join returns once the thread has finished, which can be a moment
     * before the kernel drops its task from /proc (seen under load on 2 cores):
     * read again for up to a second. */
    for (int tries = 0;; tries++) {
        assert_int_equal(hb_task_list_read("/proc/self/task", &after), HB_OK);
        if (!hb_task_list_find(&after, tid) || tries == 100)
            break;
        hb_task_list_free(&after);
        memset(&after, 0, sizeof after);
        nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
    }

    assert_non_null(hb_task_list_find(&before, (long)gettid())); /* the test's own main thread */
    const hb_task *seen = hb_task_list_find(&before, tid), *spun = hb_task_list_find(&busy, tid);
    assert_non_null(seen);
    assert_non_null(spun);
    assert_string_equal(spun->name, "hb-test-spin");
    assert_true(spun->cpu_ticks > seen->cpu_ticks); /* 80 ms of CPU: about 8 ticks at 100 a second */
    assert_null(hb_task_list_find(&after, tid));     /* joined: gone */
    hb_task_list_free(&before);
    hb_task_list_free(&busy);
    hb_task_list_free(&after);
}

static void test_task_list_missing_folder_is_an_error(void **state)
{
    (void)state;
    hb_task_list list = {0};
    hb_diag_set_quiet(1);
    assert_int_equal(hb_task_list_read("/nonexistent/hb-task", &list), HB_ERR_IO);
    hb_diag_set_quiet(0);
    hb_task_list_free(&list);
}

/* --- the judgement on made-up readings ---------------------------------------------------------- */

static int helper_7(long tid) { return tid == 7; }

static void test_threads_judge_names_the_busiest(void **state)
{
    (void)state;
    hb_task harness_tasks[] = {{1, 500, "main"}, {2, 40, "cuda-EvtHandlr"}};
    hb_task start_tasks[] = {{1, 600, "main"}, {2, 41, "cuda-EvtHandlr"}, {5, 10, "spinner"}, {6, 3, "idle"},
                             {7, 0, "sampler"}, {8, 90, "ends-early"}};
    /* At the end: 5 ran 100 ticks, 6 none, 7 is a helper, 8 ended, 9 started in the window and ran 25,
     * 2 (the harness's) ran 500. */
    hb_task end_tasks[] = {{1, 900, "main"}, {2, 541, "cuda-EvtHandlr"}, {5, 110, "spinner"}, {6, 3, "idle"},
                           {7, 80, "sampler"}, {9, 25, "late"}};
    hb_task_list harness = {harness_tasks, 2, 2}, start = {start_tasks, 6, 6}, end = {end_tasks, 6, 6};
    char line[HB_THREAD_WATCH_LINE];
    int n = hb_threads_judge(&harness, &start, &end, helper_7, 100, 30.0, line, sizeof line);
    assert_int_equal(n, 2);
    assert_non_null(strstr(line, "2 threads"));
    assert_non_null(strstr(line, "1.25 s of CPU in the 30.0 s timed window"));
    const char *spinner = strstr(line, "tid 5 \"spinner\" 1.00 s"), *late = strstr(line, "tid 9 \"late\" 0.25 s");
    assert_non_null(spinner);
    assert_non_null(late);
    assert_true(spinner < late); /* the busiest first */
    assert_null(strstr(line, "idle"));
    assert_null(strstr(line, "sampler"));
    assert_null(strstr(line, "cuda-EvtHandlr"));

    /* Nothing but the harness's, idle or helper threads: no line. */
    hb_task quiet_tasks[] = {{1, 900, "main"}, {6, 3, "idle"}, {7, 80, "sampler"}};
    hb_task_list quiet = {quiet_tasks, 3, 3};
    assert_int_equal(hb_threads_judge(&harness, &start, &quiet, helper_7, 100, 30.0, line, sizeof line), 0);
    assert_string_equal(line, "");
}

/* --- the watch, on this process's own threads ----------------------------------------------------- */

/* A thread that was there before the watch began (the harness's), one that
 * is a helper of the harness, and one started after that waits without CPU:
 * none is named.  One started after that spins in the window: named, with
 * its name and seconds. */
static void test_thread_watch_names_a_thread_that_ran_in_the_window(void **state)
{
    (void)state;
    test_thread before, helper, idle, spinner;
    test_thread_start(&before, 0);
    hb_thread_watch watch = {0};
    assert_int_equal(hb_thread_watch_begin(&watch), HB_OK);
    test_thread_start(&helper, 1);
    test_thread_start(&idle, 0);
    test_thread_start(&spinner, 0);
    assert_true(hb_helper_thread_is_running(helper.tid));
    assert_false(hb_helper_thread_is_running(spinner.tid));

    assert_int_equal(hb_thread_watch_window_begin(&watch), HB_OK);
    test_thread_spin(&before, SPIN_S);
    test_thread_spin(&helper, SPIN_S);
    test_thread_spin(&spinner, SPIN_S);
    assert_int_equal(hb_thread_watch_window_end(&watch), HB_OK);

    assert_int_equal(watch.threads, 1);
    char want[64];
    snprintf(want, sizeof want, "tid %ld \"hb-test-spin\"", spinner.tid);
    if (!strstr(watch.line, want) || !strstr(watch.line, "1 thread started after its library loaded"))
        fail_msg("the watch's line: '%s'", watch.line);
    snprintf(want, sizeof want, "tid %ld ", before.tid);
    assert_null(strstr(watch.line, want));
    snprintf(want, sizeof want, "tid %ld ", helper.tid);
    assert_null(strstr(watch.line, want));

    const long helper_tid = helper.tid;
    test_thread_stop(&before);
    test_thread_stop(&helper);
    test_thread_stop(&idle);
    test_thread_stop(&spinner);
    assert_false(hb_helper_thread_is_running(helper_tid)); /* returned: its id may be reused by anyone */
    hb_thread_watch_free(&watch);
    assert_string_equal(watch.line, "");
}

/* Not begun (a cubin candidate: no host code of its own), the window's
 * readings do nothing; an end without a beginning judges nothing. */
static void test_thread_watch_off_until_begun(void **state)
{
    (void)state;
    hb_thread_watch watch = {0};
    assert_int_equal(hb_thread_watch_window_begin(&watch), HB_OK);
    assert_int_equal(hb_thread_watch_window_end(&watch), HB_OK);
    assert_int_equal(watch.threads, 0);
    assert_int_equal(watch.start.count, 0);
    assert_int_equal(hb_thread_watch_begin(&watch), HB_OK);
    assert_int_equal(hb_thread_watch_window_end(&watch), HB_OK); /* no window began */
    assert_int_equal(watch.end.count, 0);
    hb_thread_watch_free(&watch);
}

hb_test_list hb_thread_watch_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_task_stat_parse_reads_name_and_cpu),
        cmocka_unit_test(test_task_list_sees_a_thread_and_its_cpu),
        cmocka_unit_test(test_task_list_missing_folder_is_an_error),
        cmocka_unit_test(test_threads_judge_names_the_busiest),
        cmocka_unit_test(test_thread_watch_names_a_thread_that_ran_in_the_window),
        cmocka_unit_test(test_thread_watch_off_until_begun),
    };
    return HB_TEST_LIST(tests);
}
