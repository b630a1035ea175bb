#include "bench/driver/option_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/driver/commands.h"

/* The rows, found once: a binary's commands are fixed. */
static const hb_option_row *rows[HB_OPTION_ROWS_MAX * 2];
static size_t row_total;
static int indexed;

static int indexed_already(const hb_option_row *o)
{
    for (size_t i = 0; i < row_total; i++)
        if (rows[i] == o)
            return 1;
    return 0;
}

static void index_rows(void)
{
    if (indexed)
        return;
    indexed = 1;
    const hb_option_row *o;
    for (size_t c = 0; hb_command_at(c); c++)
        for (size_t i = 0; (o = hb_option_at(hb_command_at(c)->options, i)); i++)
            if (!indexed_already(o) && row_total < sizeof rows / sizeof rows[0])
                rows[row_total++] = o;
}

size_t hb_option_count(void)
{
    index_rows();
    return row_total;
}

const hb_option_row *hb_option_row_at(size_t i) { return i < hb_option_count() ? rows[i] : NULL; }

const char *hb_option_flag(size_t i) { return i < hb_option_count() ? rows[i]->flag : NULL; }

int hb_option_applies(size_t i, hb_command command)
{
    const hb_command_entry *c = hb_command_of(command);
    return c && i < hb_option_count() && hb_option_has_row(c->options, rows[i]);
}

int hb_option_flag_applies(const char *flag, hb_command command)
{
    const hb_command_entry *c = hb_command_of(command);
    return c && hb_option_find(c->options, flag) != NULL;
}

int hb_option_value_text(size_t i, const hb_run_options *run, char *out, size_t size)
{
    return i < hb_option_count() && rows[i]->format && rows[i]->format(rows[i], run, out, size);
}

void hb_option_takers(const hb_option_row *row, const char *flag, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; hb_command_at(i); i++) {
        const hb_command_entry *c = hb_command_at(i);
        size_t used = strlen(out);
        if (row ? hb_option_has_row(c->options, row) : hb_option_find(c->options, flag) != NULL)
            snprintf(out + used, size - used, "%s%s", used ? ", " : "", c->name);
    }
}

const hb_option_row *hb_option_short_anywhere(char letter)
{
    for (size_t i = 0; i < hb_option_count(); i++)
        if (rows[i]->short_name == letter)
            return rows[i];
    return NULL;
}

const hb_run_options *hb_option_defaults(void)
{
    static hb_run_options value;
    static int ready;
    if (ready)
        return &value;
    memset(&value, 0, sizeof value);
    for (size_t i = 0; i < hb_option_count(); i++) {
        const hb_option_row *o = rows[i];
        if (!o->value)
            *(int *)((char *)&value + o->field) = !o->sets;
        else if (o->fallback && o->parse(o, o->fallback, &value) != HB_OK)
            abort(); /* a default its own row's parser refuses: a harness bug, caught by every test */
    }
    ready = 1;
    return &value;
}
