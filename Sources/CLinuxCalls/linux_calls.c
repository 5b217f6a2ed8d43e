#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include "CLinuxCalls.h"

int nb_rename_exchange(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}

int nb_open_path(const char *path) {
    return open(path, O_PATH | O_CLOEXEC);
}
