import Foundation
import HybridBridge
import XCTest

/// The web platform's everyday globals (SPEC §3) inside the real engine, checked against the
/// examples their standards give: WHATWG Encoding (UTF-8 decoding, one U+FFFD per maximal
/// invalid subpart), HTML's forgiving-base64 and structured clone, DOM's abort signals, Fetch's
/// Headers and Response.
final class WebGlobalsTests: XCTestCase {
    func run(_ script: String) throws -> [String] {
        let harness = try ScriptHarness()
        let output = try harness.run(script)
        XCTAssertEqual(harness.failures, [], script)
        return output
    }

    /// The web globals' scripts wait until one is first used (web-globals.js): until then
    /// each is an accessor; afterwards the globals are exactly those the scripts define, so
    /// the list of accessors names every one of them and nothing else (but `api` and `db`,
    /// accessors for good: DataGlobalsTests; nor `patch` and `defineClass`: PatchGlobalsTests).
    func testTheWebGlobalsLoadWhenOneIsFirstUsedAndAreThoseTheirScriptsDefine() throws {
        XCTAssertEqual(try run("""
        const forGood = ['api', 'db', 'patch', 'defineClass'];
        const own = () => Object.getOwnPropertyNames(globalThis).filter((name) => !forGood.includes(name)).sort();
        const waiting = own().filter((name) => typeof Object.getOwnPropertyDescriptor(globalThis, name).get === 'function');
        const before = own();
        console.log(waiting.length, typeof URL, typeof fetch, typeof performance.now());
        const accessorsLeft = own().filter((name) => typeof Object.getOwnPropertyDescriptor(globalThis, name).get === 'function');
        console.log(JSON.stringify(own()) === JSON.stringify(before), accessorsLeft.length);
        console.log(new URL('../b?q=1', 'https://example.com/a/c').href, String(new URLSearchParams({ x: 'y z' })));
        """), ["15 function function number", "true 0", "https://example.com/b?q=1 x=y+z"])
        // A script's own value of one is kept, however it put it there, and the others still load.
        XCTAssertEqual(try run("""
        globalThis.fetch = () => 'mine';
        console.log(fetch(), typeof Headers, typeof atob);
        """), ["mine function function"])
        XCTAssertEqual(try run("""
        Object.defineProperty(globalThis, 'atob', { value: () => 'mine', configurable: false });
        delete globalThis.btoa;
        console.log(atob('x'), typeof btoa, typeof TextEncoder, new URL('http://a/b').pathname);
        """), ["mine undefined function /b"])
        // A frozen global object: the accessors stay, and answer what the scripts defined.
        XCTAssertEqual(try run("""
        Object.freeze(globalThis);
        console.log(typeof URL, new TextEncoder().encode('é').length, typeof fetch);
        """), ["function 2 function"])
    }

    func testTextEncoderAndDecoderFollowTheEncodingStandard() throws {
        XCTAssertEqual(try run("""
        const encoder = new TextEncoder();
        console.log(encoder.encoding, Array.from(encoder.encode('a€𝄞')).join(' '));
        console.log(Array.from(encoder.encode('\\uD800x')).join(' '));  // a lone surrogate: U+FFFD
        console.log(JSON.stringify(encoder.encodeInto('a€b', new Uint8Array(4))));
        const decode = (bytes, options) => new TextDecoder('utf-8', options).decode(new Uint8Array(bytes));
        console.log(decode([0xEF, 0xBB, 0xBF, 0x68, 0x69]), decode([0xEF, 0xBB, 0xBF, 0x68], { ignoreBOM: true }).length);
        // The Encoding standard's examples of maximal subparts.
        console.log(JSON.stringify(decode([0xF0, 0x80, 0x80])), JSON.stringify(decode([0xF0, 0x90, 0x80])), JSON.stringify(decode([0xC0, 0x41])));
        const streaming = new TextDecoder();
        console.log(streaming.decode(new Uint8Array([0xE2, 0x82]), { stream: true }) + streaming.decode(new Uint8Array([0xAC])));
        try { decode([0xFF], { fatal: true }); } catch (error) { console.log(error.name); }
        try { new TextDecoder('latin1'); } catch (error) { console.log(error.name); }
        """), [
            "utf-8 97 226 130 172 240 157 132 158",
            "239 191 189 120",
            #"{"read":2,"written":4}"#,
            "hi 2",
            #""\#u{FFFD}\#u{FFFD}\#u{FFFD}" "\#u{FFFD}" "\#u{FFFD}A""#,
            "€",
            "TypeError",
            "RangeError",
        ])
    }

