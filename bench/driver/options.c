#include "bench/driver/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/driver/commands.h"
#include "bench/driver/option_match.h"

/* The words of one command's line as they are read: argv[0] is the command. */
typedef struct line {
    int argc;
    char **argv;
    int next;               /* the next word to read */
    unsigned char *operand; /* per word: 1 if it is an operand */
    int help;               /* --help or -h was read */
} line;

/* The value of row `o`, typed as `typed` (with "=VALUE" when `inline_value`
 * is not NULL): NULL for a switch and for an optional value left out. */
static hb_status take_value(const hb_option_row *o, const char *typed, const char *inline_value, line *l,
                            const char **text)
{
    *text = NULL;
    if (!o->value)
        return inline_value ? hb_fail(HB_ERR_USAGE, "--%s takes no value (got '%s')", o->flag, typed) : HB_OK;
    if (inline_value)
        *text = inline_value;
    else if (o->value[0] == '[') /* optional: the next word, when it is one the flag takes */
        *text = l->next < l->argc && o->takes_word && o->takes_word(l->argv[l->next]) ? l->argv[l->next++] : NULL;
    else if (l->next < l->argc)
        *text = l->argv[l->next++];
    else
        return hb_fail(HB_ERR_USAGE, "option '%s' needs a value", typed);
    return HB_OK;
}

static hb_status apply(hb_option_parse *p, const hb_option_row *o, const char *typed, const char *inline_value,
                       line *l)
{
    const char *text;
    HB_TRY(take_value(o, typed, inline_value, l, &text));
    if (!hb_option_given(p, o->flag) && p->n_seen < HB_OPTION_ROWS_MAX)
        p->seen[p->n_seen++] = o;
    return o->parse(o, text, p->run);
}

/* `--name` that is no flag of the command, nor the prefix of one alone. */
static hb_status refuse_long(const hb_option_parse *p, const char *name, hb_option_match_kind kind)
{
    char list[512];
    hb_option_takers(NULL, name, list, sizeof list);
    if (*list) /* a flag of other commands */
        return hb_fail(HB_ERR_USAGE, "--%s does not apply to '%s' (it applies to %s)", name, p->command, list);
    if (kind == HB_MATCH_AMBIGUOUS) {
        hb_option_prefixed(p->groups, name, list, sizeof list);
        return hb_fail(HB_ERR_USAGE, "ambiguous option --%s: %s?", name, list);
    }
    hb_option_nearest(p->groups, name, list, sizeof list);
    if (*list)
        return hb_fail(HB_ERR_USAGE, "unknown option '--%s'; did you mean %s?", name, list);
    return hb_fail(HB_ERR_USAGE, "unknown option '--%s'", name);
}

/* "--name" or "--name=VALUE": the command's flag, or the one flag it begins. */
static hb_status read_long(hb_option_parse *p, const char *word, line *l)
{
    char name[128];
    const char *equals = strchr(word + 2, '=');
    size_t length = equals ? (size_t)(equals - word - 2) : strlen(word + 2);
    if (length == 0 || length >= sizeof name)
        return hb_fail(HB_ERR_USAGE, "unknown option '%.*s%s'", 40, word, strlen(word) > 40 ? "..." : "");
    memcpy(name, word + 2, length);
    name[length] = '\0';
    const hb_option_row *o = hb_option_find(p->groups, name);
    hb_option_match_kind kind = o ? HB_MATCH_FLAG : !strcmp(name, "help") ? HB_MATCH_HELP : HB_MATCH_NONE;
    if (kind == HB_MATCH_NONE) {
        char takers[512];
        hb_option_takers(NULL, name, takers, sizeof takers);
        if (!*takers) /* a flag of another command is refused as such, even where it begins one of ours */
            kind = hb_option_match(p->groups, name, &o);
    }
    if (kind == HB_MATCH_HELP) {
        l->help = 1;
        return HB_OK;
    }
    if (kind != HB_MATCH_FLAG)
        return refuse_long(p, name, kind);
    return apply(p, o, word, equals ? equals + 1 : NULL, l);
}

/* "-j N", "-jN" (as make takes it: --jobs N), or "-h". */
static hb_status read_short(hb_option_parse *p, const char *word, line *l)
{
    char letter = word[1];
    if (letter == 'h') {
        l->help = 1;
        return HB_OK;
    }
    const hb_option_row *o = NULL, *row;
    for (size_t i = 0; (row = hb_option_at(p->groups, i)); i++)
        if (row->short_name == letter)
            o = row;
    if (!o) {
        const hb_option_row *other = hb_option_short_anywhere(letter);
        char takers[512];
        if (!other)
            return hb_fail(HB_ERR_USAGE, "unknown option '-%c'", letter);
        hb_option_takers(NULL, other->flag, takers, sizeof takers);
        return hb_fail(HB_ERR_USAGE, "--%s does not apply to '%s' (it applies to %s)", other->flag, p->command,
                       takers);
    }
    char typed[4] = {'-', letter, '\0', '\0'};
    if (!o->value)
        return word[2] ? hb_fail(HB_ERR_USAGE, "unknown option '-%c'", word[2]) : apply(p, o, typed, NULL, l);
    if (word[2])
        return apply(p, o, typed, word + 2, l);
    return apply(p, o, typed, NULL, l);
}

/* Every word of the line: flags read in order, operands marked; stops at
 * the first error or at --help. */
