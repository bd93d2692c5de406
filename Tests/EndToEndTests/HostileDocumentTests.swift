import Foundation
import TestSupport
import Testing

/// Hostile screens and expression lines through the real binary, where a user meets them:
/// every one gets a located error or a drawn frame, never a signal, and `expr` goes on.
@Suite struct HostileDocumentTests {
    /// Writes `text` as a screen file and runs `hybrid` with `arguments` on it.
    private func hybrid(_ arguments: [String], screen: Data) throws -> CommandRunner.Result {
        let folder = try TemporaryDirectory("hostile")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("s.json")
        try screen.write(to: file)
        var result = try CommandRunner.hybrid(arguments + [file.path])
        result.standardError = result.standardError.replacingOccurrences(of: file.path, with: "s.json")
        return result
    }

    private func screen(_ body: String) -> Data {
        Data(#"{"format": 1, "id": "s", "body": \#(body)}"#.utf8)
    }

    @Test func deepExpressionsAreLocatedErrors() throws {
        let deep = String(repeating: "(", count: 14_000) + "1" + String(repeating: ")", count: 14_000)
        let body = screen(#"{"type": "text", "text": "@{\#(deep)}"}"#)
        let validate = try hybrid(["validate"], screen: body)
        #expect(validate.status == 1)
        #expect(validate.standardError == "s.json:1:59: $.body.text: invalid expression: Expression nests deeper than 100 levels.\n")
        let render = try hybrid(["render", "--size", "20x2"], screen: body)
        #expect(render.status == 1)
        #expect(render.standardOutput == "\n\n", "the text renders empty, as a failing expression does")
    }

    @Test func exprAnswersEveryLineAfterAHostileOne() throws {
        let deep = String(repeating: "(", count: 14_000) + "1" + String(repeating: ")", count: 14_000)
        var input = Data(#"{"expression": "@{\#(deep)}"}"#.utf8 + [0x0A])
        input += Data(#"{"expression": "@{maxNumber() * 2}"}"#.utf8 + [0x0A])
        input += Data(#"{"expression": "@{padStart('a', 9223372036854775807, 'b')}"}"#.utf8 + [0x0A])
        input += Data(#"{"expression": "@{parseUnixTime(9223372036854775807)}"}"#.utf8 + [0x0A])
        input += Data(#"{"expression": "@{t}", "variables": [{"name": "t", "type": "datetime", "value": -9223372036854775808}]}"#.utf8 + [0x0A])
        input += Data(#"{"expression": "x"#.utf8 + [0xFF] + Array(#""}"#.utf8) + [0x0A])
        input += Data(#"{"expression": "@{1 + 1}"}"#.utf8)
        let result = try CommandRunner.hybrid(["expr"], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").map(String.init) == [
            #"{"type": "error", "value": "Expression nests deeper than 100 levels."}"#,
            #"{"type": "error", "value": "Failed to evaluate [1.7976931348623157E308 * 2.0]. Number overflow."}"#,
            #"{"type": "error", "value": "Failed to evaluate [padStart('a', 9223372036854775807, 'b')]. String is longer than 1048576 bytes."}"#,
            #"{"type": "error", "value": "Failed to evaluate [parseUnixTime(9223372036854775807)]. Datetime is out of range (years -271821 to 275760)."}"#,
            #"{"type": "error", "value": "Bad input line: variable 't' is not a valid datetime"}"#,
            #"{"type": "error", "value": "Bad input line: invalid UTF-8: byte 0xff cannot start a character at byte 17"}"#,
            #"{"type": "integer", "value": 2}"#,
        ])
    }

    @Test func statePathsDeeperThanDocumentsMayNestAreRefused() throws {
        let path = Array(repeating: "a", count: 1_000).joined(separator: ".")
        let result = try hybrid(["validate"], screen: screen(#"{"type": "button", "label": "b", "onPress": {"action": "set", "path": "\#(path)", "value": 1}}"#))
        #expect(result.status == 1)
        #expect(result.standardError == "s.json:1:104: $.body.onPress.path: a state path of more than 512 parts\n")
    }

    @Test func hugeNumbersRenderInsteadOfTrapping() throws {
        let body = screen(#"{"type": "column", "style": {"width": 1e19, "gap": 99999999999}, "children": [{"type": "text", "text": "a", "style": {"padding": [0, 9223372036854775807]}}, {"type": "table", "columns": [{"title": "T", "width": 4294967296}], "rows": [["x"]]}, {"type": "box", "style": {"height": 4611686018427387904}, "child": {"type": "text", "text": "in"}}]}"#)
        let render = try hybrid(["render", "--size", "20x3"], screen: body)
        #expect(render.status == 0, "\(render.standardError)")
        #expect(try hybrid(["validate"], screen: body).status == 0)
    }

    @Test func messagesCannotDriveTheTerminalOrForgeLines() throws {
        // ESC, BEL and a newline, written as JSON escapes, then a megabyte of key.
        let keyJSON = #""\u001b]0;pwned\u0007\nFILE:1:1: forged"# + String(repeating: "k", count: 1_000_000) + "\""
        let result = try hybrid(["validate"], screen: screen(#"{"type": "text", "text": "x", \#(keyJSON): 1}"#))
        #expect(result.status == 1)
        #expect(!result.standardError.contains("\u{1B}") && !result.standardError.contains("\u{7}"))
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.count < 500)
        #expect(result.standardError.hasPrefix(#"s.json:1:64: $.body["\u{1B}]0;pwned\u{7}\nFILE:1:1: forgedkkk"#))
    }

    @Test func manyProblemsAreAllReported() throws {
        let children = (0..<20_000).map { #"{"type": "text", "text": "x", "bad\#($0)": 1}"# }.joined(separator: ",\n")
        let result = try hybrid(["validate"], screen: screen(#"{"type": "column", "children": [\#(children)]}"#))
        #expect(result.status == 1)
        #expect(result.standardError.split(separator: "\n").count == 20_000)
        #expect(result.standardError.hasSuffix("s.json:20000:31: $.body.children[19999].bad19999: unknown field \"bad19999\" in a \"text\" node\n"))
    }

    @Test func aComponentBombIsWarnedAboutAndCutShort() throws {
        let copy = #"{"type": "component", "name": "NEXT"}"#
        let components = (0..<10).map { level in
            #""c\#(level)": {"type": "column", "children": [\#(Array(repeating: copy, count: 4).joined(separator: ", ").replacingOccurrences(of: "NEXT", with: "c\(level + 1)"))]}"#
        }.joined(separator: ", ")
        let text = #"{"format": 1, "id": "s", "components": {\#(components), "c10": {"type": "text", "text": "leaf"}}, "body": {"type": "component", "name": "c0"}}"#
        let validate = try hybrid(["validate"], screen: Data(text.utf8))
        #expect(validate.status == 0)
        #expect(validate.standardError.contains("warning: the components used here expand to more than 10000 views"))
        let render = try hybrid(["render", "--size", "20x2"], screen: Data(text.utf8))
        #expect(render.status == 1)
        #expect(render.standardOutput == "leaf\nleaf\n")
        #expect(render.standardError.contains("(text): the screen expands to more than 10000 views"))
    }
}
