#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

void hb_cli_print_help(FILE *stream)
{
    fputs("usage: hgemm-bench run --candidate PATH --mnk M,N,K [--mnk M,N,K ...] [options]\n"
          "       hgemm-bench --help | --version\n"
          "\n"
          "Measures an HGEMM candidate (a cubin plus manifest, or a folder of them) against\n"
          "the torch-equivalent and cuBLAS NN/TN baselines, fp32 accumulator class, offline mode.\n"
          "\n"
          "run options:\n"
          "  --candidate PATH   manifest.json of one candidate, or a candidate-set folder\n"
          "                     holding M_N_K.json files and optionally generic.json\n"
          "  --mnk M,N,K        a configuration; repeat for several (at most 4096)\n"
          "  --warmup-s S       warm-up window per configuration in seconds (default 10)\n"
          "  --time-s S         timed window per configuration in seconds (default 30)\n"
          "  --seed N           seed for inputs and round order (default: from the clock)\n"
          "  --out DIR          results go to DIR/<run-id>/ (default: results)\n"
          "  --device N         CUDA device ordinal (default 0)\n"
          "  --no-progress      no progress line on stderr\n"
          "\n"
          "exit codes: 0 ok, 1 internal error, 2 bad usage, 3 bad candidate input,\n"
          "  4 candidate unsupported here, 5 CUDA/cuBLAS error, 6 candidate incorrect,\n"
          "  7 results not writable, 8 candidate faulted (docs/cli.md)\n",
          stream);
}

static hb_status usage_error(const char *fmt, const char *arg) HB_PRINTF(1, 0);

static hb_status usage_error(const char *fmt, const char *arg)
{
    char message[512];
    snprintf(message, sizeof message, fmt, arg);
    hb_fail(HB_ERR_USAGE, "%s", message);
    if (!hb_diag_is_quiet())
        fputs("Try 'hgemm-bench --help'.\n", stderr);
    return HB_ERR_USAGE;
}

static int parse_long_strict(const char *text, long *out)
{
    if (!text || !*text)
        return 0;
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0')
        return 0;
    *out = value;
    return 1;
}

hb_status hb_parse_mnk(const char *text, hb_mnk *out)
{
    char buffer[96];
    if (!text || strlen(text) >= sizeof buffer)
        return usage_error("--mnk expects M,N,K, got '%s'", text ? text : "");
    strcpy(buffer, text);
    long dims[3];
    char *cursor = buffer;
    for (int i = 0; i < 3; i++) {
        char *comma = strchr(cursor, ',');
        if ((i < 2) != (comma != NULL))
            return usage_error("--mnk expects exactly three numbers M,N,K, got '%s'", text);
        if (comma)
            *comma = '\0';
        if (!parse_long_strict(cursor, &dims[i]))
            return usage_error("--mnk: '%s' is not three whole numbers M,N,K", text);
        if (dims[i] < 1 || dims[i] > HB_MAX_DIM)
            return usage_error("--mnk: every dimension must lie in 1..262144, got '%s'", text);
        cursor = comma ? comma + 1 : cursor;
    }
    out->m = dims[0];
    out->n = dims[1];
    out->k = dims[2];
    return HB_OK;
}

static hb_status parse_seconds(const char *flag, const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !isfinite(value) || value < 0 || value > 86400)
        return usage_error(flag, text);
    *out = value;
    return HB_OK;
}

static hb_status parse_seed(const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    if (!text || !isdigit((unsigned char)*text))
        return usage_error("--seed expects a non-negative integer, got '%s'", text ? text : "");
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return usage_error("--seed expects a non-negative integer, got '%s'", text);
    *out = (uint64_t)value;
    return HB_OK;
}

static void set_run_defaults(hb_run_options *run)
{
    memset(run, 0, sizeof *run);
    run->warmup_s = 10.0; /* paper 2.4: 10 s warm-up */
    run->time_s = 30.0;   /* paper 2.4: at least 30 s timed */
    run->out_dir = "results";
    run->progress = 1;
}

