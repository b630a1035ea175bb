#define _XOPEN_SOURCE 700 /* realpath */
#include "bench/core/input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"

static const char *kind_of_mode(mode_t mode)
{
    if (S_ISREG(mode))
        return "a regular file";
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

int hb_text_nul_at(const char *text, size_t size, size_t *line, size_t *column)
{
    const char *nul = memchr(text, '\0', size);
    if (!nul)
        return 0;
    *line = 1;
    const char *line_start = text;
    for (const char *p = text; p < nul; p++)
        if (*p == '\n') {
            (*line)++;
            line_start = p + 1;
        }
    *column = (size_t)(nul - line_start) + 1;
    return 1;
}

const char *hb_input_kind(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return kind_of_mode(st.st_mode);
    if (errno == ELOOP)
        return "a symbolic-link loop";
    if (errno == ENOENT)
        return lstat(path, &st) == 0 ? "a symbolic link to nothing" : "missing";
    return "unreadable";
}

/* open() failed with `error`: say why in the words a user acts on. */
static hb_status open_failed(const char *path, const char *label, hb_status failure, int error)
{
    struct stat st;
    if (error == ENOENT && lstat(path, &st) == 0)
        return hb_fail(failure, "%s: a symbolic link to nothing (its target is missing)", label);
    if (error == ENXIO && stat(path, &st) == 0)
        return hb_fail(failure, "%s is %s, not a regular file", label, kind_of_mode(st.st_mode));
    if (error == ELOOP)
        return hb_fail(failure, "%s: a symbolic-link loop (the link points back at itself)", label);
    return hb_fail(failure, "cannot open %s: %s", label, strerror(error));
}

/* The descriptor is a regular file of at most max_bytes: its size into *size. */
static hb_status check_descriptor(int fd, const char *label, size_t max_bytes, hb_status failure, size_t *size)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return hb_fail(failure, "cannot read %s: fstat failed: %s", label, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return hb_fail(failure, "%s is %s, not a regular file: give the file itself", label, kind_of_mode(st.st_mode));
    if ((unsigned long long)st.st_size > (unsigned long long)max_bytes)
        return hb_fail(failure, "%s is %lld bytes, more than the %zu such a file can plausibly hold: it is not one "
                       "(or a wrong path was given)", label, (long long)st.st_size, max_bytes);
    *size = (size_t)st.st_size;
    /* Back to ordinary reads: O_NONBLOCK was only there so that the open itself could not wait. */
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        return hb_fail(failure, "cannot read %s: fcntl failed: %s", label, strerror(errno));
    return HB_OK;
}

hb_status hb_input_open(const char *path, const char *label, size_t max_bytes, hb_status failure, int missing_ok,
                        int *fd, size_t *size)
{
    *fd = -1;
    *size = 0;
    if (!label)
        label = path;
    int opened = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (opened < 0) {
        int error = errno;
        struct stat st;
        if (missing_ok && error == ENOENT && lstat(path, &st) != 0)
            return HB_OK;
        return open_failed(path, label, failure, error);
    }
    hb_status status = check_descriptor(opened, label, max_bytes, failure, size);
    if (status != HB_OK) {
        close(opened);
        return status;
    }
    *fd = opened;
    return HB_OK;
}

/* Reads fd to its end into a buffer of at most max_bytes + 1 bytes (the
 * one more says it grew past the limit). */
static hb_status read_to_end(int fd, const char *label, size_t max_bytes, hb_status failure, size_t expected,
                             char **text, size_t *size)
{
    size_t capacity = expected < max_bytes ? expected + 1 : max_bytes + 1, used = 0;
    char *buffer = malloc(capacity + 1);
    for (;;) {
        if (!buffer)
            return hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s (%zu bytes)", label, capacity);
        ssize_t n = read(fd, buffer + used, capacity - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int error = errno;
            free(buffer);
            return hb_fail(failure, "reading %s failed: %s", label, strerror(error));
        }
        if (n == 0)
            break;
        used += (size_t)n;
        if (used > max_bytes) {
            free(buffer);
            return hb_fail(failure, "%s grew past %zu bytes while it was read: it is not a finished file of its "
                           "kind", label, max_bytes);
        }
        if (used == capacity) {
            capacity = capacity * 2 < max_bytes + 1 ? capacity * 2 : max_bytes + 1;
            char *grown = realloc(buffer, capacity + 1);
            if (!grown)
                free(buffer);
            buffer = grown;
        }
    }
    buffer[used] = '\0';
    *text = buffer;
    *size = used;
    return HB_OK;
}

hb_status hb_input_read(const char *path, const char *label, size_t max_bytes, hb_status failure, int missing_ok,
                        char **text, size_t *size)
{
    int fd;
    size_t expected;
    *text = NULL;
    *size = 0;
    if (!label)
        label = path;
    if (max_bytes > ((size_t)-1) / 4)
        max_bytes = ((size_t)-1) / 4; /* room for the buffer's growth arithmetic */
    HB_TRY(hb_input_open(path, label, max_bytes, failure, missing_ok, &fd, &expected));
    if (fd < 0)
        return HB_OK;
    hb_status status = read_to_end(fd, label, max_bytes, failure, expected, text, size);
    if (close(fd) != 0 && status == HB_OK) {
        free(*text);
        *text = NULL;
        *size = 0;
        status = hb_fail(failure, "reading %s failed: close: %s", label, strerror(errno));
    }
    return status;
}

hb_status hb_input_inside_folder(const char *path, hb_status failure)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
        return HB_OK;
    char folder[PATH_MAX], real_folder[PATH_MAX], target[PATH_MAX];
    hb_folder_of(path, folder, sizeof folder);
    if (!realpath(path, target))
        return HB_OK; /* a link to nothing, or a loop: the open refuses it and says which */
    if (!realpath(folder, real_folder))
        return hb_fail(failure, "cannot resolve the folder of %s: %s", path, strerror(errno));
    size_t n = strlen(real_folder);
    int inside = !strncmp(target, real_folder, n) && (target[n] == '/' || !strcmp(real_folder, "/"));
    if (!inside)
        return hb_fail(failure, "%s is a symbolic link to %s, outside its folder %s: a result folder must hold its "
                       "own files (copy the file in, or remove the link)", path, target, real_folder);
    return HB_OK;
}