    func testBase64FollowsForgivingBase64() throws {
        XCTAssertEqual(try run("""
        console.log(btoa(''), btoa('f'), btoa('fo'), btoa('foo'), btoa('\\xff\\xfe'));
        console.log(atob('Zm9v'), atob(' Zm 9v\\n'), atob('Zg'), atob('Zg=='), atob('YR'));
        for (const bad of ['Zg=', 'Z', 'Zm9v!', '=Zm9']) {
          try { atob(bad); console.log('accepted', bad); } catch (error) { console.log(error.name, error.code); }
        }
        try { btoa('☕'); } catch (error) { console.log(error instanceof DOMException, error.name); }
        """), [
            " Zg== Zm8= Zm9v //4=",
            "foo foo f f a",
            "InvalidCharacterError 5", "InvalidCharacterError 5", "InvalidCharacterError 5", "InvalidCharacterError 5",
            "true InvalidCharacterError",
        ])
    }

    func testStructuredCloneKeepsCyclesAndRefusesFunctions() throws {
        XCTAssertEqual(try run("""
        const shared = { n: 1 };
        const value = { date: new Date(5), map: new Map([['k', shared]]), set: new Set([shared]), bytes: new Uint8Array([1, 2]),
          re: /a+/gi, big: 10n, list: [1, , 3], error: new RangeError('far'), boxed: Object('s') };
        value.self = value;
        const copy = structuredClone(value);
        console.log(copy !== value, copy.self === copy, copy.map.get('k') === [...copy.set][0], copy.map.get('k') !== shared);
        console.log(copy.date.getTime(), Array.from(copy.bytes).join(','), copy.re.flags, copy.big === 10n, 1 in copy.list, copy.error instanceof RangeError, typeof copy.boxed);
        for (const bad of [() => 1, Symbol('s'), { f() {} }, new AbortController().signal]) {
          try { structuredClone(bad); console.log('cloned'); } catch (error) { console.log(error.name); }
        }
        """), [
            "true true true true",
            "5 1,2 gi true false true object",
            "DataCloneError", "DataCloneError", "DataCloneError", "DataCloneError",
        ])
    }

    func testAbortSignalsTellTheirListenersOnce() throws {
        XCTAssertEqual(try run("""
        const controller = new AbortController();
        const { signal } = controller;
        signal.onabort = () => console.log('onabort');
        signal.addEventListener('abort', (event) => console.log('listener', event.type, event.target === signal));
        controller.abort();
        controller.abort('again');
        console.log(signal.aborted, signal.reason.name, signal.reason instanceof DOMException);
        try { signal.throwIfAborted(); } catch (error) { console.log('thrown', error.name); }
        console.log(AbortSignal.abort('why').reason, AbortSignal.any([signal]).aborted);
        const timed = AbortSignal.timeout(10);
        timed.addEventListener('abort', () => console.log('timed out', timed.reason.name));
        try { new AbortSignal(); } catch (error) { console.log(error.name); }
        hybrid.call('slow.echo', { text: 'x' }, { signal: AbortSignal.abort() }).catch((error) => console.log('call', error.name));
        """), [
            "onabort",
            "listener abort true",
            "true AbortError true",
            "thrown AbortError",
            "why true",
            "TypeError",
            "call AbortError",
            "timed out TimeoutError",
        ])
    }

    func testHeadersAndResponsesFollowFetch() throws {
        XCTAssertEqual(try run("""
        const headers = new Headers([['Accept', 'text/plain'], ['X-Many', 'a']]);
        headers.append('x-many', 'b');
        headers.set('Content-Type', 'application/json');
        console.log([...headers].map(([name, value]) => `${name}=${value}`).join(' '), headers.has('ACCEPT'), headers.get('missing'));
        try { headers.append('bad name', 'x'); } catch (error) { console.log(error.name); }
        const response = new Response('{"a":1}', { status: 201, headers: { 'X-Id': '7' } });
        console.log(response.ok, response.status, response.headers.get('content-type'), response.bodyUsed);
        response.json().then((data) => {
          console.log(data.a, response.bodyUsed);
          return response.text();
        }).catch((error) => console.log(error.name));
        Response.json({ b: 2 }).arrayBuffer().then((buffer) => console.log(buffer.byteLength));
        try { new Response('', { status: 99 }); } catch (error) { console.log(error.name); }
        console.log(new Response(new URLSearchParams('a=1&b=2')).headers.get('content-type'));
        """), [
            "accept=text/plain content-type=application/json x-many=a, b true null",
            "TypeError",
            "true 201 text/plain;charset=UTF-8 false",
            "RangeError",
            "application/x-www-form-urlencoded;charset=UTF-8",
            "1 true",
            "7",
            "TypeError",
        ])
    }

    func testPerformanceNowIsMonotonicBelowAMillisecond() throws {
        XCTAssertEqual(try run("""
        const times = Array.from({ length: 1000 }, () => performance.now());
        console.log(times.every((time, index) => index === 0 || time >= times[index - 1]), times.some((time) => time % 1 !== 0));
        console.log(Math.abs(performance.timeOrigin + performance.now() - Date.now()) < 50);
        """), ["true true", "true"])
    }
}
