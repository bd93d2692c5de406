import HybridDocument
import HybridExpressions
import HybridJSON

extension PropertyValue {
    /// An expression in a prop that failed, and where it is written.
    public struct Failure: Error, Sendable {
        /// DivKit's message.
        public var error: ExpressionError
        /// Where the failing expression is.
        public var location: ExpressionLocation
    }

    /// The prop's value in `scope` (state, list item, component props).
    public func value(in scope: StateScope) throws(Failure) -> JSONValue {
        switch self {
        case .constant(let json):
            return json
        case .expression(let template, _, let location):
            do {
                return try template.evaluate(in: scope).json
            } catch {
                throw Failure(error: error, location: location)
            }
        case .array(let items):
            var result: [JSONValue] = []
            result.reserveCapacity(items.count)
            for item in items { result.append(try item.value(in: scope)) }
            return .array(result)
        case .object(let members):
            var result = JSONObject()
            for member in members { result[member.key] = try member.value.value(in: scope) }
            return .object(result)
        }
    }
}
