/// SplitMix64: a small, fast generator with a seed, so a test that tries random inputs tries
/// the same ones on every run and a failure repeats (the system's generator has no seed).
public struct SeededRandom {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number from 0 up to, not including, `bound` (which must be positive).
    public mutating func next(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
