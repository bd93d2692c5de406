#include "CJSONScan.h"
#include "StringRun.h"

#include <stdint.h>
#include <string.h>

// The fast path of `JSONReader` in HybridJSON, for the values nearly every screen is made of.
// It makes the entries the Swift reader makes, or gives up: it never reports an error, so
// everything an error message needs stays in one place (Swift), which reads again whatever
// this leaves to it. Tests compare the two on the samples, the conformance files and mutated
// input (`PlainValueReadingTests`), and the `json` fuzz target runs both.
//
// One loop with its position and output in locals (a recursive reader that kept them in a
// struct reloaded them after every entry it wrote, as the entries may alias them).

/// How deep containers may nest here (below the value read): bounds the stack of open
/// containers whatever `maximum_depth` says; deeper values are left to the Swift reader.
#define PLAIN_MAXIMUM_NESTING 128

#define GIVE_UP (-1)
#define NO_ROOM (-2)

static inline size_t skip_whitespace(const uint8_t *bytes, size_t count, size_t at) {
    while (at < count && (bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09)) at++;
    return at;
}

/// The offset just past the multi-byte UTF-8 character at `at`, as
/// `JSONReader.skipUTF8Character` accepts them (RFC 3629), or 0 for anything it rejects.
static size_t utf8_character_end(const uint8_t *bytes, size_t count, size_t at) {
    uint8_t lead = bytes[at];
    size_t length;
    uint8_t low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) length = 2;
    else if (lead == 0xE0) { length = 3; low = 0xA0; }
    else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) length = 3;
    else if (lead == 0xED) { length = 3; high = 0x9F; }
    else if (lead == 0xF0) { length = 4; low = 0x90; }
    else if (lead >= 0xF1 && lead <= 0xF3) length = 4;
    else if (lead == 0xF4) { length = 4; high = 0x8F; }
    else return 0;
    if (at + length > count || bytes[at + 1] < low || bytes[at + 1] > high) return 0;
    for (size_t step = 2; step < length; step++) {
        if (bytes[at + step] < 0x80 || bytes[at + step] > 0xBF) return 0;
    }
    return at + length;
}

/// The offset of the closing quote of the string without escapes whose opening quote is at
/// `at`, or 0 when it holds an escape (the Swift reader decodes those to check them), a
/// control byte or invalid UTF-8, or is not closed.
__attribute__((always_inline)) static inline size_t string_end(const uint8_t *bytes, size_t count, size_t at) {
    at++;
    while (1) {
        at = string_run_end(bytes, count, at);
        if (at >= count) return 0;
        if (bytes[at] == '"') return at;
        if (bytes[at] < 0x80) return 0;
        at = utf8_character_end(bytes, count, at);
        if (at == 0) return 0;
    }
}

/// The offset just past the integer at `at` as `JSONReader.parseNumber` reads one, its value
/// in `value`; 0 for fractions, exponents and integers past 64 bits (read as doubles there)
/// and for what is no number.
static inline size_t integer_end(const uint8_t *bytes, size_t count, size_t at, int64_t *value) {
    int negative = bytes[at] == '-';
    if (negative) at++;
    if (at >= count || bytes[at] < '0' || bytes[at] > '9') return 0;
    // Accumulated as a negative number, which reaches the minimum.
    int64_t sum = 0;
    if (bytes[at] == '0') {
        at++;
        if (at < count && bytes[at] >= '0' && bytes[at] <= '9') return 0;
    } else {
        for (; at < count && bytes[at] >= '0' && bytes[at] <= '9'; at++) {
            int64_t digit = bytes[at] - '0';
            if (sum < (INT64_MIN + digit) / 10) return 0;
            sum = sum * 10 - digit;
        }
    }
    if (at < count && (bytes[at] == '.' || bytes[at] == 'e' || bytes[at] == 'E')) return 0;
    if (!negative) {
        if (sum == INT64_MIN) return 0;
        sum = -sum;
    }
    *value = sum;
    return at;
}

