#define _POSIX_C_SOURCE 200809L
#include "bench/core/fd_io.h"

#include <errno.h>
#include <unistd.h>

int hb_write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        p += n;
        size -= (size_t)n;
    }
    return 1;
}

int hb_read_all(int fd, void *data, size_t size)
{
    char *p = data;
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, p + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return got == 0 && n == 0 ? 0 : -1;
        got += (size_t)n;
    }
    return 1;
}
