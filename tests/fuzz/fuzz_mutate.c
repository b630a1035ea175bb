/* The ways a case damages a file: bytes, lines and fields, ELF structures,
 * and the file replaced by something that is not a regular file.  Each
 * draws only from the case's generator, so a case replays exactly. */
#define _XOPEN_SOURCE 700 /* mkfifo, symlink */
#include <elf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"

static uint64_t below(hb_rng *rng, uint64_t bound)
{
    return bound ? hb_rng_below(rng, bound) : 0;
}

/* The numbers a reader of counts, offsets and figures is likeliest to get wrong. */
static const char *const numbers[] = {
    "0", "-1", "1", "2", "10", "12", "255", "256", "-0", "65535", "65536", "2147483647", "2147483648",
    "-2147483649", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "99999999999999999999", "1e308", "1.7e308", "-1.7e308", "1e-320", "nan", "inf", "-inf", "0x10", "1.5",
    "3.", ".5", "1e", "", "00000000001", "-1e-9", "1e9", "262144", "262145", "1000000000"};
#define NUMBERS (sizeof numbers / sizeof numbers[0])

static const char *const strings[] = {
    "", "\"", "\"\"", ",", "\\n", "\n", "offline", "server", "candidate", "baseline", "torch", "pass", "x,y",
    "\"a\"\"b\"", "\xef\xbb\xbf", "\xff\xfe", "\xc3\x28", "null", "{}", "[]", "/dev/zero", "../../etc/passwd",
    "64_64_64", "1_2", "sm_90", "cubin", "launcher"};
#define STRINGS (sizeof strings / sizeof strings[0])

typedef struct buffer {
    char *data;
    size_t size;
} buffer;

static int load(const char *path, buffer *b)
{
    b->data = fuzz_read_file(path, &b->size);
    return b->data != NULL;
}

static void store(const char *path, buffer *b)
{
    if (fuzz_write_file(path, b->data, b->size) != 0)
        fprintf(stderr, "hgemm-fuzz: cannot write %s\n", path);
    free(b->data);
    b->data = NULL;
}

/* Replaces bytes [at, at + length) of b by `text` (text_size bytes). */
static void splice(buffer *b, size_t at, size_t length, const char *text, size_t text_size)
{
    if (at > b->size)
        at = b->size;
    if (length > b->size - at)
        length = b->size - at;
    char *grown = malloc(b->size - length + text_size + 1);
    if (!grown)
        return;
    memcpy(grown, b->data, at);
    memcpy(grown + at, text, text_size);
    memcpy(grown + at + text_size, b->data + at + length, b->size - at - length);
    b->size = b->size - length + text_size;
    grown[b->size] = '\0';
    free(b->data);
    b->data = grown;
}

/* --- bytes ------------------------------------------------------------------------------- */

