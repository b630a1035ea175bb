#define _GNU_SOURCE /* syscall */
#include "bench/driver/sandbox_seal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench/core/array_room.h"
#include "bench/core/diag.h"

/* mseal(2), Linux 6.10; the number is the same on x86-64 and aarch64, and
 * C libraries before glibc 2.41 have no name for it. */
#ifndef SYS_mseal
#define SYS_mseal 462
#endif

int hb_seal_takes(const hb_memory_map *map)
{
    if (map->shared || !(map->prot & HB_MAP_READ) || (map->prot & HB_MAP_WRITE))
        return 0; /* writable memory is the program's to change; ---p is reserved address space */
    return strncmp(map->path, "/dev/", 5) != 0;
}

static int anonymous(const hb_memory_map *map)
{
    return map->inode == 0 && map->path[0] == '\0';
}

/* One span more, or the last one grown: mappings that touch and are of one kind. */
static hb_status add_span(hb_sealed_set *set, size_t *cap, const hb_memory_map *map)
{
    hb_sealed_span *last = set->count ? &set->spans[set->count - 1] : NULL;
    set->mappings++;
    if (last && last->end == map->start && last->anonymous == anonymous(map)) {
        last->end = map->end;
        return HB_OK;
    }
    if (!hb_array_room((void **)&set->spans, cap, set->count, sizeof *set->spans))
        return hb_fail(HB_ERR_INTERNAL, "out of memory listing the sealed ranges");
    set->spans[set->count++] = (hb_sealed_span){map->start, map->end, anonymous(map)};
    return HB_OK;
}

static hb_status gather(hb_sealed_set *set, int sealing)
{
    size_t cap = 0;
    for (size_t i = 0; i < set->maps.count; i++) {
        const hb_memory_map *map = &set->maps.maps[i];
        if (!hb_seal_takes(map))
            continue;
        if (sealing && syscall(SYS_mseal, map->start, map->end - map->start, 0UL) != 0) {
            if (errno == ENOMEM)
                continue; /* unmapped since the read (a driver thread): nothing there to guard */
            if (set->mseal == 0 && (errno == ENOSYS || errno == EINVAL)) {
                sealing = 0; /* none sealed yet: the kernel has no mseal; the filters guard the ranges alone */
            } else {
                return hb_fail(HB_ERR_INTERNAL, "mseal of %s (%#lx-%#lx, %s) failed: %s; run with --sandbox off",
                               hb_memory_map_name(map), (unsigned long)map->start, (unsigned long)map->end,
                               (map->prot & HB_MAP_EXEC) ? "code" : "read-only", strerror(errno));
            }
        } else if (sealing) {
            set->mseal = 1;
        }
        HB_TRY(add_span(set, &cap, map));
    }
    return HB_OK;
}

hb_status hb_seal_spans(const hb_memory_maps *maps, hb_sealed_set *out)
{
    memset(out, 0, sizeof *out);
    out->maps = *maps;
    hb_status status = gather(out, 0);
    out->maps = (hb_memory_maps){NULL, 0}; /* the caller's */
    return status;
}

hb_status hb_seal_mappings(int use_mseal, hb_sealed_set *out)
{
    memset(out, 0, sizeof *out);
    HB_TRY(hb_memory_maps_read(&out->maps));
    hb_status status = gather(out, use_mseal);
    if (status != HB_OK)
        hb_sealed_set_free(out);
    return status;
}

void hb_sealed_set_free(hb_sealed_set *set)
{
    hb_memory_maps_free(&set->maps);
    free(set->spans);
    memset(set, 0, sizeof *set);
}
