import Foundation
import HybridJSON

/// The parts of an API definition below the API itself: params, cache, retry, paging, and the
/// readers of single values every part uses.
extension APIDefinitionsDecoder {
    // MARK: Params

    mutating func params(_ json: SourceJSON) -> [String: ParamRule]? {
        guard let members = json.members else {
            report("expected an object of params by name, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        var rules: [String: ParamRule] = [:]
        for member in members {
            inKey(member.key) { decoder in
                if let rule = decoder.param(member.value) { rules[member.key] = rule }
            }
        }
        return rules
    }

    private mutating func param(_ json: SourceJSON) -> ParamRule? {
        guard let members = json.members else {
            report("expected a param (an object with \"type\"), got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: Self.paramFields, owner: "a param")
        guard let kind = required(json, "type", { $0.choice($1, ParamRule.Kind.self) }) else { return nil }
        var rule = ParamRule(kind: kind)
        rule.required = json["required"].flatMap { value in inKey("required") { $0.flag(value) } } ?? false
        let numeric = kind == .integer || kind == .number
        let measured = kind == .string || kind == .array
        rule.minimum = json["minimum"].flatMap { value in inKey("minimum") { $0.bound(value, applies: numeric, to: "integer and number params") } }
        rule.maximum = json["maximum"].flatMap { value in inKey("maximum") { $0.bound(value, applies: numeric, to: "integer and number params") } }
        rule.minLength = json["minLength"].flatMap { value in inKey("minLength") { $0.length(value, applies: measured) } }
        rule.maxLength = json["maxLength"].flatMap { value in inKey("maxLength") { $0.length(value, applies: measured) } }
        if let pattern = json["pattern"] {
            rule.pattern = inKey("pattern") { $0.pattern(pattern, applies: kind == .string) }
        }
        if let allowed = json["enum"] {
            rule.allowed = inKey("enum") { decoder -> [JSONValue]? in
                guard let items = allowed.items, !items.isEmpty else {
                    decoder.report("expected a non-empty array of the values allowed, got \(allowed.kindDescription)", at: allowed.offset)
                    return nil
                }
                for (index, item) in items.enumerated() where !ParamRule.has(kind, item.plain) {
                    decoder.atIndex(index) { $0.report("expected \(ParamRule.describe(kind)) like the param, got \(item.kindDescription)", at: item.offset) }
                }
                return items.map(\.plain)
            }
        }
        if let value = json["default"] {
            rule.defaultValue = value.plain
            // A default is a value like any other: it must keep the param's own rule.
            if let problem = rule.problem(with: value.plain) { inKey("default") { $0.report("the default breaks the param's rule: \(problem)", at: value.offset) } }
        }
        return rule
    }

    private mutating func bound(_ json: SourceJSON, applies: Bool, to kinds: String) -> Double? {
        guard applies else {
            report("only \(kinds) have this constraint", at: json.offset)
            return nil
        }
        guard let number = Self.number(json), number.isFinite else {
            report("expected a number, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        return number
    }

    private mutating func length(_ json: SourceJSON, applies: Bool) -> Int? {
        guard applies else {
            report("only string and array params have this constraint", at: json.offset)
            return nil
        }
        return count(json, maximum: Int(Int32.max))
    }

    private mutating func pattern(_ json: SourceJSON, applies: Bool) -> String? {
        guard applies else {
            report("only string params have a pattern", at: json.offset)
            return nil
        }
        guard let text = plainString(json) else { return nil }
        if case .failure(.invalid) = Result(catching: { () throws(BoundedRegex.Failure) in try BoundedRegex.matches("", pattern: text) }) {
            report("not a regular expression: \(DiagnosticText.quoted(text))", at: json.offset)
            return nil
        }
        return text
    }

    // MARK: Cache, retry, paging

    mutating func cache(_ json: SourceJSON) -> APIDefinitions.Cache? {
        guard let members = json.members else {
            report("expected {\"ttl\": SECONDS, \"store\": \"memory\"|\"disk\", \"staleIfError\": BOOL}, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: ["ttl", "store", "staleIfError"], owner: "\"cache\"")
        let ttl = required(json, "ttl") { $0.seconds($1, maximum: 365 * 86_400) }
        let store = json["store"].flatMap { value in inKey("store") { $0.choice(value, APIDefinitions.Cache.Store.self) } } ?? .memory
        let stale = json["staleIfError"].flatMap { value in inKey("staleIfError") { $0.flag(value) } } ?? false
        guard let ttl else { return nil }
        return APIDefinitions.Cache(ttl: ttl, store: store, staleIfError: stale)
    }

    mutating func retry(_ json: SourceJSON) -> APIDefinitions.Retry? {
        guard let members = json.members else {
            report("expected {\"count\": N, \"on\": [STATUS or CODE…], \"backoff\": MS}, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: ["count", "on", "backoff"], owner: "\"retry\"")
        let count = required(json, "count") { $0.count($1, maximum: 10) }
        var statuses = Set<Int>(), codes = Set<String>()
        if let on = json["on"] {
            inKey("on") { decoder in
                guard let items = on.items else {
                    decoder.report("expected an array of HTTP statuses and error codes, got \(on.kindDescription)", at: on.offset)
                    return
                }
                for (index, item) in items.enumerated() {
                    decoder.atIndex(index) { decoder in
                        if let status = item.integerValue, (400...599).contains(status) {
                            statuses.insert(status)
                        } else if let code = item.stringValue, APIDefinitions.Retry.retriableCodes.contains(code) {
                            codes.insert(code)
                        } else {
                            let hint = item.stringValue.map { Suggestion.hint(for: $0, in: APIDefinitions.Retry.retriableCodes) } ?? ""
                            decoder.report("expected an HTTP status from 400 to 599 or one of \(APIDefinitions.Retry.retriableCodes.joined(separator: ", ")), "
                                           + "got \(DiagnosticText.cut(item.plain.jsonText))\(hint)", at: item.offset)
                        }
                    }
                }
            }
        } else {
            statuses = [502, 503, 504]
            codes = ["E_TIMEOUT", "E_OFFLINE"]
        }
        let backoff = json["backoff"].flatMap { value in inKey("backoff") { $0.milliseconds(value) } } ?? 200
        guard let count else { return nil }
        return APIDefinitions.Retry(count: count, statuses: statuses, codes: codes, backoff: backoff)
    }

    /// `declared` names every param written, `params` those that decoded.
    mutating func paging(_ json: SourceJSON, params: [String: ParamRule], declared: [String]) -> APIDefinitions.Paging? {
        guard let members = json.members else {
            report("expected {\"param\": NAME, \"items\": PATH}, got \(json.kindDescription)", at: json.offset)
            return nil
        }
        checkFields(members, allowed: ["param", "items"], owner: "\"paging\"")
        let param = required(json, "param") { decoder, value -> String? in
            guard let name = decoder.plainString(value) else { return nil }
            guard declared.contains(name) else {
                decoder.report("the page param must be an integer param of this API, \(DiagnosticText.quoted(name)) is not one\(Suggestion.hint(for: name, in: declared))",
                               at: value.offset)
                return nil
            }
            if let rule = params[name], rule.kind != .integer {
                decoder.report("the page param must be an integer param, \(DiagnosticText.quoted(name)) is \(ParamRule.describe(rule.kind))", at: value.offset)
                return nil
            }
            return name
        }
        let items = json["items"].flatMap { value in inKey("items") { $0.plainString(value) } } ?? ""
        guard let param else { return nil }
        return APIDefinitions.Paging(param: param, items: items)
    }

    // MARK: Values

    mutating func flag(_ json: SourceJSON) -> Bool? {
        if let flag = json.boolValue { return flag }
        report("expected true or false, got \(json.kindDescription)", at: json.offset)
        return nil
    }

    /// A number of seconds above 0, at most `maximum`.
    mutating func seconds(_ json: SourceJSON, maximum: Double) -> Double? {
        guard let number = Self.number(json), number.isFinite, number > 0, number <= maximum else {
            report("expected a number of seconds above 0 and at most \(ParamRule.format(maximum)), got \(DiagnosticText.cut(json.plain.jsonText))", at: json.offset)
            return nil
        }
        return number
    }

    private mutating func milliseconds(_ json: SourceJSON) -> Double? {
        guard let number = Self.number(json), number.isFinite, number >= 0, number <= 600_000 else {
            report("expected a number of milliseconds from 0 to 600000, got \(DiagnosticText.cut(json.plain.jsonText))", at: json.offset)
            return nil
        }
        return number
    }

    private mutating func count(_ json: SourceJSON, maximum: Int) -> Int? {
        guard let number = json.integerValue, number >= 0, number <= maximum else {
            report("expected a whole number from 0 to \(maximum), got \(DiagnosticText.cut(json.plain.jsonText))", at: json.offset)
            return nil
        }
        return number
    }

    /// The number an integer or number holds.
    static func number(_ json: SourceJSON) -> Double? {
        json.numberValue ?? json.integerValue.map(Double.init)
    }

    /// One of `choices` (a string), with a did-you-mean.
    mutating func oneOf(_ json: SourceJSON, _ choices: [String], what: String) -> String? {
        guard let text = plainString(json) else { return nil }
        guard choices.contains(text) else {
            report("expected \(what): \(choices.map { "\"\($0)\"" }.joined(separator: ", ")); got \(DiagnosticText.quoted(text))\(Suggestion.hint(for: text, in: choices))",
                   at: json.offset)
            return nil
        }
        return text
    }

    /// A case of `T` by its raw value.
    mutating func choice<T: RawRepresentable & CaseIterable>(_ json: SourceJSON, _: T.Type) -> T? where T.RawValue == String {
        oneOf(json, T.allCases.map(\.rawValue), what: "one of").flatMap(T.init(rawValue:))
    }
}
