#define _GNU_SOURCE /* dladdr */
#include "bench/core/code_pages.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/memory_maps.h"

/* /proc/self/pagemap: 8 bytes per page of the address space (the kernel's
 * Documentation/admin-guide/mm/pagemap.rst).  The flags are readable
 * without privilege; only the frame numbers read as zero. */
#define PAGEMAP_PRESENT (1ULL << 63)
#define PAGEMAP_SWAPPED (1ULL << 62)
#define PAGEMAP_FILE (1ULL << 61) /* a file's page (or shared anonymous memory) */
#define PAGEMAP_CHUNK 8192        /* entries read at once: 64 KiB */

/* One executable mapping as the seal found it. */
typedef struct sealed_range {
    hb_memory_map map;   /* its identity: range, protection, device, inode, offset, path */
    size_t first_page;   /* its pages' index in the table's hashes and copied flags */
    size_t pages;
    int hashed;          /* readable at the seal, so its pages were hashed ([vsyscall] is not: identity only) */
    int file_pages;      /* private file mapping or [vdso]: its pages are the file's until written */
} sealed_range;

/* Everything the checks compare with, in one region made read-only. */
typedef struct sealed_table {
    unsigned char secret[XXH3_SECRET_DEFAULT_SIZE]; /* the hash's key, from getrandom() */
    size_t page_size;
    size_t n_ranges, n_pages;
    sealed_range *ranges;
    XXH128_hash_t *hashes;  /* per page */
    unsigned char *copied;  /* per page: already a private copy at the seal (a text relocation): pagemap cannot
                               tell a later write there, the hash still can */
} sealed_table;

struct hb_code_pages {
    sealed_table *table;
    size_t table_bytes;
    hb_code_pages_cost cost;
};

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

static int is_file_page_mapping(const hb_memory_map *m)
{
    return !m->shared && (m->inode != 0 || !strcmp(m->path, "[vdso]"));
}

/* A page of a private file mapping is a private copy once written: not
 * the file's page any more (present and not a file page), or swapped out
 * (a file's page is dropped, never swapped). */
static int written(uint64_t entry)
{
    return ((entry & PAGEMAP_PRESENT) && !(entry & PAGEMAP_FILE)) || (entry & PAGEMAP_SWAPPED);
}

static XXH128_hash_t hash_page(const sealed_table *t, uintptr_t page)
{
    return XXH3_128bits_withSecret((const void *)page, t->page_size, t->secret, sizeof t->secret);
}

/* --- what a finding says ---------------------------------------------------------- */

/* "libcuda.so.1's code", "[vdso]'s code", "anonymous code". */
static void code_name(const hb_memory_map *m, char *out, size_t size)
{
    if (m->path[0])
        snprintf(out, size, "%s's code", hb_memory_map_name(m));
    else
        snprintf(out, size, "anonymous code");
}

static void perms(const hb_memory_map *m, char out[5])
{
    out[0] = m->prot & HB_MAP_READ ? 'r' : '-';
    out[1] = m->prot & HB_MAP_WRITE ? 'w' : '-';
    out[2] = m->prot & HB_MAP_EXEC ? 'x' : '-';
    out[3] = m->shared ? 's' : 'p';
    out[4] = '\0';
}

/* "cuEventRecord+0x40": the nearest exported symbol at or before `address`,
 * else before the mapping's start. */
static void nearest_symbol(uintptr_t address, const hb_memory_map *m, char *out, size_t size)
{
    const uintptr_t tries[2] = {address, m->start};
    for (int i = 0; i < 2; i++) {
        Dl_info info;
        if (dladdr((const void *)tries[i], &info) && info.dli_sname && info.dli_saddr) {
            snprintf(out, size, "%s+0x%llx", info.dli_sname,
                     (unsigned long long)(address - (uintptr_t)info.dli_saddr));
            return;
        }
    }
    snprintf(out, size, "no exported symbol");
}

/* The first byte of `page` that differs from the mapped file's, to name
 * the symbol it lies in; the page's start when the file cannot tell (not
 * a file, or not the same file any more). */
