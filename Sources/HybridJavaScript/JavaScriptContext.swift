import CJavaScriptCore
#if canImport(Glibc)
import Glibc
#endif
import HybridJSON

/// A JavaScriptCore context with its own virtual machine, used from one thread at a time.
///
/// Everything JavaScriptCore hands out (`JSValueRef`, `JSObjectRef`) is only valid while the
/// context lives; values kept past the current call must be wrapped in `ProtectedValue`.
public final class JavaScriptContext {
    let group: JSContextGroupRef
    /// The global context, for C-level fast paths in programs that import JavaScriptCore themselves.
    public let ref: JSGlobalContextRef
    /// The time limit: the only way to tell its termination from a script that throws the
    /// same string, and where it stopped the script.
    let watchdog: Watchdog
    /// How many `enter` calls are running (nested ones run inside the outermost).
    var entryDepth = 0
    /// What the trampoline runs in the current entry.
    var entryWork: (() -> Void)?
    /// The function every entry runs inside (`enter`).
    lazy var trampoline: JSObjectRef = makeTrampoline()

    /// JavaScriptCore stops a runaway in optimized code by signalling its thread, which on Linux
    /// sometimes never lands: the second or third runaway of one function then spins for ever
    /// (and a stop left pending can hijack the thread later). Polling traps make the check a
    /// flag the code reads. JavaScriptCore reads its options once, when the first context of
    /// the process is made — so here, before every context; a value the environment already
    /// has wins.
    static let pollingTraps: Void = {
        setenv("JSC_usePollingTraps", "1", 0)
    }()

    /// A fresh context in its own context group (its own VM, so it can run in parallel with
    /// others): the one the engine's loading thread made, for the first context of a program
    /// that asked for it (`JavaScriptEngine.prepareFirstContext()`).
    public init() {
        JavaScriptEngine.loadForContext()
        _ = Self.pollingTraps
        var preparedGroup: JSContextGroupRef?
        var preparedContext: JSGlobalContextRef?
        if HybridJavaScriptCoreTakePreparedContext(&preparedGroup, &preparedContext), let preparedGroup, let preparedContext {
            group = preparedGroup
            ref = preparedContext
        } else {
            group = JSContextGroupCreate()
            ref = JSGlobalContextCreateInGroup(group, nil)
        }
        watchdog = Watchdog(group: group)
        ImmediateValue.verify(in: ref)
    }

    deinit {
        JSGlobalContextRelease(ref)
        JSContextGroupRelease(group)
    }

    /// The global object.
    public var globalObject: JavaScriptValue { JavaScriptValue(JSContextGetGlobalObject(ref), in: self) }

    // MARK: Evaluating

    /// Evaluates `script`, naming it `sourceURL` in errors and stacks.
    @discardableResult
    public func evaluate(_ script: String, sourceURL: String = "<eval>") throws(ScriptError) -> JavaScriptValue {
        switch evaluateCatching(script, sourceURL: sourceURL) {
        case .success(let value): return value
        case .failure(let thrown): throw scriptError(from: thrown.value)
        }
    }

    /// Evaluates `script`, handing back the thrown value itself on failure (to rethrow it
    /// into a calling script unchanged).
    public func evaluateCatching(_ script: String, sourceURL: String) -> Result<JavaScriptValue, ScriptThrow> {
        let source = Self.makeJSString(script)
        let url = Self.makeJSString(sourceURL)
        defer {
            JSStringRelease(source)
            JSStringRelease(url)
        }
        var exception: JSValueRef?
        let result = JSEvaluateScript(ref, source, nil, url, 1, &exception)
        if let exception { return .failure(ScriptThrow(JavaScriptValue(exception, in: self))) }
        return .success(JavaScriptValue(result ?? JSValueMakeUndefined(ref), in: self))
    }

