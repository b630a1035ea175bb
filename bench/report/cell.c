#include "bench/report/cell.h"

#include <math.h>
#include <stddef.h>

hb_cell hb_cell_empty(void)
{
    return (hb_cell){.kind = HB_CELL_EMPTY};
}

hb_cell hb_cell_number(double value)
{
    if (isnan(value))
        return hb_cell_empty();
    return (hb_cell){.kind = HB_CELL_NUMBER, .number = value};
}

hb_cell hb_cell_string(const char *text)
{
    return (hb_cell){.kind = HB_CELL_TEXT, .text = text};
}

hb_cell hb_cell_own_text(void)
{
    return (hb_cell){.kind = HB_CELL_TEXT, .text = NULL};
}

const char *hb_cell_text(const hb_cell *cell)
{
    if (cell->kind != HB_CELL_TEXT)
        return "";
    return cell->text ? cell->text : cell->own;
}
