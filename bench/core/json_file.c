#include "bench/core/json_file.h"

#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/out_file.h"

hb_status hb_json_write_file(const char *path, const json_t *root)
{
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!text)
        return hb_fail(HB_ERR_INTERNAL, "cannot render %s as JSON (out of memory, or text that is not UTF-8)", path);
    hb_status status = hb_out_file_write(path, text, strlen(text)); /* the bytes json_dump_file wrote before */
    free(text);
    return status;
}