    /// Calls `function` with arguments made one at a time by `makers`: each is protected as soon
    /// as it exists, because values held in a Swift array are invisible to the collector and
    /// making the next one can collect the previous. (`JavaScriptValue.call(making:)` is the
    /// way in from Swift.)
    func call(_ function: JSObjectRef, making makers: [() -> JSValueRef]) throws(ScriptError) -> JSValueRef {
        var values: [JSValueRef?] = []
        values.reserveCapacity(makers.count)
        defer { values.forEach { JSValueUnprotect(ref, $0) } }
        for make in makers {
            let value = make()
            JSValueProtect(ref, value)
            values.append(value)
        }
        return try call(function, arguments: values)
    }

    /// Calls `function` with `arguments`, `this` being the global object unless given; C-level,
    /// for fast paths. The arguments must be reachable otherwise (on the stack, protected, or
    /// held by an object).
    @discardableResult
    public func call(_ function: JSObjectRef, this: JSObjectRef? = nil, arguments: [JSValueRef?]) throws(ScriptError) -> JSValueRef {
        var exception: JSValueRef?
        let result = arguments.withUnsafeBufferPointer { buffer in
            JSObjectCallAsFunction(ref, function, this, buffer.count, buffer.baseAddress, &exception)
        }
        if let exception { throw scriptError(from: JavaScriptValue(exception, in: self)) }
        return result ?? JSValueMakeUndefined(ref)
    }

    // MARK: Properties

    /// Sets the global `name` to `value`.
    public func set(_ name: String, to value: JavaScriptValue) {
        set(name, to: value.ref, on: nil)
    }

    /// Sets `object[name] = value` (the global object's without `object`).
    func set(_ name: String, to value: JSValueRef, on object: JSObjectRef?) {
        let key = Self.makeJSString(name)
        defer { JSStringRelease(key) }
        JSObjectSetProperty(ref, object ?? JSContextGetGlobalObject(ref), key, value, JSPropertyAttributes(kJSPropertyAttributeNone), nil)
    }

    /// `object[name]`, or `nil` when undefined.
    func property(_ name: String, of object: JSValueRef) -> JSValueRef? {
        guard let object = JSValueToObject(ref, object, nil) else { return nil }
        let key = Self.makeJSString(name)
        defer { JSStringRelease(key) }
        let value = JSObjectGetProperty(ref, object, key, nil)
        return value.flatMap { JSValueIsUndefined(ref, $0) ? nil : $0 }
    }

    // MARK: Values

    /// The text of any value (`String(value)` in JavaScript); C-level (`JavaScriptValue.string`
    /// reads it from a value).
    public func string(_ value: JSValueRef) -> String {
        guard let text = JSValueToStringCopy(ref, value, nil) else { return "" }
        defer { JSStringRelease(text) }
        return Self.string(text)
    }

