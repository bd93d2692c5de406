import Foundation
import HybridBridge
import HybridJSON
import HybridJavaScript
import HybridServices
import XCTest

/// SPEC §3's `URL` and `URLSearchParams` (`JavaScript/url.js`), checked inside the real runtime
/// against the URL Standard's own test data: a sample of web-platform-tests' files in
/// `Tests/Fixtures/url/` (its README says where each comes from and how it was sampled).
///
/// Each test hands a whole fixture to one script, which answers what the runtime makes of
/// every case; the comparison is done here, so a failure names the case and the field.
final class URLConformanceTests: XCTestCase {
    /// `Tests/Fixtures/url`, found from this file (`Tests/HybridBridgeTests/…`).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/url")

    private var runtime: ScriptRuntime!

    override func setUp() {
        runtime = ScriptRuntime(services: ServiceRegistry(), caller: ServiceCaller(name: "test", permissions: nil), timeLimit: 10)
    }

    override func tearDown() {
        runtime = nil
    }

    private func fixture(_ name: String) throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    /// What `script` evaluates to, as JSON.
    private func evaluate(_ script: String) throws -> JSONValue {
        try runtime.context.evaluate(script, sourceURL: "url-conformance.js").json
    }

    /// The items of `value`, which must be an array.
    private func items(_ value: JSONValue, file: StaticString = #filePath, line: UInt = #line) throws -> [JSONValue] {
        try XCTUnwrap(value.arrayValue, "the script answered \(value.kindDescription), not an array", file: file, line: line)
    }

    // MARK: Parsing (urltestdata.json)

    func testEveryParsedURLHasTheStandardsFieldsAndEveryFailureThrowsATypeError() throws {
        let text = try fixture("urltestdata-sample.json")
        let rows = try JSONDecoder().decode([[String?]].self, from: Data(text.utf8))
        let columns = rows[0].map { $0 ?? "" }
        let cases = rows.dropFirst()
        XCTAssertGreaterThanOrEqual(cases.count, 400, "the sample is several hundred cases")
        let results = try items(evaluate("""
            const [columns, ...rows] = \(text);
            rows.map(([input, base]) => {
              try {
                const url = base === null ? new URL(input) : new URL(input, base);
                return Object.fromEntries(columns.slice(2).map((field) => [field, url[field]]));
              } catch (error) {
                return { thrown: error.name, message: error.message };
              }
            })
            """))
        XCTAssertEqual(results.count, cases.count)
        var failures = 0
        for (number, (row, result)) in zip(cases, results).enumerated() {
            let label = "case \(number + 1): \(debugString(row[0])) against \(debugString(row[1]))"
            if row.count == 2 {
                failures += 1
                XCTAssertEqual(result["thrown"], .string("TypeError"), "\(label) must fail with a TypeError")
                continue
            }
            XCTAssertNil(result["thrown"], "\(label) threw \(result["message"]?.stringValue ?? "")")
            for (column, expected) in zip(columns, row).dropFirst(2) {
                guard let expected else { continue } // an origin the standard leaves open
                XCTAssertEqual(result[column]?.stringValue, expected, "\(label): \(column)")
            }
        }
        XCTAssertGreaterThan(failures, 100, "the sample has its share of failures")
    }

    func testAFailureSaysInvalidURLWithTheInputAndCanParseAgrees() throws {
        let result = try evaluate("""
            const message = (f) => { try { f(); return 'no error'; } catch (error) { return `${error.name}: ${error.message}`; } };
            ({
              plain: message(() => new URL('http://exa mple.com/')),
              relative: message(() => new URL('/just/a/path')),
              badBase: message(() => new URL('/x', 'not a base')),
              href: message(() => { new URL('http://a/').href = 'http://[::1'; }),
              canParse: [URL.canParse('https://a/'), URL.canParse('/x'), URL.canParse('/x', 'https://a/b'), URL.canParse('/x', 'nope')],
              parse: [URL.parse('x', 'https://a/b/c')?.href, URL.parse('http://[')],
            })
            """)
        XCTAssertEqual(result["plain"], .string("TypeError: Invalid URL: http://exa mple.com/"))
        XCTAssertEqual(result["relative"], .string("TypeError: Invalid URL: /just/a/path"))
        XCTAssertEqual(result["badBase"], .string("TypeError: Invalid URL: /x (against not a base)"))
        XCTAssertEqual(result["href"], .string("TypeError: Invalid URL: http://[::1"))
        XCTAssertEqual(result["canParse"], .array([.bool(true), .bool(false), .bool(true), .bool(false)]))
        XCTAssertEqual(result["parse"], .array([.string("https://a/b/x"), .null]))
    }

