#include "bench/import/kernel_signature.h"

#include <ctype.h>
#include <string.h>

/* Integer types by their demangled spelling, with their size in bytes on the
 * LP64 hosts CUDA supports. */
static const struct {
    const char *name;
    hb_param_class cls;
    size_t size;
} integer_types[] = {
    {"int", HB_PARAM_INT32, 4},           {"unsigned int", HB_PARAM_INT32, 4},
    {"unsigned", HB_PARAM_INT32, 4},      {"long", HB_PARAM_INT64, 8},
    {"unsigned long", HB_PARAM_INT64, 8}, {"long long", HB_PARAM_INT64, 8},
    {"unsigned long long", HB_PARAM_INT64, 8},
};

static void classify(hb_kernel_param *p)
{
    size_t len = strlen(p->type);
    p->cls = HB_PARAM_OTHER;
    p->size = 0;
    if (len > 0 && p->type[len - 1] == '*') {
        p->cls = HB_PARAM_POINTER;
        p->size = sizeof(void *);
        return;
    }
    for (size_t i = 0; i < sizeof integer_types / sizeof integer_types[0]; i++)
        if (strcmp(p->type, integer_types[i].name) == 0) {
            p->cls = integer_types[i].cls;
            p->size = integer_types[i].size;
            return;
        }
}

/* Copies [begin, end) trimmed into the parameter's type. */
static void set_type(hb_kernel_param *p, const char *begin, const char *end)
{
    while (begin < end && isspace((unsigned char)*begin))
        begin++;
    while (end > begin && isspace((unsigned char)end[-1]))
        end--;
    size_t len = (size_t)(end - begin);
    if (len >= sizeof p->type)
        len = sizeof p->type - 1;
    memcpy(p->type, begin, len);
    p->type[len] = '\0';
    classify(p);
}

/* The '(' that opens the top-level parameter list: the one matching the
 * last ')' of the name. */
static const char *parameter_list_open(const char *text, const char **close)
{
    const char *end = text + strlen(text);
    while (end > text && isspace((unsigned char)end[-1]))
        end--;
    if (end == text || end[-1] != ')')
        return NULL;
    *close = end - 1;
    int depth = 0;
    for (const char *p = end - 1; p >= text; p--) {
        if (*p == ')')
            depth++;
        else if (*p == '(' && --depth == 0)
            return p;
    }
    return NULL;
}

int hb_kernel_signature_parse(const char *demangled, hb_kernel_signature *out)
{
    memset(out, 0, sizeof *out);
    const char *close = NULL;
    const char *open = parameter_list_open(demangled, &close);
    if (!open)
        return -1;
    const char *start = open + 1;
    int depth = 0; /* inside <...> or (...) of a type */
    int blank = 1;
    for (const char *p = start; p <= close; p++) {
        int at_end = p == close;
        if (!at_end && (*p == '<' || *p == '(' || *p == '['))
            depth++;
        else if (!at_end && (*p == '>' || *p == ')' || *p == ']'))
            depth--;
        if (!at_end && !isspace((unsigned char)*p))
            blank = 0;
        if (at_end || (*p == ',' && depth == 0)) {
            if (at_end && blank && out->count == 0)
                break; /* "()": no parameters */
            if (out->count == HB_SIGNATURE_MAX_PARAMS)
                return -1;
            set_type(&out->params[out->count++], start, p);
            start = p + 1;
        }
    }
    out->plain = 1;
    for (size_t i = 0; i < out->count; i++)
        if (out->params[i].cls == HB_PARAM_OTHER)
            out->plain = 0;
    if (out->count == 1 && strcmp(out->params[0].type, "void") == 0)
        out->count = 0;
    return 0;
}
