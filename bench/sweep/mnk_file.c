#include "bench/sweep/mnk_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"

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

/* A plan of HB_MAX_CONFIGS lines of "16384,16384,16384" is 80 KiB; with
 * comments, 16 MiB is still far beyond any plan file. */
#define MNK_FILE_MAX_BYTES ((size_t)16 << 20)

/* One line of the file (without its newline), parsed and added to the plan. */
static hb_status add_line(const char *path, long number, const char *text, size_t length, hb_sweep_plan *plan)
{
    char line[512];
    if (memchr(text, '\0', length))
        return hb_fail(HB_ERR_USAGE, "%s:%ld: a NUL byte: --mnk-file takes a text file", path, number);
    if (length >= sizeof line)
        return hb_fail(HB_ERR_USAGE, "%s:%ld: the line is %zu bytes long, more than the %zu a plan line can need", path,
                       number, length, sizeof line - 1);
    memcpy(line, text, length);
    line[length] = '\0';
    hb_mnk mnk;
    int found, column;
    if (hb_mnk_line_parse(line, &mnk, &found, &column) != HB_OK)
        return hb_fail(HB_ERR_USAGE, "%s:%ld:%d: expected M,N,K or M_N_K (each 1..%ld), got '%s'", path, number,
                       column, HB_MAX_DIM, line);
    if (!found)
        return HB_OK;
    char where[600];
    snprintf(where, sizeof where, "%s:%ld", path, number);
    return hb_plan_add(plan, mnk, where);
}

hb_status hb_mnk_file_read(const char *path, hb_sweep_plan *plan)
{
    char *text, label[600];
    size_t size;
    snprintf(label, sizeof label, "--mnk-file %s", path);
    HB_TRY(hb_input_read(path, label, MNK_FILE_MAX_BYTES, HB_ERR_USAGE, 0, &text, &size));
    hb_status status = HB_OK;
    size_t start = 0;
    for (long number = 1; status == HB_OK && start < size; number++) {
        const char *newline = memchr(text + start, '\n', size - start);
        size_t end = newline ? (size_t)(newline - text) : size;
        status = add_line(path, number, text + start, end - start, plan);
        start = end + 1;
    }
    free(text);
    return status;
}
