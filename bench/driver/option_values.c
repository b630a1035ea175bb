#include "bench/driver/option_values.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"

void *hb_opt_field(const hb_option_row *o, hb_run_options *run) { return (char *)run + o->field; }
const void *hb_opt_field_in(const hb_option_row *o, const hb_run_options *run) { return (const char *)run + o->field; }

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

int hb_opt_real(const char *text, double low, int low_open, double high, double *out)
{
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    int below = low_open ? value <= low : value < low;
    if (errno != 0 || end == text || *end != '\0' || !isfinite(value) || below || value > high)
        return 0;
    *out = value;
    return 1;
}

hb_status hb_opt_range(const hb_option_row *o, const char *text, int low_open, const char *noun, double *out)
{
    if (hb_opt_real(text, o->low, low_open, o->high, out))
        return HB_OK;
    char range[64];
    snprintf(range, sizeof range, low_open ? "(%g, %g]" : "%g..%g", o->low, o->high);
    return hb_fail(HB_ERR_USAGE, "--%s expects %s in %s, got '%s'", o->flag, noun, range, text);
}

int hb_opt_number_pair(const char *text, double *first, double *second)
{
    char buffer[128];
    const char *comma = strchr(text, ',');
    if (!comma || strchr(comma + 1, ',') || strlen(text) >= sizeof buffer)
        return 0;
    snprintf(buffer, sizeof buffer, "%.*s", (int)(comma - text), text);
    return *buffer && hb_opt_real(buffer, 0, 0, HUGE_VAL, first) && hb_opt_real(comma + 1, 0, 0, HUGE_VAL, second);
}

/* --- parsers ------------------------------------------------------------------ */

hb_status hb_opt_parse_text(const hb_option_row *o, const char *text, hb_run_options *run)
{
    if (!*text)
        return hb_fail(HB_ERR_USAGE, "--%s expects %s, got an empty value", o->flag, o->value);
    *(const char **)hb_opt_field(o, run) = text;
    return HB_OK;
}

hb_status hb_parse_mnk(const char *text, hb_mnk *out)
{
    char buffer[96];
    if (!text || strlen(text) >= sizeof buffer)
        return hb_fail(HB_ERR_USAGE, "--mnk expects M,N,K, got '%s'", text ? text : "");
    strcpy(buffer, text);
    long dims[3];
    char *cursor = buffer;
    for (int i = 0; i < 3; i++) {
        char *comma = strchr(cursor, ',');
        if ((i < 2) != (comma != NULL))
            return hb_fail(HB_ERR_USAGE, "--mnk expects exactly three numbers M,N,K, got '%s'", text);
        if (comma)
            *comma = '\0';
        if (!parse_long_strict(cursor, &dims[i]))
            return hb_fail(HB_ERR_USAGE, "--mnk: '%s' is not three whole numbers M,N,K", text);
        if (dims[i] < 1 || dims[i] > HB_MAX_DIM)
            return hb_fail(HB_ERR_USAGE, "--mnk: every dimension must lie in 1..%ld, got '%s'", HB_MAX_DIM, text);
        cursor = comma ? comma + 1 : cursor;
    }
    *out = (hb_mnk){dims[0], dims[1], dims[2]};
    return HB_OK;
}

hb_status hb_opt_parse_count(const hb_option_row *o, const char *text, hb_run_options *run)
{
    long value;
    if (!parse_long_strict(text, &value) || value < (long)o->low || value > (long)o->high)
        return hb_fail(HB_ERR_USAGE, "--%s expects a whole number in %.0f..%.0f, got '%s'", o->flag, o->low, o->high,
                       text);
    *(int *)hb_opt_field(o, run) = (int)value;
    return HB_OK;
}

hb_status hb_opt_parse_seconds(const hb_option_row *o, const char *text, hb_run_options *run)
{
    return hb_opt_range(o, text, 0, "seconds", hb_opt_field(o, run));
}

