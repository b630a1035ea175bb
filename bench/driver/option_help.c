#include "bench/driver/option_help.h"

#include "bench/core/text_wrap.h"

#define HELP_COLUMN 23 /* where each flag's description starts */
#define HELP_WIDTH 100

static const char *const section_heading[HB_SECTION_COUNT] = {
    [HB_SECTION_INPUT] = "options",
    [HB_SECTION_PLAN] = "the plan",
    [HB_SECTION_SWEEP] = "the sweep: modes, GPUs, shards, resume",
    [HB_SECTION_CHECKS] = "correctness checks and isolation",
    [HB_SECTION_BASELINES] = "baselines",
    [HB_SECTION_TIMING] = "timing",
    [HB_SECTION_GATE] = "gate",
    [HB_SECTION_REWARD] = "reward (a kernel-generation loop's score, docs/gate.md)",
    [HB_SECTION_GENERAL] = "general",
};

void hb_option_shown_default(const hb_option_row *o, char *out, size_t size)
{
    const char *text = o->shown_default ? o->shown_default : o->value ? o->fallback : NULL;
    snprintf(out, size, "%s", text ? text : "");
}

static void print_option(FILE *out, const hb_option_row *o)
{
    char flag[64], fallback[160], text[640];
    snprintf(flag, sizeof flag, "--%s%s%s", o->flag, o->value ? " " : "", o->value ? o->value : "");
    int column = fprintf(out, "  %-*s", HELP_COLUMN - 3, flag);
    if (column > HELP_COLUMN - 1) {
        fprintf(out, "\n%*s", HELP_COLUMN - 1, "");
        column = HELP_COLUMN - 1;
    }
    hb_option_shown_default(o, fallback, sizeof fallback);
    snprintf(text, sizeof text, "%s%s%s%s", o->help, *fallback ? " (default " : "", fallback, *fallback ? ")" : "");
    fputc(' ', out);
    hb_print_wrapped(out, text, column + 1, HELP_COLUMN, HELP_WIDTH);
}

void hb_option_help_print(FILE *out, const hb_option_group *const *groups)
{
    for (int s = 0; s < HB_SECTION_COUNT; s++) {
        int heading = 0;
        const hb_option_row *o;
        for (size_t i = 0; (o = hb_option_at(groups, i)); i++) {
            if (o->section != (hb_option_section)s)
                continue;
            if (!heading++)
                fprintf(out, "\n%s:\n", section_heading[s]);
            print_option(out, o);
        }
    }
}
