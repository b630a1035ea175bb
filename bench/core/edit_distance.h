/* How far one word is from another, for "did you mean" hints: git's
 * weighted optimal-string-alignment distance (a Damerau-Levenshtein
 * distance where two neighbours swapped count as one edit). */
#ifndef HB_EDIT_DISTANCE_H
#define HB_EDIT_DISTANCE_H

/* The cost of each kind of edit that turns a typed word into a known one. */
typedef struct hb_edit_costs {
    unsigned swap;       /* two neighbouring characters exchanged */
    unsigned substitute; /* one character for another */
    unsigned insert;     /* a character the typed word lacks */
    unsigned remove;     /* a character of the typed word that is not in the known one */
} hb_edit_costs;

/* Words longer than this are never near anything (a flag is far shorter). */
#define HB_EDIT_WORD_MAX 64

/* The least total cost of edits that turn `typed` into `known`;
 * HB_EDIT_FAR when either is longer than HB_EDIT_WORD_MAX. */
#define HB_EDIT_FAR 0xFFFFFFFFu
unsigned hb_edit_distance(const char *typed, const char *known, const hb_edit_costs *costs);

#endif
