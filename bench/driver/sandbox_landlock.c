#define _GNU_SOURCE /* syscall, O_PATH */
#include "bench/driver/sandbox_landlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench/core/diag.h"

/* Rights and flags younger than the C library's headers. */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#endif
#ifndef LANDLOCK_RESTRICT_SELF_TSYNC
#define LANDLOCK_RESTRICT_SELF_TSYNC (1U << 3) /* ABI 8 */
#endif

int hb_landlock_abi(void)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0;
}

/* One entry of "/" whose tree stays writable; /proc itself (or a link into it) and an entry that cannot be
 * opened (a dangling link) are left out. */
static hb_status allow_beneath(int ruleset, const char *name, dev_t proc_dev, uint64_t rights)
{
    char path[300];
    snprintf(path, sizeof path, "/%s", name);
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0)
        return HB_OK;
    struct stat st;
    hb_status status = HB_OK;
    if (fstat(fd, &st) == 0 && st.st_dev != proc_dev) {
        struct landlock_path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};
        if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0)
            status = hb_fail(HB_ERR_INTERNAL, "Landlock refused the rule for %s: %s; run with --sandbox off", path,
                             strerror(errno));
    }
    close(fd);
    return status;
}

static hb_status allow_all_but_proc(int ruleset, uint64_t rights)
{
    struct stat proc;
    if (stat("/proc", &proc) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot stat /proc (%s): the sandbox needs it mounted; run with --sandbox off",
                       strerror(errno));
    DIR *root = opendir("/");
    if (!root)
        return hb_fail(HB_ERR_INTERNAL, "cannot list / for the sandbox's Landlock rules: %s; run with --sandbox off",
                       strerror(errno));
    hb_status status = HB_OK;
    const struct dirent *entry;
    while (status == HB_OK && (entry = readdir(root)))
        if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..") && strcmp(entry->d_name, "proc"))
            status = allow_beneath(ruleset, entry->d_name, proc.st_dev, rights);
    closedir(root);
    return status;
}

hb_status hb_landlock_apply(int *abi_out)
{
    const int abi = hb_landlock_abi();
    *abi_out = 0;
    if (abi == 0)
        return HB_OK;
    const uint64_t rights = LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0);
    struct landlock_ruleset_attr attr = {.handled_access_fs = rights};
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0)
        return hb_fail(HB_ERR_INTERNAL, "Landlock (ABI %d) refused a ruleset: %s; run with --sandbox off", abi,
                       strerror(errno));
    hb_status status = allow_all_but_proc(ruleset, rights);
    /* Every thread where the ABI allows it; a kernel that refuses the flag binds this thread and its children. */
    const unsigned flags = abi >= 8 ? LANDLOCK_RESTRICT_SELF_TSYNC : 0;
    if (status == HB_OK && syscall(SYS_landlock_restrict_self, ruleset, flags) != 0 &&
        !(flags && errno == EINVAL && syscall(SYS_landlock_restrict_self, ruleset, 0) == 0))
        status = hb_fail(HB_ERR_INTERNAL, "Landlock (ABI %d) refused to restrict this process: %s; run with "
                         "--sandbox off", abi, strerror(errno));
    close(ruleset);
    if (status == HB_OK)
        *abi_out = abi;
    return status;
}