    func testURLSerializesAndIsAnOrdinaryNonEnumerableGlobal() throws {
        let result = try evaluate("""
            const url = new URL('https://user:pw@example.com:8443/a/b?q=1#top');
            ({
              string: String(url),
              json: JSON.stringify({ url }),
              tag: [Object.prototype.toString.call(url), Object.prototype.toString.call(url.searchParams)],
              enumerable: Object.keys(globalThis).filter((key) => key === 'URL' || key === 'URLSearchParams'),
              instances: [url instanceof URL, url.searchParams instanceof URLSearchParams, url.searchParams === url.searchParams],
            })
            """)
        XCTAssertEqual(result["string"], .string("https://user:pw@example.com:8443/a/b?q=1#top"))
        XCTAssertEqual(result["json"], .string(#"{"url":"https://user:pw@example.com:8443/a/b?q=1#top"}"#))
        XCTAssertEqual(result["tag"], .array([.string("[object URL]"), .string("[object URLSearchParams]")]))
        XCTAssertEqual(result["enumerable"], .array([]))
        XCTAssertEqual(result["instances"], .array([.bool(true), .bool(true), .bool(true)]))
    }

    func testDomainToASCIIMatchesTheStandardsIDNAData() throws {
        let results = try items(evaluate("""
            (\(try fixture("toascii.json"))).map(({ input, output }) => {
              let parsed = null;
              try { parsed = new URL(`https://${input}/x`).host; } catch (error) { if (!(error instanceof TypeError)) throw error; }
              const url = new URL('https://unchanged/x');
              url.hostname = input;
              return { input, output, parsed, set: url.hostname };
            })
            """))
        XCTAssertEqual(results.count, 44)
        for result in results {
            let label = "host \(debugString(result["input"]?.stringValue))"
            XCTAssertEqual(result["parsed"], result["output"], label)
            XCTAssertEqual(result["set"], result["output"] == .null ? .string("unchanged") : result["output"], "\(label) through the hostname setter")
        }
    }

    // MARK: Setters (setters_tests.json)

    func testEverySetterChangesTheURLAsTheStandardSays() throws {
        let results = try items(evaluate("""
            const answers = [];
            for (const [setter, cases] of Object.entries(\(try fixture("setters-sample.json")))) {
              for (const { href, new_value: value, expected } of cases) {
                const url = new URL(href);
                url[setter] = value;
                const actual = Object.fromEntries(Object.keys(expected).map((field) => [field, url[field]]));
                answers.push({ setter, href, value, expected, actual });
              }
            }
            answers
            """))
        XCTAssertGreaterThanOrEqual(results.count, 150)
        for result in results {
            let label = "\(result["setter"]?.stringValue ?? "?") = \(debugString(result["value"]?.stringValue)) on \(result["href"]?.stringValue ?? "?")"
            for (field, expected) in result["expected"]?.objectValue ?? JSONObject() {
                XCTAssertEqual(result["actual"]?[field], expected, "\(label): \(field)")
            }
        }
    }

    // MARK: URLSearchParams

    func testFormURLEncodedParsingMatchesTheStandardsData() throws {
        let results = try items(evaluate("""
            (\(try fixture("urlencoded-parser-data.json"))).map(({ input, output }) => ({ input, output, actual: [...new URLSearchParams(input)] }))
            """))
        XCTAssertEqual(results.count, 35)
        for result in results {
            XCTAssertEqual(result["actual"], result["output"], "parsing \(debugString(result["input"]?.stringValue))")
        }
    }

    func testSortingAndSerializingMatchTheStandardsData() throws {
        let result = try evaluate("""
            const data = \(try fixture("urlsearchparams-sample.json"));
            ({
              sort: data.sort.map(({ input, output }) => {
                const params = new URLSearchParams(input);
                params.sort();
                const url = new URL('?' + input, 'https://example/');
                url.searchParams.sort();
                return { input, output, actual: [...params], throughURL: [...new URLSearchParams(url.search)] };
              }),
              toString: data.toString.map(({ input, output }) => ({ input, output, actual: new URLSearchParams(input).toString() })),
              append: data.append.map(({ pairs, output }) => {
                const params = new URLSearchParams();
                for (const [name, value] of pairs) params.append(name, value);
                return { input: JSON.stringify(pairs), output, actual: String(params) };
              }),
            })
            """)
        for section in ["sort", "toString", "append"] {
            let results = try items(XCTUnwrap(result[section]))
            XCTAssertFalse(results.isEmpty, section)
            for item in results {
                let label = "\(section) of \(debugString(item["input"]?.stringValue))"
                XCTAssertEqual(item["actual"], item["output"], label)
                if section == "sort" { XCTAssertEqual(item["throughURL"], item["output"], "\(label), through url.searchParams") }
            }
        }
    }

    func testSearchParamsAndSearchFollowEachOther() throws {
        let result = try evaluate("""
            const url = new URL('http://www.example.com/?a=b,c');
            const params = url.searchParams;
            const seen = { before: [url.href, String(params)] };
            params.append('x', 'y');
            seen.appended = url.href;
            url.search = '?n=1&n=2&m=%20';
            seen.searchSet = [params.getAll('n'), params.get('m'), params.size];
            url.href = 'https://other.example/?q=z#f';
            seen.hrefSet = [params.get('q'), params.size, url.searchParams === params];
            params.delete('q');
            seen.emptied = [url.href, url.search];
            url.search = 'k=v';
            url.search = '';
            seen.searchCleared = [params.size, url.href];
            const bare = new URL('http://example.com/?');
            bare.searchParams.sort();
            seen.sortedNothing = bare.href;
            const opaque = new URL('sc:path?a=1');
            opaque.searchParams.set('a', 'b c');
            seen.opaque = opaque.href;
            seen
            """)
        XCTAssertEqual(result["before"], .array([.string("http://www.example.com/?a=b,c"), .string("a=b%2Cc")]))
        XCTAssertEqual(result["appended"], .string("http://www.example.com/?a=b%2Cc&x=y"))
        XCTAssertEqual(result["searchSet"], .array([.array([.string("1"), .string("2")]), .string(" "), .integer(3)]))
        XCTAssertEqual(result["hrefSet"], .array([.string("z"), .integer(1), .bool(true)]))
        XCTAssertEqual(result["emptied"], .array([.string("https://other.example/#f"), .string("")]))
        XCTAssertEqual(result["searchCleared"], .array([.integer(0), .string("https://other.example/#f")]))
        XCTAssertEqual(result["sortedNothing"], .string("http://example.com/"))
        XCTAssertEqual(result["opaque"], .string("sc:path?a=b+c"))
    }

    func testURLSearchParamsMethodsAndConstructors() throws {
        let result = try evaluate("""
            const names = (params) => String(params);
            const thrown = (f) => { try { f(); return 'no error'; } catch (error) { return error.name; } };
            const params = new URLSearchParams('?a=b&a=c&a=d&e=f');
            const seen = { start: [params.size, params.get('a'), params.getAll('a'), params.get('zz'), params.has('e'), params.has('a', 'c'), params.has('a', 'x')] };
            params.delete('a', 'c');
            seen.deletedOne = names(params);
            params.set('a', 'new');
            seen.set = names(params);
            params.delete('a', undefined);
            seen.deletedAll = names(params);
            const order = [];
            const listed = new URLSearchParams('x=1&y=2');
            listed.forEach((value, name, self) => order.push(name + value + (self === listed)));
            seen.iteration = [order, [...listed.keys()], [...listed.values()], [...listed.entries()], [...listed]];
            seen.constructors = [
              names(new URLSearchParams({ b: 1, a: 'two words' })),
              names(new URLSearchParams([['a', '1'], ['b', '2']])),
              names(new URLSearchParams(listed)),
              names(new URLSearchParams('??q')),
              names(new URLSearchParams()),
              names(new URLSearchParams('a=\\uD800')),
            ];
            seen.errors = [thrown(() => new URLSearchParams([['a']])), thrown(() => new URLSearchParams(['ab'])), thrown(() => listed.append('only a name'))];
            seen
            """)
        XCTAssertEqual(result["start"], .array([.integer(4), .string("b"), .array(["b", "c", "d"].map(JSONValue.string)), .null, .bool(true), .bool(true), .bool(false)]))
        XCTAssertEqual(result["deletedOne"], .string("a=b&a=d&e=f"))
        XCTAssertEqual(result["set"], .string("a=new&e=f"))
        XCTAssertEqual(result["deletedAll"], .string("e=f"))
        let pairs: JSONValue = .array([.array([.string("x"), .string("1")]), .array([.string("y"), .string("2")])])
        XCTAssertEqual(result["iteration"], .array([
            .array([.string("x1true"), .string("y2true")]), .array([.string("x"), .string("y")]), .array([.string("1"), .string("2")]), pairs, pairs,
        ]))
        XCTAssertEqual(result["constructors"], .array([
            "b=1&a=two+words", "a=1&b=2", "x=1&y=2", "%3Fq=", "", "a=%EF%BF%BD",
        ].map(JSONValue.string)))
        XCTAssertEqual(result["errors"], .array([.string("TypeError"), .string("TypeError"), .string("TypeError")]))
    }

    /// A string as JSON writes it, so invisible characters show in a message.
    private func debugString(_ string: String?) -> String {
        guard let string else { return "no base" }
        let data = try? JSONSerialization.data(withJSONObject: [string], options: [.fragmentsAllowed, .withoutEscapingSlashes])
        return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? string
    }
}
