/// Bytes as lowercase hexadecimal text, two digits a byte: how SHA-256 digests, signatures,
/// key ids and nonces are written everywhere (manifests, migrations, signed requests).
public enum HexDigits {
    /// `bytes` as lowercase hex (`[0x0a, 0xff]` → `"0aff"`).
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
