/* make-results FOLDER COUNT SEED: a result folder of COUNT configurations of
 * the paper's grid, each in offline and server mode (11 rows each in
 * summary.csv, written by the run's own writer), 5 % of them failed, and an
 * env.json.  For scripts/bench_report.sh; tests/result_fixture.c makes them. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/result_fixture.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: make-results FOLDER COUNT SEED\n");
        return 2;
    }
    const hb_mode modes[] = {HB_MODE_OFFLINE, HB_MODE_SERVER};
    hb_fixture fixture;
    hb_status status = hb_fixture_make(strtoull(argv[3], NULL, 10), strtoul(argv[2], NULL, 10), modes, 2, 0.05,
                                       &fixture);
    if (status == HB_OK)
        status = hb_fixture_write_run(&fixture, 0, fixture.count, argv[1], "NVIDIA H100 80GB HBM3 (generated)");
    hb_fixture_free(&fixture);
    return status;
}