void fuzz_mutate_bytes(const char *path, hb_rng *rng, char *how, size_t how_size)
{
    buffer b;
    if (!load(path, &b))
        return;
    static const unsigned char special[] = {0, 0xff, '\n', '\r', ',', '"', '-', '9', '0', ' ', '{', '}', 0x7f, 0xef};
    size_t at = below(rng, b.size + 1);
    switch (below(rng, 9)) {
    case 0:
        if (b.size)
            b.data[at % b.size] ^= (char)(1u << below(rng, 8));
        snprintf(how, how_size, "flip a bit at %zu", at);
        break;
    case 1:
        if (b.size)
            b.data[at % b.size] = (char)special[below(rng, sizeof special)];
        snprintf(how, how_size, "a special byte at %zu", at);
        break;
    case 2: {
        char bytes[16];
        size_t n = 1 + below(rng, sizeof bytes);
        for (size_t i = 0; i < n; i++)
            bytes[i] = (char)(below(rng, 2) ? special[below(rng, sizeof special)] : below(rng, 256));
        splice(&b, at, 0, bytes, n);
        snprintf(how, how_size, "insert %zu bytes at %zu", n, at);
        break;
    }
    case 3: {
        size_t n = 1 + below(rng, 64);
        splice(&b, at, n, "", 0);
        snprintf(how, how_size, "delete %zu bytes at %zu", n, at);
        break;
    }
    case 4:
        b.size = at < b.size ? at : b.size;
        snprintf(how, how_size, "truncate to %zu bytes", b.size);
        break;
    case 5: {
        size_t n = 1 + below(rng, 256), from = below(rng, b.size + 1);
        if (from + n > b.size)
            n = b.size - from;
        char *copy = malloc(n + 1);
        if (copy) {
            memcpy(copy, b.data + from, n);
            splice(&b, at, 0, copy, n);
            free(copy);
        }
        snprintf(how, how_size, "duplicate %zu bytes from %zu at %zu", n, from, at);
        break;
    }
    case 6:
        splice(&b, b.size, 0, "garbage,\"\n{", 11);
        snprintf(how, how_size, "append garbage");
        break;
    case 7:
        splice(&b, 0, 0, "\xef\xbb\xbf", 3);
        snprintf(how, how_size, "prepend a byte-order mark");
        break;
    default:
        splice(&b, at, 0, "\0", 1);
        snprintf(how, how_size, "insert a NUL byte at %zu", at);
        break;
    }
    store(path, &b);
}

/* --- lines and fields ------------------------------------------------------------------------ */

/* The start of line `n` (0-based) of b, or b.size past the last. */
static size_t line_start(const buffer *b, size_t n)
{
    size_t at = 0;
    while (n > 0 && at < b->size) {
        const char *newline = memchr(b->data + at, '\n', b->size - at);
        at = newline ? (size_t)(newline - b->data) + 1 : b->size;
        n--;
    }
    return at;
}

static size_t line_count(const buffer *b)
{
    size_t lines = 0;
    for (size_t i = 0; i < b->size; i++)
        lines += b->data[i] == '\n';
    return lines + (b->size && b->data[b->size - 1] != '\n');
}

/* A number token (digits, with a sign, point or exponent) at or after a random place. */
static int find_number(const buffer *b, hb_rng *rng, size_t *start, size_t *length)
{
    size_t at = below(rng, b->size + 1);
    for (size_t tries = 0; tries < 2; tries++, at = 0) {
        for (size_t i = at; i < b->size; i++) {
            if (b->data[i] < '0' || b->data[i] > '9')
                continue;
            size_t s = i, e = i;
            while (s > 0 && strchr("0123456789.-+eE", b->data[s - 1]))
                s--;
            while (e < b->size && strchr("0123456789.-+eE", b->data[e]))
                e++;
            *start = s;
            *length = e - s;
            return 1;
        }
    }
    return 0;
}

/* A field: the text between two of , " : { } [ ] or line ends. */
static int find_field(const buffer *b, hb_rng *rng, size_t *start, size_t *length)
{
    if (!b->size)
        return 0;
    size_t at = below(rng, b->size), s = at, e = at;
    const char *stops = ",\":{}[]\n";
    while (s > 0 && !strchr(stops, b->data[s - 1]))
        s--;
    while (e < b->size && !strchr(stops, b->data[e]))
        e++;
    *start = s;
    *length = e - s;
    return 1;
}

static void swap_lines(buffer *b, size_t x, size_t y)
{
    if (x > y) {
        size_t t = x;
        x = y;
        y = t;
    }
    size_t xs = line_start(b, x), xe = line_start(b, x + 1), ys = line_start(b, y), ye = line_start(b, y + 1);
    if (x == y || xe > ys || ye <= ys)
        return;
    char *copy = malloc(b->size + 1);
    if (!copy)
        return;
    size_t used = 0;
    memcpy(copy + used, b->data, xs), used += xs;
    memcpy(copy + used, b->data + ys, ye - ys), used += ye - ys;
    if ((ye - ys) && b->data[ye - 1] != '\n')
        copy[used++] = '\n';
    memcpy(copy + used, b->data + xe, ys - xe), used += ys - xe;
    memcpy(copy + used, b->data + xs, xe - xs), used += xe - xs;
    memcpy(copy + used, b->data + ye, b->size - ye), used += b->size - ye;
    free(b->data);
    b->data = copy;
    b->size = used; /* one more than before when the last line gained its newline */
}

