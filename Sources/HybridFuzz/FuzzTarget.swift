import Foundation
import HybridBundles
import HybridExpressions
import HybridJSON
import HybridNetwork
import HybridTerminal
import HybridWidgets

/// What the fuzzers feed: each input path that parses bytes a user, a server or a script
/// controls. A target takes any bytes and must return — no trap, no hang, no unbounded memory;
/// libFuzzer (`scripts/fuzz.sh`) and the replay of `Tests/Fixtures/fuzz/` both call `run`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `JSONParser`, and the text it writes read back to the same text; its C reader of plain
    /// values against the Swift reader.
    case json
    /// A screen document decoded, its problems formatted, and its first frame rendered.
    case screen
    /// An expression (`@{…}` template) parsed and evaluated over a state of every type.
    case expression
    /// A bundle manifest decoded.
    case manifest
    /// A `.hbundle` archive verified against a trusted key and staged.
    case archive
    /// A bundle's API definitions decoded, and a call of each API prepared from the same bytes.
    case apis
    /// A bundle's theme file (named styles) decoded.
    case theme
    /// Bytes from the terminal (keys, pastes, the mouse, kitty and modifyOtherKeys sequences)
    /// decoded in arbitrary chunks, then flushed.
    case terminal

    /// Feeds `bytes` to the target.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .json: Self.json(bytes)
        case .screen: Self.screen(bytes)
        case .expression: Self.expression(bytes)
        case .manifest: _ = BundleManifest.load(SourceText(name: "manifest.json", bytes: bytes)).formattedDiagnostics
        case .archive: Self.archive(bytes)
        case .apis: Self.apis(bytes)
        case .theme: _ = Theme.load(SourceText(name: "theme.json", bytes: bytes)).formattedDiagnostics
        case .terminal: Self.terminal(bytes)
        }
    }

    /// The first byte chooses how the rest is cut into reads, as a terminal's reads cut it.
    private static func terminal(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let chunk = Int(first % 16) + 1
        var decoder = InputDecoder()
        var rest = bytes.dropFirst()
        while !rest.isEmpty {
            _ = decoder.feed(rest.prefix(chunk))
            rest = rest.dropFirst(chunk)
        }
        _ = decoder.flush()
    }

    private static func apis(_ bytes: [UInt8]) {
        let load = APIDefinitions.load(SourceText(name: "apis.json", bytes: bytes))
        _ = load.formattedDiagnostics
        guard let definitions = load.value else { return }
        // The same bytes as params, when they are an object: checked, encoded, keyed, signed.
        let params = (try? JSONParser.parse(bytes).plain) ?? .null
        for name in definitions.apis.keys.sorted() {
            if let prepared = try? definitions.prepare(name, params: params) {
                _ = RequestSignature(signing: prepared, secret: "fuzz", timestamp: 0, nonce: "0")
            }
        }
    }

    /// Also: parsed with node lists skimmed past, the text reads the same once read whole, or
    /// (when a whole parse refuses it) fails then, if the skim did not.
    private static func json(_ bytes: [UInt8]) {
        plainReading(bytes)
        let whole = try? JSONParser.parse(bytes).plain
        if let skimmed = try? JSONParser.parse(bytes, deferringNodeLists: true) {
            readItemByItem(skimmed)
            let read = skimmed.plain
            precondition((whole == nil) == !skimmed.syntaxErrorsFoundLater.isEmpty, "skimmed, the text parses where a whole parse refuses it, or the reverse")
            // Compared as text: values with repeated keys do not compare.
            precondition(whole == nil || read.jsonText == whole!.jsonText, "skimmed, the text reads differently")
        } else {
            precondition(whole == nil, "the skim refuses what a whole parse accepts")
        }
        guard let value = whole else { return }
        // What the parser accepted, written out, must read back and write out the same (text,
        // not values: duplicate keys, which the decoders report, make no sense to compare).
        let text = value.jsonText
        guard let again = try? JSONParser.parse(text).plain else {
            preconditionFailure("the parser refuses its own output: \(text.prefix(200))")
        }
        precondition(again.jsonText == text, "the text changed when read back and written again: \(text.prefix(200))")
    }

    /// The C reader of plain values (`PlainValueReading`) reads what the Swift reader reads,
    /// or leaves it to it, from the start and from every bracket (the first 64).
    private static func plainReading(_ bytes: [UInt8]) {
        let starts = [0] + bytes.indices.lazy.filter { bytes[$0] == UInt8(ascii: "{") || bytes[$0] == UInt8(ascii: "[") }.prefix(64)
        for start in starts {
            for defers in [false, true] {
                precondition(PlainValueReading.agreesWithSwiftReader(on: bytes, at: start, deferringNodeLists: defers) != false,
                             "the plain reader reads the value at \(start) otherwise than the Swift reader")
            }
        }
    }

    /// Every list the parser skimmed past in `json`, read item by item (`ArrayReader`), reads
    /// what the parse of the whole list reads, or stops at the error that parse stops at.
    private static func readItemByItem(_ json: SourceJSON) {
        if json.isUnparsed {
            var reader = ArrayReader(json)!
            var read: [JSONValue] = []
            while let item = reader.item(at: read.count) { read.append(item.plain) }
            precondition(reader.syntaxError == json.syntaxError, "read item by item, a list breaks elsewhere than parsed whole")
            if let items = json.items {
                precondition(JSONValue.array(read).jsonText == JSONValue.array(items.map(\.plain)).jsonText, "read item by item, a list reads differently")
            }
        }
        json.items?.forEach(readItemByItem)
        json.members?.forEach { readItemByItem($0.value) }
    }

    /// Also: a document decoded as drawn (cold subtrees when first drawn) draws exactly the
    /// frames of the same document decoded whole, at two sizes in turn.
    private static func screen(_ bytes: [UInt8]) {
        let source = SourceText(name: "fuzz.json", bytes: bytes)
        let load = ScreenDocument.load(source)
        _ = load.formattedDiagnostics
        guard let document = load.value, let whole = ScreenDocument.load(source, decoding: .whole).value else { return }
        var interaction = Interaction()
        interaction.tick = 3
        let asDrawn = ScreenRenderer(document: document)
        for (width, height) in [(80, 24), (80, 60)] {
            let frame = asDrawn.render(state: document.state, interaction: interaction, width: width, height: height)
            let expected = ScreenRenderer(document: whole).render(state: whole.state, interaction: interaction, width: width, height: height)
            precondition(frame.buffer == expected.buffer, "decoded as drawn, the frame at \(width)x\(height) differs from the one decoded whole")
        }
    }

    /// A state with a value of every kind an expression can meet.
    private static let state: JSONValue = {
        let text = #"""
        {"n": 7, "x": -2.5, "big": 9007199254740993, "s": "héllo 中文", "b": true, "none": null,
         "list": [1, "two", [3], {"four": 4}], "user": {"name": "Ada", "tags": ["a", "b"]}}
        """#
        return (try? JSONParser.parse(text).plain) ?? .null
    }()

    private static func expression(_ bytes: [UInt8]) {
        guard let template = try? ExpressionTemplate(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
        _ = try? template.evaluate(in: StateScope(state: state))
    }

    /// The key archives are checked against; a fixed seed, so seeds signed with it stay valid.
    public static let archiveKey = try! BundleKey(seed: Array(repeating: 7, count: 32))

    private static func archive(_ bytes: [UInt8]) {
        // Staged files go to a folder of this process, gone after each input.
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        let verifier = BundleVerifier(trustedKeys: [archiveKey.publicKey])
        _ = try? verifier.verifyArchive(bytes: bytes, stagingParent: staging.path)
    }
}