static hb_status read_words(hb_option_parse *p, line *l)
{
    while (l->next < l->argc && !l->help) {
        int at = l->next++;
        const char *word = l->argv[at];
        if (!strcmp(word, "--")) { /* the rest are operands, whatever they look like */
            for (; l->next < l->argc; l->next++)
                l->operand[l->next] = 1;
        } else if (word[0] == '-' && word[1] == '-') {
            HB_TRY(read_long(p, word, l));
        } else if (word[0] == '-' && word[1]) {
            HB_TRY(read_short(p, word, l));
        } else {
            l->operand[at] = 1;
        }
    }
    return HB_OK;
}

/* The operands moved behind the flags, in their order (as getopt_long
 * leaves argv), and handed to the command: a usage error if it takes none,
 * or none were given where it needs some. */
static hb_status take_operands(const hb_command_entry *c, line *l, hb_cli *cli)
{
    char **moved = malloc((size_t)l->argc * sizeof *moved);
    if (!moved)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory reading the command line");
    size_t n = 0, operands = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 1; i < l->argc; i++)
            if (l->operand[i] == pass)
                moved[n++] = l->argv[i];
    for (int i = 1; i < l->argc; i++)
        operands += l->operand[i];
    memcpy(l->argv + 1, moved, n * sizeof *moved);
    free(moved);
    cli->operands = l->argv + l->argc - operands;
    cli->n_operands = operands;
    if (!c->operands && operands)
        return hb_fail(HB_ERR_USAGE, "unexpected argument '%s'", cli->operands[0]);
    if (c->operands && c->operands[0] != '[' && operands < 1)
        return hb_fail(HB_ERR_USAGE, "%s: give %s", c->name, c->operands);
    return HB_OK;
}

/* --verbose wherever it stands: the errors of the words before it name their line too. */
static void verbose_first(const hb_option_parse *p, int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--verbose") && hb_option_find(p->groups, "verbose"))
            hb_diag_set_verbose(1);
}

static hb_status parse_command(const hb_command_entry *c, int argc, char **argv, hb_cli *cli)
{
    cli->run = *hb_option_defaults();
    hb_option_parse p = {.command = c->name, .groups = c->options, .run = &cli->run};
    verbose_first(&p, argc, argv);
    line l = {.argc = argc, .argv = argv, .next = 1, .operand = calloc((size_t)argc, 1)};
    if (!l.operand)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory reading the command line");
    hb_status status = read_words(&p, &l);
    if (status == HB_OK && l.help) {
        cli->command = HB_CMD_HELP;
        cli->help_for = c->id;
    } else if (status == HB_OK) {
        status = take_operands(c, &l, cli);
        if (status == HB_OK && c->check)
            status = c->check(&p);
        cli->command = c->id;
    }
    free(l.operand);
    cli->run.check_only = c->id == HB_CMD_CHECK;
    cli->run.gate = c->id == HB_CMD_GATE;
    return status;
}

/* `help [COMMAND]`: the command named, or the overview. */
static hb_status help_operand(hb_cli *cli)
{
    if (cli->help_for == HB_CMD_HELP) { /* `help --help`: the overview, as `help` */
        cli->help_for = HB_CMD_NONE;
        return HB_OK;
    }
    if (cli->n_operands > 1)
        return hb_fail(HB_ERR_USAGE, "help takes one command name, got '%s' too", cli->operands[1]);
    if (cli->n_operands == 1) {
        const hb_command_entry *c = hb_command_find(cli->operands[0]);
        if (!c)
            return hb_fail(HB_ERR_USAGE, "help: unknown command '%s'", cli->operands[0]);
        cli->help_for = c->id;
    }
    return HB_OK;
}

/* The command and its words; *command is the command whose --help a usage
 * error points to (NULL: the overview's). */
static hb_status parse_line(int argc, char **argv, hb_cli *cli, const hb_command_entry **command)
{
    if (argc < 2)
        return hb_fail(HB_ERR_USAGE, "no command given");
    const char *word = argv[1];
    if (!strcmp(word, "--help") || !strcmp(word, "-h")) {
        cli->command = HB_CMD_HELP;
        return HB_OK;
    }
    if (!strcmp(word, "--version")) {
        cli->command = HB_CMD_VERSION;
        return HB_OK;
    }
    const hb_command_entry *c = hb_command_find(word);
    if (!c) {
        char names[256] = "";
        for (size_t i = 0; i < hb_command_count(); i++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", hb_command_at(i)->name);
        }
        return hb_fail(HB_ERR_USAGE, "unknown command '%s' (commands: %s)", word, names);
    }
    if (c->id != HB_CMD_HELP) {
        *command = c;
        return parse_command(c, argc - 1, argv + 1, cli);
    }
    if (argc == 3 && !strcmp(argv[2], "--markdown")) { /* docs/cli.md's table, for its maintainers */
        cli->command = HB_CMD_HELP;
        cli->help_markdown = 1;
        return HB_OK;
    }
    HB_TRY(parse_command(c, argc - 1, argv + 1, cli));
    return help_operand(cli);
}

hb_status hb_cli_parse(int argc, char **argv, hb_cli *cli)
{
    memset(cli, 0, sizeof *cli);
    const hb_command_entry *command = NULL;
    hb_status status = parse_line(argc, argv, cli, &command);
    if (status == HB_ERR_USAGE && !hb_diag_is_quiet())
        fprintf(stderr, "Try '%s%s%s --help'.\n", hb_this_program.name, command ? " " : "",
                command ? command->name : "");
    return status;
}
