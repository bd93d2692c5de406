#include "CJSONScan.h"
#include "StringRun.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// Whether the processor and the system (which must save the wide registers) let AVX2 run;
/// asked once.
static int can_use_avx2(void) {
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer >= 0) return answer;
    unsigned a, b, c, d;
    answer = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
        unsigned low, high;
        __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
        if ((low & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2)) answer = 1;
    }
    __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    return answer;
}

#endif

void hybrid_json_block_masks_portable(const uint8_t *block, uint64_t *quotes, uint64_t *backslashes,
                                      uint64_t *opens, uint64_t *closes, uint64_t *squares) {
    uint64_t q = 0, b = 0, o = 0, c = 0, s = 0;
    for (int i = 0; i < 64; i++) {
        uint64_t bit = 1ULL << i;
        switch (block[i]) {
        case '"': q |= bit; break;
        case '\\': b |= bit; break;
        case '[': o |= bit; s |= bit; break;
        case '{': o |= bit; break;
        case ']': case '}': c |= bit; break;
        default: break;
        }
    }
    *quotes = q;
    *backslashes = b;
    *opens = o;
    *closes = c;
    *squares = s;
}

/// The body of the block masks, `WIDTH` bytes at a compare, for the vector type `VECTOR`, the
/// intrinsics named `PREFIX…` and `…SUFFIX` (`_mm_`/`si128` for SSE2, `_mm256_`/`si256` for
/// AVX2) and `MASK`, the integer a movemask fills.
#define HYBRID_BLOCK_MASKS_BODY(VECTOR, PREFIX, SUFFIX, WIDTH, MASK) \
    const VECTOR quote = PREFIX##set1_epi8('"'); \
    const VECTOR backslash = PREFIX##set1_epi8('\\'); \
    /* `[` and `{` differ only in the 0x20 bit, as do `]` and `}`; no other byte becomes */ \
    /* `{` or `}` with it set. */ \
    const VECTOR lower = PREFIX##set1_epi8(0x20); \
    const VECTOR open = PREFIX##set1_epi8('{'); \
    const VECTOR close = PREFIX##set1_epi8('}'); \
    const VECTOR square = PREFIX##set1_epi8('['); \
    uint64_t q = 0, b = 0, o = 0, c = 0, s = 0; \
    for (int part = 0; part < 64 / (WIDTH); part++) { \
        VECTOR v = PREFIX##loadu_##SUFFIX((const VECTOR *)(block + (WIDTH) * part)); \
        VECTOR folded = PREFIX##or_##SUFFIX(v, lower); \
        int shift = (WIDTH) * part; \
        q |= (uint64_t)(MASK)PREFIX##movemask_epi8(PREFIX##cmpeq_epi8(v, quote)) << shift; \
        b |= (uint64_t)(MASK)PREFIX##movemask_epi8(PREFIX##cmpeq_epi8(v, backslash)) << shift; \
        o |= (uint64_t)(MASK)PREFIX##movemask_epi8(PREFIX##cmpeq_epi8(folded, open)) << shift; \
        c |= (uint64_t)(MASK)PREFIX##movemask_epi8(PREFIX##cmpeq_epi8(folded, close)) << shift; \
        s |= (uint64_t)(MASK)PREFIX##movemask_epi8(PREFIX##cmpeq_epi8(v, square)) << shift; \
    } \
    *quotes = q; \
    *backslashes = b; \
    *opens = o; \
    *closes = c; \
    *squares = s;

void hybrid_json_block_masks_sse2(const uint8_t *block, uint64_t *quotes, uint64_t *backslashes,
                                  uint64_t *opens, uint64_t *closes, uint64_t *squares) {
#if defined(__SSE2__)
    HYBRID_BLOCK_MASKS_BODY(__m128i, _mm_, si128, 16, uint16_t)
#else
    hybrid_json_block_masks_portable(block, quotes, backslashes, opens, closes, squares);
#endif
}

