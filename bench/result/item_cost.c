#include "bench/result/item_cost.h"

#include <stdio.h>
#include <string.h>

/* One table: the parts' names in the journal, in the enum's order. */
static const struct {
    const char *name;
    int inner; /* counted inside another part */
} parts[HB_COST_PART_COUNT] = {
    [HB_COST_BETWEEN] = {"between", 0},
    [HB_COST_RECORDING] = {"recording", 0},
    [HB_COST_REFERENCE] = {"reference", 0},
    [HB_COST_REFERENCE_WINDOWS] = {"reference_windows", 1},
    [HB_COST_PROCESS_START] = {"process_start", 0},
    [HB_COST_CUPTI] = {"cupti", 0},
    [HB_COST_CONTEXT] = {"context", 0},
    [HB_COST_CODE_CHECK] = {"code_check", 0},
    [HB_COST_SANDBOX] = {"sandbox", 0},
    [HB_COST_LIBRARY_LOAD] = {"library_load", 0},
    [HB_COST_HANDLES] = {"handles", 0},
    [HB_COST_AUTOTUNE] = {"autotune", 1},
    [HB_COST_PROBLEM] = {"problem", 0},
    [HB_COST_BATTERY] = {"battery", 0},
    [HB_COST_WARMUP] = {"warmup", 0},
    [HB_COST_TIMED] = {"timed", 0},
    [HB_COST_OUTPUT_SCAN] = {"output_scan", 1},
    [HB_COST_CHECKS_AFTER] = {"checks_after", 0},
    [HB_COST_TEARDOWN] = {"teardown", 0},
    [HB_COST_RESULT] = {"result", 0},
};

const char *hb_cost_part_name(hb_cost_part part)
{
    return (unsigned)part < HB_COST_PART_COUNT ? parts[part].name : NULL;
}

int hb_cost_part_parse(const char *name, hb_cost_part *out)
{
    for (int i = 0; i < HB_COST_PART_COUNT; i++)
        if (!strcmp(parts[i].name, name)) {
            *out = (hb_cost_part)i;
            return 1;
        }
    return 0;
}

int hb_cost_part_is_inner(hb_cost_part part)
{
    return (unsigned)part < HB_COST_PART_COUNT && parts[part].inner;
}

double hb_item_cost_windows_s(const hb_item_cost *cost)
{
    return cost->part_s[HB_COST_WARMUP] + cost->part_s[HB_COST_TIMED] + cost->part_s[HB_COST_REFERENCE_WINDOWS];
}

double hb_item_cost_other_s(const hb_item_cost *cost)
{
    double sum = 0;
    for (int i = 0; i < HB_COST_PART_COUNT; i++)
        if (!parts[i].inner)
            sum += cost->part_s[i];
    return cost->wall_s - sum;
}

double hb_item_cost_overhead_s(const hb_item_cost *cost)
{
    return cost->wall_s - hb_item_cost_windows_s(cost);
}

void hb_item_cost_add(hb_item_cost *cost, hb_cost_part part, double seconds)
{
    if ((unsigned)part < HB_COST_PART_COUNT && seconds > 0)
        cost->part_s[part] += seconds;
}

void hb_item_cost_lap(hb_item_cost *cost, hb_cost_part part, double *since, double now)
{
    hb_item_cost_add(cost, part, now - *since);
    *since = now;
}

void hb_item_cost_sum(hb_item_cost *a, const hb_item_cost *b)
{
    a->wall_s += b->wall_s;
    for (int i = 0; i < HB_COST_PART_COUNT; i++) {
        a->part_s[i] += b->part_s[i];
        a->ahead_s[i] += b->ahead_s[i];
    }
}

/* Appends to out at *used; stops quietly at the end of out. */
static void append(char *out, size_t size, size_t *used, const char *name, double seconds)
{
    if (*used >= size)
        return;
    const char last = *used ? out[*used - 1] : ':';
    int n = snprintf(out + *used, size - *used, "%s %s %.2f", last == ':' ? "" : ",", name, seconds);
    *used += n > 0 ? (size_t)n : 0;
}

void hb_item_cost_describe(const hb_item_cost *sum, size_t items, char *out, size_t size)
{
    const double n = items ? (double)items : 1;
    int written = snprintf(out, size, "%zu items, %.2f s an item: windows %.2f s, beyond them %.2f s; summed (s):",
                           items, sum->wall_s / n, hb_item_cost_windows_s(sum) / n, hb_item_cost_overhead_s(sum) / n);
    size_t used = written > 0 ? (size_t)written : 0;
    for (int i = 0; i < HB_COST_PART_COUNT; i++)
        if (sum->part_s[i] > 0)
            append(out, size, &used, parts[i].name, sum->part_s[i]);
    append(out, size, &used, "other", hb_item_cost_other_s(sum));
    for (int i = 0; i < HB_COST_PART_COUNT; i++)
        if (sum->ahead_s[i] > 0) {
            char name[48];
            snprintf(name, sizeof name, "%s ahead", parts[i].name);
            append(out, size, &used, name, sum->ahead_s[i]);
        }
}
