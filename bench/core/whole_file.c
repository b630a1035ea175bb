#include "bench/core/whole_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"

hb_status hb_read_whole_file(const char *path, int missing_ok, hb_status failure, char **text, size_t *size)
{
    *text = NULL;
    *size = 0;
    FILE *file = fopen(path, "rb");
    if (!file)
        return missing_ok && errno == ENOENT ? HB_OK : hb_fail(failure, "cannot read %s: %s", path, strerror(errno));
    size_t capacity = 1 << 16, n;
    char *buffer = malloc(capacity + 1);
    while (buffer && (n = fread(buffer + *size, 1, capacity - *size, file)) > 0) {
        *size += n;
        if (*size == capacity) {
            char *grown = realloc(buffer, (capacity *= 2) + 1);
            if (!grown)
                free(buffer);
            buffer = grown;
        }
    }
    int failed = ferror(file);
    fclose(file);
    if (!buffer)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory reading %s", path);
    if (failed) {
        free(buffer);
        return hb_fail(failure, "reading %s failed", path);
    }
    buffer[*size] = '\0';
    *text = buffer;
    return HB_OK;
}
