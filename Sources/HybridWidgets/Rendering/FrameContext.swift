import HybridJSON

/// What every resolver of one frame reads and none changes, shared by reference: the
/// resolver made for each batch of a long list's lines as layout reaches them, and each
/// node's `Place`, copy one reference where they copied the document and the interaction
/// (a dozen references each).
final class FrameContext {
    /// The document drawn.
    let document: ScreenDocument
    /// Focus, selections, scroll positions and carets to show.
    let interaction: Interaction
    /// Components defined outside the document (by scripts).
    let externalComponents: ((String, JSONValue) -> Node?)?
    /// The frame's view tree once resolved, for `keyhelp`.
    let focus = FrameFocus()
    /// What a static node's children are resolved in when layout first reaches them, in this
    /// frame or a later one (`Resolver.children`): the same document and interaction, and no
    /// script components, which no static subtree holds, so that the views the renderer keeps
    /// across frames keep nothing of the scripts alive. This context itself when it has none.
    var forLaterViews: FrameContext {
        guard externalComponents != nil else { return self }
        if let withoutComponents { return withoutComponents }
        let context = FrameContext(document: document, interaction: interaction)
        withoutComponents = context
        return context
    }
    /// `forLaterViews` once made (never `self`, which would keep itself alive).
    private var withoutComponents: FrameContext?

    init(document: ScreenDocument, interaction: Interaction, externalComponents: ((String, JSONValue) -> Node?)? = nil) {
        self.document = document
        self.interaction = interaction
        self.externalComponents = externalComponents
    }
}