void fuzz_mutate_lines(const char *path, hb_rng *rng, char *how, size_t how_size)
{
    buffer b;
    if (!load(path, &b))
        return;
    size_t lines = line_count(&b), n = below(rng, lines ? lines : 1), start, length;
    switch (below(rng, 9)) {
    case 0: {
        size_t m = below(rng, lines ? lines : 1);
        swap_lines(&b, n, below(rng, 3) ? (n + 1 < lines ? n + 1 : m) : m);
        snprintf(how, how_size, "swap line %zu with another", n + 1);
        break;
    }
    case 1:
        splice(&b, line_start(&b, n), line_start(&b, n + 1) - line_start(&b, n), "", 0);
        snprintf(how, how_size, "delete line %zu", n + 1);
        break;
    case 2: {
        size_t s = line_start(&b, n), e = line_start(&b, n + 1);
        char *copy = malloc(e - s + 2);
        if (copy) {
            memcpy(copy, b.data + s, e - s);
            splice(&b, e, 0, copy, e - s);
            free(copy);
        }
        snprintf(how, how_size, "duplicate line %zu", n + 1);
        break;
    }
    case 3:
        b.size = line_start(&b, n);
        snprintf(how, how_size, "cut at the end of line %zu", n);
        break;
    case 4: {
        size_t s = line_start(&b, n), e = line_start(&b, n + 1);
        b.size = s + below(rng, e - s + 1);
        snprintf(how, how_size, "cut inside line %zu", n + 1);
        break;
    }
    case 5:
    case 6:
        if (find_number(&b, rng, &start, &length)) {
            const char *value = numbers[below(rng, NUMBERS)];
            splice(&b, start, length, value, strlen(value));
            snprintf(how, how_size, "a number at %zu becomes '%s'", start, value);
        }
        break;
    case 7:
        if (find_field(&b, rng, &start, &length)) {
            const char *value = strings[below(rng, STRINGS)];
            splice(&b, start, length, value, strlen(value));
            snprintf(how, how_size, "a field at %zu becomes '%s'", start, value);
        }
        break;
    default: {
        size_t e = line_start(&b, n + 1);
        if (e > 0 && e <= b.size && b.data[e - 1] == '\n')
            splice(&b, e - 1, 1, "", 0);
        snprintf(how, how_size, "join line %zu with the next", n + 1);
        break;
    }
    }
    store(path, &b);
}

/* --- ELF ---------------------------------------------------------------------------------------- */

static uint64_t interesting(hb_rng *rng, uint64_t size)
{
    const uint64_t values[] = {0, 1, 7, 8, 64, size - 1, size, size + 1, size / 2, 0x7fffffff, 0xffffffff,
                               0x100000000ULL, 0x7fffffffffffffffULL, 0xffffffffffffffffULL, 0x8000000000000000ULL};
    return below(rng, 4) ? values[below(rng, sizeof values / sizeof values[0])] : hb_rng_next(rng);
}

/* Writes `width` bytes of `value` at `at` if they lie in the buffer. */
static void put(buffer *b, uint64_t at, uint64_t value, size_t width)
{
    if (at < b->size && width <= b->size - at)
        memcpy(b->data + at, &value, width);
}

