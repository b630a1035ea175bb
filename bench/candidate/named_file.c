#define _POSIX_C_SOURCE 200809L
#include "bench/candidate/named_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"

hb_status hb_named_file_open(const char *path, const char *what, const char *manifest_path, int *fd, size_t *size)
{
    char label[4400];
    snprintf(label, sizeof label, "%s %s named by %s", what, path, manifest_path);
    /* Only the head and the tables are read, never the whole file: no size limit. */
    HB_TRY(hb_input_open(path, label, (size_t)-1, HB_ERR_BAD_INPUT, 1, fd, size));
    if (*fd < 0)
        return hb_fail(HB_ERR_BAD_INPUT, "%s: %s (was it built? run make)", label, strerror(ENOENT));
    return HB_OK;
}

hb_status hb_named_file_read_at(int fd, const char *path, off_t offset, void *out, size_t size, size_t *n)
{
    *n = 0;
    while (*n < size) {
        ssize_t got = pread(fd, (char *)out + *n, size - *n, offset + (off_t)*n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return hb_fail(HB_ERR_BAD_INPUT, "%s cannot be read: %s", path, strerror(errno));
        if (got == 0)
            break;
        *n += (size_t)got;
    }
    return HB_OK;
}

hb_status hb_named_file_head(const char *path, const char *what, const char *manifest_path, unsigned char *head,
                             size_t size, size_t *n, size_t *file_size)
{
    int fd;
    *n = 0;
    HB_TRY(hb_named_file_open(path, what, manifest_path, &fd, file_size));
    hb_status status = hb_named_file_read_at(fd, path, 0, head, size, n);
    if (close(fd) != 0 && status == HB_OK)
        status = hb_fail(HB_ERR_BAD_INPUT, "%s %s named by %s: closing it failed: %s", what, path, manifest_path,
                         strerror(errno));
    return status;
}
