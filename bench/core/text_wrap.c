#include "bench/core/text_wrap.h"

#include <string.h>

void hb_print_wrapped(FILE *out, const char *text, int first_column, int indent, int width)
{
    int column = first_column, at_line_start = 1;
    while (*text) {
        text += strspn(text, " ");
        int word = (int)strcspn(text, " ");
        if (word == 0)
            break;
        if (!at_line_start && column + 1 + word > width) {
            fprintf(out, "\n%*s", indent, "");
            column = indent;
            at_line_start = 1;
        }
        fprintf(out, "%s%.*s", at_line_start ? "" : " ", word, text);
        column += word + !at_line_start;
        at_line_start = 0;
        text += word;
    }
    fputc('\n', out);
}
