#include "bench/driver/profile_output.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/ncu_csv.h"
#include "bench/core/input_file.h"

/* ncu's output is a header, a units row and a row per kernel (a few KiB), after the program's own lines. */
#define NCU_OUTPUT_MAX_BYTES ((size_t)64 << 20)

void hb_profile_note(hb_profile_record *p, const char *fmt, ...)
{
    size_t used = strlen(p->note);
    if (used && used + 2 < sizeof p->note)
        used += (size_t)snprintf(p->note + used, sizeof p->note - used, "; ");
    va_list args;
    va_start(args, fmt);
    vsnprintf(p->note + used, sizeof p->note - used, fmt, args);
    va_end(args);
}

/* Whether `path` holds `text`; a file that cannot be read holds nothing. */
static int file_holds(const char *path, const char *text)
{
    char *content = NULL;
    size_t size = 0;
    int holds = hb_input_read(path, NULL, NCU_OUTPUT_MAX_BYTES, HB_ERR_IO, 1, &content, &size) == HB_OK && content &&
                strstr(content, text) != NULL;
    free(content);
    return holds;
}

void hb_profile_output_read(const hb_profile_output *files, const char *participant, const char *ended,
                            hb_profile_record *p)
{
    if (file_holds(files->csv, HB_NCU_COUNTERS_DENIED) || file_holds(files->log, HB_NCU_COUNTERS_DENIED)) {
        hb_profile_note(p, "%s: the GPU's performance counters are not permitted to this user (%s): run as root, "
                           "or load the driver with NVreg_RestrictProfilingToAdminUsers=0",
                        participant, HB_NCU_COUNTERS_DENIED);
        return;
    }
    char *text = NULL;
    size_t size = 0, before = p->count;
    hb_status status = hb_input_read(files->csv, "ncu's output", NCU_OUTPUT_MAX_BYTES, HB_ERR_IO, 0, &text, &size);
    if (status == HB_OK)
        status = hb_ncu_csv_parse(files->csv, text, size, participant, p);
    free(text);
    if (status != HB_OK)
        hb_profile_note(p, "%s: %s (ncu %s; log %s)", participant, hb_last_error(), ended, files->log);
    else if (p->count == before && p->dropped == 0)
        hb_profile_note(p, "%s: ncu profiled none of its kernels (ncu %s; log %s)", participant, ended, files->log);
}

void hb_profile_version_read(const char *path, hb_profile_record *p)
{
    char *text = NULL;
    size_t size = 0;
    if (hb_input_read(path, NULL, (size_t)1 << 20, HB_ERR_IO, 0, &text, &size) != HB_OK)
        return;
    const char *line = strstr(text, "Version");
    if (line)
        snprintf(p->version, sizeof p->version, "%.*s", (int)strcspn(line, "\r\n"), line);
    free(text);
}
