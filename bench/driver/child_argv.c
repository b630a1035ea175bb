#include "bench/driver/child_argv.h"

#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/driver/commands.h"
#include "bench/driver/option_index.h"

void hb_argv_add(hb_argv *argv, const char *word)
{
    size_t length = strlen(word) + 1;
    if (argv->count == HB_ARGV_MAX || argv->used + length > sizeof argv->text) {
        argv->overflow = 1;
        return;
    }
    argv->word[argv->count++] = memcpy(argv->text + argv->used, word, length);
    argv->word[argv->count] = NULL;
    argv->used += length;
}

static int listed(const char *flag, const char *const *names)
{
    for (; names && *names; names++)
        if (!strcmp(flag, *names))
            return 1;
    return 0;
}

hb_status hb_argv_add_options(hb_argv *argv, const hb_run_options *run, hb_command command, const char *const *except)
{
    const hb_command_entry *c = hb_command_of(command);
    if (!c)
        return hb_fail(HB_ERR_INTERNAL, "a child's command line for a command this binary lacks (%d)", (int)command);
    const hb_option_row *o;
    for (size_t i = 0; (o = hb_option_at(c->options, i)); i++) {
        char value[4200], fallback[4200], flag[64];
        if (!o->format || listed(o->flag, except))
            continue;
        int has = o->format(o, run, value, sizeof value);
        int had = o->format(o, hb_option_defaults(), fallback, sizeof fallback);
        if (!has || (had && !strcmp(value, fallback)))
            continue;
        /* A value that filled the buffer may have been cut: a child given a
         * shortened path would act on another file. */
        if (strlen(value) + 1 >= sizeof value)
            return hb_fail(HB_ERR_USAGE, "the value of --%s is longer than %zu bytes, more than a child's command line "
                           "takes; give a shorter path", o->flag, sizeof value - 2);
        snprintf(flag, sizeof flag, "--%s", o->flag);
        hb_argv_add(argv, flag);
        if (o->value)
            hb_argv_add(argv, value);
    }
    if (argv->overflow)
        return hb_fail(HB_ERR_INTERNAL, "a child's command line does not fit in %d words or %zu bytes", HB_ARGV_MAX,
                       sizeof argv->text);
    return HB_OK;
}
