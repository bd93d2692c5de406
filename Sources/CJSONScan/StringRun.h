#ifndef HYBRID_STRING_RUN_H
#define HYBRID_STRING_RUN_H

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// `hybrid_json_string_run_end`, inlined where C reads strings (`JSONPlainReader.c`): the
/// offset of the first byte at or after `at` that is `"`, `\`, a control byte or 0x80 and up,
/// or `count`.
static inline size_t string_run_end(const uint8_t *bytes, size_t count, size_t at) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    // Compared as signed bytes, 0x80 and up are negative: below 0x20 with the control bytes.
    const __m128i space = _mm_set1_epi8(0x20);
    for (; count >= 16 && at <= count - 16; at += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + at));
        __m128i special = _mm_or_si128(_mm_cmplt_epi8(v, space),
                                       _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        int mask = _mm_movemask_epi8(special);
        if (mask) return at + (size_t)__builtin_ctz((unsigned)mask);
    }
#endif
    for (; at < count; at++) {
        uint8_t byte = bytes[at];
        if (byte == '"' || byte == '\\' || byte < 0x20 || byte >= 0x80) return at;
    }
    return count;
}

#endif
