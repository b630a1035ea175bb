#define _POSIX_C_SOURCE 200809L
#include "bench/candidate/named_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"

hb_status hb_named_file_head(const char *path, const char *what, const char *manifest_path, unsigned char *head,
                             size_t size, size_t *n)
{
    *n = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return hb_fail(HB_ERR_BAD_INPUT, "%s %s named by %s: %s%s", what, path, manifest_path, strerror(errno),
                       errno == ENOENT ? " (was it built? run make)" : "");
    struct stat st;
    ssize_t got = -1;
    hb_status status = HB_OK;
    if (fstat(fd, &st) != 0)
        status = hb_fail(HB_ERR_BAD_INPUT, "%s %s named by %s: %s", what, path, manifest_path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        status = hb_fail(HB_ERR_BAD_INPUT, "%s %s named by %s is not a regular file", what, path, manifest_path);
    else if ((got = read(fd, head, size)) < 0)
        status = hb_fail(HB_ERR_BAD_INPUT, "%s %s named by %s cannot be read: %s", what, path, manifest_path,
                         strerror(errno));
    if (close(fd) != 0 && status == HB_OK)
        status = hb_fail(HB_ERR_BAD_INPUT, "%s %s named by %s: closing it failed: %s", what, path, manifest_path,
                         strerror(errno));
    if (status == HB_OK)
        *n = (size_t)got;
    return status;
}
