#include "bench/driver/options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/result/baseline_registry.h"

void hb_cli_print_help(FILE *stream)
{
    fputs("usage: hgemm-bench run   --candidate PATH --mnk M,N,K [--mnk M,N,K ...] [options]\n"
          "       hgemm-bench run   --aa BASELINE --mnk M,N,K [...] [options]\n"
          "       hgemm-bench check --candidate PATH --mnk M,N,K [...] [options]\n"
          "       hgemm-bench gate  --candidate PATH --mnk M,N,K [...] [--vs NAME] [--min-speedup X]\n"
          "                         [--verdict FILE] [options]\n"
          "       hgemm-bench --help | --version\n"
          "\n"
          "run:   checks an HGEMM candidate (a cubin plus manifest, or a folder of them), then\n"
          "       times it against the torch-equivalent, cuBLAS NN/TN, cuBLASLt-heuristic NN/TN and\n"
          "       cuBLASLt-autotune NN/TN baselines.  check: the correctness checks\n"
          "       only.  gate: run, then exit 0 only if every configuration passed every check and\n"
          "       met the speedup threshold.\n"
          "\n"
          "options:\n"
          "  --candidate PATH   manifest.json of one candidate, or a candidate-set folder\n"
          "                     holding M_N_K.json files and optionally generic.json\n"
          "  --mnk M,N,K        a configuration; repeat for several (at most 4096)\n"
          "  --warmup-s S       warm-up window per configuration in seconds (default 10)\n"
          "  --time-s S         timed window per configuration in seconds (default 30)\n"
          "  --seed N           seed for inputs and round order (default: from the clock)\n"
          "  --out DIR          results go to DIR/<run-id>/ (default: results)\n"
          "  --device N         CUDA device ordinal (default 0)\n"
          "  --no-progress      no progress line on stderr\n"
          "  --exact-reps N     repetitions of each exact-match check on fresh inputs (default 3)\n"
          "  --exact-time-s S   stop repeating them after S seconds (default 10)\n"
          "  --spot-checks N    timed calls whose output is checked (default 4)\n"
          "  --sanitize         also run each configuration's checks under compute-sanitizer memcheck\n"
          "  --timeout-s S      kill a configuration that shows no progress for S seconds (default 60)\n"
          "  --no-isolate       evaluate in this process (debugging; a crash then ends the run)\n"
          "  --verdict FILE     also write the verdict JSON to FILE (always in the run folder)\n"
          "  --acc CLASS        accumulator class: fp32 (default) or fp16; torch stays fp32\n"
          "  --workspace BYTES  cuBLAS / cuBLASLt workspace, e.g. 33554432 or 32MiB (default 32MiB)\n"
          "  --autotune-cache F cuBLASLt autotune cache file, or 'none' (default:\n"
          "                     $HGEMM_BENCH_CACHE_DIR, $XDG_CACHE_HOME/hgemm-bench or\n"
          "                     ~/.cache/hgemm-bench, file cublaslt-autotune.tsv)\n"
          "  --retune           search again even where the cache has a choice, and replace it\n"
          "  --no-autotune-search  where the cache has no choice, use the heuristic's top pick\n"
          "timing options:\n"
          "  --mode MODE        offline (default: rounds back to back) or server (random idle gaps)\n"
          "  --qps Q            server mode: mean arrival rate, 1/Q s mean gap (default 500)\n"
          "  --mean-gap-ms MS   server mode: the mean idle gap instead (default 2)\n"
          "  --gap WHERE        server mode: per-call (default: before every call) or per-round\n"
          "  --l2 POLICY        fresh (default: new inputs every round), flush (L2 flushed before\n"
          "                     every call) or warm (the same inputs every round)\n"
          "  --target-ci PCT    end the timed window once every baseline's 95% CI half-width is\n"
          "                     below PCT percent (after --min-time-s); --time-s is then the cap\n"
          "  --min-time-s S     least timed window with --target-ci (default 5)\n"
          "  --aa BASELINE      A/A calibration: a second instance of BASELINE (torch, cublas-nn,\n"
          "                     cublas-tn, cublaslt-heuristic-nn|tn, cublaslt-autotune-nn|tn) is\n"
          "                     timed as the candidate; replaces --candidate (run only)\n"
          "  --raw              save every sample in <run>/raw/<config>.bin (docs/results.md)\n"
          "gate options:\n"
          "  --vs NAME          baseline for the threshold (default torch): torch, cublas-nn,\n"
          "                     cublas-tn, cublas-max, cublaslt-heuristic-nn|tn|max,\n"
          "                     cublaslt-autotune-nn|tn|max\n"
          "  --min-speedup X    least speedup t_base/t_cand - 1 per configuration (default 0; 0.1 = 10%;\n"
          "                     -1 accepts any speed)\n"
          "\n"
          "exit codes: 0 ok, 1 internal error, 2 bad usage, 3 bad candidate input,\n"
          "  4 candidate unsupported here, 5 CUDA/cuBLAS error, 6 candidate incorrect,\n"
          "  7 results not writable, 8 candidate crashed or hung, 9 too slow (gate) (docs/cli.md)\n",
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

/* A finite decimal number in [low, high], or (low, high] when low_open;
 * otherwise a usage error worded by `message` (one %s: the text). */
static hb_status parse_real(const char *text, double low, int low_open, double high, const char *message,
                            double *out)
{
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    int below = low_open ? value <= low : value < low;
    if (errno != 0 || end == text || *end != '\0' || !isfinite(value) || below || value > high)
        return usage_error(message, text);
    *out = value;
    return HB_OK;
}

static hb_status parse_seconds(const char *flag, const char *text, double *out)
{
    return parse_real(text, 0, 0, 86400, flag, out);
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
    run->exact_reps = 3;
    run->exact_time_s = 10.0;
    run->spot_checks = 4;
    run->isolate = 1;
    run->timeout_s = 60.0;
    run->vs = "torch";
    run->acc = HB_ACC_FP32;
    run->workspace_bytes = HB_DEFAULT_WORKSPACE_BYTES;
    run->autotune_search = 1;
    run->mode = HB_MODE_OFFLINE;
    run->gap = HB_GAP_PER_CALL;
    run->mean_gap_ms = HB_DEFAULT_MEAN_GAP_MS;
    run->l2 = HB_L2_FRESH;
    run->min_time_s = HB_DEFAULT_MIN_TIME_S;
}

enum { OPT_CANDIDATE = 256, OPT_MNK, OPT_WARMUP, OPT_TIME, OPT_SEED, OPT_OUT, OPT_DEVICE,
       OPT_NO_PROGRESS, OPT_HELP, OPT_EXACT_REPS, OPT_EXACT_TIME, OPT_SPOT_CHECKS, OPT_SANITIZE, OPT_TIMEOUT,
       OPT_NO_ISOLATE, OPT_VERDICT, OPT_VS, OPT_MIN_SPEEDUP, OPT_ACC, OPT_WORKSPACE, OPT_AUTOTUNE_CACHE, OPT_RETUNE,
       OPT_NO_AUTOTUNE_SEARCH, OPT_MODE, OPT_QPS, OPT_MEAN_GAP, OPT_GAP, OPT_L2, OPT_TARGET_CI, OPT_MIN_TIME, OPT_AA,
       OPT_RAW };

static hb_status parse_count(const char *flag, const char *text, long low, long high, int *out)
{
    long value;
    if (!parse_long_strict(text, &value) || value < low || value > high)
        return usage_error(flag, text);
    *out = (int)value;
    return HB_OK;
}

static hb_status parse_min_speedup(const char *text, double *out)
{
    return parse_real(text, -1.0, 0, 1000.0,
                      "--min-speedup expects a number from -1 (any speed) up, 0.1 = 10%% faster; got '%s'", out);
}

static hb_status parse_vs(const char *text, const char **out)
{
    if (hb_baseline_name_known(text)) {
        *out = text;
        return HB_OK;
    }
    char message[400];
    snprintf(message, sizeof message, "--vs expects one of %s; got '%%s'", hb_baseline_name_list(1));
    return usage_error(message, text);
}

static hb_status parse_acc(const char *text, hb_acc_class *out)
{
    if (!strcmp(text, "fp32") || !strcmp(text, "fp16")) {
        *out = !strcmp(text, "fp16") ? HB_ACC_FP16 : HB_ACC_FP32;
        return HB_OK;
    }
    return usage_error("--acc expects fp32 or fp16, got '%s'", text);
}

/* Bytes: a whole number, optionally followed by KiB, MiB or GiB (binary
 * multiples); at most 16 GiB. */
static hb_status parse_bytes(const char *text, size_t *out)
{
    static const struct { const char *suffix; unsigned shift; } units[] = {{"", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}};
    char *end = NULL;
    errno = 0;
    if (!isdigit((unsigned char)*text))
        return usage_error("--workspace expects bytes, e.g. 33554432 or 32MiB; got '%s'", text);
    unsigned long long value = strtoull(text, &end, 10);
    for (size_t i = 0; errno == 0 && i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].suffix) != 0 || value > (16ULL << 30) >> units[i].shift)
            continue;
        *out = (size_t)(value << units[i].shift);
        return HB_OK;
    }
    return usage_error("--workspace expects bytes up to 16GiB, e.g. 33554432 or 32MiB; got '%s'", text);
}