ptrdiff_t hybrid_json_read_plain_value(const uint8_t *bytes, size_t count, size_t at, long depth, long maximum_depth,
                                       int defers_node_lists, HybridJSONEntry *entries, size_t capacity, size_t *used) {
    size_t i = at;
    size_t n = 0;
    // The open containers: their entries and how many items or members each has so far.
    size_t open[PLAIN_MAXIMUM_NESTING];
    uint32_t counts[PLAIN_MAXIMUM_NESTING];
    int top = -1;
    ptrdiff_t result = GIVE_UP;

#define APPEND(TAG, OFFSET, PAYLOAD) do { \
        if (n == capacity) { result = NO_ROOM; goto done; } \
        entries[n].tag = (TAG); entries[n].count = 0; entries[n].offset = (int64_t)(OFFSET); entries[n].payload = (PAYLOAD); \
        n++; \
    } while (0)

value:
    if (i >= count) goto done;
    switch (bytes[i]) {
    case '{':
    case '[': {
        int is_object = bytes[i] == '{';
        // The value's own containers are one deeper than it; each open one adds one more.
        if (top + 1 >= PLAIN_MAXIMUM_NESTING || depth + top + 2 > maximum_depth) goto done;
        APPEND(is_object ? HYBRID_JSON_TAG_OBJECT : HYBRID_JSON_TAG_ARRAY, i, 0);
        top++;
        open[top] = n - 1;
        counts[top] = 0;
        i = skip_whitespace(bytes, count, i + 1);
        if (i < count && bytes[i] == (is_object ? '}' : ']')) {
            i++;
            goto close;
        }
        if (is_object) goto key;
        goto value;
    }
    case '"': {
        size_t end = string_end(bytes, count, i);
        if (end == 0) goto done;
        APPEND(HYBRID_JSON_TAG_STRING, i, (int64_t)end);
        i = end + 1;
        goto after_value;
    }
    case 't':
    case 'f':
    case 'n': {
        static const struct { char text[6]; uint8_t length, tag; } words[] = {
            {"true", 4, HYBRID_JSON_TAG_TRUE}, {"false", 5, HYBRID_JSON_TAG_FALSE}, {"null", 4, HYBRID_JSON_TAG_NULL},
        };
        const int which = bytes[i] == 't' ? 0 : bytes[i] == 'f' ? 1 : 2;
        const size_t length = words[which].length;
        if (i + length > count || memcmp(bytes + i, words[which].text, length) != 0) goto done;
        APPEND(words[which].tag, i, 0);
        i += length;
        goto after_value;
    }
    default: {
        if (bytes[i] != '-' && (bytes[i] < '0' || bytes[i] > '9')) goto done;
        int64_t number = 0;
        size_t end = integer_end(bytes, count, i, &number);
        if (end == 0) goto done;
        APPEND(HYBRID_JSON_TAG_INTEGER, i, number);
        i = end;
        goto after_value;
    }
    }

key: {
        if (i >= count || bytes[i] != '"') goto done;
        size_t end = string_end(bytes, count, i);
        if (end == 0) goto done;
        APPEND(HYBRID_JSON_TAG_STRING, i, (int64_t)end);
        // A node list, which the Swift reader may skim past when it defers them.
        int is_children = end - i - 1 == 8 && memcmp(bytes + i + 1, "children", 8) == 0;
        i = skip_whitespace(bytes, count, end + 1);
        if (i >= count || bytes[i] != ':') goto done;
        i = skip_whitespace(bytes, count, i + 1);
        if (defers_node_lists && is_children && i < count && bytes[i] == '[') goto done;
        goto value;
    }

after_value:
    if (top < 0) {
        result = (ptrdiff_t)i;
        goto done;
    }
    counts[top]++;
    i = skip_whitespace(bytes, count, i);
    if (i >= count) goto done;
    {
        int is_object = entries[open[top]].tag == HYBRID_JSON_TAG_OBJECT;
        uint8_t separator = bytes[i++];
        if (separator == ',') {
            i = skip_whitespace(bytes, count, i);
            if (is_object) goto key;
            goto value;
        }
        if (separator != (is_object ? '}' : ']')) goto done;
    }

close:
    entries[open[top]].count = counts[top];
    entries[open[top]].payload = (int64_t)n;
    top--;
    goto after_value;

done:
#undef APPEND
    *used = n;
    return result;
}
