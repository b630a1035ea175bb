/* GPU test of the reward (docs/gate.md, "Reward"): `gate --reward` with
 * --raw on the sample candidate at 64^3, its r held to a hand computation
 * from the raw samples (the speed term) and verdict.json's diff and length
 * figures, here and by scripts/reward_by_hand.sh.  Skips without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/report/raw_samples.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define SOURCE "candidates/sample_mma/hgemm_mma_pipelined.cu"

/* The only raw file of the run folder's raw/. */
static void find_raw_file(const char *run_dir, char *path, size_t size)
{
    char folder[1300];
    snprintf(folder, sizeof folder, "%.1200s/raw", run_dir);
    DIR *d = opendir(folder);
    assert_non_null(d);
    path[0] = '\0';
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".bin"))
            snprintf(path, size, "%.1300s/%.255s", folder, e->d_name);
    closedir(d);
    assert_true(path[0] != '\0');
}

/* mean over rounds of t_ref / t_cand from the raw file, on `timer` ("event" or "wall"). */
static double speed_term_from_raw(const char *path, const char *ref_name, const char *timer, size_t *rounds)
{
    hb_raw_header h;
    assert_int_equal(hb_raw_samples_read_header(path, &h), HB_OK);
    size_t ref = 0, cand = 0; /* the candidate is participant 0 */
    while (ref < h.participants && strcmp(h.names[ref], ref_name))
        ref++;
    assert_true(ref < h.participants);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, (long)h.header_bytes, SEEK_SET), 0);
    const size_t field = !strcmp(timer, "wall") ? 4 : 3; /* float32 words: event_us at 12, wall_us at 16 */
    double sum = 0;
    for (unsigned long long r = 0; r < h.rounds; r++) {
        float record[16][6];
        assert_int_equal(fread(record, 24, h.participants, f), h.participants);
        sum += (double)record[ref][field] / (double)record[cand][field];
    }
    fclose(f);
    *rounds = (size_t)h.rounds;
    return sum / (double)h.rounds;
}

static double number_at(const json_t *object, const char *key)
{
    const json_t *value = json_object_get(object, key);
    if (!json_is_number(value))
        fail_msg("verdict.json: reward.%s is not a number", key);
    return json_number_value(value);
}

static void test_gpu_reward_agrees_with_a_hand_computation(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], args[1600], run_dir[1200], verdict[1300], raw[1600 + 256];
    hb_test_make_temp_dir("hb-gpu-reward", out, sizeof out);
    snprintf(args, sizeof args, "--candidate %s/candidates/sample_mma --mnk 64,64,64 --reward 0.1,0.001 --source %s "
             "--raw --warmup-s 0.2 --time-s 1 --min-speedup -1 --autotune-cache %s/cache.tsv",
             hb_test_build_dir(), SOURCE, out);
    assert_int_equal(hb_test_run_bench("gate", args, out), 0);
    hb_test_find_run_dir(out, run_dir, sizeof run_dir);
    snprintf(verdict, sizeof verdict, "%s/verdict.json", run_dir);
    json_t *root = hb_test_load_json(verdict);
    const json_t *reward = json_object_get(json_array_get(json_object_get(root, "configs"), 0), "reward");
    assert_true(json_is_object(reward));
    struct stat info;
    assert_int_equal(stat(SOURCE, &info), 0);
    assert_true(number_at(reward, "length_bytes") == (double)info.st_size);
    assert_true(number_at(reward, "diff_checks") >= 3); /* before timing, a spot check at least, after timing */

    find_raw_file(run_dir, raw, sizeof raw);
    size_t rounds;
    const char *timer = json_string_value(json_object_get(reward, "timer"));
    const char *ref = json_string_value(json_object_get(reward, "vs_participant"));
    assert_non_null(timer);
    assert_non_null(ref);
    const double speed = speed_term_from_raw(raw, ref, timer, &rounds);
    assert_int_equal(rounds, (size_t)number_at(reward, "rounds"));
    const double by_hand = speed - 0.1 * number_at(reward, "diff_mean") - 0.001 * (double)info.st_size;
    const double r = number_at(reward, "r");
    printf("  reward at 64^3: r %.9g, by hand from raw %.9g (%zu rounds, %s vs %s)\n", r, by_hand, rounds, timer,
           ref);
    /* the raw file keeps float32 times: about 7 significant digits per ratio */
    assert_true(fabs(r - by_hand) <= 1e-5 * fabs(speed));
    json_decref(root);

    char command[2600];
    snprintf(command, sizeof command, "scripts/reward_by_hand.sh %s >%s/by_hand.txt 2>&1", run_dir, out);
    assert_int_equal(hb_test_shell(command), 0);
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_reward_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_reward_agrees_with_a_hand_computation),
    };
    return HB_TEST_LIST(tests);
}
