#include "bench/result/conduct.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const finding_names[HB_N_FINDINGS] = {
    [HB_FINDING_OTHER_STREAM] = "other-stream", [HB_FINDING_ALLOC] = "alloc",
    [HB_FINDING_SYNC] = "sync",                 [HB_FINDING_CREATE] = "create",
    [HB_FINDING_FIRST_CALL] = "first-call",     [HB_FINDING_DEVICE_STATE] = "device-state",
    [HB_FINDING_THREAD] = "thread",
    [HB_FINDING_MULTI_KERNEL] = "multi-kernel", [HB_FINDING_HOST_TIME] = "host-time",
    [HB_FINDING_LIBRARY_KERNEL] = "library-kernel", [HB_FINDING_FP16_MMA_ONLY] = "fp16-mma-only",
    [HB_FINDING_FP16_SIMT_ONLY] = "fp16-simt-only",
};

const char *hb_finding_name(hb_finding finding)
{
    return (unsigned)finding < HB_N_FINDINGS ? finding_names[finding] : "?";
}

int hb_finding_parse(const char *name, hb_finding *out)
{
    for (int f = 0; f < HB_N_FINDINGS; f++)
        if (!strcmp(name, finding_names[f])) {
            *out = (hb_finding)f;
            return 1;
        }
    return 0;
}

unsigned hb_finding_strict_mask(void)
{
    unsigned all = HB_FINDING_BIT(HB_N_FINDINGS) - 1u;
    return all & ~(HB_FINDING_BIT(HB_FINDING_MULTI_KERNEL) | HB_FINDING_BIT(HB_FINDING_HOST_TIME) |
                   HB_FINDING_BIT(HB_FINDING_LIBRARY_KERNEL) | hb_finding_static_mask());
}

unsigned hb_finding_static_mask(void)
{
    return HB_FINDING_BIT(HB_FINDING_FP16_MMA_ONLY) | HB_FINDING_BIT(HB_FINDING_FP16_SIMT_ONLY);
}

int hb_finding_parse_list(const char *list, unsigned *mask, char *bad, size_t bad_size)
{
    *mask = 0;
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        char name[32];
        hb_finding f;
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name - 1 ? len : sizeof name - 1), p);
        if (len == 0 || len >= sizeof name || !hb_finding_parse(name, &f)) {
            snprintf(bad, bad_size, "%.*s", (int)len, p);
            *mask = 0;
            return 0;
        }
        *mask |= HB_FINDING_BIT(f);
        p += len;
        if (*p == ',')
            p++;
    }
    return *mask != 0;
}

void hb_conduct_add(hb_conduct *conduct, hb_finding f, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(conduct->line[f], sizeof conduct->line[f], format, args);
    va_end(args);
    conduct->found |= HB_FINDING_BIT(f);
}

static const char *name_of(const hb_conduct *conduct, int f)
{
    (void)conduct;
    return finding_names[f];
}

static const char *line_of(const hb_conduct *conduct, int f)
{
    return conduct->line[f];
}

/* text(conduct, f) of each finding in `mask`, joined by `separator`. */
static void join(const hb_conduct *conduct, unsigned mask, const char *(*text)(const hb_conduct *, int),
                 const char *separator, char *out, size_t size)
{
    size_t used = 0;
    if (size)
        out[0] = '\0';
    for (int f = 0; f < HB_N_FINDINGS && used < size; f++)
        if (mask & HB_FINDING_BIT(f))
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? separator : "", text(conduct, f));
}

void hb_finding_names(unsigned mask, char *out, size_t size)
{
    join(NULL, mask, name_of, ",", out, size);
}

void hb_conduct_lines(const hb_conduct *conduct, unsigned mask, const char *separator, char *out, size_t size)
{
    join(conduct, conduct->found & mask, line_of, separator, out, size);
}