    /// A Swift string from a JavaScriptCore string; a lone surrogate (half of a UTF-16 pair,
    /// which JavaScript strings may hold and Swift strings cannot) becomes U+FFFD, as the web's
    /// `TextEncoder` makes it.
    public static func string(_ text: JSStringRef) -> String {
        let capacity = JSStringGetMaximumUTF8CStringSize(text)
        let converted = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> String? in
            // The count includes the terminating zero.
            let written = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: capacity) {
                JSStringGetUTF8CString(text, $0, capacity)
            }
            let bytes = UnsafeBufferPointer(rebasing: buffer[..<max(0, written - 1)])
            // The engine's conversion stops at a lone surrogate: the text is whole only when it
            // gave back all of the string's UTF-16 units.
            guard utf16Count(of: bytes) == JSStringGetLength(text) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        return converted ?? String(decoding: UnsafeBufferPointer(start: JSStringGetCharactersPtr(text), count: JSStringGetLength(text)), as: UTF16.self)
    }

    /// How many UTF-16 units the UTF-8 `bytes` hold: one for every character, and another for
    /// every four-byte one. A loop the compiler vectorizes, as it runs for every string.
    private static func utf16Count(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes {
            count &+= (byte & 0xC0 != 0x80 ? 1 : 0) &+ (byte >= 0xF0 ? 1 : 0)
        }
        return count
    }

    /// Runs `body`, a burst of engine calls (a conversion, a decode), holding the engine's
    /// lock. JavaScriptCore drops its lock around a native callback, so each C API call there
    /// takes it afresh: a full acquire and release, with the thread's stack bounds and string
    /// table. Held, each only counts up and down (a sync service call's locking: 1,880
    /// instructions to 1,340). Its release drains no jobs inside a callback, where the
    /// engine only drains when no callback has dropped the lock. Never around code that may
    /// run long or wait (a service's body): while a thread holds the lock, the engine signals
    /// it to stop a runaway script and the collector cannot stop the world, and another thread
    /// needing the engine would wait.
    func withEngineLock<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        JSLock(ref)
        defer { JSUnlock(ref) }
        return try body()
    }

    /// A JavaScriptCore string holding all of `text`: made from UTF-16, because a C string ends
    /// at the first NUL (a script cut short there ran as if it ended, and a value lost its tail),
    /// and the engine's own conversion from UTF-8 costs more than it saves by keeping ASCII in
    /// 8 bits (1.0 M instructions for the bridge's scripts, which then parse 0.1 M faster).
    /// Decoded from the string's UTF-8 by hand in one pass, as a Swift string's UTF-8 is always
    /// valid: the standard library's generic transcoding (once a script's first comment had a
    /// `§`) took 0.78 M instructions of starting a runtime, this 0.29 M.
    static func makeJSString(_ text: String) -> JSStringRef {
        var text = text
        return text.withUTF8 { bytes in
            // Each UTF-16 code unit comes from at least one UTF-8 byte.
            withUnsafeTemporaryAllocation(of: JSChar.self, capacity: max(1, bytes.count)) { units in
                var count = 0
                var index = 0
                while index < bytes.count {
                    let lead = UInt32(bytes[index])
                    let scalar: UInt32
                    switch lead {
                    case ..<0x80:
                        // A run of ASCII, eight bytes at a time while they all are.
                        while index + 8 <= bytes.count {
                            let chunk = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
                            guard chunk & 0x8080_8080_8080_8080 == 0 else { break }
                            for byte in 0..<8 { units[count + byte] = JSChar(UInt8(truncatingIfNeeded: chunk >> (byte * 8))) }
                            count += 8
                            index += 8
                        }
                        while index < bytes.count, bytes[index] < 0x80 {
                            units[count] = JSChar(bytes[index])
                            count += 1
                            index += 1
                        }
                        continue
                    case ..<0xE0:
                        scalar = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                        index += 2
                    case ..<0xF0:
                        scalar = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                        index += 3
                    default:
                        scalar = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                            | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                        index += 4
                    }
                    if scalar < 0x10000 {
                        units[count] = JSChar(scalar)
                        count += 1
                    } else {
                        let offset = scalar - 0x10000
                        units[count] = JSChar(0xD800 + (offset >> 10))
                        units[count + 1] = JSChar(0xDC00 + (offset & 0x3FF))
                        count += 2
                    }
                }
                return JSStringCreateWithCharacters(units.baseAddress, count)
            }
        }
    }

    /// A JavaScript string.
    public func makeString(_ text: String) -> JavaScriptValue {
        let string = Self.makeJSString(text)
        defer { JSStringRelease(string) }
        return JavaScriptValue(JSValueMakeString(ref, string), in: self)
    }

    /// A JavaScript number.
    public func makeNumber(_ number: Double) -> JavaScriptValue {
        JavaScriptValue(ImmediateValue.makeNumber(number, in: ref), in: self)
    }

    /// `true` or `false`.
    public func makeBoolean(_ value: Bool) -> JavaScriptValue {
        JavaScriptValue(ImmediateValue.makeBoolean(value, in: ref), in: self)
    }

    /// A new empty object.
    public func makeObject() -> JavaScriptValue {
        JavaScriptValue(JSObjectMake(ref, nil, nil), in: self)
    }

    /// `undefined`.
    public var undefined: JavaScriptValue { JavaScriptValue(JSValueMakeUndefined(ref), in: self) }

    /// `null`.
    public var null: JavaScriptValue { JavaScriptValue(JSValueMakeNull(ref), in: self) }

    // MARK: Errors

    /// A `ScriptError` describing a thrown value: its message, `FILE:LINE:COL` and stack.
    public func scriptError(from thrown: JavaScriptValue) -> ScriptError {
        let exception = thrown.ref
        let message = describe(thrown: exception)
        if watchdog.fired, JSValueIsString(ref, exception), message == ScriptError.terminationMessage {
            let stopped = watchdog.stopError()
            // Outside `enter` no entry ends to re-arm the limit: the call that was stopped is the entry.
            if entryDepth == 0 { watchdog.end() }
            return stopped
        }
        guard JSValueIsObject(ref, exception) else {
            return ScriptError(message: "uncaught " + message, location: nil, stack: [])
        }
        var location: String?
        if let line = property("line", of: exception) {
            let file = property("sourceURL", of: exception).map(string) ?? "<eval>"
            let column = property("column", of: exception).map(string) ?? "1"
            location = "\(file):\(string(line)):\(column)"
        }
        let stack = property("stack", of: exception).map(string)?
            .split(separator: "\n").map(String.init) ?? []
        return ScriptError(message: message, location: location, stack: stack)
    }

    /// The text of a thrown value for a report, never empty: `String(value)` where that works;
    /// a Symbol (which refuses to become a string implicitly) by its description; a value whose
    /// `toString` throws, or gives nothing, by its kind and what went wrong.
    func describe(thrown value: JSValueRef) -> String {
        if JSValueIsSymbol(ref, value), let string = property("String", of: JSContextGetGlobalObject(ref)).flatMap({ JSValueToObject(ref, $0, nil) }),
           let text = try? call(string, arguments: [value]) {
            return self.string(text)
        }
        var exception: JSValueRef?
        if let text = JSValueToStringCopy(ref, value, &exception) {
            defer { JSStringRelease(text) }
            let description = Self.string(text)
            if !description.isEmpty { return description }
        }
        let kind = JSValueIsObject(ref, value) ? "an object" : "a value"
        guard let exception else { return "\(kind) that reads as an empty string" }
        let reason = JSValueToStringCopy(ref, exception, nil).map { text in
            defer { JSStringRelease(text) }
            return Self.string(text)
        } ?? "?"
        return "\(kind) whose toString threw (\(reason))"
    }

    /// A JavaScript `Error` with `message` (and a `code` property when given); `undefined`
    /// while the entry is being stopped (its time ran out), when the engine makes no error and
    /// the script never sees one.
    public func makeError(_ message: String, code: String? = nil) -> JavaScriptValue {
        var argument: JSValueRef? = makeString(message).ref
        guard let made = JSObjectMakeError(ref, 1, &argument, nil) else { return JavaScriptValue(JSValueMakeUndefined(ref), in: self) }
        let error = JavaScriptValue(made, in: self)
        if let code { error.set("code", to: makeString(code)) }
        return error
    }

    // MARK: Limits

    /// Stops any entry (`enter`) that runs longer than `seconds` of CPU time, microtasks
    /// included: the entry's outcome says so, and the context stays usable.
    public func limitExecutionTime(to seconds: Double) {
        watchdog.limit = seconds
        watchdog.arm(seconds)
    }

    /// Calls `handler(promise, reason)` (a JavaScript function) for each rejection left unhandled.
    public func onUnhandledRejection(_ handler: JavaScriptValue) {
        JSGlobalContextSetUnhandledRejectionCallback(ref, JSValueToObject(ref, handler.ref, nil), nil)
    }

    /// Runs the garbage collector (tests use it to prove values are released).
    public func collectGarbage() {
        JSGarbageCollect(ref)
    }
}
