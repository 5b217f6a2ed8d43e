#ifndef CRENAME_EXCHANGE_H
#define CRENAME_EXCHANGE_H

/// Atomically swaps two paths on the same filesystem (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise.
int nb_rename_exchange(const char *first, const char *second);

#endif
