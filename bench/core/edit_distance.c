#include "bench/core/edit_distance.h"

#include <string.h>

static unsigned least(unsigned a, unsigned b) { return a < b ? a : b; }

/* Three rows of the usual dynamic programme: row i holds the cost of turning
 * typed[0..i) into each prefix of `known`; the row before the previous one
 * is kept for the swap. */
unsigned hb_edit_distance(const char *typed, const char *known, const hb_edit_costs *costs)
{
    size_t n = strlen(typed), m = strlen(known);
    if (n > HB_EDIT_WORD_MAX || m > HB_EDIT_WORD_MAX)
        return HB_EDIT_FAR;
    unsigned rows[3][HB_EDIT_WORD_MAX + 1];
    unsigned *before = rows[0], *previous = rows[1], *current = rows[2];
    for (size_t j = 0; j <= m; j++)
        previous[j] = (unsigned)j * costs->insert;
    for (size_t i = 1; i <= n; i++) {
        current[0] = (unsigned)i * costs->remove;
        for (size_t j = 1; j <= m; j++) {
            unsigned cost = previous[j - 1] + (typed[i - 1] == known[j - 1] ? 0 : costs->substitute);
            if (i > 1 && j > 1 && typed[i - 2] == known[j - 1] && typed[i - 1] == known[j - 2])
                cost = least(cost, before[j - 2] + costs->swap);
            cost = least(cost, previous[j] + costs->remove);
            cost = least(cost, current[j - 1] + costs->insert);
            current[j] = cost;
        }
        unsigned *spare = before;
        before = previous;
        previous = current;
        current = spare;
    }
    return previous[m];
}
