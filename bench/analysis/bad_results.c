#include "bench/analysis/bad_results.h"

#include <stdarg.h>
#include <stdio.h>

hb_status hb_bad_results_at(const char *source_file, int source_line, const char *path, size_t line, size_t column,
                            const char *column_name, const char *fmt, ...)
{
    char message[768], where[640] = "";
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    size_t used = (size_t)snprintf(where, sizeof where, "%s", path);
    if (line && used < sizeof where)
        used += (size_t)snprintf(where + used, sizeof where - used, ":%zu", line);
    if (column && used < sizeof where)
        snprintf(where + used, sizeof where - used, ": column %zu%s%s%s", column, column_name ? " (" : "",
                 column_name ? column_name : "", column_name ? ")" : "");
    return hb_fail_at(source_file, source_line, HB_ERR_BAD_RESULTS, "%s: %s", where, message);
}
