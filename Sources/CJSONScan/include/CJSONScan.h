#ifndef CJSONSCAN_H
#define CJSONSCAN_H

#include <stddef.h>
#include <stdint.h>

/// A `children` array met inside a skimmed value: the offset of its `[` and the offset just
/// past its `]`.
typedef struct {
    size_t start;
    size_t end;
} HybridJSONListEnd;

/// Finds where the array or object opening at `start` ends, by its brackets and strings
/// alone, 64 bytes at a step (the fast path of `JSONSkim` in HybridJSON; Swift has no way to
/// turn a vector comparison into a bit mask).
///
/// @param bytes The input.
/// @param count How many bytes `bytes` holds.
/// @param start The offset of the `[` or `{` opening the value.
/// @param maximum_nesting How deep brackets may nest from `start` on (the value itself is 1).
/// @param ends Where the `children` arrays met below the first level are written, in the
///   order they close; room for `ends_capacity` of them.
/// @param ends_count Set to how many were written.
/// @return The offset just past the value; -2 when `ends` is full (call again with more room);
///   or -1 when this scan cannot say: the input ends inside the value, nesting passes
///   `maximum_nesting` (at most 1024), or a backslash stands outside a string (not JSON).
///   The caller then skims byte by byte, which names the error.
ptrdiff_t hybrid_json_skim(const uint8_t *bytes, size_t count, size_t start, long maximum_nesting,
                           HybridJSONListEnd *ends, size_t ends_capacity, size_t *ends_count);

/// The masks the skim works from, for the 64 bytes at `block`, as the vector code finds them
/// (32 bytes at a compare where the processor has AVX2, else 16;
/// `hybrid_json_block_masks_portable` gives them byte by byte, for tests to compare): bit i
/// is byte i, set in `quotes` for `"`, `backslashes` for `\`, `opens` for `[` or `{`,
/// `closes` for `]` or `}`, `squares` for `[` (which may open a `children` list).
void hybrid_json_block_masks(const uint8_t *block, uint64_t *quotes, uint64_t *backslashes,
                             uint64_t *opens, uint64_t *closes, uint64_t *squares);

/// `hybrid_json_block_masks` 16 bytes at a compare: the path of x86-64 processors without
/// AVX2 (byte by byte where SSE2 is missing too).
void hybrid_json_block_masks_sse2(const uint8_t *block, uint64_t *quotes, uint64_t *backslashes,
                                  uint64_t *opens, uint64_t *closes, uint64_t *squares);

/// `hybrid_json_block_masks`, byte by byte: the path of machines without SSE2.
void hybrid_json_block_masks_portable(const uint8_t *block, uint64_t *quotes, uint64_t *backslashes,
                                      uint64_t *opens, uint64_t *closes, uint64_t *squares);

/// What `hybrid_find_marks` looks for: one to four single bytes, and one to four sequences
/// of three bytes (other counts are searched byte by byte).
typedef struct {
    uint8_t singles[4];
    size_t singles_count;
    uint8_t triples[4][3];
    size_t triples_count;
} HybridByteMarks;

/// The first offset at or after `from` where `bytes` holds one of the single bytes of
/// `marks` or starts one of its three-byte sequences, 32 bytes at a step where the processor
/// has AVX2 (16 where it has SSE2 only); -1 when there is
/// none. A search for several words at once that visits each byte once, where `memchr` for
/// each word's rarest byte stops at every common one (how `ColdSubtree` looks at a long
/// subtree's text, in HybridWidgets).
ptrdiff_t hybrid_find_marks(const uint8_t *bytes, size_t count, size_t from, const HybridByteMarks *marks);

/// `hybrid_find_marks`, byte by byte: the path of processors without SSE2, and of tests.
ptrdiff_t hybrid_find_marks_portable(const uint8_t *bytes, size_t count, size_t from, const HybridByteMarks *marks);

/// `hybrid_find_marks` 16 bytes at a step: the path of x86-64 processors without AVX2 (about
/// as fast as a `memchr` for each mark), byte by byte where SSE2 is missing too.
ptrdiff_t hybrid_find_marks_sse2(const uint8_t *bytes, size_t count, size_t from, const HybridByteMarks *marks);

/// Where the plain run of a JSON string starting at `at` ends: the offset of the first byte
/// at or after `at` that is `"`, `\`, a control byte (below 0x20) or part of a multi-byte
/// character (0x80 and up), or `count` when there is none. 16 bytes at a step: the parser's
/// strings (keys, short texts) were read byte by byte, about eight instructions a byte.
size_t hybrid_json_string_run_end(const uint8_t *bytes, size_t count, size_t at);

/// The kinds of `HybridJSONEntry`, numbered as `JSONTape.Tag` in HybridJSON.
enum {
    HYBRID_JSON_TAG_NULL = 0,
    HYBRID_JSON_TAG_FALSE = 1,
    HYBRID_JSON_TAG_TRUE = 2,
    HYBRID_JSON_TAG_INTEGER = 3,
    HYBRID_JSON_TAG_ARRAY = 5,
    HYBRID_JSON_TAG_OBJECT = 6,
    HYBRID_JSON_TAG_STRING = 7,
};

/// One value (or member name) as `JSONTape.Entry` holds it: what it is, the items or members
/// of a container, the offset of its first byte, and the payload (a container: the index of
/// the entry just past its last descendant, counted from the first entry written; a string:
/// the offset of its closing quote; an integer: its value).
typedef struct {
    uint8_t tag;
    uint32_t count;
    int64_t offset;
    int64_t payload;
} HybridJSONEntry;

/// Reads the value at `at` into entries as `JSONReader.parseValue(depth:)` in HybridJSON
/// would, when it is made only of what most screens are made of: objects, arrays, strings
/// without escapes, integers, `true`, `false` and `null`. Never reports an error: anything
/// else (an escape, a fraction, a syntax error, nesting past `maximum_depth`, or with
/// `defers_node_lists` a `children` array, which the Swift reader may skim past) is left to
/// the Swift reader, which reads the value again and names what is wrong.
///
/// @param depth The depth the value is read at (its containers are one deeper).
/// @param entries Room for `capacity` entries; `used` is set to how many were written.
/// @return The offset just past the value; -1 when it is left to the Swift reader; -2 when
///   `entries` is full (call again with more room).
ptrdiff_t hybrid_json_read_plain_value(const uint8_t *bytes, size_t count, size_t at, long depth, long maximum_depth,
                                       int defers_node_lists, HybridJSONEntry *entries, size_t capacity, size_t *used);

#endif
