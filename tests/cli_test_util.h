/* Helpers shared by the CLI tests: a mutable argv built from words (getopt_long
 * permutes argv and the parsed options point into its strings), parsing with
 * expected usage errors kept off the log, and a usage-error assertion. */
#ifndef HB_CLI_TEST_UTIL_H
#define HB_CLI_TEST_UTIL_H

#include "bench/driver/options.h"

#define ARGV_MAX 64
typedef struct test_argv {
    char text[ARGV_MAX][256];
    char *argv[ARGV_MAX + 1];
    int argc;
} test_argv;

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Sends stderr to /dev/null (unless HB_TEST_VERBOSE) until restore_stderr(). */
void quiet_stderr(void);
void restore_stderr(void);
/* Parses `words` (argv[0] first) into cli; stderr silenced unless HB_TEST_VERBOSE. */
hb_status parse_words(test_argv *a, const char *const *words, hb_cli *cli);
/* A heap hb_cli filled with garbage, so a field the parser forgets to set shows. */
hb_cli *new_cli(void);
/* Asserts that parsing `words` is a usage error. */
void expect_usage(const char *const *words);

#endif
