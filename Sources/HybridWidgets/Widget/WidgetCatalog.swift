import HybridDocument
import HybridJSON

/// Every node type, by the name documents write: the one table the decoder dispatches through.
enum WidgetCatalog {
    /// How to read one node type.
    struct Entry: Sendable {
        /// Every field a node of the type may have (the common ones first).
        let fields: FieldNames
        /// Reads the type's props.
        let decode: @Sendable (SourceJSON, inout DocumentDecoder) -> (any Widget)?

        init<W: Widget>(_ type: W.Type) {
            fields = FieldNames(DocumentDecoder.commonFields + W.fields)
            decode = { json, decoder in W.decode(json, with: &decoder) }
        }
    }

    /// The node types of SPEC §2. A new widget is one file and one line here.
    static let widgets: [any Widget.Type] = [
        Column.self, Row.self, Stack.self, Scroll.self, Box.self,
        Text.self, Button.self, Input.self, Checkbox.self, Select.self,
        List.self, Table.self, Tabs.self, Progress.self, Spinner.self,
        Divider.self, Spacer.self, Component.self, Textarea.self,
        Keyhelp.self,
    ]

    /// The entries by type name.
    static let entries: [String: Entry] = Dictionary(uniqueKeysWithValues: widgets.map { ($0.typeName, entry(for: $0)) })

    /// The types whose nodes are static when nothing in them is bound (`ColdSubtree`).
    static let staticWhenUnbound = Set(widgets.filter { $0.isStaticWhenUnbound }.map { $0.typeName })

    /// The type names, sorted, for did-you-mean hints.
    static let typeNames = entries.keys.sorted()

    private static func entry<W: Widget>(for type: W.Type) -> Entry { Entry(type) }
}
