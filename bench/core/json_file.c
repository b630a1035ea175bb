#include "bench/core/json_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"

hb_status hb_json_write_file(const char *path, const json_t *root)
{
    char temporary[4200];
    if ((size_t)snprintf(temporary, sizeof temporary, "%s.tmp", path) >= sizeof temporary)
        return hb_fail(HB_ERR_IO, "path too long: %s", path);
    if (json_dump_file(root, temporary, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
        return hb_fail(HB_ERR_IO, "cannot write %s (does its folder exist and is it writable?)", temporary);
    if (rename(temporary, path) != 0)
        return hb_fail(HB_ERR_IO, "cannot rename %s to %s: %s", temporary, path, strerror(errno));
    return HB_OK;
}
