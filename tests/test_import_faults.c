/* The importer's failure classes (import.csv's failure_class column,
 * docs/importer.md): kept apart from tests/test_import.c, whose kernel
 * signature header and the build outcome's (through the manifest) both
 * define hb_kernel_param. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/import/failure_class.h"
#include "tests/test_registry.h"

/* A failed build's class: a timeout, a toolkit API change (naming the API,
 * found in the first error line or anywhere in the log), a compile error. */
static void failure_class_names_the_changed_api(void **state)
{
    (void)state;
    hb_failure_class c;
    hb_build_outcome o = {.built = 0, .step = "compile",
                          .first_error = "128_64_64.cu(212): error: no suitable constructor exists to convert from "
                                         "\"int\" to \"cudaMemLocation\""};
    hb_failure_classify(&o, NULL, &c);
    assert_string_equal(c.name, "toolkit-api-change");
    assert_non_null(strstr(c.api, "cudaMemPrefetchAsync"));
    /* the API change is the third error of the log, the first is another */
    char dir[] = "/tmp/hb_import_XXXXXX", log[256];
    assert_non_null(mkdtemp(dir));
    snprintf(log, sizeof log, "%s/build.log", dir);
    FILE *f = fopen(log, "w");
    assert_non_null(f);
    fputs("$ nvcc ...\nx.cu(1): warning: unused\nx.cu(5): error: expected a \";\"\n"
          "x.cu(9): error: class \"cudaDeviceProp\" has no member \"clockRate\"\n", f);
    fclose(f);
    snprintf(o.first_error, sizeof o.first_error, "x.cu(5): error: expected a \";\"");
    hb_failure_classify(&o, log, &c);
    assert_string_equal(c.name, "toolkit-api-change");
    assert_non_null(strstr(c.api, "cudaDeviceProp"));
    /* without the log: a plain compile error */
    hb_failure_classify(&o, NULL, &c);
    assert_string_equal(c.name, "compile-error");
    assert_string_equal(c.api, "");
    o.timed_out = 1;
    hb_failure_classify(&o, log, &c);
    assert_string_equal(c.name, "timeout");
    o = (hb_build_outcome){.built = 0, .step = "link", .first_error = "undefined reference to `foo'"};
    hb_failure_classify(&o, NULL, &c);
    assert_string_equal(c.name, "link-error");
    o.built = 1;
    hb_failure_classify(&o, NULL, &c);
    assert_string_equal(c.name, "");
    assert_null(hb_toolkit_api_change("error: identifier \"foo\" is undefined"));
    snprintf(log, sizeof log, "rm -rf %s", dir);
    assert_int_equal(system(log), 0);
}

hb_test_list hb_import_fault_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(failure_class_names_the_changed_api),
    };
    return HB_TEST_LIST(tests);
}
