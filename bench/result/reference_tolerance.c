#include "bench/result/reference_tolerance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const figure_names[HB_REF_FIGURES] = {"event", "wall", "kernel"};

const char *hb_ref_figure_name(hb_ref_figure figure)
{
    return (unsigned)figure < HB_REF_FIGURES ? figure_names[figure] : "?";
}

#define MAX_PERCENT 1000.0
#define MAX_ABSOLUTE_US 1e6

/* A finite decimal number at *p, advanced past it. */
static int read_number(const char **p, double *out)
{
    char *end;
    if (!(**p >= '0' && **p <= '9') && **p != '.')
        return 0; /* strtod would take a sign, "inf" or "nan" */
    *out = strtod(*p, &end);
    if (end == *p || !isfinite(*out))
        return 0;
    *p = end;
    return 1;
}

/* "PCT%+US" or "PCT%+USus", the whole of [start, stop). */
static int parse_part(const char *start, const char *stop, double *relative, double *absolute_us)
{
    const char *p = start;
    double pct, us;
    if (!read_number(&p, &pct) || *p++ != '%' || *p++ != '+' || !read_number(&p, &us))
        return 0;
    if (stop - p == 2 && !strncmp(p, "us", 2))
        p += 2;
    if (p != stop || pct > MAX_PERCENT || us > MAX_ABSOLUTE_US)
        return 0;
    *relative = pct / 100;
    *absolute_us = us;
    return 1;
}

/* The item [start, stop) into t: `[TIMER=]PCT%+US[us]`. */
static int parse_item(const char *start, const char *stop, hb_ref_tolerance *t)
{
    const char *equals = memchr(start, '=', (size_t)(stop - start));
    int first = 0, last = HB_REF_FIGURES - 1;
    if (equals) {
        first = -1;
        const size_t length = (size_t)(equals - start);
        for (int f = 0; f < HB_REF_FIGURES; f++)
            if (length == strlen(figure_names[f]) && !strncmp(start, figure_names[f], length))
                first = last = f;
        if (first < 0)
            return 0;
        start = equals + 1;
    }
    double relative, absolute_us;
    if (!parse_part(start, stop, &relative, &absolute_us))
        return 0;
    for (int f = first; f <= last; f++) {
        t->relative[f] = relative;
        t->absolute_us[f] = absolute_us;
    }
    return 1;
}

static int parse_items(const char *text, hb_ref_tolerance *t, char *why, size_t why_size)
{
    const char *start = text;
    for (;;) {
        const char *comma = strchr(start, ',');
        const char *stop = comma ? comma : start + strlen(start);
        if (!parse_item(start, stop, t)) {
            snprintf(why, why_size, "'%.*s' is not [event=|wall=|kernel=]PCT%%+US (PCT in 0..%g, US in 0..%g "
                     "microseconds, e.g. 5%%+0.5us)", (int)(stop - start), start, MAX_PERCENT, MAX_ABSOLUTE_US);
            return 0;
        }
        if (!comma)
            return 1;
        start = comma + 1;
    }
}

hb_ref_tolerance hb_ref_tolerance_default(void)
{
    hb_ref_tolerance t;
    memset(&t, 0, sizeof t);
    char why[8];
    parse_items(HB_REF_TOLERANCE_DEFAULT, &t, why, sizeof why); /* a constant that parses: tests hold it */
    return t;
}

int hb_ref_tolerance_parse(const char *text, hb_ref_tolerance *out, char *why, size_t why_size)
{
    hb_ref_tolerance t = hb_ref_tolerance_default();
    if (!text || !*text) {
        snprintf(why, why_size, "an empty tolerance");
        return 0;
    }
    if (!parse_items(text, &t, why, why_size))
        return 0;
    *out = t;
    return 1;
}

void hb_ref_tolerance_format(const hb_ref_tolerance *t, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int f = 0; f < HB_REF_FIGURES && used < size; f++) {
        int n = snprintf(out + used, size - used, "%s%s=%.12g%%+%.12gus", f ? "," : "", figure_names[f],
                         t->relative[f] * 100, t->absolute_us[f]);
        if (n < 0)
            return;
        used += (size_t)n;
    }
}

double hb_ref_median_se_us(const hb_ref_spread *s)
{
    if (s->n == 0 || !isfinite(s->p10_us) || !isfinite(s->p90_us))
        return NAN;
    const double sigma = (s->p90_us - s->p10_us) / 2.5631;
    return 1.2533 * sigma / sqrt((double)s->n);
}

double hb_ref_allowed_us(const hb_ref_tolerance *t, hb_ref_figure figure, const hb_ref_spread *clean,
                         const hb_ref_spread *seen, double *noise_us)
{
    const double se_clean = hb_ref_median_se_us(clean), se_seen = hb_ref_median_se_us(seen);
    double noise = HB_REF_NOISE_Z * sqrt((isfinite(se_clean) ? se_clean * se_clean : 0) +
                                         (isfinite(se_seen) ? se_seen * se_seen : 0));
    if (noise_us)
        *noise_us = noise;
    return t->relative[figure] * clean->median_us + t->absolute_us[figure] + noise;
}
