#include "bench/report/json_values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

json_t *hb_json_text(const char *value)
{
    json_t *s = json_string(value);
    if (s)
        return s;
    char *copy = malloc(strlen(value) + 1);
    if (!copy)
        return NULL;
    strcpy(copy, value);
    for (char *c = copy; *c; c++)
        if ((unsigned char)*c >= 0x80)
            *c = '?';
    s = json_string(copy);
    free(copy);
    return s;
}

json_t *hb_json_number(double value)
{
    return isnan(value) || isinf(value) ? json_null() : json_real(value);
}