static hb_status parse_baseline_option(int option, const char *arg, hb_run_options *run)
{
    switch (option) {
    case OPT_ACC: return parse_acc(arg, &run->acc);
    case OPT_WORKSPACE: return parse_bytes(arg, &run->workspace_bytes);
    case OPT_AUTOTUNE_CACHE:
        if (!*arg)
            return usage_error("--autotune-cache expects a file name or 'none'%s", "");
        run->autotune_cache = arg;
        return HB_OK;
    case OPT_RETUNE: run->retune = 1; return HB_OK;
    case OPT_NO_AUTOTUNE_SEARCH: run->autotune_search = 0; return HB_OK;
    default: return HB_ERR_USAGE;
    }
}

static hb_status parse_positive(const char *text, double high, const char *message, double *out)
{
    return parse_real(text, 0, 1, high, message, out);
}

static hb_status parse_aa(const char *text, const char **out)
{
    const hb_baseline_entry *entry = hb_baseline_find(text);
    if (entry) {
        *out = entry->name;
        return HB_OK;
    }
    return usage_error("--aa expects a timed baseline: torch, cublas-nn, cublas-tn, cublaslt-heuristic-nn, "
                       "cublaslt-heuristic-tn, cublaslt-autotune-nn or cublaslt-autotune-tn; got '%s'", text);
}

