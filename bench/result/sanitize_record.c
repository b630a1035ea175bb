#include "bench/result/sanitize_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
