#define _POSIX_C_SOURCE 200809L
#include "bench/core/file_digest.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"

void hb_sha256_digest_hex(const unsigned char *digest, char hex[HB_SHA256_HEX])
{
    for (size_t i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

hb_status hb_sha256_fd_hex(int fd, const char *label, char hex[HB_SHA256_HEX])
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    unsigned char buffer[1 << 16];
    for (;;) {
        ssize_t got = read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return hb_fail(HB_ERR_IO, "cannot read %s: %s", label, strerror(errno));
        if (got == 0)
            break;
        sha256_update(&ctx, (size_t)got, buffer);
    }
    unsigned char digest[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof digest, digest);
    hb_sha256_digest_hex(digest, hex);
    return HB_OK;
}

hb_status hb_sha256_file_hex(const char *path, char hex[HB_SHA256_HEX])
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return hb_fail(HB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    hb_status status = hb_sha256_fd_hex(fd, path, hex);
    close(fd);
    return status;
}
