#include "bench/driver/option_doc.h"

#include <stdlib.h>
#include <string.h>

#include "bench/driver/option_index.h"

/* A default cell: the row's own words, else its default as --help names it,
 * a word in backticks and a number as it is; "off" for a switch. */
static void default_cell(const hb_option_row *o, char *out, size_t size)
{
    const char *text = o->doc_default ? o->doc_default : o->shown_default;
    if (text || (!o->value ? (text = "off") : !o->fallback ? (text = "") : NULL)) {
        snprintf(out, size, "%s", text);
        return;
    }
    char *end = NULL;
    strtod(o->fallback, &end);
    snprintf(out, size, *end == '\0' ? "%s" : "`%s`", o->fallback);
}

/* "| a | b |", an empty cell as "| |". */
static void print_cells(FILE *out, const char *const *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "|%s%s%s", *cells[i] ? " " : "", cells[i], " ");
    fputs("|\n", out);
}

static void print_row(FILE *out, const hb_option_row *o)
{
    char flag[96], takers[512], fallback[512];
    snprintf(flag, sizeof flag, "`--%s%s%s`", o->flag, o->value ? " " : "", o->value ? o->value : "");
    hb_option_takers(o, NULL, takers, sizeof takers);
    default_cell(o, fallback, sizeof fallback);
    const char *const cells[] = {flag, takers, fallback, o->doc ? o->doc : o->help};
    print_cells(out, cells, sizeof cells / sizeof cells[0]);
}

void hb_option_doc_print(FILE *out)
{
    fprintf(out, "%s\n| flag | commands | default | meaning |\n| --- | --- | --- | --- |\n", HB_OPTION_DOC_BEGIN);
    for (int general = 0; general < 2; general++)
        for (size_t i = 0; i < hb_option_count(); i++)
            if ((hb_option_row_at(i)->section == HB_SECTION_GENERAL) == general)
                print_row(out, hb_option_row_at(i));
    fprintf(out, "%s\n", HB_OPTION_DOC_END);
}
