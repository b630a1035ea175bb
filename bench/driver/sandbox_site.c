#define _GNU_SOURCE /* syscall, SYS_* */
#include "bench/driver/sandbox_site.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define STACK_SCAN_BYTES (64u << 10) /* above the stack pointer: a few dozen frames of a launcher's host code */
#define MAPS_BYTES (4u << 20)        /* /proc/self/maps of a process with every CUDA library: ~100 KiB */
#define MAPS_MAX 16384               /* mappings kept from it: ~1000 in such a process */

/* The maps as they are now, parsed into static memory (bss: nothing until a trap touches it). */
typedef struct live_map {
    uintptr_t start, end;
    unsigned long offset;
    unsigned path_at, path_len; /* into maps_text */
    int exec;
} live_map;

static char maps_text[MAPS_BYTES];
static live_map live[MAPS_MAX];
static size_t n_live;

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static const char *read_hex(const char *p, const char *end, unsigned long *out)
{
    *out = 0;
    for (int d; p < end && (d = hex_digit(*p)) >= 0; p++)
        *out = *out * 16 + (unsigned long)d;
    return p;
}

/* "start-end perms offset dev inode   path": the fields the handler needs. */
static void parse_line(const char *p, const char *end)
{
    unsigned long start, stop, offset;
    p = read_hex(p, end, &start);
    if (p >= end || *p++ != '-')
        return;
    p = read_hex(p, end, &stop);
    if (end - p < 6) /* " r-xp " */
        return;
    const int exec = p[3] == 'x'; /* p is at the space before the permissions */
    p = read_hex(p + 6, end, &offset);
    for (int field = 0; field < 2 && p < end; field++) { /* dev, inode */
        while (p < end && *p == ' ')
            p++;
        while (p < end && *p != ' ')
            p++;
    }
    while (p < end && *p == ' ')
        p++;
    if (n_live == MAPS_MAX)
        return;
    live[n_live++] = (live_map){start, stop, offset, (unsigned)(p - maps_text), (unsigned)(end - p), exec};
}

static void read_live_maps(void)
{
    n_live = 0;
    int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    size_t len = 0;
    for (long got; len < sizeof maps_text && (got = syscall(SYS_read, fd, maps_text + len, sizeof maps_text - len)) != 0;)
        if (got > 0)
            len += (size_t)got;
        else if (errno != EINTR)
            break;
    syscall(SYS_close, fd);
    for (const char *p = maps_text, *end = maps_text + len; p < end;) {
        const char *nl = p;
        while (nl < end && *nl != '\n')
            nl++;
        parse_line(p, nl);
        p = nl + 1;
    }
}

static const live_map *live_find(uintptr_t address)
{
    size_t lo = 0, hi = n_live; /* the kernel lists them in address order */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (address < live[mid].start)
            hi = mid;
        else if (address >= live[mid].end)
            lo = mid + 1;
        else
            return &live[mid];
    }
    return NULL;
}

/* Code mapped after the seal: the candidate's library and what it loaded. */
static int candidate_code(const hb_memory_maps *sealed, const live_map *m)
{
    if (!m || !m->exec)
        return 0;
    const hb_memory_map *at_seal = hb_memory_maps_find(sealed, m->start);
    return !(at_seal && (at_seal->prot & HB_MAP_EXEC) && at_seal->start == m->start);
}

/* The first word on the stack that points into the candidate's code: the return address of its call. */
static const live_map *candidate_frame(const hb_memory_maps *sealed, uintptr_t sp, uintptr_t *address)
{
    const live_map *stack = live_find(sp);
    if (!stack)
        return NULL;
    uintptr_t end = stack->end - sp > STACK_SCAN_BYTES ? sp + STACK_SCAN_BYTES : stack->end;
    for (uintptr_t at = sp & ~(uintptr_t)7; at + sizeof(uintptr_t) <= end; at += sizeof(uintptr_t)) {
        uintptr_t word = *(const uintptr_t *)at;
        const live_map *m = live_find(word);
        if (candidate_code(sealed, m)) {
            *address = word;
            return m;
        }
    }
    return NULL;
}

void hb_call_site_find(const hb_memory_maps *sealed, uintptr_t call_address, uintptr_t stack_pointer,
                       hb_call_site *out)
{
    read_live_maps();
    uintptr_t address = call_address;
    const live_map *m = live_find(address);
    int candidate = candidate_code(sealed, m);
    if (!candidate) {
        uintptr_t frame = 0;
        const live_map *f = candidate_frame(sealed, stack_pointer, &frame);
        if (f)
            m = f, address = frame, candidate = 1;
    }
    *out = (hb_call_site){.address = address, .candidate = candidate};
    if (!m)
        return;
    const char *path = maps_text + m->path_at;
    size_t base = 0;
    for (size_t i = 0; i < m->path_len; i++)
        if (path[i] == '/')
            base = i + 1;
    out->path = path + base;
    out->path_len = m->path_len - base;
    out->offset = address - m->start + m->offset;
}
