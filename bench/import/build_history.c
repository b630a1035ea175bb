#define _POSIX_C_SOURCE 200809L
#include "bench/import/build_history.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/input_file.h"
#include "bench/core/out_file.h"

/* A line is a few hundred bytes; 64 MiB is some 200,000 builds. */
#define HB_BUILD_HISTORY_MAX ((size_t)64 << 20)

static void path_of(const char *cache_dir, char *out, size_t size)
{
    snprintf(out, size, "%.4000s/%s", cache_dir, HB_BUILD_HISTORY_FILE);
}

static int record_of(json_t *doc, hb_build_record *out)
{
    const char *sha = json_string_value(json_object_get(doc, "source_sha256"));
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    json_t *seconds = json_object_get(doc, "seconds"), *model = json_object_get(doc, "model_s");
    if (!sha || strlen(sha) != HB_SHA256_HEX - 1 || !json_is_number(seconds))
        return 0;
    memset(out, 0, sizeof *out);
    snprintf(out->source_sha256, sizeof out->source_sha256, "%s", sha);
    snprintf(out->kind, sizeof out->kind, "%s", kind ? kind : "");
    out->seconds = json_number_value(seconds);
    out->model_s = json_is_number(model) ? json_number_value(model) : 0;
    return out->seconds > 0;
}

hb_status hb_build_history_read(const char *cache_dir, hb_build_record **records, size_t *n)
{
    *records = NULL;
    *n = 0;
    char path[4200];
    path_of(cache_dir, path, sizeof path);
    char *text = NULL;
    size_t size = 0;
    HB_TRY(hb_input_read(path, "the build history", HB_BUILD_HISTORY_MAX, HB_ERR_IO, 1, &text, &size));
    if (!text)
        return HB_OK;
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += text[i] == '\n';
    *records = calloc(lines, sizeof **records);
    if (!*records) {
        free(text);
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    }
    for (char *line = text, *next; line < text + size; line = next) {
        char *end = memchr(line, '\n', (size_t)(text + size - line));
        next = end ? end + 1 : text + size;
        if (!end)
            break; /* a line cut short by a kill: its build is simply not known */
        *end = '\0';
        json_t *doc = json_loads(line, 0, NULL);
        if (doc && record_of(doc, &(*records)[*n]))
            (*n)++;
        json_decref(doc);
    }
    free(text);
    return HB_OK;
}

static json_t *stages_json(const hb_build_stages *stages)
{
    json_t *doc = json_object();
    for (int s = 0; doc && stages && stages->known && s < HB_STAGE_COUNT; s++)
        json_object_set_new(doc, hb_build_stage_name((hb_build_stage)s), json_real(stages->seconds[s]));
    return doc;
}

hb_status hb_build_history_append(const char *cache_dir, const hb_build_history_line *l)
{
    json_t *doc = json_pack("{s:s, s:s, s:s, s:I, s:f, s:f, s:b, s:f, s:o, s:s}", "source_sha256",
                            l->source_sha256, "file", l->file, "kind", l->kind, "source_bytes",
                            (json_int_t)l->source_bytes, "seconds", l->seconds, "model_s", l->model_s, "built",
                            l->built, "peak_rss_mib", l->peak_rss_mib, "stages",
                            stages_json(l->stages), "nvcc", l->nvcc ? l->nvcc : "");
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    json_decref(doc);
    char path[4200];
    path_of(cache_dir, path, sizeof path);
    if (!text)
        return hb_fail(HB_ERR_INTERNAL, "cannot write a line of %s: out of memory", path);
    size_t length = strlen(text);
    text[length++] = '\n'; /* json_dumps's NUL becomes the line's end: one write, one whole line */
    int fd;
    hb_status status = hb_open_output(path, 1, &fd);
    if (status == HB_OK) {
        ssize_t written = write(fd, text, length);
        if (written != (ssize_t)length)
            status = hb_fail(HB_ERR_IO, "cannot append to %s: %s", path, written < 0 ? strerror(errno) : "short write");
        close(fd);
    }
    free(text);
    return status;
}