/* Timing flags; `seen` records which pacing flags were given, for the checks after parsing. */
static hb_status parse_timing_option(int option, const char *arg, hb_run_options *run, unsigned *seen)
{
    double value;
    *seen |= 1u << (option - OPT_MODE);
    switch (option) {
    case OPT_MODE: return hb_mode_parse(arg, &run->mode) ? HB_OK : usage_error("--mode expects offline or server, got '%s'", arg);
    case OPT_QPS:
        HB_TRY(parse_positive(arg, 1e6, "--qps expects calls per second in (0, 1e6], got '%s'", &value));
        if (1000.0 / value > 10000.0)
            return usage_error("--qps: a mean gap over 10 s is not a benchmark (got '%s')", arg);
        run->mean_gap_ms = 1000.0 / value;
        return HB_OK;
    case OPT_MEAN_GAP:
        return parse_positive(arg, 10000.0, "--mean-gap-ms expects milliseconds in (0, 10000], got '%s'",
                              &run->mean_gap_ms);
    case OPT_GAP: return hb_gap_parse(arg, &run->gap) ? HB_OK : usage_error("--gap expects per-call or per-round, got '%s'", arg);
    case OPT_L2:
        return hb_l2_policy_parse(arg, &run->l2) ? HB_OK : usage_error("--l2 expects fresh, flush or warm, got '%s'", arg);
    case OPT_TARGET_CI:
        HB_TRY(parse_positive(arg, 100.0, "--target-ci expects a percentage in (0, 100], got '%s'", &value));
        run->target_ci = value / 100.0;
        return HB_OK;
    case OPT_MIN_TIME:
        return parse_seconds("--min-time-s expects seconds in 0..86400, got '%s'", arg, &run->min_time_s);
    case OPT_AA: return parse_aa(arg, &run->aa);
    case OPT_RAW: run->raw = 1; return HB_OK;
    default: return HB_ERR_USAGE;
    }
}

