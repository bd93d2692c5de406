import Foundation
import TestSupport
import XCTest

/// `api.call` from a bundle's script against a loopback server (SPEC §7.1, §7.2), through the
/// real binary: the answer reaches the screen through the store, every request carries its
/// `X-Request-ID` and a signature the server can check, params that break their rules are
/// refused with nothing sent, and an HTTP error reaches the script with its status and data.
final class APICallTests: XCTestCase {
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var requests: [LoopbackHTTPServer.Request] = []
        func add(_ request: LoopbackHTTPServer.Request) { lock.withLock { requests.append(request) } }
        var all: [LoopbackHTTPServer.Request] { lock.withLock { requests } }
    }

    func run(script: String, secrets: String? = nil, cache: String = "", cacheHome: String? = nil,
             extra: [String] = []) throws -> (frame: String, errors: String, requests: [LoopbackHTTPServer.Request]) {
        let log = Log()
        let server = try LoopbackHTTPServer { request in
            log.add(request)
            if request.path.hasPrefix("/v1/items/tea") {
                // Page 3 is shorter than the first: the last one.
                let items = request.path.contains("page=3") ? #"[{"name": "Rooibos"}]"# : #"[{"name": "Sencha"}, {"name": "Earl Grey"}]"#
                return .init(status: 200, headers: ["Content-Type": "application/json"], body: #"{"items": \#(items)}"#)
            }
            return .init(status: 404, headers: ["Content-Type": "application/json"], body: #"{"error": "no such category"}"#)
        }
        defer { server.stop() }
        let bundle = try TemporaryDirectory("hybrid-api-call")
        let data = try TemporaryDirectory("hybrid-api-call-data")
        let sign = secrets == nil ? "" : #", "sign": { "secret": "shop" }"#
        let files = [
            "manifest.json": #"{"app": "shop", "version": "1.0.0", "entry": "main.js", "start": "home", "screens": {"home": "home.json"}, "apis": "apis.json", "permissions": ["api"], "store": {"line": "loading"}}"#,
            "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "@{store.line}"}}"#,
            "apis.json": """
            { "services": { "shop": { "baseURL": "http://127.0.0.1:\(server.port)/v1"\(sign) } },
              "apis": { "items.list": { "service": "shop", "path": "/items/{category}",
                                        "params": { "category": { "type": "string", "required": true }, "page": { "type": "integer", "default": 1, "minimum": 1 } }\(cache) } } }
            """,
            "main.js": script,
        ]
        for (name, text) in files { try text.write(to: bundle.url.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        var arguments = ["run", bundle.path, "--headless", "--size", "60x2", "--keys", "wait:100ms"] + extra
        if let secrets {
            let file = data.url.appendingPathComponent("secrets.json")
            try secrets.write(to: file, atomically: true, encoding: .utf8)
            arguments += ["--secrets", file.path]
        }
        var environment = ["XDG_DATA_HOME": data.path]
        if let cacheHome { environment["XDG_CACHE_HOME"] = cacheHome }
        let result = try CommandRunner.hybrid(arguments, environment: environment)
        XCTAssertEqual(result.status, 0, result.standardError)
        return (result.standardOutput, result.standardError, log.all)
    }

    func testAnAnswerReachesTheScreenWithARequestID() throws {
        let (frame, errors, requests) = try run(script: """
        api.call('items.list', { category: 'tea' }).then((answer) => {
          store.set('line', `${answer.status} ${answer.data.items.map((i) => i.name).join(', ')} ${answer.requestId.length}`);
          hybrid.ready();
        });
        """)
        XCTAssertEqual(frame.split(separator: "\n").first.map(String.init), "200 Sencha, Earl Grey 32", errors)
        XCTAssertEqual(requests.map(\.path), ["/v1/items/tea?page=1"])
        XCTAssertEqual(requests.first?.headers["x-request-id"]?.count, 32, "\(requests.first?.headers ?? [:])")
    }

    func testBadParamsAreRefusedWithNothingSentAndHTTPErrorsCarryTheirStatus() throws {
        let (frame, errors, requests) = try run(script: """
        const codes = [];
        api.call('items.list', { category: 'tea', page: 0 })
          .catch((error) => { codes.push(error.code); return api.call('items.list', { category: 'coffee' }); })
          .catch((error) => { codes.push(`${error.code} ${error.status} ${error.data.error}`); })
          .then(() => { store.set('line', codes.join(' | ')); hybrid.ready(); });
        """)
        XCTAssertEqual(frame.split(separator: "\n").first.map(String.init), "E_BAD_PARAMS | E_HTTP 404 no such category", errors)
        XCTAssertEqual(requests.map(\.path), ["/v1/items/coffee?page=1"], "the refused call sent nothing")
    }

    func testASignedServiceSignsAndNeedsTheHostsSecret() throws {
        // No script can read the secret: not in the services' descriptions, not in any global.
        let (frame, errors, requests) = try run(script: """
        const seen = JSON.stringify(hybrid.services()) + Object.getOwnPropertyNames(globalThis)
          .map((name) => { try { return JSON.stringify(globalThis[name]) || ''; } catch (e) { return ''; } }).join('');
        api.call('items.list', { category: 'tea' }).then((a) => store.set('line', `signed ${a.status} ${seen.includes('s3cret')}`), (e) => store.set('line', e.code));
        hybrid.ready();
        """, secrets: #"{"shop": "s3cret"}"#)
        XCTAssertEqual(frame.split(separator: "\n").first.map(String.init), "signed 200 false", errors)
        let headers = try XCTUnwrap(requests.first?.headers)
        XCTAssertEqual(headers["x-hybrid-signature"]?.count, 64, "\(headers)")
        XCTAssertEqual(headers["x-hybrid-nonce"]?.count, 32)
        XCTAssertNotNil(headers["x-hybrid-timestamp"])

        let (unsigned, _, none) = try run(script: """
        api.call('items.list', { category: 'tea' }).then(() => store.set('line', 'sent'), (e) => store.set('line', e.code));
        hybrid.ready();
        """.replacingOccurrences(of: "xx", with: ""), secrets: "{}")
        XCTAssertEqual(unsigned.split(separator: "\n").first.map(String.init), "E_DENIED")
        XCTAssertTrue(none.isEmpty, "nothing is sent unsigned")
    }

    func testADiskCacheServesTheNextRunWithNoRequest() throws {
        let home = try TemporaryDirectory("hybrid-api-cache")
        let script = """
        api.call('items.list', { category: 'tea' }).then((a) => { store.set('line', `${a.fromCache} ${a.data.items.length}`); hybrid.ready(); });
        """
        let cache = #", "cache": { "ttl": 600, "store": "disk" }"#
        let (first, _, sent) = try run(script: script, cache: cache, cacheHome: home.path)
        XCTAssertEqual(first.split(separator: "\n").first.map(String.init), "false 2")
        XCTAssertEqual(sent.count, 1)
        let (second, errors, none) = try run(script: script, cache: cache, cacheHome: home.path)
        XCTAssertEqual(second.split(separator: "\n").first.map(String.init), "true 2", errors)
        XCTAssertEqual(none.count, 0, "the second run asks nothing")
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.url.appendingPathComponent("hybridterm/shop/http").path))
    }

    func testReformersShapeAnAnswerAndInvalidateForgetsWhatIsKept() throws {
        let home = try TemporaryDirectory("hybrid-api-reform")
        let (frame, errors, requests) = try run(script: """
        api.reformer('names', (data, call) => data.items.map((i) => i.name).join('+') + ' for ' + call.params.category);
        const lines = [];
        api.call('items.list', { category: 'tea' }, { reformer: 'names' })
          .then((a) => { lines.push(a.data); return api.call('items.list', { category: 'tea' }); })
          .then((a) => { lines.push(a.fromCache); api.invalidate('items.*'); return api.call('items.list', { category: 'tea' }); })
          .then((a) => { lines.push(a.fromCache); return api.call('items.list', { category: 'tea' }, { reformer: 'nope' }); })
          .catch((e) => lines.push(e.code))
          .then(() => { store.set('line', lines.join(' ')); hybrid.ready(); });
        """, cache: #", "cache": { "ttl": 600 }"#, cacheHome: home.path)
        XCTAssertEqual(frame.split(separator: "\n").first.map(String.init), "Sencha+Earl Grey for tea true false E_BAD_PARAMS", errors)
        XCTAssertEqual(requests.count, 2, "the second call came from the cache, the third asked again after api.invalidate")
    }

    func testTraceNetPrintsALinePerCall() throws {
        let home = try TemporaryDirectory("hybrid-api-trace")
        let (_, errors, requests) = try run(script: """
        api.call('items.list', { category: 'tea' })
          .then(() => api.call('items.list', { category: 'tea' }))
          .then(() => api.call('items.list', { category: 'coffee' })).catch(() => {})
          .then(() => hybrid.ready());
        """, cache: #", "cache": { "ttl": 600 }"#, cacheHome: home.path, extra: ["--trace", "net"])
        let lines = errors.split(separator: "\n").filter { $0.hasPrefix("net ") }
        XCTAssertEqual(lines.count, 3, errors)
        let id = try XCTUnwrap(requests.first?.headers["x-request-id"])
        XCTAssertTrue(lines[0].hasPrefix("net \(id) items.list cache=miss status=200 "), "\(lines)")
        XCTAssertTrue(lines[1].contains(" items.list cache=hit status=200 "), "\(lines)")
        XCTAssertTrue(lines[2].contains(" items.list status=404 "), "\(lines)")
        XCTAssertTrue(lines.allSatisfy { $0.hasSuffix(" ms") })
    }

    func testAManagerPagesUntilAPageIsShorterThanTheFirst() throws {
        let (frame, errors, requests) = try run(script: """
        const manager = api.manager('items.list');
        const seen = [];
        manager.load({ category: 'tea' })
          .then(() => { seen.push(manager.page + ':' + manager.isLastPage); return manager.loadNextPage(); })
          .then(() => { seen.push(manager.page + ':' + manager.isLastPage); return manager.loadNextPage(); })
          .then(() => { seen.push(manager.page + ':' + manager.isLastPage + ':' + manager.fetch((d) => d.items[0].name)); return manager.loadNextPage(); })
          .then(() => { seen.push(String(manager.isLoading)); store.set('line', seen.join(' ')); hybrid.ready(); });
        """, cache: #", "paging": { "param": "page", "items": "items" }"#)
        XCTAssertEqual(frame.split(separator: "\n").first.map(String.init), "1:false 2:false 3:true:Rooibos false", errors)
        XCTAssertEqual(requests.map(\.path), ["/v1/items/tea?page=1", "/v1/items/tea?page=2", "/v1/items/tea?page=3"], "no request past the last page")
    }

    func testInterceptorsRunInOrderRefuseAndAreDisabledAfterThreeThrows() throws {
        let (frame, errors, requests) = try run(script: """
        const log = [];
        api.intercept('items.*', {
          shouldCall: (params) => { log.push('s'); return params.category !== 'secret'; },
          afterCall: () => log.push('a'),
          beforeSuccess: (answer) => { log.push('b'); return answer.status === 200; },
          afterSuccess: () => log.push('o'),
        });
        const thrower = api.intercept('*', { afterCall: () => { throw new Error('hook broke'); } });
        const done = (text) => { store.set('line', text); hybrid.ready(); };
        api.call('items.list', { category: 'secret' })
          .catch((error) => { log.push(error.code === 'E_INTERCEPTED' && /called at .*main[.]js:10:/.test(error.message) ? 'X' : error.message); return api.call('items.list', { category: 'tea' }); })
          .then(() => api.call('items.list', { category: 'tea' }))
          .then(() => api.call('items.list', { category: 'tea' }))
          .then(() => { thrower.remove(); done(log.join('')); });
        """)
        XCTAssertEqual(frame.split(separator: "\n").first.map(String.init),
                       "sXsabosabosabo", "shouldCall refused, then each call: shouldCall, afterCall, beforeSuccess, afterSuccess: \(errors)")
        XCTAssertEqual(requests.count, 3, "the refused call sent nothing")
        XCTAssertEqual(errors.components(separatedBy: "Error: hook broke").count - 1, 3, errors)
        XCTAssertTrue(errors.contains(#"api.intercept("*"): disabled after its hooks threw 3 times"#), errors)
        XCTAssertTrue(errors.contains("main.js:8:"), "a hook's throw is located: \(errors)")
    }

    func testOnlineFollowsWhetherTheHostAnswers() throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: "{}") }
        defer { server.stop() }
        let refused = LoopbackHTTPServer.refusedPort()
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-api-online", [
            "manifest.json": #"{"app": "online", "version": "1.0.0", "entry": "main.js", "start": "home", "apis": "apis.json", "permissions": ["api"], "screens": {"home": "home.json"}, "store": {"line": ""}}"#,
            "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "@{store.line}"}}"#,
            "apis.json": #"{"services": {"up": {"baseURL": "http://127.0.0.1:\#(server.port)"}, "down": {"baseURL": "http://127.0.0.1:\#(refused)"}}, "apis": {"up.get": {"service": "up", "path": "/"}, "down.get": {"service": "down", "path": "/"}}}"#,
            "main.js": """
            const seen = [String(api.online)];
            api.onStatus((online) => seen.push('now ' + online));
            api.call('down.get')
              .catch((error) => { seen.push(error.code, String(api.online)); return api.call('up.get'); })
              .then(() => { seen.push(String(api.online)); store.set('line', seen.join(',')); hybrid.ready(); });
            """,
        ])
        let data = try TemporaryDirectory("hybrid-api-online-data")
        let result = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", "60x2"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.standardOutput.split(separator: "\n").first.map(String.init), "true,now false,E_OFFLINE,false,now true,true", result.standardError)
    }

    /// A call queued while the host is down is answered `{queued: true}`, kept across the run's
    /// end, and sent by the next run as soon as it starts, once, with its `Idempotency-Key`.
    func testTheOutboxSurvivesARestartAndIsSentOnce() throws {
        let port = LoopbackHTTPServer.refusedPort()
        let bundle = try ValidateScriptsTests.bundle(named: "hybrid-api-outbox", [
            "manifest.json": #"{"app": "outbox", "version": "1.0.0", "entry": "main.js", "start": "home", "apis": "apis.json", "permissions": ["api"], "screens": {"home": "home.json"}, "store": {"line": ""}}"#,
            "home.json": #"{"format": 1, "id": "home", "body": {"type": "text", "text": "@{store.line}"}}"#,
            "apis.json": #"{"services": {"shop": {"baseURL": "http://127.0.0.1:\#(port)"}}, "apis": {"cart.add": {"service": "shop", "method": "POST", "path": "/cart", "offline": "queue", "params": {"item": {"type": "string"}}}}}"#,
            "main.js": """
            Promise.all([api.call('cart.add', { item: 'tea' }), api.call('cart.add', { item: 'cups' })]).then((answers) => {
              store.set('line', answers.map((a) => `${a.queued} ${a.requestId.length}`).join(',') + ` online=${api.online} waiting=${api.outbox().map((c) => c.params.item)}`);
              hybrid.ready();
            });
            """,
        ])
        let data = try TemporaryDirectory("hybrid-api-outbox-data")
        let first = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", "70x2"], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(first.standardOutput.split(separator: "\n").first.map(String.init), "true 32,true 32 online=false waiting=tea,cups", first.standardError)

        let log = Log()
        let server = try LoopbackHTTPServer(port: port) { request in
            log.add(request)
            return .init(status: 201, body: "{}")
        }
        defer { server.stop() }
        // The next run calls nothing new: what waited goes at start (or with the flush, if first).
        try "api.flush().then((result) => { store.set('line', `waiting=${api.outbox().length}`); hybrid.ready(); });"
            .write(to: bundle.url.appendingPathComponent("main.js"), atomically: true, encoding: .utf8)
        let second = try CommandRunner.hybrid(["run", bundle.path, "--headless", "--size", "70x2"], environment: ["XDG_DATA_HOME": data.path])
        let line = second.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertTrue(line.hasSuffix("waiting=0"), line + second.standardError)
        XCTAssertEqual(log.all.map(\.body), [#"{"item":"tea"}"#, #"{"item":"cups"}"#], "in order, once")
        XCTAssertEqual(log.all.map { $0.headers["idempotency-key"] }, log.all.map { $0.headers["x-request-id"] })
    }
}
