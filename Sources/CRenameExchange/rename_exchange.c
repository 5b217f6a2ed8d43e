#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include "CRenameExchange.h"

int nb_rename_exchange(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}