enum { OPT_CANDIDATE = 256, OPT_MNK, OPT_WARMUP, OPT_TIME, OPT_SEED, OPT_OUT, OPT_DEVICE,
       OPT_NO_PROGRESS, OPT_HELP };

static hb_status parse_run_option(int option, const char *arg, hb_run_options *run)
{
    long device;
    switch (option) {
    case OPT_CANDIDATE: run->candidate_path = arg; return HB_OK;
    case OPT_MNK:
        if (run->n_configs == HB_MAX_CONFIGS)
            return usage_error("too many --mnk (the limit is 4096), at '%s'", arg);
        return hb_parse_mnk(arg, &run->configs[run->n_configs++]);
    case OPT_WARMUP:
        return parse_seconds("--warmup-s expects seconds in 0..86400, got '%s'", arg, &run->warmup_s);
    case OPT_TIME:
        return parse_seconds("--time-s expects seconds in 0..86400, got '%s'", arg, &run->time_s);
    case OPT_SEED: run->seed_given = 1; return parse_seed(arg, &run->seed);
    case OPT_OUT:
        if (!*arg)
            return usage_error("--out expects a folder%s", "");
        run->out_dir = arg;
        return HB_OK;
    case OPT_DEVICE:
        if (!parse_long_strict(arg, &device) || device < 0 || device > 1024)
            return usage_error("--device expects a device ordinal, got '%s'", arg);
        run->device = (int)device;
        return HB_OK;
    case OPT_NO_PROGRESS: run->progress = 0; return HB_OK;
    default: return HB_ERR_USAGE;
    }
}

static hb_status parse_run(int argc, char **argv, hb_cli *cli)
{
    static const struct option options[] = {
        {"candidate", required_argument, NULL, OPT_CANDIDATE},
        {"mnk", required_argument, NULL, OPT_MNK},
        {"warmup-s", required_argument, NULL, OPT_WARMUP},
        {"time-s", required_argument, NULL, OPT_TIME},
        {"seed", required_argument, NULL, OPT_SEED},
        {"out", required_argument, NULL, OPT_OUT},
        {"device", required_argument, NULL, OPT_DEVICE},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0}};
    hb_run_options *run = &cli->run;
    set_run_defaults(run);
    optind = 0; /* 0, not 1: glibc then also resets its scan state inside a -xyz cluster */
    opterr = 0; /* we word the messages ourselves */
    int option;
    while ((option = getopt_long(argc, argv, ":", options, NULL)) != -1) {
        if (option == OPT_HELP) {
            cli->command = HB_CMD_HELP;
            return HB_OK;
        }
        if (option == '?' && optopt > 0 && optopt < 256) {
            char flag[3] = {'-', (char)optopt, '\0'};
            return usage_error("run: unknown option '%s'", flag);
        }
        if (option == '?')
            return usage_error("run: unknown option '%s'", argv[optind - 1]);
        if (option == ':')
            return usage_error("run: option '%s' needs a value", argv[optind - 1]);
        HB_TRY(parse_run_option(option, optarg, run));
    }
    if (optind < argc)
        return usage_error("run: unexpected argument '%s'", argv[optind]);
    if (!run->candidate_path)
        return usage_error("run: --candidate PATH is required%s", "");
    if (run->n_configs == 0)
        return usage_error("run: at least one --mnk M,N,K is required%s", "");
    cli->command = HB_CMD_RUN;
    return HB_OK;
}

hb_status hb_cli_parse(int argc, char **argv, hb_cli *cli)
{
    memset(cli, 0, sizeof *cli);
    if (argc < 2)
        return usage_error("no command given%s", "");
    const char *command = argv[1];
    if (!strcmp(command, "--help") || !strcmp(command, "-h") || !strcmp(command, "help")) {
        cli->command = HB_CMD_HELP;
        return HB_OK;
    }
    if (!strcmp(command, "--version")) {
        cli->command = HB_CMD_VERSION;
        return HB_OK;
    }
    if (!strcmp(command, "run"))
        return parse_run(argc - 1, argv + 1, cli);
    return usage_error("unknown command '%s' (commands: run)", command);
}
