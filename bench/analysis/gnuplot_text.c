#include "bench/analysis/gnuplot_text.h"

/* 1 if `byte` continues a UTF-8 character (10xxxxxx). */
static int continues(unsigned char byte) { return (byte & 0xC0) == 0x80; }

/* The length of the whole UTF-8 character of 2 to 4 bytes at `at`, 0 if
 * there is none (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF). */
static int character_length(const unsigned char *at)
{
    unsigned char lead = at[0];
    int length = lead >= 0xC2 && lead <= 0xDF   ? 2
                 : lead >= 0xE0 && lead <= 0xEF ? 3
                 : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                : 0;
    for (int i = 1; i < length; i++)
        if (!continues(at[i])) /* the string's NUL stops here too */
            return 0;
    if ((lead == 0xE0 && at[1] < 0xA0) || (lead == 0xED && at[1] > 0x9F) || (lead == 0xF0 && at[1] < 0x90) ||
        (lead == 0xF4 && at[1] > 0x8F))
        return 0;
    return length;
}

void hb_gnuplot_string(FILE *script, const char *text)
{
    const unsigned char *at = (const unsigned char *)text;
    fputc('\'', script);
    while (*at) {
        if (*at >= 0x80) {
            int length = character_length(at);
            if (length == 0) {
                fputc('?', script);
                at++;
            } else {
                fwrite(at, 1, (size_t)length, script);
                at += length;
            }
            continue;
        }
        if (*at == '\'')
            fputs("' . \"\\047\" . '", script); /* our own quote between two pieces */
        else
            fputc(*at < 0x20 || *at == 0x7F ? ' ' : *at, script);
        at++;
    }
    fputc('\'', script);
}
