#include "bench/sweep/mnk_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"

static const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

/* One dimension at *p; advances *p past it.  0 when there is none or it is
 * out of range. */
static int read_dim(const char **p, long *out)
{
    const char *start = skip_blanks(*p);
    if (*start < '0' || *start > '9')
        return 0;
    char *end = NULL;
    errno = 0;
    long value = strtol(start, &end, 10);
    if (errno || value < 1 || value > HB_MAX_DIM)
        return 0;
    *out = value;
    *p = skip_blanks(end);
    return 1;
}

hb_status hb_mnk_line_parse(const char *line, hb_mnk *out, int *found, int *column)
{
    const char *p = skip_blanks(line);
    *found = 0;
    *column = 0;
    if (*p == '\0' || *p == '#')
        return HB_OK;
    long dims[3];
    char separator = 0;
    for (int i = 0; i < 3; i++) {
        if (!read_dim(&p, &dims[i]))
            break;
        if (i == 2) {
            if (*p != '\0' && *p != '#')
                break;
            *out = (hb_mnk){dims[0], dims[1], dims[2]};
            *found = 1;
            return HB_OK;
        }
        if ((*p != ',' && *p != '_') || (separator && *p != separator))
            break;
        separator = *p++;
    }
    *column = (int)(skip_blanks(p) - line) + 1;
    return HB_ERR_USAGE;
}

hb_status hb_mnk_file_read(const char *path, hb_sweep_plan *plan)
{
    FILE *file = fopen(path, "r");
    if (!file)
        return hb_fail(HB_ERR_USAGE, "--mnk-file %s: %s", path, strerror(errno));
    char line[512];
    hb_status status = HB_OK;
    for (long number = 1; status == HB_OK && fgets(line, sizeof line, file); number++) {
        line[strcspn(line, "\n")] = '\0';
        hb_mnk mnk;
        int found, column;
        if (hb_mnk_line_parse(line, &mnk, &found, &column) != HB_OK) {
            status = hb_fail(HB_ERR_USAGE, "%s:%ld:%d: expected M,N,K or M_N_K (each 1..%ld), got '%s'", path,
                             number, column, HB_MAX_DIM, line);
        } else if (found) {
            char where[600];
            snprintf(where, sizeof where, "%s:%ld", path, number);
            status = hb_plan_add(plan, mnk, where);
        }
    }
    if (status == HB_OK && ferror(file))
        status = hb_fail(HB_ERR_USAGE, "--mnk-file %s: read error: %s", path, strerror(errno));
    fclose(file);
    return status;
}