hb_status hb_opt_parse_number(const hb_option_row *o, const char *text, hb_run_options *run)
{
    return hb_opt_range(o, text, 0, "a number", hb_opt_field(o, run));
}

hb_status hb_opt_parse_positive(const hb_option_row *o, const char *text, hb_run_options *run)
{
    return hb_opt_range(o, text, 1, "a number", hb_opt_field(o, run));
}

hb_status hb_opt_parse_percent(const hb_option_row *o, const char *text, hb_run_options *run)
{
    double percent;
    HB_TRY(hb_opt_range(o, text, 1, "a percentage", &percent));
    *(double *)hb_opt_field(o, run) = percent / 100.0;
    return HB_OK;
}

/* Binary multiples: KiB is 2^10 bytes. */
hb_status hb_opt_parse_bytes(const hb_option_row *o, const char *text, hb_run_options *run)
{
    static const struct {
        const char *suffix;
        unsigned shift;
    } units[] = {{"", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}};
    char *end = NULL;
    errno = 0;
    unsigned long long value = isdigit((unsigned char)*text) ? strtoull(text, &end, 10) : 0;
    for (size_t i = 0; isdigit((unsigned char)*text) && errno == 0 && i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].suffix) != 0 || value > (16ULL << 30) >> units[i].shift)
            continue;
        *(size_t *)hb_opt_field(o, run) = (size_t)(value << units[i].shift);
        return HB_OK;
    }
    return hb_fail(HB_ERR_USAGE, "--%s expects bytes up to 16GiB, e.g. 33554432 or 32MiB; got '%s'", o->flag, text);
}

hb_status hb_opt_parse_seed(const hb_option_row *o, const char *text, hb_run_options *run)
{
    char *end = NULL;
    errno = 0;
    /* A digit first: strtoull would skip blanks and negate a '-'. */
    unsigned long long value = isdigit((unsigned char)*text) ? strtoull(text, &end, 10) : 0;
    if (!isdigit((unsigned char)*text) || errno != 0 || *end != '\0')
        return hb_fail(HB_ERR_USAGE, "--%s expects a non-negative integer, got '%s'", o->flag, text);
    run->seed = (uint64_t)value;
    run->seed_given = 1;
    return HB_OK;
}

hb_status hb_opt_parse_switch(const hb_option_row *o, const char *text, hb_run_options *run)
{
    (void)text;
    *(int *)hb_opt_field(o, run) = o->sets;
    return HB_OK;
}

/* --- the value as a flag takes it ---------------------------------------------- */

int hb_opt_format_text(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    const char *text = *(const char *const *)hb_opt_field_in(o, run);
    return text && snprintf(out, size, "%s", text) >= 0;
}

int hb_opt_format_int(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    return snprintf(out, size, "%d", *(const int *)hb_opt_field_in(o, run)) >= 0;
}

/* %.17g: every double reads back bit for bit. */
int hb_opt_format_double(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    return snprintf(out, size, "%.17g", *(const double *)hb_opt_field_in(o, run)) >= 0;
}

int hb_opt_format_positive(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    double value = *(const double *)hb_opt_field_in(o, run);
    return value > 0 && snprintf(out, size, "%.17g", value) >= 0;
}

int hb_opt_format_percent(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    double fraction = *(const double *)hb_opt_field_in(o, run);
    return fraction > 0 && snprintf(out, size, "%.17g", fraction * 100.0) >= 0;
}

int hb_opt_format_bytes(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    return snprintf(out, size, "%zu", *(const size_t *)hb_opt_field_in(o, run)) >= 0;
}

int hb_opt_format_seed(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)o;
    return run->seed_given && snprintf(out, size, "%llu", (unsigned long long)run->seed) >= 0;
}

int hb_opt_format_switch(const hb_option_row *o, const hb_run_options *run, char *out, size_t size)
{
    (void)size;
    out[0] = '\0';
    return *(const int *)hb_opt_field_in(o, run) == o->sets;
}
