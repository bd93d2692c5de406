import Foundation
import HybridCells

/// What pyte, a VT emulator written apart from HybridTerm (`Tests/python/pyte_screen.py`),
/// shows after replaying bytes: a second opinion beside `TerminalModel`, so the frame
/// encoder's tricks (moved lines, cursor moves, erasing) are checked against a terminal the
/// project did not write.
public enum PyteScreen {
    /// The screen pyte shows after replaying `chunks` in order on `width` × `height` cells.
    ///
    /// - Parameter repository: the checkout, where the script lives.
    public static func replay(_ chunks: [[UInt8]], width: Int, height: Int, repository: URL) throws -> Buffer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pyte-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        for (index, chunk) in chunks.enumerated() {
            let file = folder.appendingPathComponent("\(index).bytes")
            try Data(chunk).write(to: file)
            files.append(file.path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [PythonCheck.python(importing: "pyte"), "Tests/python/pyte_screen.py", "\(width)", "\(height)"] + files
        process.currentDirectoryURL = repository
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let rows = try JSONSerialization.jsonObject(with: data) as? [[[Any]]] else {
            throw Failure(message: "pyte_screen.py failed (is python3-pyte installed? scripts/setup-tests.sh installs it): \(problems)")
        }
        var screen = Buffer(width: width, height: height)
        for (y, row) in rows.enumerated() {
            for (x, cell) in row.enumerated() {
                guard let text = cell[0] as? String, let fg = cell[1] as? String, let bg = cell[2] as? String,
                      let attributes = cell[3] as? String else { continue }
                screen[x, y] = Cell(symbol: text, style: style(foreground: fg, background: bg, attributes: attributes))
            }
        }
        return screen
    }

    /// `frame` as pyte can show it: pyte names the bright ANSI colours as the normal ones,
    /// keeps the 256-colour palette as hex and has no dim.
    public static func comparable(_ frame: Buffer) -> Buffer {
        var shown = frame
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                var style = frame[x, y].style
                style.foreground = style.foreground.map(normalized)
                style.background = style.background.map(normalized)
                style.attributes.remove(.dim)
                shown[x, y].style = style
            }
        }
        return shown
    }

    /// A failed replay.
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    private static let names = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]

    private static func normalized(_ color: Color) -> Color {
        if case .ansi(let index) = color { return .ansi(index % 8) }
        return color
    }

    private static func style(foreground: String, background: String, attributes: String) -> CellStyle {
        var style = CellStyle(foreground: color(foreground), background: color(background))
        let letters: [(Character, TextAttributes)] = [("b", .bold), ("i", .italic), ("u", .underline), ("r", .reverse)]
        for (letter, attribute) in letters where attributes.contains(letter) { style.attributes.insert(attribute) }
        return style
    }

    private static func color(_ name: String) -> Color? {
        if let index = names.firstIndex(of: name) { return .ansi(UInt8(index)) }
        guard name.count == 6, let value = UInt32(name, radix: 16) else { return nil }
        return .rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }
}
