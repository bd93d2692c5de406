import HybridJSON
import Testing

/// Hostile bytes and hostile sizes: the parser names the byte that is wrong and where, every
/// message is safe to print, and problems by the thousand are located in one pass.
@Suite struct HostileJSONTests {
    private func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func invalidUTF8IsReportedByItsOwnByteAndOffset() {
        #expect(syntaxError(Array(#"{"a": "x"#.utf8) + [0xFF] + Array(#""}"#.utf8))
                == JSONSyntaxError(offset: 8, message: "invalid UTF-8: byte 0xff cannot start a character"))
        #expect(syntaxError(Array(#"["\u00e9 "#.utf8) + [0xC3, 0x28] + Array(#""]"#.utf8))
                == JSONSyntaxError(offset: 9, message: "invalid UTF-8: byte 0xc3 begins a 2-byte character but 0x28 follows (is the file UTF-8?)"))
        // A Latin-1 letter: the message names it, where it is.
        #expect(syntaxError(Array(#"{"text": "caf"#.utf8) + [0xE9] + Array(#""}"#.utf8))
                == JSONSyntaxError(offset: 13, message: "invalid UTF-8: byte 0xe9 begins a 3-byte character but 0x22 follows (is the file UTF-8?)"))
        // Overlong forms and surrogates are not UTF-8 either.
        #expect(syntaxError([0x22, 0xC0, 0xAF, 0x22])?.message == "invalid UTF-8: byte 0xc0 cannot start a character")
        #expect(syntaxError([0x22, 0xED, 0xA0, 0x80, 0x22])?.offset == 1, "at the byte that began it")
        #expect(syntaxError([0x22, 0xE6, 0xBC])?.message == "invalid UTF-8: a character is cut off by the end of input")
        #expect(syntaxError(Array("\"漢字 🚀\"".utf8)) == nil)
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let value = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#" {"a": 1}"#.utf8))
        #expect(value.plain == .object(JSONObject([("a", .integer(1))])))
        #expect(value["a"]?.offset == 10, "offsets stay those of the file")
        #expect(syntaxError([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x31]) != nil, "only one, first")
    }

    @Test func numbersPastTheLargestDoubleAreRefused() {
        #expect(syntaxError(Array("[1, -1e999]".utf8)) == JSONSyntaxError(offset: 4, message: "number out of range"))
        #expect(syntaxError(Array("[1e308, 99999999999999999999, 1e-999]".utf8)) == nil)
    }

    @Test func nestingPastTheLimitIsAnErrorNotAStackOverflow() {
        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        #expect(syntaxError(deep)?.message == "nesting deeper than \(JSONParser.maximumDepth) levels")
    }

    @Test func statePathsDeeperThanTheNestingLimitAreRefused() {
        var state = JSONValue.object(JSONObject())
        let tooDeep = state.setValue(.integer(1), atPath: Array(repeating: "a", count: 100_000).joined(separator: "."))
        let deepest = state.setValue(.integer(1), atPath: Array(repeating: "a", count: JSONParser.maximumDepth).joined(separator: "."))
        #expect(!tooDeep)
        #expect(deepest)
    }

    @Test func messagesEscapeControlsAndCutLongValues() {
        let diagnostic = Diagnostic(offset: 0, path: "$.a", message: "unknown field \"\u{1B}]0;x\u{7}\nFILE:1:1: forged\"")
        let line = diagnostic.formatted(in: SourceText(name: "f.json", text: "{}"))
        #expect(line == #"f.json:1:1: $.a: unknown field "\u{1B}]0;x\u{7}\nFILE:1:1: forged""#)
        #expect(DiagnosticText.quoted(String(repeating: "k", count: 1_000_000)).count == DiagnosticText.echoLimit + 2)
        var path = JSONPath()
        path.push(.key(String(repeating: "k", count: 1_000_000)))
        #expect(path.description.count < 100)
    }

    @Test func manyProblemsAreLocatedInOnePass() {
        let text = String(repeating: "ab\nc漢\n", count: 20_000)
        let source = SourceText(name: "f", text: text)
        let offsets = [9, 0, 4, 8, 70_000, 139_999, 10_000_000]
        #expect(source.describe(offsets) == offsets.map(source.describe))
        let diagnostics = offsets.map { Diagnostic(offset: $0, path: "$", message: "m") }
        #expect(diagnostics.formatted(in: source) == diagnostics.map { $0.formatted(in: source) })
        let members = (0..<20_000).map { "\"k\($0)\": 1" }.joined(separator: ",")
        let object = try? JSONParser.parse("{\(members), \"k7\": 2}")
        #expect(object?.members?.unexpected(allowing: []).filter(\.isDuplicate).map(\.member.key) == ["k7"])
    }
}