static uintptr_t first_changed_byte(const hb_memory_map *m, uintptr_t page, size_t page_size)
{
    if (m->inode == 0 || m->path[0] != '/')
        return page;
    int fd = open(m->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return page;
    struct stat st;
    unsigned char *file = calloc(1, page_size); /* past the file's end a mapping reads zeros */
    uintptr_t found = page;
    if (file && fstat(fd, &st) == 0 && st.st_ino == m->inode && major(st.st_dev) == m->dev_major &&
        minor(st.st_dev) == m->dev_minor) {
        off_t at = (off_t)(m->offset + (page - m->start));
        ssize_t got = pread(fd, file, page_size, at);
        const unsigned char *mapped = (const unsigned char *)page;
        for (size_t i = 0; got >= 0 && i < page_size; i++)
            if (mapped[i] != file[i]) {
                found = page + i;
                break;
            }
    }
    free(file);
    close(fd);
    return found;
}

/* "libcuda.so.1's code changed at page +0x1a2000 (0x7f..., near
 * cuEventRecord+0x40): <why>"; the page's offset is in the file for a
 * file's mapping, from the mapping's start otherwise. */
static void describe_page(const sealed_range *r, uintptr_t page, uintptr_t byte, const char *verb, const char *why,
                          char *what, size_t size)
{
    char name[HB_MAP_PATH_MAX + 16], symbol[300];
    code_name(&r->map, name, sizeof name);
    nearest_symbol(byte, &r->map, symbol, sizeof symbol);
    const unsigned long long offset = r->map.inode ? r->map.offset + (page - r->map.start) : page - r->map.start;
    snprintf(what, size, "%s %s at page +0x%llx (0x%llx, near %s): %s", name, verb, offset,
             (unsigned long long)byte, symbol, why);
}

/* --- the seal ----------------------------------------------------------------------- */

static hb_status draw_secret(unsigned char *secret, size_t size)
{
    size_t have = 0;
    while (have < size) {
        ssize_t got = getrandom(secret + have, size - have, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return hb_fail(HB_ERR_INTERNAL, "getrandom() for the code checks' key failed: %s", strerror(errno));
        have += (size_t)got;
    }
    return HB_OK;
}

/* Reads `count` (at most PAGEMAP_CHUNK) entries from the one of `address`. */
static hb_status read_pagemap(int fd, uintptr_t address, size_t page_size, size_t count, uint64_t *entries)
{
    const off_t at = (off_t)(address / page_size * sizeof *entries);
    size_t want = count * sizeof *entries, have = 0;
    while (have < want) {
        ssize_t got = pread(fd, (char *)entries + have, want - have, at + (off_t)have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return hb_fail(HB_ERR_INTERNAL, "reading /proc/self/pagemap at 0x%llx: %s", (unsigned long long)address,
                           got < 0 ? strerror(errno) : "it ended early");
        have += (size_t)got;
    }
    return HB_OK;
}

static hb_status open_pagemap(int *fd)
{
    *fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (*fd < 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot open /proc/self/pagemap for the code checks (is /proc mounted?): %s",
                       strerror(errno));
    return HB_OK;
}

/* Which pages of the private file mappings are private copies already. */
static hb_status mark_copied(sealed_table *t)
{
    int fd;
    HB_TRY(open_pagemap(&fd));
    static uint64_t entries[PAGEMAP_CHUNK];
    hb_status status = HB_OK;
    for (size_t i = 0; status == HB_OK && i < t->n_ranges; i++) {
        const sealed_range *r = &t->ranges[i];
        for (size_t p = 0; r->file_pages && status == HB_OK && p < r->pages; p += PAGEMAP_CHUNK) {
            size_t n = r->pages - p < PAGEMAP_CHUNK ? r->pages - p : PAGEMAP_CHUNK;
            status = read_pagemap(fd, r->map.start + p * t->page_size, t->page_size, n, entries);
            for (size_t j = 0; status == HB_OK && j < n; j++)
                t->copied[r->first_page + p + j] = (unsigned char)written(entries[j]);
        }
    }
    close(fd);
    return status;
}

static void hash_pages(sealed_table *t)
{
    for (size_t i = 0; i < t->n_ranges; i++) {
        const sealed_range *r = &t->ranges[i];
        for (size_t p = 0; r->hashed && p < r->pages; p++)
            t->hashes[r->first_page + p] = hash_page(t, r->map.start + p * t->page_size);
    }
}

/* The table's region: the header, the ranges, the hashes, the copied flags. */
static hb_status map_table(const hb_memory_maps *maps, size_t page_size, hb_code_pages *c)
{
    size_t n_ranges = 0, n_pages = 0;
    for (size_t i = 0; i < maps->count; i++)
        if (maps->maps[i].prot & HB_MAP_EXEC) {
            n_ranges++;
            n_pages += (maps->maps[i].end - maps->maps[i].start) / page_size;
        }
    const size_t ranges_at = round_up(sizeof(sealed_table), 16);
    const size_t hashes_at = round_up(ranges_at + n_ranges * sizeof(sealed_range), 16);
    const size_t copied_at = hashes_at + n_pages * sizeof(XXH128_hash_t);
    c->table_bytes = round_up(copied_at + n_pages, page_size);
    void *region = mmap(NULL, c->table_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED)
        return hb_fail(HB_ERR_INTERNAL, "mmap of %zu bytes for the code checks' table failed: %s", c->table_bytes,
                       strerror(errno));
    sealed_table *t = region;
    t->page_size = page_size;
    t->n_ranges = n_ranges;
    t->n_pages = n_pages;
    t->ranges = (sealed_range *)((char *)region + ranges_at);
    t->hashes = (XXH128_hash_t *)((char *)region + hashes_at);
    t->copied = (unsigned char *)region + copied_at;
    size_t k = 0, first = 0;
    for (size_t i = 0; i < maps->count; i++) {
        const hb_memory_map *m = &maps->maps[i];
        if (!(m->prot & HB_MAP_EXEC))
            continue;
        sealed_range *r = &t->ranges[k++];
        r->map = *m;
        r->first_page = first;
        r->pages = (m->end - m->start) / page_size;
        r->hashed = (m->prot & HB_MAP_READ) != 0;
        r->file_pages = is_file_page_mapping(m);
        first += r->pages;
        if (r->hashed)
            c->cost.bytes += m->end - m->start;
    }
    c->cost.ranges = n_ranges;
    c->table = t;
    return HB_OK;
}

static hb_status fill_table(hb_code_pages *c)
{
    HB_TRY(draw_secret(c->table->secret, sizeof c->table->secret));
    HB_TRY(mark_copied(c->table));
    hash_pages(c->table);
    if (mprotect(c->table, c->table_bytes, PROT_READ) != 0)
        return hb_fail(HB_ERR_INTERNAL, "mprotect(PROT_READ) of the code checks' table failed: %s", strerror(errno));
    return HB_OK;
}

hb_status hb_code_pages_seal(hb_code_pages **out)
{
    *out = NULL;
    const double start = hb_now_s();
    const long page_size = sysconf(_SC_PAGESIZE);
    if (page_size <= 0)
        return hb_fail(HB_ERR_INTERNAL, "sysconf(_SC_PAGESIZE) failed: %s", strerror(errno));
    hb_code_pages *c = calloc(1, sizeof *c);
    if (!c)
        return hb_fail(HB_ERR_INTERNAL, "out of memory sealing the code pages");
    hb_memory_maps maps;
    hb_status status = hb_memory_maps_read(&maps);
    if (status == HB_OK) {
        status = map_table(&maps, (size_t)page_size, c);
        hb_memory_maps_free(&maps);
    }
    if (status == HB_OK)
        status = fill_table(c);
    if (status != HB_OK) {
        hb_code_pages_free(c);
        return status;
    }
    c->cost.seal_ms = (hb_now_s() - start) * 1e3;
    *out = c;
    return HB_OK;
}

/* --- the checks --------------------------------------------------------------------- */

static unsigned long long offset_at(const hb_memory_map *m, uintptr_t address)
{
    return m->offset + (address - m->start);
}

/* The same memory: the same file (or the same kind of anonymous memory) at
 * the same offset.  The path is compared only where there is no file: a
 * file renamed or deleted on disk keeps its device and inode. */
static int same_backing(const hb_memory_map *was, const hb_memory_map *is, uintptr_t address)
{
    return was->inode == is->inode && was->dev_major == is->dev_major && was->dev_minor == is->dev_minor &&
           was->shared == is->shared && offset_at(was, address) == offset_at(is, address) &&
           (was->inode != 0 || !strcmp(was->path, is->path));
}

/* The sealed range still mapped whole as it was (the kernel may have split
 * or merged its entries: each piece is compared where it lies). */
static int range_moved(const sealed_range *r, const hb_memory_maps *now, char *what, size_t size)
{
    const hb_memory_map *was = &r->map;
    char name[HB_MAP_PATH_MAX + 16], before[5], after[5];
    code_name(was, name, sizeof name);
    perms(was, before);
    for (uintptr_t at = was->start; at < was->end;) {
        const hb_memory_map *is = hb_memory_maps_find(now, at);
        if (!is) {
            snprintf(what, size, "%s at 0x%llx was unmapped", name, (unsigned long long)at);
            return 1;
        }
        if (!same_backing(was, is, at)) {
            snprintf(what, size, "%s at 0x%llx was mapped over by %s%s", name, (unsigned long long)at,
                     hb_memory_map_name(is), is->inode == was->inode && is->inode ? " (another part of it)" : "");
            return 1;
        }
        if (is->prot != was->prot) {
            perms(is, after);
            if ((is->prot & HB_MAP_WRITE) && !(was->prot & HB_MAP_WRITE))
                snprintf(what, size, "%s at 0x%llx was made writable (%s)", name, (unsigned long long)at, after);
            else
                snprintf(what, size, "%s at 0x%llx changed protection from %s to %s", name, (unsigned long long)at,
                         before, after);
            return 1;
        }
        at = is->end < was->end ? is->end : was->end;
    }
    return 0;
}

static int any_range_moved(const sealed_table *t, const hb_memory_maps *now, char *what, size_t size)
{
    for (size_t i = 0; i < t->n_ranges; i++)
        if (range_moved(&t->ranges[i], now, what, size))
            return 1;
    return 0;
}

/* A changed page: its bytes differ from the seal's, or (pagemap) it was
 * written, whatever its bytes are now. */
static int page_changed(const sealed_table *t, const sealed_range *r, uintptr_t page, int bytes_differ, char *what,
                        size_t size)
{
    if (bytes_differ)
        describe_page(r, page, first_changed_byte(&r->map, page, t->page_size), "changed",
                      "its bytes differ from the seal's", what, size);
    else
        describe_page(r, page, page, "was written", "a private copy, even if its bytes were put back", what, size);
    return 1;
}

static int hash_differs(const sealed_table *t, const sealed_range *r, size_t p)
{
    return !XXH128_isEqual(hash_page(t, r->map.start + p * t->page_size), t->hashes[r->first_page + p]);
}

static hb_status range_written(const sealed_table *t, int fd, const sealed_range *r, int *found, char *what,
                               size_t size)
{
    static uint64_t entries[PAGEMAP_CHUNK];
    for (size_t p = 0; p < r->pages; p += PAGEMAP_CHUNK) {
        size_t n = r->pages - p < PAGEMAP_CHUNK ? r->pages - p : PAGEMAP_CHUNK;
        HB_TRY(read_pagemap(fd, r->map.start + p * t->page_size, t->page_size, n, entries));
        for (size_t j = 0; j < n; j++)
            if (written(entries[j]) && !t->copied[r->first_page + p + j]) {
                *found = page_changed(t, r, r->map.start + (p + j) * t->page_size,
                                      r->hashed && hash_differs(t, r, p + j), what, size);
                return HB_OK;
            }
    }
    return HB_OK;
}

static hb_status any_page_written(const sealed_table *t, int *found, char *what, size_t size)
{
    int fd;
    HB_TRY(open_pagemap(&fd));
    hb_status status = HB_OK;
    for (size_t i = 0; status == HB_OK && !*found && i < t->n_ranges; i++)
        if (t->ranges[i].file_pages)
            status = range_written(t, fd, &t->ranges[i], found, what, size);
    close(fd);
    return status;
}

static int any_page_differs(const sealed_table *t, char *what, size_t size)
{
    for (size_t i = 0; i < t->n_ranges; i++) {
        const sealed_range *r = &t->ranges[i];
        for (size_t p = 0; r->hashed && p < r->pages; p++)
            if (hash_differs(t, r, p))
                return page_changed(t, r, r->map.start + p * t->page_size, 1, what, size);
    }
    return 0;
}

hb_status hb_code_pages_verify(hb_code_pages *sealed, int *changed, char *what, size_t what_size)
{
    const double start = hb_now_s();
    *changed = 0;
    what[0] = '\0';
    const sealed_table *t = sealed->table;
    hb_memory_maps now;
    HB_TRY(hb_memory_maps_read(&now));
    int found = any_range_moved(t, &now, what, what_size);
    hb_memory_maps_free(&now);
    hb_status status = found ? HB_OK : any_page_written(t, &found, what, what_size);
    if (status == HB_OK && !found)
        found = any_page_differs(t, what, what_size);
    *changed = status == HB_OK && found;
    sealed->cost.check_ms += (hb_now_s() - start) * 1e3;
    sealed->cost.checks++;
    return status;
}

hb_code_pages_cost hb_code_pages_cost_of(const hb_code_pages *sealed)
{
    hb_code_pages_cost none = {0};
    return sealed ? sealed->cost : none;
}

const void *hb_code_pages_table(const hb_code_pages *sealed)
{
    return sealed ? sealed->table : NULL;
}

void hb_code_pages_free(hb_code_pages *sealed)
{
    if (!sealed)
        return;
    if (sealed->table)
        munmap(sealed->table, sealed->table_bytes);
    free(sealed);
}
