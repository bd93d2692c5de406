import Foundation
import TestSupport
import Testing

/// Thousands of mutated screen documents and expression lines through the real binary, the
/// way a fuzzing campaign would send them, on a fixed seed so a failure repeats: every run ends
/// by itself (no signal, exit status 0 or 1, within a generous bound) and every problem it
/// reports is located. The coverage-guided fuzzers of `scripts/fuzz.sh` go deeper, on demand.
@Suite struct GeneratedInputTests {
    /// A run past this is a hang (the real ones take well under a second).
    static let bound = 60.0

    @Test(arguments: 0..<6)
    func mutatedDocumentsAreValidatedWithLocatedProblems(batch: Int) throws {
        let folder = try TemporaryDirectory("hybrid-generated")
        defer { folder.remove() }
        var random = SeededRandom(seed: UInt64(batch) &+ 0x5EED)
        let seeds = try Self.documentSeeds()
        var paths: [String] = []
        for index in 0..<250 {
            let bytes = Mutator.mutate(seeds[random.next(seeds.count)], with: &random, splicing: seeds)
            let path = folder.url.appendingPathComponent("doc\(index).json").path
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            paths.append(path)
        }
        let result = try CommandRunner.hybrid(["validate"] + paths, timeout: Self.bound)
        #expect(!result.timedOut, "validate of batch \(batch) did not end within \(Self.bound) s")
        #expect([0, 1].contains(result.status), "validate of batch \(batch) exited \(result.status)")
        let unlocated = result.standardError.split(separator: "\n").filter { line in !paths.contains { line.hasPrefix($0 + ":") } }
        #expect(unlocated.isEmpty, "\(unlocated.count) unlocated lines, first: \(unlocated.prefix(3).map { $0.prefix(300) })")
        // A few of them rendered too: decoding is only half of what a document meets.
        for path in paths.prefix(20) {
            let render = try CommandRunner.hybrid(["render", path, "--size", "60x12", "--plain"], timeout: Self.bound)
            #expect(!render.timedOut, "render \(path) did not end within \(Self.bound) s")
            #expect([0, 1].contains(render.status), "render exited \(render.status) on \(path)")
        }
    }

    @Test(arguments: 0..<2)
    func mutatedExpressionLinesAreEachAnswered(batch: Int) throws {
        var random = SeededRandom(seed: UInt64(batch) &+ 0xE4B2)
        let seeds = try Self.expressionSeeds()
        var lines: [String] = []
        for _ in 0..<1500 {
            let expression = Mutator.mutate(Array(seeds[random.next(seeds.count)].utf8), with: &random, splicing: [])
            let text = String(decoding: expression, as: UTF8.self)
            var line = #"{"expression": "#
            line += Self.quoted(text)
            line += #", "variables": [{"name": "n", "type": "integer", "value": 9223372036854775807}, {"name": "s", "type": "string", "value": "x"}]}"#
            lines.append(line)
        }
        let result = try CommandRunner.hybrid(["expr"], input: Data((lines.joined(separator: "\n") + "\n").utf8), timeout: Self.bound)
        #expect(!result.timedOut, "expr did not end within \(Self.bound) s")
        #expect(result.status == 0, "expr exited \(result.status): \(result.standardError.prefix(300))")
        let answers = result.standardOutput.split(separator: "\n")
        #expect(answers.count == lines.count, "one answer a line")
        for answer in answers {
            #expect(answer.hasPrefix(#"{"type": "#), "not an answer: \(answer.prefix(200))")
        }
    }

    // MARK: Seeds

    static func documentSeeds() throws -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for folder in ["samples", "Tests/Fixtures/invalid"] {
            let url = CommandRunner.repository.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where name.hasSuffix(".json") {
                seeds.append(Array(try Data(contentsOf: url.appendingPathComponent(name))))
            }
        }
        return seeds
    }

    static func expressionSeeds() throws -> [String] {
        let url = CommandRunner.repository.appendingPathComponent("Tests/HybridExpressionsTests/Conformance/divkit-expressions")
        var seeds: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() where name.hasSuffix(".json") {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent(name))) as? [String: Any]
            for testCase in object?["cases"] as? [[String: Any]] ?? [] {
                if let expression = testCase["expression"] as? String { seeds.append(expression) }
            }
        }
        return seeds
    }

    /// `text` as a JSON string, control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Mutations of the kinds fuzzers make, with tokens that reach the limits: deep nesting,
