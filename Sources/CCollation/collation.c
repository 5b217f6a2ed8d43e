#include "collation.h"
#include <unicode/ucol.h>

void *noticeboard_collator_open(const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator = ucol_open(locale, &status);
    if (U_FAILURE(status)) return NULL;
    ucol_setStrength(collator, UCOL_PRIMARY);
    ucol_setAttribute(collator, UCOL_NUMERIC_COLLATION, UCOL_ON, &status);
    if (U_FAILURE(status)) {
        ucol_close(collator);
        return NULL;
    }
    return collator;
}

int32_t noticeboard_sort_key(const void *collator, const uint16_t *text, int32_t length, uint8_t *key, int32_t capacity) {
    return ucol_getSortKey((const UCollator *)collator, (const UChar *)text, length, key, capacity);
}

void noticeboard_collator_close(void *collator) {
    ucol_close((UCollator *)collator);
}
