// The URL Standard's URL records, basic URL parser (one function per state), serializers and
// application/x-www-form-urlencoded (§4, §5), on url-hosts.js's parts; returned to url.js.
// Called once per context (by web-globals.js), after url-hosts.js.
(function (hosts) {
  'use strict';
  const {
    DONE, EOF, FAILURE, asciiLowercase, c0ControlSet, codePoints, formSet, fragmentSet, isAlpha,
      isAlphanumeric, isDigit, parseHost, pathSet, percentDecode, percentEncode, percentEncodeString,
      querySet, specialQuerySet, userinfoSet, utf8DecodeWithoutBOM
  } = hosts;

  // MARK: URL records (§4.1)

  const DEFAULT_PORTS = { ftp: 21, file: null, http: 80, https: 443, ws: 80, wss: 443 };
  const isSpecialScheme = (scheme) => Object.prototype.hasOwnProperty.call(DEFAULT_PORTS, scheme);
  const isSpecial = (url) => isSpecialScheme(url.scheme);
  const defaultPort = (scheme) => (isSpecialScheme(scheme) ? DEFAULT_PORTS[scheme] : null);
  const hasOpaquePath = (url) => typeof url.path === 'string';
  const includesCredentials = (url) => url.username !== '' || url.password !== '';
  const cannotHaveCredentialsOrPort = (url) => url.host === null || url.host === '' || url.scheme === 'file';

  function newURLRecord() {
    return { scheme: '', username: '', password: '', host: null, port: null, path: [], query: null, fragment: null };
  }

  const isWindowsDriveLetter = (s) => s.length === 2 && isAlpha(s.charCodeAt(0)) && (s[1] === ':' || s[1] === '|');
  const isNormalizedWindowsDriveLetter = (s) => isWindowsDriveLetter(s) && s[1] === ':';
  // Of the code points from `pointer` on: a drive letter followed by the end, /, \, ? or #.
  function startsWithWindowsDriveLetter(c, pointer) {
    return c.length - pointer >= 2 && isAlpha(c[pointer]) && (c[pointer + 1] === 0x3a || c[pointer + 1] === 0x7c) &&
      (c.length - pointer === 2 || [0x2f, 0x5c, 0x3f, 0x23].includes(c[pointer + 2]));
  }
  const isSingleDot = (s) => s === '.' || asciiLowercase(s) === '%2e';
  const isDoubleDot = (s) => ['..', '.%2e', '%2e.', '%2e%2e'].includes(asciiLowercase(s));

  function shortenPath(url) {
    if (url.scheme === 'file' && url.path.length === 1 && isNormalizedWindowsDriveLetter(url.path[0])) return;
    url.path.pop();
  }

  // MARK: The basic URL parser (§4.4), one function per state

  // A state reads the code point `c` at `p.pointer` and may move the pointer or change
  // `p.state`; it answers FAILURE, DONE, or nothing to go on.
  function schemeStartState(p, c) {
    if (isAlpha(c)) {
      p.buffer += asciiLowercase(String.fromCharCode(c));
      p.state = schemeState;
    } else if (!p.override) {
      p.state = noSchemeState;
      p.pointer--;
    } else {
      return FAILURE;
    }
  }

  function schemeState(p, c) {
    const url = p.url;
    if (isAlphanumeric(c) || c === 0x2b || c === 0x2d || c === 0x2e) {
      p.buffer += asciiLowercase(String.fromCharCode(c));
    } else if (c === 0x3a) {
      if (p.override) {
        // The protocol setter cannot move a URL between special and not, nor give a file
        // URL credentials or a port.
        if (isSpecial(url) !== isSpecialScheme(p.buffer)) return DONE;
        if ((includesCredentials(url) || url.port !== null) && p.buffer === 'file') return DONE;
        if (url.scheme === 'file' && url.host === '') return DONE;
      }
      url.scheme = p.buffer;
      if (p.override) {
        if (url.port === defaultPort(url.scheme)) url.port = null;
        return DONE;
      }
      p.buffer = '';
      if (url.scheme === 'file') {
        p.state = fileState;
      } else if (isSpecial(url) && p.base !== null && p.base.scheme === url.scheme) {
        p.state = specialRelativeOrAuthorityState;
      } else if (isSpecial(url)) {
        p.state = specialAuthoritySlashesState;
      } else if (p.input[p.pointer + 1] === 0x2f) {
        p.state = pathOrAuthorityState;
        p.pointer++;
      } else {
        url.path = '';
        p.state = opaquePathState;
      }
    } else if (!p.override) {
      // Not a scheme after all: start over, reading the input as relative.
      p.buffer = '';
      p.state = noSchemeState;
      p.pointer = -1;
    } else {
      return FAILURE;
    }
  }

  function noSchemeState(p, c) {
    const { url, base } = p;
    if (base === null || (hasOpaquePath(base) && c !== 0x23)) return FAILURE;
    if (hasOpaquePath(base)) {
      url.scheme = base.scheme;
      url.path = base.path;
      url.query = base.query;
      url.fragment = '';
      p.state = fragmentState;
    } else {
      p.state = base.scheme !== 'file' ? relativeState : fileState;
      p.pointer--;
    }
  }

  function specialRelativeOrAuthorityState(p, c) {
    if (c === 0x2f && p.input[p.pointer + 1] === 0x2f) {
      p.state = specialAuthorityIgnoreSlashesState;
      p.pointer++;
    } else {
      p.state = relativeState;
      p.pointer--;
    }
  }

  function pathOrAuthorityState(p, c) {
    if (c === 0x2f) {
      p.state = authorityState;
    } else {
      p.state = pathState;
      p.pointer--;
    }
  }

  function relativeState(p, c) {
    const { url, base } = p;
    url.scheme = base.scheme;
    if (c === 0x2f || (isSpecial(url) && c === 0x5c)) {
      p.state = relativeSlashState;
      return;
    }
    Object.assign(url, { username: base.username, password: base.password, host: base.host, port: base.port,
      path: base.path.slice(), query: base.query });
    if (c === 0x3f) {
      url.query = '';
      p.state = queryState;
    } else if (c === 0x23) {
      url.fragment = '';
      p.state = fragmentState;
    } else if (c !== EOF) {
      url.query = null;
      shortenPath(url);
      p.state = pathState;
      p.pointer--;
    }
  }

  function relativeSlashState(p, c) {
    const { url, base } = p;
    if (isSpecial(url) && (c === 0x2f || c === 0x5c)) {
      p.state = specialAuthorityIgnoreSlashesState;
    } else if (c === 0x2f) {
      p.state = authorityState;
    } else {
      Object.assign(url, { username: base.username, password: base.password, host: base.host, port: base.port });
      p.state = pathState;
      p.pointer--;
    }
  }

  function specialAuthoritySlashesState(p, c) {
    p.state = specialAuthorityIgnoreSlashesState;
    if (c === 0x2f && p.input[p.pointer + 1] === 0x2f) p.pointer++;
    else p.pointer--;
  }

  function specialAuthorityIgnoreSlashesState(p, c) {
    if (c !== 0x2f && c !== 0x5c) {
      p.state = authorityState;
      p.pointer--;
    }
  }

  // Collects up to the last @ as userinfo, then rereads what follows it as the host.
  function authorityState(p, c) {
    const url = p.url;
    if (c === 0x40) {
      if (p.atSignSeen) p.buffer = '%40' + p.buffer;
      p.atSignSeen = true;
      for (const character of p.buffer) {
        const codePoint = character.codePointAt(0);
        if (codePoint === 0x3a && !p.passwordTokenSeen) {
          p.passwordTokenSeen = true;
          continue;
        }
        const encoded = percentEncode(codePoint, userinfoSet);
        if (p.passwordTokenSeen) url.password += encoded;
        else url.username += encoded;
      }
      p.buffer = '';
    } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (isSpecial(url) && c === 0x5c)) {
      if (p.atSignSeen && p.buffer === '') return FAILURE;
      p.pointer -= Array.from(p.buffer).length + 1;
      p.buffer = '';
      p.state = hostState;
    } else {
      p.buffer += String.fromCodePoint(c);
    }
  }

  // The host state and the hostname state are one: they differ only under a state override.
  function hostState(p, c) {
    const url = p.url;
    if (p.override && url.scheme === 'file') {
      p.pointer--;
      p.state = fileHostState;
    } else if (c === 0x3a && !p.insideBrackets) {
      if (p.buffer === '' || p.override === hostnameState) return FAILURE;
      const host = parseHost(p.buffer, !isSpecial(url));
      if (host === FAILURE) return FAILURE;
      url.host = host;
      p.buffer = '';
      p.state = portState;
    } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (isSpecial(url) && c === 0x5c)) {
      p.pointer--;
      if (isSpecial(url) && p.buffer === '') return FAILURE;
      if (p.override && p.buffer === '' && (includesCredentials(url) || url.port !== null)) return FAILURE;
      const host = parseHost(p.buffer, !isSpecial(url));
      if (host === FAILURE) return FAILURE;
      url.host = host;
      p.buffer = '';
      p.state = pathStartState;
      if (p.override) return DONE;
    } else {
      if (c === 0x5b) p.insideBrackets = true;
      if (c === 0x5d) p.insideBrackets = false;
      p.buffer += String.fromCodePoint(c);
    }
  }
  // A distinct function only so that the hostname setter's override can be told apart.
  function hostnameState(p, c) {
    return hostState(p, c);
  }

  function portState(p, c) {
    const url = p.url;
    if (isDigit(c)) {
      p.buffer += String.fromCharCode(c);
    } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (isSpecial(url) && c === 0x5c) || p.override) {
      if (p.buffer !== '') {
        const port = parseInt(p.buffer, 10);
        if (port > 65535) return FAILURE;
        url.port = port === defaultPort(url.scheme) ? null : port;
        p.buffer = '';
        if (p.override) return DONE;
      }
      if (p.override) return FAILURE;
      p.state = pathStartState;
      p.pointer--;
    } else {
      return FAILURE;
    }
  }

  function fileState(p, c) {
    const { url, base } = p;
    url.scheme = 'file';
    url.host = '';
    if (c === 0x2f || c === 0x5c) {
      p.state = fileSlashState;
    } else if (base !== null && base.scheme === 'file') {
      Object.assign(url, { host: base.host, path: base.path.slice(), query: base.query });
      if (c === 0x3f) {
        url.query = '';
        p.state = queryState;
      } else if (c === 0x23) {
        url.fragment = '';
        p.state = fragmentState;
      } else if (c !== EOF) {
        url.query = null;
        if (!startsWithWindowsDriveLetter(p.input, p.pointer)) shortenPath(url);
        else url.path = [];
        p.state = pathState;
        p.pointer--;
      }
    } else {
      p.state = pathState;
      p.pointer--;
    }
  }

  function fileSlashState(p, c) {
    const { url, base } = p;
    if (c === 0x2f || c === 0x5c) {
      p.state = fileHostState;
      return;
    }
    if (base !== null && base.scheme === 'file') {
      url.host = base.host;
      // "/x" against "file:///C:/y" stays on drive C:.
      if (!startsWithWindowsDriveLetter(p.input, p.pointer) && base.path.length > 0 && isNormalizedWindowsDriveLetter(base.path[0])) {
        url.path.push(base.path[0]);
      }
    }
    p.state = pathState;
    p.pointer--;
  }

  function fileHostState(p, c) {
    const url = p.url;
    if (!(c === EOF || c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23)) {
      p.buffer += String.fromCodePoint(c);
      return;
    }
    p.pointer--;
    if (!p.override && isWindowsDriveLetter(p.buffer)) {
      // "file://C:/x" is a path: the buffer goes on to the path state as its first segment.
      p.state = pathState;
    } else if (p.buffer === '') {
      url.host = '';
      if (p.override) return DONE;
      p.state = pathStartState;
    } else {
      const host = parseHost(p.buffer, !isSpecial(url));
      if (host === FAILURE) return FAILURE;
      url.host = host === 'localhost' ? '' : host;
      if (p.override) return DONE;
      p.buffer = '';
      p.state = pathStartState;
    }
  }

  function pathStartState(p, c) {
    const url = p.url;
    if (isSpecial(url)) {
      p.state = pathState;
      if (c !== 0x2f && c !== 0x5c) p.pointer--;
    } else if (!p.override && c === 0x3f) {
      url.query = '';
      p.state = queryState;
    } else if (!p.override && c === 0x23) {
      url.fragment = '';
      p.state = fragmentState;
    } else if (c !== EOF) {
      p.state = pathState;
      if (c !== 0x2f) p.pointer--;
    } else if (p.override && url.host === null) {
      url.path.push('');
    }
  }

  // Collects one segment, then resolves "." and ".." against the segments before it.
  function pathState(p, c) {
    const url = p.url;
    const slash = c === 0x2f || (isSpecial(url) && c === 0x5c);
    if (c === EOF || slash || (!p.override && (c === 0x3f || c === 0x23))) {
      if (isDoubleDot(p.buffer)) {
        shortenPath(url);
        if (!slash) url.path.push('');
      } else if (isSingleDot(p.buffer) && !slash) {
        url.path.push('');
      } else if (!isSingleDot(p.buffer)) {
        if (url.scheme === 'file' && url.path.length === 0 && isWindowsDriveLetter(p.buffer)) p.buffer = p.buffer[0] + ':';
        url.path.push(p.buffer);
      }
      p.buffer = '';
      if (c === 0x3f) {
        url.query = '';
        p.state = queryState;
      }
      if (c === 0x23) {
        url.fragment = '';
        p.state = fragmentState;
      }
    } else {
      p.buffer += percentEncode(c, pathSet);
    }
  }

  function opaquePathState(p, c) {
    const url = p.url;
    if (c === 0x3f || c === 0x23 || c === EOF) {
      // Spaces that end an opaque path are dropped ("sc:a  ?q" is "sc:a?q"), so removing the
      // query or fragment later cannot leave a URL that ends in a space.
      url.path = url.path.replace(/ +$/, '');
    }
    if (c === 0x3f) {
      url.query = '';
      p.state = queryState;
    } else if (c === 0x23) {
      url.fragment = '';
      p.state = fragmentState;
    } else if (c !== EOF) {
      url.path += percentEncode(c, c0ControlSet);
    }
  }

  function queryState(p, c) {
    const url = p.url;
    if ((!p.override && c === 0x23) || c === EOF) {
      url.query += percentEncodeString(p.buffer, isSpecial(url) ? specialQuerySet : querySet);
      p.buffer = '';
      if (c === 0x23) {
        url.fragment = '';
        p.state = fragmentState;
      }
    } else {
      p.buffer += String.fromCodePoint(c);
    }
  }

  function fragmentState(p, c) {
    if (c !== EOF) p.url.fragment += percentEncode(c, fragmentSet);
  }

  // The URL record `input` names (relative to `base`), or FAILURE. With `url` and
  // `override` (a state), it is a setter: it changes `url` in place from that state on.
  function basicParse(input, base = null, url = null, override = null) {
    if (url === null) {
      url = newURLRecord();
      input = input.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
    }
    input = input.replace(/[\t\n\r]/g, '');
    const p = { input: codePoints(input), pointer: 0, buffer: '', state: override || schemeStartState, url, base, override,
      atSignSeen: false, insideBrackets: false, passwordTokenSeen: false };
    for (;; p.pointer++) {
      const c = p.pointer < p.input.length ? p.input[p.pointer] : EOF;
      const outcome = p.state(p, c);
      if (outcome === FAILURE) return FAILURE;
      if (outcome === DONE) return url;
      if (p.pointer >= p.input.length) return url;
    }
  }

  // MARK: Serializing (§4.5) and origins (§4.7)

  function serializePath(url) {
    return hasOpaquePath(url) ? url.path : url.path.map((segment) => '/' + segment).join('');
  }

  function serializeURL(url, excludeFragment = false) {
    let output = url.scheme + ':';
    if (url.host !== null) {
      output += '//';
      if (includesCredentials(url)) output += url.username + (url.password !== '' ? ':' + url.password : '') + '@';
      output += url.host + (url.port !== null ? ':' + url.port : '');
    } else if (!hasOpaquePath(url) && url.path.length > 1 && url.path[0] === '') {
      // Without "/.", the path "//x" would read back as the host x.
      output += '/.';
    }
    output += serializePath(url);
    if (url.query !== null) output += '?' + url.query;
    if (!excludeFragment && url.fragment !== null) output += '#' + url.fragment;
    return output;
  }

  function serializeOrigin(url) {
    if (url.scheme === 'blob') {
      const inner = basicParse(serializePath(url));
      return inner !== FAILURE && (inner.scheme === 'http' || inner.scheme === 'https') ? serializeOrigin(inner) : 'null';
    }
    if (['ftp', 'http', 'https', 'ws', 'wss'].includes(url.scheme)) {
      return url.scheme + '://' + url.host + (url.port !== null ? ':' + url.port : '');
    }
    return 'null'; // an opaque origin, file: included
  }

  // MARK: application/x-www-form-urlencoded (§5)

  function parseFormURLEncoded(input) {
    const list = [];
    for (const sequence of input.split('&')) {
      if (sequence === '') continue;
      const equals = sequence.indexOf('=');
      const name = equals < 0 ? sequence : sequence.slice(0, equals);
      const value = equals < 0 ? '' : sequence.slice(equals + 1);
      list.push([name, value].map((part) => utf8DecodeWithoutBOM(percentDecode(part.replace(/\+/g, ' ')))));
    }
    return list;
  }

  function serializeFormURLEncoded(list) {
    return list.map(([name, value]) => percentEncodeString(name, formSet, true) + '=' + percentEncodeString(value, formSet, true)).join('&');
  }

  return Object.freeze({
    basicParse, cannotHaveCredentialsOrPort, fragmentState, hasOpaquePath, hostState, hostnameState,
      parseFormURLEncoded, pathStartState, portState, queryState, schemeStartState, serializeFormURLEncoded,
      serializeOrigin, serializePath, serializeURL
  });
})
