#include "bench/core/md_text.h"

#include <string.h>

/* Room for the longest piece one character becomes ("&amp;") and its NUL. */
#define PIECE 8

/* A control character or a space: a space in the output, a run of them one. */
static int is_blank(unsigned char c)
{
    return c == ' ' || c < 0x20 || c == 0x7f;
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int is_alnum(unsigned char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Where the escaping is in the text. */
typedef struct cursor {
    const unsigned char *start, *at;
    int written;     /* something was written: the text no longer starts a line */
    int only_digits; /* all that was written is digits: a . or ) after them would make an ordered list */
} cursor;

/* The piece one character (or a run of blanks) of plain text becomes. */
static void escape_one(cursor *m, char piece[PIECE])
{
    unsigned char c = *m->at, next = m->at[1], prev = m->at > m->start ? m->at[-1] : 0;
    int first = !m->written, ends_marker = next == 0 || is_blank(next);
    m->at++;
    piece[0] = (char)c;
    piece[1] = '\0';
    if (c == '<' || c == '>' || c == '&')
        strcpy(piece, c == '<' ? "&lt;" : c == '>' ? "&gt;" : "&amp;");
    else if (strchr("\\`*[]|#~$", c) || (c == '_' && !(is_alnum(prev) && is_alnum(next))) ||
             (first && (c == '-' || c == '+') && ends_marker) ||
             (m->only_digits && (c == '.' || c == ')') && ends_marker)) {
        piece[0] = '\\';
        piece[1] = (char)c;
        piece[2] = '\0';
    }
    m->only_digits = (first || m->only_digits) && is_digit(c);
    m->written = 1;
}

/* The next piece of the escaped text into piece[PIECE]; 0 at the end. */
static int next_piece(cursor *m, char piece[PIECE])
{
    if (is_blank(*m->at) && *m->at) {
        while (*m->at && is_blank(*m->at))
            m->at++;
        if (m->written && *m->at) { /* one space between words; none leading or trailing */
            strcpy(piece, " ");
            m->only_digits = 0;
            return 1;
        }
    }
    if (!*m->at)
        return 0;
    escape_one(m, piece);
    return 1;
}

const char *hb_md_text(const char *text, char *out, size_t size)
{
    if (!size)
        return out;
    cursor m = {(const unsigned char *)(text ? text : ""), (const unsigned char *)(text ? text : ""), 0, 0};
    char piece[PIECE];
    size_t used = 0;
    out[0] = '\0';
    while (next_piece(&m, piece)) {
        size_t length = strlen(piece);
        if (used + length + 1 > size)
            break;
        memcpy(out + used, piece, length + 1);
        used += length;
    }
    return out;
}

void hb_md_put_text(FILE *out, const char *text)
{
    cursor m = {(const unsigned char *)(text ? text : ""), (const unsigned char *)(text ? text : ""), 0, 0};
    char piece[PIECE];
    while (next_piece(&m, piece))
        fputs(piece, out);
}

/* --- code spans ------------------------------------------------------------------- */

static size_t longest_backtick_run(const char *text)
{
    size_t longest = 0, run = 0;
    for (const char *c = text; *c; c++) {
        run = *c == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    return longest;
}

/* A code span's character: control characters are spaces; in a table cell
 * GFM splits the row before it reads code spans, pairing each backslash
 * with the character after it, so every backslash is doubled and a | is \|
 * (what the span shows: the | alone, the backslashes doubled). */
static size_t code_piece(unsigned char c, hb_md_place place, char piece[PIECE])
{
    if (is_blank(c))
        c = ' ';
    if (place == HB_MD_IN_TABLE && (c == '|' || c == '\\')) {
        piece[0] = '\\';
        piece[1] = (char)c;
        return 2;
    }
    piece[0] = (char)c;
    return 1;
}

const char *hb_md_code(const char *text, hb_md_place place, char *out, size_t size)
{
    text = text ? text : "";
    size_t length = strlen(text), fence = longest_backtick_run(text) + 1;
    int pad = length == 0 || text[0] == '`' || text[length - 1] == '`' || is_blank((unsigned char)text[0]) ||
              is_blank((unsigned char)text[length - 1]);
    size_t frame = 2 * fence + (length ? 2 * (size_t)pad : 1); /* an empty text: "` `" */
    if (size < frame + 1) {
        if (size)
            out[0] = '\0';
        return out;
    }
    size_t used = 0;
    memset(out, '`', fence);
    used += fence;
    if (pad)
        out[used++] = ' ';
    char piece[PIECE];
    for (const char *c = text; *c; c++) {
        size_t n = code_piece((unsigned char)*c, place, piece);
        if (used + n + frame - fence - (size_t)pad + 1 > size)
            break; /* room kept for the closing pad and fence */
        memcpy(out + used, piece, n);
        used += n;
    }
    if (pad && length)
        out[used++] = ' ';
    memset(out + used, '`', fence);
    used += fence;
    out[used] = '\0';
    return out;
}

const char *hb_md_link_target(const char *path, char *out, size_t size)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t used = 0;
    if (!size)
        return out;
    for (const unsigned char *c = (const unsigned char *)(path ? path : ""); *c; c++) {
        int plain = is_alnum(*c) || strchr("-._~/", *c);
        size_t n = plain ? 1 : 3;
        if (used + n + 1 > size)
            break;
        if (plain) {
            out[used++] = (char)*c;
        } else {
            out[used++] = '%';
            out[used++] = hex[*c >> 4];
            out[used++] = hex[*c & 15];
        }
    }
    out[used] = '\0';
    return out;
}
