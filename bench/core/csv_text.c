#include "bench/core/csv_text.h"

#include <string.h>

/* What a spreadsheet takes for the start of a formula (OWASP, "CSV
 * Injection"), and the guard's own quote. */
static int needs_guard(char first)
{
    return first && strchr("=+-@\t\r\n'", first) != NULL;
}

int hb_csv_text_guarded(const char *text)
{
    return text && needs_guard(text[0]);
}

const char *hb_csv_text_unguard(const char *cell)
{
    return cell && cell[0] ? cell + hb_csv_text_guard_bytes(cell, 2) : cell;
}

size_t hb_csv_text_guard_bytes(const char *cell, size_t length)
{
    return length >= 2 && cell[0] == '\'' && needs_guard(cell[1]) ? 1 : 0;
}
