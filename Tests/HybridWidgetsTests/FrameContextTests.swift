import HybridJSON
@testable import HybridWidgets
import XCTest

/// `FrameContext.forLaterViews`: what a static node's later children are resolved in has no
/// script components, and holding it keeps nothing alive past the frame.
final class FrameContextTests: XCTestCase {
    private func document() throws -> ScreenDocument {
        let text = #"{"format": 1, "id": "s", "body": {"type": "text", "text": "x"}}"#
        return try XCTUnwrap(ScreenDocument.load(SourceText(name: "s.json", text: text)).value)
    }

    func testLaterViewsHaveNoScriptComponentsAndKeepNothingAlive() throws {
        let document = try document()
        for components in [nil, { (_: String, _: JSONValue) -> Node? in nil }] {
            weak var frame: FrameContext?
            weak var later: FrameContext?
            do {
                let context = FrameContext(document: document, interaction: Interaction(), externalComponents: components)
                frame = context
                later = context.forLaterViews
                XCTAssertNil(context.forLaterViews.externalComponents)
                XCTAssertTrue(context.forLaterViews === later, "made once")
            }
            XCTAssertNil(frame, "the frame's context is freed with the frame")
            XCTAssertNil(later)
        }
    }
}