static void mutate_header(buffer *b, hb_rng *rng, char *how, size_t how_size)
{
    static const struct { const char *name; size_t at, width; } fields[] = {
        {"e_shoff", offsetof(Elf64_Ehdr, e_shoff), 8},       {"e_phoff", offsetof(Elf64_Ehdr, e_phoff), 8},
        {"e_shnum", offsetof(Elf64_Ehdr, e_shnum), 2},       {"e_phnum", offsetof(Elf64_Ehdr, e_phnum), 2},
        {"e_shentsize", offsetof(Elf64_Ehdr, e_shentsize), 2}, {"e_phentsize", offsetof(Elf64_Ehdr, e_phentsize), 2},
        {"e_shstrndx", offsetof(Elf64_Ehdr, e_shstrndx), 2}, {"e_machine", offsetof(Elf64_Ehdr, e_machine), 2},
        {"e_type", offsetof(Elf64_Ehdr, e_type), 2},         {"ei_class", EI_CLASS, 1},
        {"ei_data", EI_DATA, 1}};
    size_t f = below(rng, sizeof fields / sizeof fields[0]);
    put(b, fields[f].at, interesting(rng, b->size), fields[f].width);
    snprintf(how, how_size, "ELF header %s", fields[f].name);
}

static void mutate_table_entry(buffer *b, hb_rng *rng, char *how, size_t how_size)
{
    Elf64_Ehdr h;
    if (b->size < sizeof h)
        return;
    memcpy(&h, b->data, sizeof h);
    const int sections = below(rng, 3) != 0 || h.e_phnum == 0;
    uint64_t count = sections ? h.e_shnum : h.e_phnum, table = sections ? h.e_shoff : h.e_phoff;
    size_t entry = sections ? sizeof(Elf64_Shdr) : sizeof(Elf64_Phdr);
    if (!count)
        return;
    uint64_t i = below(rng, count), field = below(rng, entry / 8) * 8;
    put(b, table + i * entry + field, interesting(rng, b->size), below(rng, 2) ? 8 : 4);
    snprintf(how, how_size, "%s %llu, bytes %llu", sections ? "section header" : "program header",
             (unsigned long long)i, (unsigned long long)field);
}

/* A symbol of the first symbol table: its name, section, size or type. */
static void mutate_symbol(buffer *b, hb_rng *rng, char *how, size_t how_size)
{
    Elf64_Ehdr h;
    if (b->size < sizeof h)
        return;
    memcpy(&h, b->data, sizeof h);
    for (uint64_t i = 0; i < h.e_shnum; i++) {
        Elf64_Shdr sh;
        uint64_t at = h.e_shoff + i * sizeof sh;
        if (at > b->size || sizeof sh > b->size - at)
            return;
        memcpy(&sh, b->data + at, sizeof sh);
        if (sh.sh_type != SHT_SYMTAB || sh.sh_size < 2 * sizeof(Elf64_Sym))
            continue;
        uint64_t k = 1 + below(rng, sh.sh_size / sizeof(Elf64_Sym) - 1);
        uint64_t field = below(rng, 3) == 0 ? 0 : below(rng, 2) ? 6 : 16; /* st_name, st_shndx, st_size */
        put(b, sh.sh_offset + k * sizeof(Elf64_Sym) + field, interesting(rng, b->size), field == 6 ? 2 : 4);
        snprintf(how, how_size, "symbol %llu, byte %llu", (unsigned long long)k, (unsigned long long)field);
        return;
    }
}

/* 65,535 section headers: the first one's copies. */
static void many_sections(buffer *b, char *how, size_t how_size)
{
    Elf64_Ehdr h;
    if (b->size < sizeof h)
        return;
    memcpy(&h, b->data, sizeof h);
    if (h.e_shoff > b->size)
        return;
    /* the headers copied from are those the file holds whole (an earlier damage may have cut it, or raised e_shnum) */
    const size_t whole = (b->size - h.e_shoff) / sizeof(Elf64_Shdr), from = whole < h.e_shnum ? whole : h.e_shnum;
    if (from < 2)
        return;
    const size_t count = 65535, bytes = count * sizeof(Elf64_Shdr);
    char *table = malloc(bytes);
    if (!table)
        return;
    for (size_t i = 0; i < count; i++)
        memcpy(table + i * sizeof(Elf64_Shdr), b->data + h.e_shoff + (i % from) * sizeof(Elf64_Shdr),
               sizeof(Elf64_Shdr));
    h.e_shoff = b->size;
    h.e_shnum = (Elf64_Half)count;
    memcpy(b->data, &h, sizeof h);
    splice(b, b->size, 0, table, bytes);
    free(table);
    snprintf(how, how_size, "65535 section headers");
}

