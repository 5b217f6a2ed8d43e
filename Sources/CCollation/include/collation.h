#ifndef NOTICEBOARD_COLLATION_H
#define NOTICEBOARD_COLLATION_H
#include <stdint.h>

// ICU's collator behind plain C types: Foundation on Linux carries its own ICU, whose headers clash with
// Debian's when both are imported into Swift, so only this file includes <unicode/ucol.h>.

/// A collator for a locale ("en_IE", "pl") comparing at primary strength (case and accents ignored, the
/// locale's own letters such as Polish ł kept apart where the locale says so), digits compared as numbers.
/// NULL when ICU cannot open one.
void *noticeboard_collator_open(const char *locale);

/// Writes the sort key of `text` (UTF-16) into `key` and returns its full length, which may be more than
/// `capacity` (then call again with a larger buffer). Safe to call from many threads on one collator.
int32_t noticeboard_sort_key(const void *collator, const uint16_t *text, int32_t length, uint8_t *key, int32_t capacity);

void noticeboard_collator_close(void *collator);

#endif
