#include "bench/result/sanitize_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/result/library_kernel.h"

static const char *const tool_names[HB_N_SANITIZER_TOOLS] = {
    [HB_SANITIZE_MEMCHECK] = "memcheck", [HB_SANITIZE_RACECHECK] = "racecheck",
    [HB_SANITIZE_SYNCCHECK] = "synccheck"};

const char *hb_sanitizer_tool_name(hb_sanitizer_tool tool)
{
    return (unsigned)tool < HB_N_SANITIZER_TOOLS ? tool_names[tool] : "?";
}

unsigned hb_sanitizer_parse_list(const char *list, char *bad, size_t bad_size)
{
    unsigned mask = 0;
    const char *p = list;
    do {
        size_t len = strcspn(p, ",");
        int found = 0;
        for (int t = 0; t < HB_N_SANITIZER_TOOLS && !found; t++)
            if (len == strlen(tool_names[t]) && !strncmp(p, tool_names[t], len))
                mask |= HB_SANITIZE_BIT(t), found = 1;
        if (!found) {
            snprintf(bad, bad_size, "%.*s", (int)len, p);
            return 0;
        }
        p += len;
    } while (*p++ == ',');
    return mask;
}

void hb_sanitizer_list(unsigned mask, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int t = 0; t < HB_N_SANITIZER_TOOLS && used < size; t++)
        if (mask & HB_SANITIZE_BIT(t))
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? "," : "", tool_names[t]);
}

void hb_sanitize_cell(const hb_sanitize_record *r, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int t = 0; t < HB_N_SANITIZER_TOOLS && used < size; t++)
        if (r->ran & HB_SANITIZE_BIT(t))
            used += (size_t)snprintf(out + used, size - used, "%s%s=%ld", used ? ";" : "", tool_names[t], r->errors[t]);
}

/* The number before `word` in "... (18 errors, 0 warnings)", the word singular or plural; -1 when absent. */
static long number_before(const char *text, const char *word)
{
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        const char *digits = p;
        while (digits > text && digits[-1] == ' ')
            digits--;
        const char *start = digits;
        while (start > text && start[-1] >= '0' && start[-1] <= '9')
            start--;
        if (start < digits)
            return strtol(start, NULL, 10);
    }
    return -1;
}

long hb_sanitizer_summary_errors(const char *line)
{
    const char *race = strstr(line, "RACECHECK SUMMARY:");
    if (race) {
        long errors = number_before(race, " error");
        return errors >= 0 ? errors : number_before(race, " hazard");
    }
    const char *summary = strstr(line, "ERROR SUMMARY:");
    return summary ? number_before(summary, " error") : -1;
}

void hb_sanitizer_log_init(hb_sanitizer_log *log)
{
    memset(log, 0, sizeof *log);
    log->summary_errors = -1;
}

/* The kernel a report line names, "... at nvjet_sm90_hsh_128x64+0xa50" or
 * "at hgemm_kernel(const __half *, int)+0x2d0": from after " at " to the last "+0x". */
static int kernel_named(const char *line, char *out, size_t size)
{
    const char *at = strstr(line, " at ");
    if (!at)
        return 0;
    at += 4;
    const char *end = NULL;
    for (const char *p = strstr(at, "+0x"); p; p = strstr(p + 1, "+0x"))
        end = p;
    if (!end || end == at)
        return 0;
    snprintf(out, size, "%.*s", (int)(end - at), at);
    return 1;
}

static void close_report(hb_sanitizer_log *log, int library)
{
    log->library_reports += library;
    if (!library && !log->first[0])
        snprintf(log->first, sizeof log->first, "%s", log->pending);
    log->in_report = 0;
}

void hb_sanitizer_log_line(hb_sanitizer_log *log, const char *line)
{
    long counted = hb_sanitizer_summary_errors(line);
    if (counted >= 0) {
        if (log->in_report)
            close_report(log, 0);
        log->summary_errors = counted;
        return;
    }
    const char *text = line + strspn(line, "= ");
    int opens = !strncmp(text, "Error", 5) || !strncmp(text, "Invalid", 7) || strstr(text, "rror:") ||
                strstr(text, "Barrier error");
    if (opens) {
        if (log->in_report)
            close_report(log, 0); /* the previous report never named a kernel: the candidate's */
        log->reports++;
        log->in_report = 1;
        snprintf(log->pending, sizeof log->pending, "%.*s", (int)strcspn(text, "\r\n"), text);
    }
    char kernel[256];
    if (log->in_report && kernel_named(line, kernel, sizeof kernel))
        close_report(log, hb_library_family(kernel) != NULL);
}

long hb_sanitizer_log_candidate_errors(const hb_sanitizer_log *log)
{
    if (log->summary_errors < 0)
        return -1;
    long own = log->summary_errors - log->library_reports;
    return own > 0 ? own : 0;
}
