/* Text that is not ours (a GPU or candidate name from a result folder's
 * env.json) written into a gnuplot script so that gnuplot takes it as a
 * string and nothing else (docs/reports.md, "Figures").
 *
 * gnuplot interprets a script line in passes, each with its own idea of
 * quoting (gnuplot 5.4, command.c and scanner.c): a line break ends a
 * command; `@name` expands a string variable wherever the macro pass sees
 * neither single nor double quotes open, and that pass flips "in single
 * quotes" at every ' it meets, even one inside double quotes; backquotes run
 * a shell command anywhere but inside single quotes; a double-quoted string
 * reads backslash escapes.  A single-quoted string is literal, but its
 * escape for a quote, '', is misread by the scanner after the opening quote
 * or after another '' ('''' and 'a''''b' end early).  So a text goes in as
 * single-quoted pieces that hold no quote at all, each quote of the text
 * between them as our own "\047" (the octal escape for ', with no ' in it):
 * it's -> 'it' . "\047" . 's'.  Every pass then agrees that the text's
 * bytes lie inside single quotes.  A title that needs a line break joins
 * such strings with our own "\n". */
#ifndef HB_GNUPLOT_TEXT_H
#define HB_GNUPLOT_TEXT_H

#include <stdio.h>

/* Writes `text` to `script` as a gnuplot string expression of single-quoted
 * pieces (above) whose value is the text, with each control character (a
 * line break, a tab, DEL) a space and each byte that is not part of a whole
 * UTF-8 character a '?' (gnuplot copies a title's bytes into the SVG as they
 * are, and one such byte makes the SVG unreadable XML).  Usable wherever
 * gnuplot takes a string expression: `name = EXPRESSION`, `set output`. */
void hb_gnuplot_string(FILE *script, const char *text);

#endif
