import Foundation
import HybridJSON

/// The Swift functions declared patchable (SPEC §4 `app.patchable`), by name, each with a way
/// to run its own body on JSON arguments (what `self.ORIGname` in `defineClass` calls, and what
/// tells a patch on `method:NAME` that the name is real).
///
/// Each `ServiceRegistry` owns one (`ServiceRegistry.patchableMethods`): a host declares its
/// functions before any script runtime exists, and the runtime it starts later reaches the
/// host's Swift side through that registry, as it reaches its services. Thread-safe; a later
/// declaration of a name replaces the earlier one.
public final class PatchableMethods: @unchecked Sendable {
    /// Runs a function on the JSON of its arguments.
    public typealias Original = ([JSONValue]) -> Result<JSONValue, PatchableFailure>

    private let lock = NSLock()
    private var originals: [String: Original] = [:]

    init() {}

    /// Declares `name` with a body taking one Codable input.
    public func declare<In: Codable, Out: Codable, Failure: Error>(_ name: String, _ body: @escaping (In) throws(Failure) -> Out) {
        declare(name, PatchableSignature<In>.single, body)
    }

    /// Declares `name` with a body taking no input.
    public func declare<Out: Codable, Failure: Error>(_ name: String, _ body: @escaping () throws(Failure) -> Out) {
        declare(name, PatchableSignature<Void>.none) { (_: Void) throws(Failure) in try body() }
    }

    private func declare<In, Out: Codable, Failure: Error>(_ name: String, _ signature: PatchableSignature<In>,
                                                          _ body: @escaping (In) throws(Failure) -> Out) {
        let original: Original = { arguments in signature.run(name, body, on: arguments) }
        lock.withLock { originals[name] = original }
    }

    /// The declared names, sorted.
    public var names: [String] {
        lock.withLock { originals.keys.sorted() }
    }

    /// The body of `name` on JSON arguments, if declared.
    public func original(named name: String) -> Original? {
        lock.withLock { originals[name] }
    }
}

/// Why a Swift original gave a script no value.
public enum PatchableFailure: Error, Sendable {
    /// The arguments do not decode into the function's input (`E_BAD_ARGUMENT`: the caller's fault).
    case badArguments(String)
    /// The function threw, or its value cannot be sent to scripts (`E_FAILED`).
    case failed(String)

    /// The `code` of the error a script sees.
    public var code: String {
        switch self {
        case .badArguments: return "E_BAD_ARGUMENT"
        case .failed: return "E_FAILED"
        }
    }

    /// What went wrong, naming the function (and the field, for bad arguments).
    public var message: String {
        switch self {
        case .badArguments(let message), .failed(let message): return message
        }
    }
}

/// How a patchable function's input travels to scripts: as one argument (its JSON) or none.
/// Shared by the declarations here and the bridge's calls through hooks.
package struct PatchableSignature<In> {
    package let encode: (In) throws -> [JSONValue]
    let decode: (_ arguments: [JSONValue], _ name: String) throws(PatchableFailure) -> In

    /// Runs `body` (the function `name`) on the JSON of its arguments; `observe` sees what the
    /// body itself answered or threw.
    package func run<Out: Encodable, Failure: Error>(_ name: String, _ body: (In) throws(Failure) -> Out, on arguments: [JSONValue],
                                                     observe: (Result<Out, Failure>) -> Void = { _ in }) -> Result<JSONValue, PatchableFailure> {
        let input: In
        do throws(PatchableFailure) {
            input = try decode(arguments, name)
        } catch {
            return .failure(error)
        }
        do throws(Failure) {
            let value = try body(input)
            observe(.success(value))
            do {
                return .success(try JSONValueEncoder().encode(value))
            } catch {
                return .failure(.failed("\(name) returned a value that cannot be sent to scripts: \(error)"))
            }
        } catch {
            observe(.failure(error))
            return .failure(.failed("\(name) threw: \(error)"))
        }
    }
}

extension PatchableSignature where In: Codable {
    /// One Codable input, passed as its JSON.
    package static var single: Self {
        Self(encode: { [try JSONValueEncoder().encode($0)] }, decode: { arguments, name throws(PatchableFailure) in
            guard arguments.count == 1 else {
                throw .badArguments("\(name) takes 1 argument, not \(arguments.count)")
            }
            do {
                return try JSONValueDecoder().decode(In.self, from: arguments[0])
            } catch let error as DecodingError {
                let (field, message) = describeDecodingError(error)
                throw .badArguments("\(name): \(field.map { "field \"\($0)\": " } ?? "")\(message)")
            } catch {
                throw .badArguments("\(name): \(error)")
            }
        })
    }
}

extension PatchableSignature where In == Void {
    /// No input: no arguments.
    package static var none: Self {
        Self(encode: { _ in [] }, decode: { arguments, name throws(PatchableFailure) in
            guard arguments.isEmpty else { throw .badArguments("\(name) takes no arguments, not \(arguments.count)") }
        })
    }
}
