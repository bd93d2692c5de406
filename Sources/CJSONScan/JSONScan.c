#include "CJSONScan.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void hybrid_json_block_masks_portable(const uint8_t *block, uint64_t *quotes, uint64_t *backslashes,
                                      uint64_t *opens, uint64_t *closes) {
    uint64_t q = 0, b = 0, o = 0, c = 0;
    for (int i = 0; i < 64; i++) {
        uint64_t bit = 1ULL << i;
        switch (block[i]) {
        case '"': q |= bit; break;
        case '\\': b |= bit; break;
        case '[': case '{': o |= bit; break;
        case ']': case '}': c |= bit; break;
        default: break;
        }
    }
    *quotes = q;
    *backslashes = b;
    *opens = o;
    *closes = c;
}

void hybrid_json_block_masks(const uint8_t *block, uint64_t *quotes, uint64_t *backslashes,
                             uint64_t *opens, uint64_t *closes) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    // `[` and `{` differ only in the 0x20 bit, as do `]` and `}`; no other byte becomes
    // `{` or `}` with it set.
    const __m128i lower = _mm_set1_epi8(0x20);
    const __m128i open = _mm_set1_epi8('{');
    const __m128i close = _mm_set1_epi8('}');
    uint64_t q = 0, b = 0, o = 0, c = 0;
    for (int part = 0; part < 4; part++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(block + 16 * part));
        __m128i folded = _mm_or_si128(v, lower);
        int shift = 16 * part;
        q |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << shift;
        b |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)) << shift;
        o |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, open)) << shift;
        c |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, close)) << shift;
    }
    *quotes = q;
    *backslashes = b;
    *opens = o;
    *closes = c;
#else
    hybrid_json_block_masks_portable(block, quotes, backslashes, opens, closes);
#endif
}

/// Bit i set when an odd number of bits at or below i are set: across a block's unescaped
/// quotes, the bytes from an opening quote up to (not including) its closing quote.
static inline uint64_t prefix_xor(uint64_t bits) {
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    return bits;
}

/// Whether the `[` at `at` is the value of a member named `children`: looked for backwards,
/// past the colon and the closing quote of the name (as `JSONSkim` does byte by byte).
static int is_children_value(const uint8_t *bytes, size_t at) {
    static const char name[] = "\"children\"";
    const size_t length = sizeof name - 1;
    size_t before = at;
    while (before > 0 && (bytes[before - 1] == ' ' || bytes[before - 1] == '\n' || bytes[before - 1] == '\r' || bytes[before - 1] == '\t')) before--;
    if (before == 0 || bytes[before - 1] != ':') return 0;
    before--;
    while (before > 0 && (bytes[before - 1] == ' ' || bytes[before - 1] == '\n' || bytes[before - 1] == '\r' || bytes[before - 1] == '\t')) before--;
    if (before < length) return 0;
    return memcmp(bytes + before - length, name, length) == 0;
}

ptrdiff_t hybrid_json_skim(const uint8_t *bytes, size_t count, size_t start, long maximum_nesting,
                           HybridJSONListEnd *ends, size_t ends_capacity, size_t *ends_count) {
    *ends_count = 0;
    if (maximum_nesting < 1 || maximum_nesting > 1024) return -1;
    // The `children` arrays open around the scan, with the nesting inside each.
    struct { size_t start; long nesting; } open_lists[1025];
    long open_count = 0;
    long nesting = 0;
    uint64_t inside_string = 0;  // all ones when the previous block ended inside a string
    uint64_t escape_carry = 0;   // 1 when the previous block ended on an escaping backslash
    uint8_t tail[64];
    for (size_t at = start; at < count; at += 64) {
        const uint8_t *block = bytes + at;
        if (count - at < 64) {
            // Zeros are nothing the scan looks for.
            memset(tail, 0, sizeof tail);
            memcpy(tail, block, count - at);
            block = tail;
        }
        uint64_t quotes, backslashes, opens, closes;
        hybrid_json_block_masks(block, &quotes, &backslashes, &opens, &closes);
        uint64_t escaped = escape_carry;
        escape_carry = 0;
        if (backslashes) {
            // Rare: each backslash not itself escaped escapes the byte after it.
            uint64_t pending = backslashes;
            while (pending) {
                int bit = __builtin_ctzll(pending);
                pending &= pending - 1;
                if ((escaped >> bit) & 1) continue;
                if (bit == 63) escape_carry = 1;
                else escaped |= 1ULL << (bit + 1);
            }
        }
        uint64_t in_string = prefix_xor(quotes & ~escaped) ^ inside_string;
        // Outside a string a backslash escapes nothing: leave such input to the byte-by-byte skim.
        if (backslashes & ~in_string) return -1;
        inside_string = (uint64_t)((int64_t)in_string >> 63);
        uint64_t structural = (opens | closes) & ~in_string;
        while (structural) {
            int bit = __builtin_ctzll(structural);
            structural &= structural - 1;
            size_t offset = at + (size_t)bit;
            if ((opens >> bit) & 1) {
                nesting++;
                if (nesting > maximum_nesting) return -1;
                if (block[bit] == '[' && nesting > 1 && is_children_value(bytes, offset)) {
                    open_lists[open_count].start = offset;
                    open_lists[open_count].nesting = nesting;
                    open_count++;
                }
            } else {
                if (open_count > 0 && open_lists[open_count - 1].nesting == nesting) {
                    if (*ends_count == ends_capacity) return -2;
                    open_count--;
                    ends[*ends_count].start = open_lists[open_count].start;
                    ends[*ends_count].end = offset + 1;
                    (*ends_count)++;
                }
                nesting--;
                if (nesting == 0) return (ptrdiff_t)(offset + 1);
            }
        }
    }
    return -1;
}
