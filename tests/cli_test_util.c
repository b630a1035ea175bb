#define _POSIX_C_SOURCE 200809L
#include "tests/cli_test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "tests/test_registry.h"


static void argv_set(test_argv *a, const char *const *words)
{
    memset(a, 0, sizeof *a);
    for (const char *const *w = words; *w; w++) {
        assert_true(a->argc < ARGV_MAX);
        assert_true(strlen(*w) < sizeof a->text[0]);
        strcpy(a->text[a->argc], *w);
        a->argv[a->argc] = a->text[a->argc];
        a->argc++;
    }
    a->argv[a->argc] = NULL;
}

static int stderr_saved = -1;

void quiet_stderr(void)
{
    if (getenv("HB_TEST_VERBOSE"))
        return;
    fflush(stderr);
    stderr_saved = dup(STDERR_FILENO);
    int null_fd = open("/dev/null", O_WRONLY);
    if (stderr_saved >= 0 && null_fd >= 0)
        dup2(null_fd, STDERR_FILENO);
    if (null_fd >= 0)
        close(null_fd);
}

void restore_stderr(void)
{
    if (stderr_saved < 0)
        return;
    fflush(stderr);
    dup2(stderr_saved, STDERR_FILENO);
    close(stderr_saved);
    stderr_saved = -1;
}

hb_status parse_words(test_argv *a, const char *const *words, hb_cli *cli)
{
    argv_set(a, words);
    quiet_stderr();
    const int was_quiet = hb_diag_is_quiet();
    hb_diag_set_quiet(was_quiet || !getenv("HB_TEST_VERBOSE")); /* expected errors stay off the log */
    hb_status status = hb_cli_parse(a->argc, a->argv, cli);
    hb_diag_set_quiet(was_quiet);
    restore_stderr();
    return status;
}


hb_cli *new_cli(void)
{
    hb_cli *cli = malloc(sizeof *cli);
    assert_non_null(cli);
    memset(cli, 0xA5, sizeof *cli); /* garbage, so that a field the parser forgets to set shows */
    return cli;
}

void expect_usage(const char *const *words)
{
    test_argv a;
    hb_cli *cli = new_cli();
    hb_status status = parse_words(&a, words, cli);
    if (status != HB_ERR_USAGE) {
        fprintf(stderr, "expected a usage error for:");
        for (const char *const *w = words; *w; w++)
            fprintf(stderr, " '%s'", *w);
        fprintf(stderr, "\n");
    }
    assert_int_equal(status, HB_ERR_USAGE);
    free(cli);
}

