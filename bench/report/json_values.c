#include "bench/report/json_values.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every byte outside ASCII made '?': what is left is valid UTF-8. */
static void mask_non_ascii(char *text)
{
    for (char *c = text; *c; c++)
        if ((unsigned char)*c >= 0x80)
            *c = '?';
}

json_t *hb_json_text(const char *value)
{
    json_t *s = json_string(value);
    if (s)
        return s;
    char *copy = malloc(strlen(value) + 1);
    if (!copy)
        return NULL;
    strcpy(copy, value);
    mask_non_ascii(copy);
    s = json_string(copy);
    free(copy);
    return s;
}

int hb_json_text_is_valid(const char *value)
{
    json_t *s = json_string(value); /* jansson's own check: NULL for text that is not UTF-8 */
    json_decref(s);
    return s != NULL;
}

void hb_json_text_repair(char *value)
{
    if (hb_json_text_is_valid(value))
        return;
    size_t cut = strlen(value);
    /* back over at most 3 continuation bytes (10xxxxxx) to the lead byte (11xxxxxx) of the last character */
    for (size_t back = 0; cut > 0 && back < 3 && ((unsigned char)value[cut - 1] & 0xC0) == 0x80; back++)
        cut--;
    if (cut > 0 && ((unsigned char)value[cut - 1] & 0xC0) == 0xC0) {
        const char lead = value[cut - 1];
        value[cut - 1] = '\0';
        if (hb_json_text_is_valid(value))
            return;
        value[cut - 1] = lead;
    }
    mask_non_ascii(value);
}

json_t *hb_json_number(double value)
{
    return isnan(value) || isinf(value) ? json_null() : json_real(value);
}