#define SEEN(option) (seen & (1u << ((option) - OPT_MODE)))

/* Flags that only make sense together. */
static hb_status check_timing_options(const hb_run_options *run, unsigned seen, hb_command command)
{
    if (SEEN(OPT_QPS) && SEEN(OPT_MEAN_GAP))
        return usage_error("--qps and --mean-gap-ms set the same thing; give one%s", "");
    if (run->mode != HB_MODE_SERVER && (SEEN(OPT_QPS) || SEEN(OPT_MEAN_GAP) || SEEN(OPT_GAP)))
        return usage_error("--qps, --mean-gap-ms and --gap apply to --mode server%s", "");
    if (SEEN(OPT_MIN_TIME) && run->target_ci <= 0)
        return usage_error("--min-time-s applies with --target-ci%s", "");
    if (run->aa && command != HB_CMD_RUN)
        return usage_error("--aa is a calibration for 'run'%s", "");
    if (run->aa && run->candidate_path)
        return usage_error("--aa %s times a baseline as the candidate; drop --candidate", run->aa);
    if (run->aa && run->sanitize)
        return usage_error("--sanitize checks a candidate's kernel; it does not apply to --aa %s", run->aa);
    return HB_OK;
}

static hb_status parse_check_option(int option, const char *arg, hb_run_options *run)
{
    switch (option) {
    case OPT_EXACT_REPS: return parse_count("--exact-reps expects a count in 1..1000, got '%s'", arg, 1, 1000, &run->exact_reps);
    case OPT_EXACT_TIME:
        return parse_seconds("--exact-time-s expects seconds in 0..86400, got '%s'", arg, &run->exact_time_s);
    case OPT_SPOT_CHECKS:
        return parse_count("--spot-checks expects a count in 0..1000, got '%s'", arg, 0, 1000, &run->spot_checks);
    case OPT_SANITIZE: run->sanitize = 1; return HB_OK;
    case OPT_TIMEOUT:
        HB_TRY(parse_seconds("--timeout-s expects seconds in 1..86400, got '%s'", arg, &run->timeout_s));
        return run->timeout_s >= 1 ? HB_OK : usage_error("--timeout-s expects seconds in 1..86400, got '%s'", arg);
    case OPT_NO_ISOLATE: run->isolate = 0; return HB_OK;
    case OPT_VERDICT:
        if (!*arg)
            return usage_error("--verdict expects a file name%s", "");
        run->verdict_path = arg;
        return HB_OK;
    case OPT_VS: return parse_vs(arg, &run->vs);
    case OPT_MIN_SPEEDUP: return parse_min_speedup(arg, &run->min_speedup);
    default: return parse_baseline_option(option, arg, run);
    }
}

static hb_status parse_run_option(int option, const char *arg, hb_run_options *run)
{
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
    case OPT_DEVICE: return parse_count("--device expects a device ordinal, got '%s'", arg, 0, 1024, &run->device);
    case OPT_NO_PROGRESS: run->progress = 0; return HB_OK;
    default: return parse_check_option(option, arg, run);
    }
}