void fuzz_mutate_elf(const char *path, hb_rng *rng, char *how, size_t how_size)
{
    buffer b;
    if (!load(path, &b))
        return;
    switch (below(rng, 10)) {
    case 0:
    case 1:
        mutate_header(&b, rng, how, how_size);
        break;
    case 2:
    case 3:
    case 4:
        mutate_table_entry(&b, rng, how, how_size);
        break;
    case 5:
    case 6:
        mutate_symbol(&b, rng, how, how_size);
        break;
    case 7:
        b.size = below(rng, b.size + 1);
        snprintf(how, how_size, "truncate to %zu bytes", b.size);
        break;
    case 8:
        for (int i = 0; i < 8 && b.size; i++)
            b.data[below(rng, b.size)] ^= (char)(1u << below(rng, 8));
        snprintf(how, how_size, "flip 8 bits");
        break;
    default:
        if (below(rng, 8) == 0)
            many_sections(&b, how, how_size);
        else
            mutate_header(&b, rng, how, how_size);
        break;
    }
    store(path, &b);
}

/* --- not a regular file ----------------------------------------------------------------------- */

void fuzz_replace_file(const char *path, hb_rng *rng, char *how, size_t how_size)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (unlink(path) != 0 && rmdir(path) != 0)
        fuzz_remove_tree(path);
    int failed = 0;
    switch (below(rng, 7)) {
    case 0:
        snprintf(how, how_size, "delete it");
        break;
    case 1:
        failed = mkfifo(path, 0644);
        snprintf(how, how_size, "a FIFO");
        break;
    case 2:
        failed = mkdir(path, 0755);
        snprintf(how, how_size, "a folder");
        break;
    case 3:
        failed = symlink(name, path);
        snprintf(how, how_size, "a symbolic-link loop");
        break;
    case 4:
        failed = symlink("no-such-file", path);
        snprintf(how, how_size, "a link to nothing");
        break;
    case 5:
        failed = symlink("/dev/zero", path);
        snprintf(how, how_size, "a link to /dev/zero");
        break;
    default:
        failed = fuzz_write_file(path, "", 0);
        snprintf(how, how_size, "an empty file");
        break;
    }
    if (failed)
        fprintf(stderr, "hgemm-fuzz: cannot make %s (%s)\n", path, how);
}

void fuzz_damage(const char *path, int kind, hb_rng *rng, char *how, size_t how_size)
{
    uint64_t way = below(rng, 20);
    if (way == 0) {
        fuzz_replace_file(path, rng, how, how_size);
        return;
    }
    /* one damage, sometimes two or three on top of each other */
    size_t rounds = below(rng, 4) == 0 ? 2 + below(rng, 2) : 1, used = 0;
    for (size_t r = 0; r < rounds; r++) {
        char one[160] = "";
        if (kind == FUZZ_ELF && below(rng, 4) != 0)
            fuzz_mutate_elf(path, rng, one, sizeof one);
        else if (kind != FUZZ_TEXT && below(rng, 3) != 0)
            fuzz_mutate_lines(path, rng, one, sizeof one);
        else
            fuzz_mutate_bytes(path, rng, one, sizeof one);
        int n = snprintf(how + used, how_size - used, "%s%s", r ? "; " : "", one);
        used += n > 0 && (size_t)n < how_size - used ? (size_t)n : 0;
    }
}