/// numbers past every integer type, control characters, huge repeats.
enum Mutator {
    static let tokens: [String] = [
        "{", "}", "[", "]", "\"", ":", ",", "@{", "(", ")", "0", "-1", "1e19", "1e308", "-1e308", "9223372036854775807",
        "-9223372036854775808", "18446744073709551616", "4294967296", "NaN", "null", "true", "\u{1B}]0;title\u{07}",
        "\n", "\\u0000", "\\ud800", "\u{FF}", "\"width\": 99999999999", "\"padding\": 9223372036854775807",
        "\"gap\": 99999999999", "\"type\": \"component\"", "\"type\": \"list\"", "\"items\": \"@{list}\"",
        "padStart('', 2147483647, 'x')", "maxNumber() * 2", "parseUnixTime(9223372036854775807)",
        String(repeating: "(", count: 20_000), String(repeating: "[", count: 20_000), String(repeating: "a", count: 100_000),
    ]

    /// Members that keep a document valid JSON when inserted after a `{`, with values at the limits.
    static let members: [String] = [
        #""style": {"width": 1e19}, "#, #""style": {"height": 4611686018427387904}, "#, #""style": {"padding": 9223372036854775807}, "#,
        #""style": {"gap": 99999999999}, "#, #""style": {"margin": -9223372036854775808}, "#, #""style": {"width": -1e308}, "#,
        #""text": "@{padStart('', 2147483647, 'x')}", "#, #""text": "@{maxNumber() * 2}", "#, #""text": "\u001b]0;pwned\u0007\u001b[2J", "#,
        #""text": "line\nforged.json:1:1: error", "#, #""width": 4294967296, "#, #""value": "@{parseUnixTime(9223372036854775807)}", "#,
        #""\#(String(repeating: "k", count: 5000))": 1, "#, #""text": "@{\#(String(repeating: "(", count: 15_000))1\#(String(repeating: ")", count: 15_000))}", "#,
    ]

    /// Numbers a document may carry in place of any of its own.
    static let numbers: [String] = ["1e19", "-1e19", "1e308", "9223372036854775807", "-9223372036854775808", "4294967296", "99999999999", "-1", "0.5"]

    static func mutate(_ seed: [UInt8], with random: inout SeededRandom, splicing others: [[UInt8]]) -> [UInt8] {
        var bytes = seed
        for _ in 0..<(1 + random.next(4)) {
            let position = bytes.isEmpty ? 0 : random.next(bytes.count + 1)
            switch random.next(9) {
            case 6, 7: // a member after some `{`, so the document stays JSON
                let braces = bytes.indices.filter { bytes[$0] == UInt8(ascii: "{") }
                guard !braces.isEmpty else { continue }
                let brace = braces[random.next(braces.count)]
                bytes.insert(contentsOf: Array(members[random.next(members.count)].utf8), at: brace + 1)
            case 8: // a number in place of one of the document's own
                let digits = bytes.indices.filter { bytes[$0] >= UInt8(ascii: "0") && bytes[$0] <= UInt8(ascii: "9") && ($0 == 0 || !(bytes[$0 - 1] >= UInt8(ascii: "0") && bytes[$0 - 1] <= UInt8(ascii: "9"))) }
                guard !digits.isEmpty else { continue }
                let start = digits[random.next(digits.count)]
                var end = start
                while end < bytes.count && bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9") { end += 1 }
                bytes.replaceSubrange(start..<end, with: Array(numbers[random.next(numbers.count)].utf8))
            case 0 where !bytes.isEmpty: // flip a byte
                bytes[min(position, bytes.count - 1)] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            case 1 where !bytes.isEmpty: // cut a run
                let end = min(bytes.count, position + random.next(64))
                bytes.removeSubrange(position..<end)
            case 2 where !others.isEmpty: // splice another seed's run in
                let other = others[random.next(others.count)]
                guard !other.isEmpty else { continue }
                let start = random.next(other.count)
                let end = min(other.count, start + random.next(256))
                bytes.insert(contentsOf: other[start..<end], at: position)
            default: // insert a token
                bytes.insert(contentsOf: Array(tokens[random.next(tokens.count)].utf8), at: position)
            }
        }
        return bytes
    }
}