static hb_status parse_run(int argc, char **argv, hb_cli *cli, hb_command command)
{
    const char *name = argv[0];
    static const struct option options[] = {
        {"candidate", required_argument, NULL, OPT_CANDIDATE},
        {"mnk", required_argument, NULL, OPT_MNK},
        {"warmup-s", required_argument, NULL, OPT_WARMUP},
        {"time-s", required_argument, NULL, OPT_TIME},
        {"seed", required_argument, NULL, OPT_SEED},
        {"out", required_argument, NULL, OPT_OUT},
        {"device", required_argument, NULL, OPT_DEVICE},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
        {"exact-reps", required_argument, NULL, OPT_EXACT_REPS},
        {"exact-time-s", required_argument, NULL, OPT_EXACT_TIME},
        {"spot-checks", required_argument, NULL, OPT_SPOT_CHECKS},
        {"sanitize", no_argument, NULL, OPT_SANITIZE},
        {"timeout-s", required_argument, NULL, OPT_TIMEOUT},
        {"no-isolate", no_argument, NULL, OPT_NO_ISOLATE},
        {"verdict", required_argument, NULL, OPT_VERDICT},
        {"vs", required_argument, NULL, OPT_VS},
        {"min-speedup", required_argument, NULL, OPT_MIN_SPEEDUP},
        {"acc", required_argument, NULL, OPT_ACC},
        {"workspace", required_argument, NULL, OPT_WORKSPACE},
        {"autotune-cache", required_argument, NULL, OPT_AUTOTUNE_CACHE},
        {"retune", no_argument, NULL, OPT_RETUNE},
        {"no-autotune-search", no_argument, NULL, OPT_NO_AUTOTUNE_SEARCH},
        {"mode", required_argument, NULL, OPT_MODE},
        {"qps", required_argument, NULL, OPT_QPS},
        {"mean-gap-ms", required_argument, NULL, OPT_MEAN_GAP},
        {"gap", required_argument, NULL, OPT_GAP},
        {"l2", required_argument, NULL, OPT_L2},
        {"target-ci", required_argument, NULL, OPT_TARGET_CI},
        {"min-time-s", required_argument, NULL, OPT_MIN_TIME},
        {"aa", required_argument, NULL, OPT_AA},
        {"raw", no_argument, NULL, OPT_RAW},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0}};
    hb_run_options *run = &cli->run;
    set_run_defaults(run);
    unsigned seen = 0; /* timing flags given */
    optind = 0; /* 0, not 1: glibc then also resets its scan state inside a -xyz cluster */
    opterr = 0; /* we word the messages ourselves */
    int option;
    while ((option = getopt_long(argc, argv, ":", options, NULL)) != -1) {
        if (option == OPT_HELP) {
            cli->command = HB_CMD_HELP;
            return HB_OK;
        }
        if ((option == OPT_VS || option == OPT_MIN_SPEEDUP) && command != HB_CMD_GATE)
            return usage_error("%s only applies to 'gate'", option == OPT_VS ? "--vs" : "--min-speedup");
        if (option == '?' && optopt > 0 && optopt < 256) {
            char flag[3] = {'-', (char)optopt, '\0'};
            return usage_error("unknown option '%s'", flag);
        }
        if (option == '?')
            return usage_error("unknown option '%s'", argv[optind - 1]);
        if (option == ':')
            return usage_error("option '%s' needs a value", argv[optind - 1]);
        if (option >= OPT_MODE && option <= OPT_RAW)
            HB_TRY(parse_timing_option(option, optarg, run, &seen));
        else
            HB_TRY(parse_run_option(option, optarg, run));
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    HB_TRY(check_timing_options(run, seen, command));
    if (!run->candidate_path && !run->aa)
        return usage_error("%s: --candidate PATH (or, for an A/A calibration, --aa BASELINE) is required", name);
    if (run->n_configs == 0)
        return usage_error("%s: at least one --mnk M,N,K is required", name);
    if (run->retune && !run->autotune_search)
        return usage_error("--retune and --no-autotune-search contradict each other%s", "");
    run->check_only = command == HB_CMD_CHECK;
    run->gate = command == HB_CMD_GATE;
    cli->command = command;
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
        return parse_run(argc - 1, argv + 1, cli, HB_CMD_RUN);
    if (!strcmp(command, "check"))
        return parse_run(argc - 1, argv + 1, cli, HB_CMD_CHECK);
    if (!strcmp(command, "gate"))
        return parse_run(argc - 1, argv + 1, cli, HB_CMD_GATE);
    return usage_error("unknown command '%s' (commands: run, check, gate)", command);
}
