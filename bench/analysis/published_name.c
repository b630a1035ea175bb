#include "bench/analysis/published_name.h"

#include <stdio.h>
#include <string.h>

/* The classes CUDA-L2 publishes, by the tag its file and folder names carry. */
static const struct {
    const char *tag, *acc;
} classes[] = {{"F32F16F16F32", "fp32"}, {"F16F16F16F16", "fp16"}};

static void read_mode(const char *name, hb_published_name *out)
{
    static const struct {
        const char *suffix;
        hb_mode mode;
    } suffixes[] = {{"_offline.csv", HB_MODE_OFFLINE}, {"_server.csv", HB_MODE_SERVER}};
    size_t length = strlen(name);
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t suffix = strlen(suffixes[i].suffix);
        if (length >= suffix && !strcmp(name + length - suffix, suffixes[i].suffix)) {
            out->has_mode = 1;
            out->mode = suffixes[i].mode;
        }
    }
}

/* cuda_l2_<gpu>_<class>_speedup_...: the part between the prefix and
 * "_speedup_", split at its last '_'. */
static void read_gpu_and_class(const char *name, hb_published_name *out)
{
    static const char prefix[] = "cuda_l2_";
    const char *end = strstr(name, "_speedup_");
    if (strncmp(name, prefix, sizeof prefix - 1) || !end)
        return;
    const char *start = name + sizeof prefix - 1;
    const char *split = NULL;
    for (const char *p = start; p < end; p++)
        if (*p == '_')
            split = p;
    if (!split || split == start || split + 1 == end)
        return;
    snprintf(out->gpu, sizeof out->gpu, "%.*s", (int)(split - start), start);
    snprintf(out->class_tag, sizeof out->class_tag, "%.*s", (int)(end - split - 1), split + 1);
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (!strcmp(out->class_tag, classes[i].tag))
            out->acc = classes[i].acc;
}

void hb_published_name_parse(const char *path, hb_published_name *out)
{
    memset(out, 0, sizeof *out);
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    read_mode(name, out);
    read_gpu_and_class(name, out);
}
