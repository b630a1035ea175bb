/* The process's memory mappings, as /proc/self/maps lists them.  The code
 * checks (bench/core/code_pages.h) hash every executable mapping and the
 * sandbox (bench/driver/sandbox.h) seals the code and read-only ones, so
 * both need the same reading of which range is which file at which offset.
 * A line that does not parse is an error, never skipped: a range left out
 * would be a range left unchecked. */
#ifndef HB_MEMORY_MAPS_H
#define HB_MEMORY_MAPS_H

#include <stddef.h>
#include <stdint.h>

#include "bench/core/status.h"

enum { HB_MAP_READ = 1, HB_MAP_WRITE = 2, HB_MAP_EXEC = 4 };

#define HB_MAP_PATH_MAX 512

typedef struct hb_memory_map {
    uintptr_t start, end;        /* [start, end), bytes */
    unsigned prot;               /* HB_MAP_READ | HB_MAP_WRITE | HB_MAP_EXEC */
    int shared;                  /* 's' (MAP_SHARED) rather than 'p' (private, copy on write) */
    unsigned long long offset;   /* into the file, bytes */
    unsigned dev_major, dev_minor;
    unsigned long long inode;    /* 0: not backed by a file */
    char path[HB_MAP_PATH_MAX];  /* "" for anonymous memory; "[vdso]", "[stack]"...; a file's path, cut to fit */
} hb_memory_map;

typedef struct hb_memory_maps {
    hb_memory_map *maps; /* in address order, as the kernel lists them */
    size_t count;
} hb_memory_maps;

/* Reads /proc/self/maps.  HB_ERR_INTERNAL when it cannot be read or a line
 * does not parse; *out is then empty. */
hb_status hb_memory_maps_read(hb_memory_maps *out);

/* Parses maps text (the tests' own lines). */
hb_status hb_memory_maps_parse(const char *text, hb_memory_maps *out);

void hb_memory_maps_free(hb_memory_maps *m);

/* The mapping holding `address`, NULL when none does. */
const hb_memory_map *hb_memory_maps_find(const hb_memory_maps *m, uintptr_t address);

/* The file-backed mapping's short name: the path's last component
 * ("libcuda.so.1"), or the bracketed name, or "anonymous memory". */
const char *hb_memory_map_name(const hb_memory_map *map);

#endif
