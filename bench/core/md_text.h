/* Text that came from elsewhere (a result folder, a candidate, a published
 * file, a command line) made plain text inside Markdown: report.md,
 * compare.md and reproduce's summary.md show it as it is, and it cannot
 * change the document around it (docs/reports.md, "Text from a folder in
 * the outputs").
 *
 * As plain text (hb_md_text, hb_md_put_text):
 *  - every line break, tab or other control character is a space, runs of
 *    spaces are one, and none leads or trails: the text stays on its line,
 *    so it can neither start a heading, a list or a quote nor end a table
 *    row;
 *  - < > & are the HTML entities &lt; &gt; &amp;: no tag, comment or
 *    entity of the text reaches a renderer as HTML;
 *  - \ ` * [ ] | # ~ $ get a backslash, and so does _ unless it sits
 *    between two letters or digits (snake_case_names stay readable; there
 *    CommonMark never reads one as emphasis): no code span, emphasis,
 *    link, image, table cell, heading, strike-through or math;
 *  - a leading - or + before a space, or a leading number's . or ), gets
 *    a backslash: the text cannot open a list where it starts a line.
 * A renderer shows the text unchanged (bar the spaces).
 *
 * As a code span (hb_md_code): fenced by one backtick more than the
 * longest run of backticks inside, and padded by a space where the text
 * starts or ends with a backtick or a space, so nothing inside can close
 * it; control characters are spaces; in a table cell a | is \| (GFM reads
 * the cell boundaries before the code span). */
#ifndef HB_MD_TEXT_H
#define HB_MD_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* `text` (NULL: "") as Markdown plain text into out[size]; cut short, if it
 * must be, between two escaped characters, never inside one.  Returns out. */
const char *hb_md_text(const char *text, char *out, size_t size);

/* The same, written to `out`, however long. */
void hb_md_put_text(FILE *out, const char *text);

/* Where a code span goes: a table cell needs its | escaped, other text not. */
typedef enum hb_md_place { HB_MD_IN_TEXT, HB_MD_IN_TABLE } hb_md_place;

/* `text` (NULL: "") as a code span, fence included, into out[size]; a
 * text too long is cut short inside the fence.  Returns out. */
const char *hb_md_code(const char *text, hb_md_place place, char *out, size_t size);

/* A path as a link's destination: every byte other than a letter, a digit
 * or one of - . _ ~ / percent-encoded, so ( ) < > spaces and line breaks
 * cannot end it.  Returns out. */
const char *hb_md_link_target(const char *path, char *out, size_t size);

#endif
