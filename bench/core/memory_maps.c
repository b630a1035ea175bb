#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */
#include "bench/core/memory_maps.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/array_room.h"
#include "bench/core/diag.h"

/* /proc/self/maps reports a size of 0: it is read until its end.  A
 * process with every CUDA library loaded lists about a thousand lines
 * (~100 KiB); 64 MiB is far past any real one. */
#define MAPS_MAX_BYTES (64u << 20)

static hb_status read_maps_text(char **text)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot open /proc/self/maps (is /proc mounted?): %s", strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    hb_status status = buf ? HB_OK : hb_fail(HB_ERR_INTERNAL, "out of memory reading /proc/self/maps");
    while (status == HB_OK) {
        if (len + 1 == cap) {
            char *grown = cap < MAPS_MAX_BYTES ? realloc(buf, cap * 2) : NULL;
            if (!grown) {
                status = hb_fail(HB_ERR_INTERNAL, "/proc/self/maps is larger than %zu bytes", cap);
                break;
            }
            buf = grown, cap *= 2;
        }
        ssize_t got = read(fd, buf + len, cap - 1 - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            status = hb_fail(HB_ERR_INTERNAL, "reading /proc/self/maps: %s", strerror(errno));
        else if (got == 0)
            break;
        else
            len += (size_t)got;
    }
    close(fd);
    if (status != HB_OK) {
        free(buf);
        return status;
    }
    buf[len] = '\0';
    *text = buf;
    return HB_OK;
}

static unsigned prot_of(const char perms[4])
{
    return (perms[0] == 'r' ? HB_MAP_READ : 0) | (perms[1] == 'w' ? HB_MAP_WRITE : 0) |
           (perms[2] == 'x' ? HB_MAP_EXEC : 0);
}

/* One line: "start-end perms offset major:minor inode [path]", copied out
 * first: sscanf's whitespace would run on into the next line. */
static int parse_line(const char *text, size_t length, hb_memory_map *out)
{
    char line[HB_MAP_PATH_MAX + 256];
    if (length >= sizeof line)
        length = sizeof line - 1; /* the path is cut to fit anyway */
    memcpy(line, text, length);
    line[length] = '\0';
    unsigned long long start, end, offset, inode;
    char perms[5];
    unsigned major, minor;
    int path_at = 0;
    memset(out, 0, sizeof *out);
    if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &offset, &major, &minor, &inode,
               &path_at) != 7 || strlen(perms) != 4 || start >= end || (size_t)path_at > length)
        return 0;
    out->start = (uintptr_t)start;
    out->end = (uintptr_t)end;
    out->prot = prot_of(perms);
    out->shared = perms[3] == 's';
    out->offset = offset;
    out->dev_major = major;
    out->dev_minor = minor;
    out->inode = inode;
    size_t path_length = length - (size_t)path_at;
    if (path_length >= sizeof out->path)
        path_length = sizeof out->path - 1;
    memcpy(out->path, line + path_at, path_length);
    out->path[path_length] = '\0';
    return 1;
}

hb_status hb_memory_maps_parse(const char *text, hb_memory_maps *out)
{
    size_t cap = 0;
    out->maps = NULL;
    out->count = 0;
    for (size_t line_no = 1; *text; line_no++) {
        const char *newline = strchr(text, '\n');
        size_t length = newline ? (size_t)(newline - text) : strlen(text);
        if (length > 0) {
            if (!hb_array_room((void **)&out->maps, &cap, out->count, sizeof *out->maps)) {
                hb_memory_maps_free(out);
                return hb_fail(HB_ERR_INTERNAL, "out of memory reading the process's memory map");
            }
            if (!parse_line(text, length, &out->maps[out->count])) {
                hb_memory_maps_free(out);
                return hb_fail(HB_ERR_INTERNAL, "line %zu of the memory map does not parse: \"%.*s\"", line_no,
                               (int)(length > 120 ? 120 : length), text);
            }
            out->count++;
        }
        text += length + (newline ? 1 : 0);
    }
    return HB_OK;
}

hb_status hb_memory_maps_read(hb_memory_maps *out)
{
    char *text = NULL;
    out->maps = NULL;
    out->count = 0;
    HB_TRY(read_maps_text(&text));
    hb_status status = hb_memory_maps_parse(text, out);
    free(text);
    return status;
}

void hb_memory_maps_free(hb_memory_maps *m)
{
    free(m->maps);
    m->maps = NULL;
    m->count = 0;
}

const hb_memory_map *hb_memory_maps_find(const hb_memory_maps *m, uintptr_t address)
{
    size_t lo = 0, hi = m->count; /* the kernel lists them in address order */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (address < m->maps[mid].start)
            hi = mid;
        else if (address >= m->maps[mid].end)
            lo = mid + 1;
        else
            return &m->maps[mid];
    }
    return NULL;
}

const char *hb_memory_map_name(const hb_memory_map *map)
{
    if (!map->path[0])
        return "anonymous memory";
    if (map->path[0] == '[')
        return map->path;
    const char *slash = strrchr(map->path, '/');
    return slash ? slash + 1 : map->path;
}
