/* One field of a results table, independent of the format it is written in:
 * empty (the figure does not apply, or was not measured), a number, or a
 * text.  The column table (bench/report/summary_columns.h) yields cells; each
 * sink (summary.csv, later markdown and the paper's tables) decides how a
 * cell looks, so the figures are computed once for every format. */
#ifndef HB_CELL_H
#define HB_CELL_H

typedef enum hb_cell_kind { HB_CELL_EMPTY, HB_CELL_NUMBER, HB_CELL_TEXT } hb_cell_kind;

/* Room for a text made for the cell itself (e.g. throttle reason names),
 * as opposed to one that lives in the result record. */
#define HB_CELL_OWN_TEXT 1024

typedef struct hb_cell {
    hb_cell_kind kind;
    double number;     /* HB_CELL_NUMBER: never NaN */
    const char *text;  /* HB_CELL_TEXT: a string in the result record, or NULL for own[]; read it with hb_cell_text */
    /* Cells are returned by value: a pointer into the cell itself would dangle
     * in the copy, so a text made for the cell is found through hb_cell_text. */
    char own[HB_CELL_OWN_TEXT];
} hb_cell;

hb_cell hb_cell_empty(void);
/* NaN means "does not apply" throughout the results: it makes an empty cell. */
hb_cell hb_cell_number(double value);
/* `text` must outlive the cell (a field of the result record, a literal). */
hb_cell hb_cell_string(const char *text);
/* A text cell whose string the caller writes into own[] (NUL-terminated). */
hb_cell hb_cell_own_text(void);

/* The text of an HB_CELL_TEXT cell; "" for other kinds. */
const char *hb_cell_text(const hb_cell *cell);

#endif