#if defined(__x86_64__)
/// `hybrid_json_block_masks` 32 bytes at a compare: half the instructions of SSE2's.
__attribute__((target("avx2")))
static inline void block_masks_avx2(const uint8_t *block, uint64_t *quotes, uint64_t *backslashes,
                                    uint64_t *opens, uint64_t *closes, uint64_t *squares) {
    HYBRID_BLOCK_MASKS_BODY(__m256i, _mm256_, si256, 32, uint32_t)
}
#endif

void hybrid_json_block_masks(const uint8_t *block, uint64_t *quotes, uint64_t *backslashes,
                             uint64_t *opens, uint64_t *closes, uint64_t *squares) {
#if defined(__x86_64__)
    if (can_use_avx2()) {
        block_masks_avx2(block, quotes, backslashes, opens, closes, squares);
        return;
    }
#endif
    hybrid_json_block_masks_sse2(block, quotes, backslashes, opens, closes, squares);
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

/// The skim, for the masks of `wide` (AVX2) or SSE2 ones; inlined into each of the two
/// functions `hybrid_json_skim` chooses from, so each is compiled for its instructions.
__attribute__((always_inline))
static inline ptrdiff_t skim(const uint8_t *bytes, size_t count, size_t start, long maximum_nesting,
                             HybridJSONListEnd *ends, size_t ends_capacity, size_t *ends_count, int wide) {
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
        uint64_t quotes, backslashes, opens, closes, squares;
#if defined(__x86_64__)
        if (wide) block_masks_avx2(block, &quotes, &backslashes, &opens, &closes, &squares);
        else
#endif
            hybrid_json_block_masks_sse2(block, &quotes, &backslashes, &opens, &closes, &squares);
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
        opens &= ~in_string;
        closes &= ~in_string;
        // Most blocks only move the nesting: no `[` that could open a `children` list, and too
        // few closing brackets to end the value or a list open around the block (its `]` comes
        // at its own nesting, which no close in the block can reach), nor enough opening ones
        // to pass the limit. Counting them is enough there; the rest go bracket by bracket.
        long open_count_here = __builtin_popcountll(opens), close_count_here = __builtin_popcountll(closes);
        long lowest = nesting - close_count_here;
        if (!(opens & squares) && nesting + open_count_here <= maximum_nesting && lowest >= 1 &&
            (open_count == 0 || lowest >= open_lists[open_count - 1].nesting)) {
            nesting += open_count_here - close_count_here;
            continue;
        }
        uint64_t structural = opens | closes;
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

#if defined(__x86_64__)
/// The skim where the processor has AVX2 (and, with it, a popcount instruction).
__attribute__((target("avx2,popcnt")))
static ptrdiff_t skim_avx2(const uint8_t *bytes, size_t count, size_t start, long maximum_nesting,
                           HybridJSONListEnd *ends, size_t ends_capacity, size_t *ends_count) {
    return skim(bytes, count, start, maximum_nesting, ends, ends_capacity, ends_count, 1);
}
#endif

ptrdiff_t hybrid_json_skim(const uint8_t *bytes, size_t count, size_t start, long maximum_nesting,
                           HybridJSONListEnd *ends, size_t ends_capacity, size_t *ends_count) {
#if defined(__x86_64__)
    if (can_use_avx2()) return skim_avx2(bytes, count, start, maximum_nesting, ends, ends_capacity, ends_count);
#endif
    return skim(bytes, count, start, maximum_nesting, ends, ends_capacity, ends_count, 0);
}

/// Whether `marks` holds something that starts at `at` (three-byte sequences only when all
/// three bytes lie before `count`).
static int marks_start_at(const uint8_t *bytes, size_t count, size_t at, const HybridByteMarks *marks) {
    for (size_t i = 0; i < marks->singles_count; i++) {
        if (bytes[at] == marks->singles[i]) return 1;
    }
    if (count - at < 3) return 0;
    for (size_t i = 0; i < marks->triples_count; i++) {
        const uint8_t *triple = marks->triples[i];
        if (bytes[at] == triple[0] && bytes[at + 1] == triple[1] && bytes[at + 2] == triple[2]) return 1;
    }
    return 0;
}

ptrdiff_t hybrid_find_marks_portable(const uint8_t *bytes, size_t count, size_t from, const HybridByteMarks *marks) {
    for (size_t at = from; at < count; at++) {
        if (marks_start_at(bytes, count, at, marks)) return (ptrdiff_t)at;
    }
    return -1;
}

/// The body of `hybrid_find_marks` `WIDTH` bytes at a step, for the vector type `VECTOR` and
/// the intrinsics named `PREFIX…` and `…SUFFIX` (`_mm_`/`si128` for SSE2, `_mm256_`/`si256` for
/// AVX2). Every single and triple is checked at every byte of a step: four of each, the
/// missing ones repeating the last, so the step is straight-line code with every constant in
/// a register. Each step reads `WIDTH` + 2 bytes (a sequence may start at its last byte); the
/// last ones go byte by byte.
#define HYBRID_FIND_MARKS_BODY(VECTOR, PREFIX, SUFFIX, WIDTH) \
    size_t singles_count = marks->singles_count, triples_count = marks->triples_count; \
    if (singles_count == 0 || singles_count > 4 || triples_count == 0 || triples_count > 4) { \
        return hybrid_find_marks_portable(bytes, count, from, marks); \
    } \
    const VECTOR s0 = SINGLE(PREFIX, 0), s1 = SINGLE(PREFIX, 1), s2 = SINGLE(PREFIX, 2), s3 = SINGLE(PREFIX, 3); \
    const VECTOR a0 = TRIPLE(PREFIX, 0, 0), b0 = TRIPLE(PREFIX, 0, 1), c0 = TRIPLE(PREFIX, 0, 2); \
    const VECTOR a1 = TRIPLE(PREFIX, 1, 0), b1 = TRIPLE(PREFIX, 1, 1), c1 = TRIPLE(PREFIX, 1, 2); \
    const VECTOR a2 = TRIPLE(PREFIX, 2, 0), b2 = TRIPLE(PREFIX, 2, 1), c2 = TRIPLE(PREFIX, 2, 2); \
    const VECTOR a3 = TRIPLE(PREFIX, 3, 0), b3 = TRIPLE(PREFIX, 3, 1), c3 = TRIPLE(PREFIX, 3, 2); \
    size_t at = from; \
    /* Sequences that all start with one byte (`ColdSubtree`'s three start with a quote) */ \
    /* compare it once, in a loop of their own. */ \
    int shared_first = marks->triples[0][0] == marks->triples[triples_count > 1 ? 1 : 0][0] \
        && marks->triples[0][0] == marks->triples[triples_count > 2 ? 2 : 0][0] \
        && marks->triples[0][0] == marks->triples[triples_count - 1][0]; \
    if (shared_first) { \
        FIND_MARKS_STEPS(VECTOR, PREFIX, SUFFIX, WIDTH, PREFIX##and_##SUFFIX(PREFIX##cmpeq_epi8(v0, a0), PREFIX##or_##SUFFIX( \
            PREFIX##or_##SUFFIX(TAIL(PREFIX, SUFFIX, b0, c0), TAIL(PREFIX, SUFFIX, b1, c1)), \
            PREFIX##or_##SUFFIX(TAIL(PREFIX, SUFFIX, b2, c2), TAIL(PREFIX, SUFFIX, b3, c3))))) \
    } else { \
        FIND_MARKS_STEPS(VECTOR, PREFIX, SUFFIX, WIDTH, PREFIX##or_##SUFFIX( \
            PREFIX##or_##SUFFIX(MATCH(PREFIX, SUFFIX, a0, b0, c0), MATCH(PREFIX, SUFFIX, a1, b1, c1)), \
            PREFIX##or_##SUFFIX(MATCH(PREFIX, SUFFIX, a2, b2, c2), MATCH(PREFIX, SUFFIX, a3, b3, c3)))) \
    } \
    return hybrid_find_marks_portable(bytes, count, at, marks);
/// The steps of `HYBRID_FIND_MARKS_BODY`, with `SEQUENCES` the vector of where a sequence
/// starts in the step's bytes `v0`, `v1` (one on) and `v2` (two on).
#define FIND_MARKS_STEPS(VECTOR, PREFIX, SUFFIX, WIDTH, SEQUENCES) \
    for (; count >= (WIDTH) + 2 && at <= count - (WIDTH) - 2; at += (WIDTH)) { \
        VECTOR v0 = PREFIX##loadu_##SUFFIX((const VECTOR *)(bytes + at)); \
        VECTOR v1 = PREFIX##loadu_##SUFFIX((const VECTOR *)(bytes + at + 1)); \
        VECTOR v2 = PREFIX##loadu_##SUFFIX((const VECTOR *)(bytes + at + 2)); \
        VECTOR found = PREFIX##or_##SUFFIX(PREFIX##or_##SUFFIX(PREFIX##cmpeq_epi8(v0, s0), PREFIX##cmpeq_epi8(v0, s1)), \
                                           PREFIX##or_##SUFFIX(PREFIX##cmpeq_epi8(v0, s2), PREFIX##cmpeq_epi8(v0, s3))); \
        found = PREFIX##or_##SUFFIX(found, SEQUENCES); \
        unsigned mask = (unsigned)PREFIX##movemask_epi8(found); \
        if (mask) return (ptrdiff_t)(at + (size_t)__builtin_ctz(mask)); \
    }
#define SINGLE(PREFIX, i) PREFIX##set1_epi8((char)marks->singles[(i) < singles_count ? (i) : singles_count - 1])
#define TRIPLE(PREFIX, i, j) PREFIX##set1_epi8((char)marks->triples[(i) < triples_count ? (i) : triples_count - 1][j])
#define TAIL(PREFIX, SUFFIX, b, c) PREFIX##and_##SUFFIX(PREFIX##cmpeq_epi8(v1, b), PREFIX##cmpeq_epi8(v2, c))
#define MATCH(PREFIX, SUFFIX, a, b, c) PREFIX##and_##SUFFIX(PREFIX##cmpeq_epi8(v0, a), TAIL(PREFIX, SUFFIX, b, c))

#if defined(__x86_64__)
/// `hybrid_find_marks` 32 bytes at a step, where SSE2 takes twice the steps and, with no
/// three-operand forms, a copy before each comparison.
__attribute__((target("avx2")))
static ptrdiff_t find_marks_avx2(const uint8_t *bytes, size_t count, size_t from, const HybridByteMarks *marks) {
    HYBRID_FIND_MARKS_BODY(__m256i, _mm256_, si256, 32)
}
#endif

ptrdiff_t hybrid_find_marks_sse2(const uint8_t *bytes, size_t count, size_t from, const HybridByteMarks *marks) {
#if defined(__SSE2__)
    HYBRID_FIND_MARKS_BODY(__m128i, _mm_, si128, 16)
#else
    return hybrid_find_marks_portable(bytes, count, from, marks);
#endif
}

ptrdiff_t hybrid_find_marks(const uint8_t *bytes, size_t count, size_t from, const HybridByteMarks *marks) {
#if defined(__x86_64__)
    if (can_use_avx2()) return find_marks_avx2(bytes, count, from, marks);
#endif
    return hybrid_find_marks_sse2(bytes, count, from, marks);
}

size_t hybrid_json_string_run_end(const uint8_t *bytes, size_t count, size_t at) {
    return string_run_end(bytes, count, at);
}
