/* What every class uses: draws, paths, the verdict on a command's exit
 * code, and what a resume that accepted a sweep folder must have kept. */
#define _XOPEN_SOURCE 700
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/status.h"
#include "tests/fuzz/fuzz.h"

uint64_t fuzz_below(hb_rng *rng, uint64_t bound)
{
    return bound ? hb_rng_below(rng, bound) : 0;
}

void fuzz_join(char *out, const char *folder, const char *name)
{
    if ((size_t)snprintf(out, FUZZ_PATH, "%s/%s", folder, name) >= FUZZ_PATH)
        out[0] = '\0';
}

int fuzz_allowed(int code, const int *allowed, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (code == allowed[i])
            return 1;
    return 0;
}

void fuzz_judge(fuzz_outcome *out, const char *command, int code, const int *allowed, size_t n)
{
    snprintf(out->command, sizeof out->command, "%s", command);
    out->exit_code = code;
    if (code < 0) {
        out->failed = 1;
        return;
    }
    if (fuzz_allowed(code, allowed, n))
        return;
    out->failed = 1;
    snprintf(out->detail, sizeof out->detail, "exit %d is not one %s may give here", code, command);
}

void fuzz_broke(fuzz_outcome *out, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    out->failed = 1;
    vsnprintf(out->detail, sizeof out->detail, fmt, args);
    va_end(args);
}

void fuzz_say_how(fuzz_outcome *out, const char *how)
{
    char detail[sizeof out->detail];
    if (snprintf(detail, sizeof detail, "%s%s%s", how, out->detail[0] ? " -> " : "", out->detail) >=
        (int)sizeof detail)
        detail[sizeof detail - 2] = '~'; /* cut: the case's own log has the rest */
    memcpy(out->detail, detail, sizeof detail);
}

int fuzz_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* --- a sweep folder after a resume ------------------------------------------------------------ */

/* The csv_end of the last whole line of a journal's text (-1: none). */
static long long last_csv_end(const char *journal, size_t size)
{
    size_t end = size;
    while (end > 0 && journal[end - 1] != '\n')
        end--; /* past the whole lines: a line cut short vouches for nothing */
    for (size_t i = end; i > 0; i--) {
        if (i < end && journal[i - 1] == '\n')
            break; /* only the last whole line */
        const char *key = "\"csv_end\":";
        if (i + strlen(key) <= end && !memcmp(journal + i - 1, key, strlen(key)))
            return strtoll(journal + i - 1 + strlen(key), NULL, 10);
    }
    return -1;
}

/* Where `key` first lies in text[0, size), or NULL (the text may hold NUL bytes). */
static const char *find(const char *text, size_t size, const char *key)
{
    const size_t n = strlen(key);
    for (size_t i = 0; i + n <= size; i++)
        if (!memcmp(text + i, key, n))
            return text + i;
    return NULL;
}

int fuzz_worst_status(const char *journal, size_t size)
{
    int worst = 0;
    const char *key = "\"status\":";
    for (size_t at = 0; at < size;) {
        const char *line_end = memchr(journal + at, '\n', size - at);
        if (!line_end)
            break; /* a line cut short vouches for nothing */
        const char *field = find(journal + at, (size_t)(line_end - journal) - at, key);
        long status = field ? strtol(field + strlen(key), NULL, 10) : 0;
        if (status >= 0 && status < 256 && hb_status_severity((hb_status)status) > hb_status_severity(worst))
            worst = (int)status;
        at = (size_t)(line_end - journal) + 1;
    }
    return worst;
}

void fuzz_check_kept(const char *folder, char *journal, size_t journal_size, char *csv, size_t csv_size,
                     fuzz_outcome *out)
{
    char path[FUZZ_PATH];
    size_t whole = journal_size;
    while (journal && whole > 0 && journal[whole - 1] != '\n')
        whole--;
    long long vouched = journal ? last_csv_end(journal, journal_size) : -1;
    size_t header = csv ? strcspn(csv, "\n") + 1 : 0;
    if (!journal && csv && csv_size > header)
        return fuzz_broke(out, "accepted a folder whose summary.csv has rows but no journal vouches for them");
    if (vouched > 0 && (!csv || (size_t)vouched > csv_size))
        return fuzz_broke(out, "accepted a journal that vouches for more than summary.csv holds");
    size_t after_size;
    fuzz_join(path, folder, "journal.jsonl");
    char *after = fuzz_read_file(path, &after_size);
    if (journal && whole && (!after || after_size < whole || memcmp(after, journal, whole)))
        fuzz_broke(out, "a whole journal line was changed or dropped");
    free(after);
    fuzz_join(path, folder, "summary.csv");
    after = fuzz_read_file(path, &after_size);
    if (vouched > 0 && (!after || after_size < (size_t)vouched || memcmp(after, csv, (size_t)vouched)))
        fuzz_broke(out, "a finished item's rows in summary.csv were changed or cut");
    free(after);
}
