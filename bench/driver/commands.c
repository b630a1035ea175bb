#include "bench/driver/commands.h"

#include <string.h>

#include "bench/core/text_wrap.h"
#include "bench/driver/option_help.h"

/* The i-th row of the program's tables, or NULL. */
const hb_command_entry *hb_command_at(size_t i)
{
    for (const hb_command_entry *const *table = hb_this_program.tables; *table; table++)
        for (const hb_command_entry *row = *table; row->name; row++)
            if (i-- == 0)
                return row;
    return NULL;
}

size_t hb_command_count(void)
{
    size_t count = 0;
    while (hb_command_at(count))
        count++;
    return count;
}

const hb_command_entry *hb_command_find(const char *name)
{
    for (size_t i = 0; hb_command_at(i); i++)
        if (!strcmp(hb_command_at(i)->name, name))
            return hb_command_at(i);
    return NULL;
}

const hb_command_entry *hb_command_of(hb_command id)
{
    for (size_t i = 0; hb_command_at(i); i++)
        if (hb_command_at(i)->id == id)
            return hb_command_at(i);
    return NULL;
}

/* Each usage line after "usage: " (first) or its indentation (the rest); a
 * line that begins with blanks goes on the one before ("  PLAN: ..."). */
static void print_usage(FILE *out, const hb_command_entry *c)
{
    const char *line = c->usage;
    for (int first = 1; *line; first = 0) {
        size_t length = strcspn(line, "\n");
        if (*line == ' ')
            fprintf(out, "%*s%.*s\n", (int)strlen(hb_this_program.name) + 7, "", (int)length, line);
        else
            fprintf(out, "%s %s %.*s\n", first ? "usage:" : "      ", hb_this_program.name, (int)length, line);
        line += length + (line[length] == '\n');
    }
}

void hb_print_overview(FILE *out)
{
    const char *name = hb_this_program.name;
    fprintf(out,
            "usage: %s COMMAND [options]      (%s COMMAND --help: its flags)\n"
            "       %s --help | --version\n\ncommands:\n",
            name, name, name);
    for (size_t i = 0; hb_command_at(i); i++)
        fprintf(out, "  %-10s %s\n", hb_command_at(i)->name, hb_command_at(i)->brief);
    fputs("\nexit codes: 0 ok, 1 internal error, 2 bad usage, 3 bad candidate input,\n"
          "  4 candidate unsupported here, 5 CUDA/cuBLAS error, 6 candidate incorrect,\n"
          "  7 results not writable, 8 candidate crashed or hung, 9 too slow (gate),\n"
          "  10 time implausible (faster than the GPU's peak),\n"
          "  11 results unreadable (not a sweep, truncated, shards of different sweeps),\n"
          "  12 conduct forbidden by gate --strict/--forbid, 13 timers disagree,\n"
          "  14 published file of another mode or class (compare),\n"
          "  15 below the published speedups (compare --threshold) (docs/cli.md)\n",
          out);
}

void hb_print_command_help(FILE *out, hb_command id)
{
    const hb_command_entry *c = hb_command_of(id);
    if (!c) {
        hb_print_overview(out);
        return;
    }
    print_usage(out, c);
    fputc('\n', out);
    hb_print_wrapped(out, c->summary, 0, 0, 100);
    hb_option_help_print(out, c->options);
}
