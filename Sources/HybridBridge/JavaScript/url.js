// SPEC §3's URL and URLSearchParams, after the WHATWG URL Standard (url.spec.whatwg.org).
// Evaluated once per context, after the prelude; defines the two globals and returns nothing
// for Swift. The names below follow the standard's (states, percent-encode sets, "shorten a
// path", …) so a reader can hold this file against it section by section.
//
// IDNA is a reduced UTS #46 without its tables: NFKC, lowercasing, the ignored code points and
// the ideographic full stops stand for the mapping table; non-ASCII labels are Punycode-encoded
// and `xn--` labels decoded to check them; the joiner and Bidi rules are approximated from
// scripts and general categories; CONTEXTO rules are not applied.
(function () {
  'use strict';
  const global = globalThis;

  // MARK: Code points, strings and bytes

  const EOF = -1;
  const FAILURE = Symbol('failure');
  // What a state answers when a setter's state override ends the parse without failing.
  const DONE = Symbol('done');

  const isDigit = (c) => c >= 0x30 && c <= 0x39;
  const isHexDigit = (c) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
  const isAlpha = (c) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const isAlphanumeric = (c) => isAlpha(c) || isDigit(c);
  const isASCII = (string) => /^[\x00-\x7f]*$/.test(string);
  // ASCII lowercase only: the standard never lowercases other letters outside IDNA.
  const asciiLowercase = (string) => string.replace(/[A-Z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) + 32));
  const codePoints = (string) => Array.from(string, (character) => character.codePointAt(0));

  // Web IDL's USVString: lone surrogates become U+FFFD.
  function toUSVString(value) {
    const string = String(value);
    if (!/[\uD800-\uDFFF]/.test(string)) return string;
    let out = '';
    for (let i = 0; i < string.length; i++) {
      const unit = string.charCodeAt(i);
      const next = string.charCodeAt(i + 1);
      if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += string[i] + string[i + 1];
        i++;
      } else {
        out += unit >= 0xd800 && unit <= 0xdfff ? '\uFFFD' : string[i];
      }
    }
    return out;
  }

  function utf8Bytes(c) {
    if (c < 0x80) return [c];
    if (c < 0x800) return [0xc0 | (c >> 6), 0x80 | (c & 0x3f)];
    if (c < 0x10000) return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)];
    return [0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)];
  }

  // The Encoding Standard's UTF-8 decoder: each maximal invalid subpart becomes one U+FFFD.
  function utf8DecodeWithoutBOM(bytes) {
    let out = '';
    let codePoint = 0, needed = 0, seen = 0, lowerBoundary = 0x80, upperBoundary = 0xbf;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (needed === 0) {
        if (byte <= 0x7f) out += String.fromCharCode(byte);
        else if (byte >= 0xc2 && byte <= 0xdf) { needed = 1; codePoint = byte & 0x1f; }
        else if (byte >= 0xe0 && byte <= 0xef) {
          if (byte === 0xe0) lowerBoundary = 0xa0;
          if (byte === 0xed) upperBoundary = 0x9f;
          needed = 2; codePoint = byte & 0xf;
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          if (byte === 0xf0) lowerBoundary = 0x90;
          if (byte === 0xf4) upperBoundary = 0x8f;
          needed = 3; codePoint = byte & 0x7;
        } else out += '\uFFFD';
        continue;
      }
      if (byte < lowerBoundary || byte > upperBoundary) {
        codePoint = needed = seen = 0;
        lowerBoundary = 0x80; upperBoundary = 0xbf;
        out += '\uFFFD';
        i--; // the byte starts the next sequence
        continue;
      }
      lowerBoundary = 0x80; upperBoundary = 0xbf;
      codePoint = (codePoint << 6) | (byte & 0x3f);
      if (++seen === needed) {
        out += String.fromCodePoint(codePoint);
        codePoint = needed = seen = 0;
      }
    }
    return needed === 0 ? out : out + '\uFFFD';
  }

  // MARK: Percent-encoding (§1.3)

  // The sets, each a superset of the one before it, as predicates on a code point.
  const c0ControlSet = (c) => c < 0x20 || c > 0x7e;
  const fragmentSet = (c) => c0ControlSet(c) || c === 0x20 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60;
  const querySet = (c) => c0ControlSet(c) || c === 0x20 || c === 0x22 || c === 0x23 || c === 0x3c || c === 0x3e;
  const specialQuerySet = (c) => querySet(c) || c === 0x27;
  const pathSet = (c) => querySet(c) || c === 0x3f || c === 0x5e || c === 0x60 || c === 0x7b || c === 0x7d;
  const userinfoSet = (c) => pathSet(c) || c === 0x2f || c === 0x3a || c === 0x3b || c === 0x3d || c === 0x40 ||
    (c >= 0x5b && c <= 0x5d) || c === 0x7c;
  const componentSet = (c) => userinfoSet(c) || (c >= 0x24 && c <= 0x26) || c === 0x2b || c === 0x2c;
  const formSet = (c) => componentSet(c) || c === 0x21 || (c >= 0x27 && c <= 0x29) || c === 0x7e;

  const HEX = '0123456789ABCDEF';
  function percentEncode(c, inSet, spaceAsPlus = false) {
    if (spaceAsPlus && c === 0x20) return '+';
    if (!inSet(c)) return String.fromCodePoint(c);
    let out = '';
    for (const byte of utf8Bytes(c)) out += '%' + HEX[byte >> 4] + HEX[byte & 0xf];
    return out;
  }
  function percentEncodeString(string, inSet, spaceAsPlus = false) {
    let out = '';
    for (const character of string) out += percentEncode(character.codePointAt(0), inSet, spaceAsPlus);
    return out;
  }

  // The string's UTF-8 bytes with each %XX replaced by the byte it names.
  function percentDecode(string) {
    const bytes = [];
    for (let i = 0; i < string.length; i++) {
      if (string.charCodeAt(i) === 0x25 && isHexDigit(string.charCodeAt(i + 1)) && isHexDigit(string.charCodeAt(i + 2))) {
        bytes.push(parseInt(string.substr(i + 1, 2), 16));
        i += 2;
      } else {
        const c = string.codePointAt(i);
        if (c > 0xffff) i++;
        bytes.push(...utf8Bytes(c));
      }
    }
    return bytes;
  }

  // MARK: IDNA (a reduced UTS #46 ToASCII, see the top of the file)

  const BASE = 36, T_MIN = 1, T_MAX = 26, SKEW = 38, DAMP = 700, INITIAL_BIAS = 72, INITIAL_N = 128;
  const threshold = (k, bias) => (k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias);
  function adapt(delta, points, first) {
    delta = first ? Math.floor(delta / DAMP) : delta >> 1;
    delta += Math.floor(delta / points);
    let k = 0;
    for (; delta > ((BASE - T_MIN) * T_MAX) >> 1; k += BASE) delta = Math.floor(delta / (BASE - T_MIN));
    return k + Math.floor(((BASE - T_MIN + 1) * delta) / (delta + SKEW));
  }
  const encodeDigit = (d) => String.fromCharCode(d < 26 ? d + 97 : d + 22);
  const decodeDigit = (c) => (isDigit(c) ? c - 22 : c >= 0x61 && c <= 0x7a ? c - 0x61 : c >= 0x41 && c <= 0x5a ? c - 0x41 : BASE);

  // RFC 3492 §6.3.
  function punycodeEncode(label) {
    const input = codePoints(label);
    let output = input.filter((c) => c < 0x80).map((c) => String.fromCharCode(c)).join('');
    const basic = output.length;
    if (basic > 0) output += '-';
    let n = INITIAL_N, delta = 0, bias = INITIAL_BIAS, handled = basic;
    while (handled < input.length) {
      const m = Math.min(...input.filter((c) => c >= n));
      delta += (m - n) * (handled + 1);
      n = m;
      for (const c of input) {
        if (c < n) delta++;
        if (c !== n) continue;
        let q = delta;
        for (let k = BASE; ; k += BASE) {
          const t = threshold(k, bias);
          if (q < t) break;
          output += encodeDigit(t + ((q - t) % (BASE - t)));
          q = Math.floor((q - t) / (BASE - t));
        }
        output += encodeDigit(q);
        bias = adapt(delta, handled + 1, handled === basic);
        delta = 0;
        handled++;
      }
      delta++;
      n++;
    }
    return output;
  }

  // RFC 3492 §6.2; FAILURE for what no encoder produces.
  function punycodeDecode(input) {
    const delimiter = input.lastIndexOf('-');
    const output = [];
    for (let j = 0; j < delimiter; j++) output.push(input.charCodeAt(j));
    let n = INITIAL_N, i = 0, bias = INITIAL_BIAS;
    for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length;) {
      const oldI = i;
      for (let w = 1, k = BASE; ; k += BASE) {
        if (index >= input.length) return FAILURE;
        const digit = decodeDigit(input.charCodeAt(index++));
        if (digit >= BASE || digit > Math.floor((0x7fffffff - i) / w)) return FAILURE;
        i += digit * w;
        const t = threshold(k, bias);
        if (digit < t) break;
        if (w > Math.floor(0x7fffffff / (BASE - t))) return FAILURE;
        w *= BASE - t;
      }
      bias = adapt(i - oldI, output.length + 1, oldI === 0);
      n += Math.floor(i / (output.length + 1));
      i %= output.length + 1;
      if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return FAILURE;
      output.splice(i++, 0, n);
    }
    return String.fromCodePoint(...output);
  }

  // UTS #46 maps these to nothing (IDNA2003's "commonly mapped to nothing", less the joiners).
  const IGNORED = /[\u00AD\u034F\u1806\u180B-\u180D\u200B\u2060\uFE00-\uFE0F\uFEFF]/g;
  const FULL_STOPS = /[\u3002\uFF0E\uFF61]/g;
  // Disallowed in a label: controls, unassigned, private use, noncharacters and U+FFFD.
  const DISALLOWED = /[\p{Cc}\p{Cn}\p{Co}\uFFFD]|[\uFDD0-\uFDEF]/u;

  function mapDomain(domain) {
    const mapped = domain.replace(IGNORED, '').normalize('NFKC');
    // Per code point, so a final Σ maps to σ as UTS #46 says, not to ς as toLowerCase would.
    return Array.from(mapped, (character) => character.toLowerCase()).join('').normalize('NFC').replace(FULL_STOPS, '.');
  }

  // CheckJoiners (RFC 5892 A.1, A.2), approximated without the Unicode tables: a joiner may
  // follow a virama, and ZWNJ may also stand between two letters of a joining script
  // (Persian's "نامه‌ای"), marks around it aside.
  const VIRAMAS = '\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D3B\u0D3C\u0D4D\u0DCA\u0E3A\u0EBA\u0F84\u1039\u103A' +
    '\u1714\u1715\u1734\u17D2\u1A60\u1B44\u1BAA\u1BAB\u1BF2\u1BF3\u2D7F\uA806\uA82C\uA8C4\uA953\uA9C0\uAAF6\uABED';
  const JOINING_SCRIPT = /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Mandaic}\p{Script=Adlam}]/u;
  const isJoiningLetter = (character) => character !== undefined && JOINING_SCRIPT.test(character) && /\p{L}/u.test(character);
  function joinersAreAllowed(characters) {
    const letterAround = (index, step) => {
      while (characters[index] !== undefined && /\p{Mn}/u.test(characters[index])) index += step;
      return isJoiningLetter(characters[index]);
    };
    return characters.every((character, index) => {
      if (character !== '\u200C' && character !== '\u200D') return true;
      if (index > 0 && VIRAMAS.includes(characters[index - 1])) return true;
      return character === '\u200C' && letterAround(index - 1, -1) && letterAround(index + 1, 1);
    });
  }

  function isValidLabel(label) {
    const characters = Array.from(label);
    return label === mapDomain(label) && !/^\p{M}/u.test(label) && joinersAreAllowed(characters) &&
      !DISALLOWED.test(label.replace(/[\x00-\x7f]/g, ''));
  }

  // A label's Unicode form (what the Bidi rule looks at), or FAILURE.
  function labelToUnicode(label) {
    if (!label.startsWith('xn--')) return isASCII(label) || isValidLabel(label) ? label : FAILURE;
    const decoded = isASCII(label) ? punycodeDecode(label.slice(4)) : FAILURE;
    if (decoded === FAILURE || decoded === '' || isASCII(decoded) || decoded.startsWith('xn--') || !isValidLabel(decoded)) return FAILURE;
    return decoded;
  }

  // The Bidi rule (RFC 5893 §2) with bidi classes told from scripts and categories: right to
  // left (R, AL) for letters of the right-to-left scripts, Arabic-Indic digits (AN), European
  // digits (EN), marks (NSM), other letters left to right (L); the rest only count where they
  // stand. As the URL Standard's data has it, ASCII labels are not checked.
  const RIGHT_TO_LEFT = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;
  function bidiClass(character) {
    if (/[\u0600-\u0605\u0660-\u0669\u066B\u066C\u06DD\u0890\u0891\u08E2]/.test(character)) return 'AN';
    if (/[0-9\u06F0-\u06F9]/.test(character)) return 'EN';
    if (/[\p{Mn}\p{Me}]/u.test(character)) return 'NSM';
    if (/[\p{L}\p{Nd}]/u.test(character)) return RIGHT_TO_LEFT.test(character) ? 'R' : 'L';
    return /\p{Mc}/u.test(character) ? 'L' : 'ON';
  }
  function satisfiesBidiRule(labels) {
    const classes = labels.map((label) => Array.from(label, bidiClass));
    if (!classes.some((label) => label.includes('R') || label.includes('AN'))) return true;
    return labels.every((label, index) => {
      if (isASCII(label)) return true;
      const kinds = classes[index];
      const last = kinds.filter((kind) => kind !== 'NSM').pop();
      if (kinds[0] === 'R') return !kinds.includes('L') && ['R', 'EN', 'AN'].includes(last) && !(kinds.includes('EN') && kinds.includes('AN'));
      return kinds[0] === 'L' && !kinds.includes('R') && !kinds.includes('AN') && (last === 'L' || last === 'EN');
    });
  }

  const FORBIDDEN_HOST = /[\x00\t\n\r #/:<>?@[\\\]^|]/;
  const FORBIDDEN_DOMAIN = /[\x00-\x20#%/:<>?@[\\\]^|\x7f]/;

  function domainToASCII(domain) {
    let result;
    const lowered = asciiLowercase(domain);
    if (isASCII(domain) && !lowered.split('.').some((label) => label.startsWith('xn--'))) {
      result = lowered; // the standard's fast path: nothing for IDNA to do
    } else {
      const labels = mapDomain(domain).split('.');
      const unicode = labels.map(labelToUnicode);
      if (unicode.includes(FAILURE) || !satisfiesBidiRule(unicode)) return FAILURE;
      result = labels.map((label) => (isASCII(label) ? label : 'xn--' + punycodeEncode(label))).join('.');
    }
    return result === '' || FORBIDDEN_DOMAIN.test(result) ? FAILURE : result;
  }

  // MARK: Hosts (§3)

  // An IPv4 number: decimal, 0x-hex or 0-octal; FAILURE if not one.
  function parseIPv4Number(input) {
    if (input === '') return FAILURE;
    let radix = 10;
    if (/^0[xX]/.test(input)) { input = input.slice(2); radix = 16; }
    else if (input.length >= 2 && input[0] === '0') { input = input.slice(1); radix = 8; }
    if (input === '') return 0;
    const digits = radix === 10 ? /^[0-9]+$/ : radix === 16 ? /^[0-9A-Fa-f]+$/ : /^[0-7]+$/;
    return digits.test(input) ? parseInt(input, radix) : FAILURE;
  }

  // Whether the host is to be read as IPv4: its last label is a number.
  function endsInANumber(input) {
    const parts = input.split('.');
    if (parts[parts.length - 1] === '') {
      if (parts.length === 1) return false;
      parts.pop();
    }
    const last = parts[parts.length - 1];
    return /^[0-9]+$/.test(last) || parseIPv4Number(last) !== FAILURE;
  }

  // The serialized address ("1.2.3.4"), or FAILURE.
  function parseIPv4(input) {
    const parts = input.split('.');
    if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
    if (parts.length > 4) return FAILURE;
    const numbers = parts.map(parseIPv4Number);
    if (numbers.includes(FAILURE)) return FAILURE;
    const last = numbers.pop();
    if (numbers.some((number) => number > 255) || last >= 256 ** (4 - numbers.length)) return FAILURE;
    let address = last;
    numbers.forEach((number, counter) => { address += number * 256 ** (3 - counter); });
    const octets = [];
    for (let i = 0; i < 4; i++) { octets.unshift(address % 256); address = Math.floor(address / 256); }
    return octets.join('.');
  }

  // Eight 16-bit pieces, or FAILURE.
  function parseIPv6(input) {
    const address = [0, 0, 0, 0, 0, 0, 0, 0];
    const c = codePoints(input);
    let pieceIndex = 0, compress = null, pointer = 0;
    if (c[0] === 0x3a) {
      if (c[1] !== 0x3a) return FAILURE;
      pointer += 2;
      compress = ++pieceIndex;
    }
    while (pointer < c.length) {
      if (pieceIndex === 8) return FAILURE;
      if (c[pointer] === 0x3a) {
        if (compress !== null) return FAILURE;
        pointer++;
        compress = ++pieceIndex;
        continue;
      }
      let value = 0, length = 0;
      while (length < 4 && isHexDigit(c[pointer])) { value = value * 0x10 + parseInt(String.fromCharCode(c[pointer]), 16); pointer++; length++; }
      if (c[pointer] === 0x2e) {
        // An embedded IPv4 address fills the last two pieces.
        if (length === 0 || pieceIndex > 6) return FAILURE;
        pointer -= length;
        let numbersSeen = 0;
        while (pointer < c.length) {
          let piece = null;
          if (numbersSeen > 0) {
            if (c[pointer] === 0x2e && numbersSeen < 4) pointer++;
            else return FAILURE;
          }
          if (!isDigit(c[pointer])) return FAILURE;
          while (isDigit(c[pointer])) {
            const number = c[pointer] - 0x30;
            if (piece === 0) return FAILURE; // no leading zeros
            piece = piece === null ? number : piece * 10 + number;
            if (piece > 255) return FAILURE;
            pointer++;
          }
          address[pieceIndex] = address[pieceIndex] * 0x100 + piece;
          numbersSeen++;
          if (numbersSeen === 2 || numbersSeen === 4) pieceIndex++;
        }
        if (numbersSeen !== 4) return FAILURE;
        break;
      } else if (c[pointer] === 0x3a) {
        pointer++;
        if (pointer >= c.length) return FAILURE;
      } else if (pointer < c.length) {
        return FAILURE;
      }
      address[pieceIndex++] = value;
    }
    if (compress !== null) {
      let swaps = pieceIndex - compress;
      for (pieceIndex = 7; pieceIndex !== 0 && swaps > 0; pieceIndex--, swaps--) {
        [address[pieceIndex], address[compress + swaps - 1]] = [address[compress + swaps - 1], address[pieceIndex]];
      }
    } else if (pieceIndex !== 8) {
      return FAILURE;
    }
    return address;
  }

  // "[…]" with the first longest run of two or more zero pieces compressed to "::".
  function serializeIPv6(address) {
    let compress = null, longest = 1;
    for (let i = 0; i < 8;) {
      let end = i;
      while (end < 8 && address[end] === 0) end++;
      if (end - i > longest) { compress = i; longest = end - i; }
      i = end > i ? end : i + 1;
    }
    let output = '';
    for (let i = 0; i < 8; i++) {
      if (i === compress) {
        output += i === 0 ? '::' : ':';
        i += longest - 1;
        continue;
      }
      output += address[i].toString(16) + (i !== 7 ? ':' : '');
    }
    return '[' + output + ']';
  }

  // Hosts are kept serialized: a domain, "1.2.3.4", "[…]", an opaque host or "".
  function parseHost(input, isOpaque) {
    if (input.startsWith('[')) {
      if (!input.endsWith(']')) return FAILURE;
      const address = parseIPv6(input.slice(1, -1));
      return address === FAILURE ? FAILURE : serializeIPv6(address);
    }
    if (isOpaque) return FORBIDDEN_HOST.test(input) ? FAILURE : percentEncodeString(input, c0ControlSet);
    const asciiDomain = domainToASCII(utf8DecodeWithoutBOM(percentDecode(input)));
    if (asciiDomain === FAILURE) return FAILURE;
    return endsInANumber(asciiDomain) ? parseIPv4(asciiDomain) : asciiDomain;
  }

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

  // MARK: The URL class (§6.1)

  // Each URL's record and URLSearchParams; each URLSearchParams' list and URL (or null).
  const urls = new WeakMap();
  const searchParamsLists = new WeakMap();

  function recordOf(object) {
    const state = urls.get(object);
    if (state === undefined) throw new TypeError('Illegal invocation: not a URL');
    return state;
  }
  function paramsOf(object) {
    const state = searchParamsLists.get(object);
    if (state === undefined) throw new TypeError('Illegal invocation: not a URLSearchParams');
    return state;
  }
  function requireArguments(count, needed, name) {
    if (count < needed) throw new TypeError(`${name} needs ${needed} argument${needed > 1 ? 's' : ''}, got ${count}`);
  }

  // The URL for `url` against `base`, or FAILURE (a base that does not parse fails too).
  function parseAgainst(url, base) {
    let parsedBase = null;
    if (base !== undefined) {
      parsedBase = basicParse(toUSVString(base));
      if (parsedBase === FAILURE) return FAILURE;
    }
    return basicParse(toUSVString(url), parsedBase);
  }

  function setQueryList(state) {
    const list = paramsOf(state.searchParams).list;
    list.length = 0;
    if (state.url.query !== null) list.push(...parseFormURLEncoded(state.url.query));
  }

  class URL {
    constructor(url, base = undefined) {
      requireArguments(arguments.length, 1, 'URL');
      const parsed = parseAgainst(url, base);
      if (parsed === FAILURE) {
        const input = toUSVString(url);
        throw new TypeError(base === undefined ? `Invalid URL: ${input}` : `Invalid URL: ${input} (against ${toUSVString(base)})`);
      }
      const state = { url: parsed, searchParams: null };
      urls.set(this, state);
      // Built empty and filled from the query as it is: the constructor would drop a leading "?".
      state.searchParams = new URLSearchParams();
      searchParamsLists.get(state.searchParams).url = this;
      setQueryList(state);
    }

    static canParse(url, base = undefined) {
      requireArguments(arguments.length, 1, 'URL.canParse');
      return parseAgainst(url, base) !== FAILURE;
    }

    static parse(url, base = undefined) {
      requireArguments(arguments.length, 1, 'URL.parse');
      return parseAgainst(url, base) === FAILURE ? null : new URL(url, base);
    }

    get href() { return serializeURL(recordOf(this).url); }
    set href(value) {
      const state = recordOf(this);
      const parsed = basicParse(toUSVString(value));
      if (parsed === FAILURE) throw new TypeError(`Invalid URL: ${toUSVString(value)}`);
      state.url = parsed;
      setQueryList(state);
    }

    get origin() { return serializeOrigin(recordOf(this).url); }

    get protocol() { return recordOf(this).url.scheme + ':'; }
    set protocol(value) {
      const url = recordOf(this).url;
      basicParse(toUSVString(value) + ':', null, url, schemeStartState);
    }

    get username() { return recordOf(this).url.username; }
    set username(value) {
      const url = recordOf(this).url;
      if (!cannotHaveCredentialsOrPort(url)) url.username = percentEncodeString(toUSVString(value), userinfoSet);
    }

    get password() { return recordOf(this).url.password; }
    set password(value) {
      const url = recordOf(this).url;
      if (!cannotHaveCredentialsOrPort(url)) url.password = percentEncodeString(toUSVString(value), userinfoSet);
    }

    get host() {
      const url = recordOf(this).url;
      if (url.host === null) return '';
      return url.port === null ? url.host : url.host + ':' + url.port;
    }
    set host(value) {
      const url = recordOf(this).url;
      if (!hasOpaquePath(url)) setWithOverride(url, toUSVString(value), hostState);
    }

    get hostname() { return recordOf(this).url.host ?? ''; }
    set hostname(value) {
      const url = recordOf(this).url;
      if (!hasOpaquePath(url)) setWithOverride(url, toUSVString(value), hostnameState);
    }

    get port() {
      const port = recordOf(this).url.port;
      return port === null ? '' : String(port);
    }
    set port(value) {
      const url = recordOf(this).url;
      if (cannotHaveCredentialsOrPort(url)) return;
      value = toUSVString(value);
      if (value === '') url.port = null;
      else setWithOverride(url, value, portState);
    }

    get pathname() { return serializePath(recordOf(this).url); }
    set pathname(value) {
      const url = recordOf(this).url;
      if (hasOpaquePath(url)) return;
      url.path = [];
      setWithOverride(url, toUSVString(value), pathStartState);
    }

    get search() {
      const query = recordOf(this).url.query;
      return query === null || query === '' ? '' : '?' + query;
    }
    set search(value) {
      const state = recordOf(this);
      const url = state.url;
      value = toUSVString(value);
      if (value === '') {
        url.query = null;
        paramsOf(state.searchParams).list.length = 0;
        return;
      }
      const input = value[0] === '?' ? value.slice(1) : value;
      url.query = '';
      basicParse(input, null, url, queryState);
      paramsOf(state.searchParams).list.splice(0, Infinity, ...parseFormURLEncoded(input));
    }

    get searchParams() { return recordOf(this).searchParams; }

    get hash() {
      const fragment = recordOf(this).url.fragment;
      return fragment === null || fragment === '' ? '' : '#' + fragment;
    }
    set hash(value) {
      const url = recordOf(this).url;
      value = toUSVString(value);
      if (value === '') {
        url.fragment = null;
        return;
      }
      url.fragment = '';
      basicParse(value[0] === '#' ? value.slice(1) : value, null, url, fragmentState);
    }

    toString() { return this.href; }
    toJSON() { return this.href; }
  }

  // As the standard says, a setter's parse changes the URL in place and its failure is
  // ignored: "example.com:" given to the host setter changes the host and keeps the port.
  function setWithOverride(url, value, state) {
    basicParse(value, null, url, state);
  }

  // MARK: The URLSearchParams class (§6.2)

  function initialList(init) {
    if (init !== null && (typeof init === 'object' || typeof init === 'function')) {
      if (typeof init[Symbol.iterator] === 'function') {
        return Array.from(init, (pair) => {
          const items = typeof pair === 'string' || pair === null || pair === undefined ? null : Array.from(pair);
          if (items === null || items.length !== 2) throw new TypeError('URLSearchParams: each pair needs exactly a name and a value');
          return [toUSVString(items[0]), toUSVString(items[1])];
        });
      }
      const list = [];
      for (const key of Reflect.ownKeys(init)) {
        const descriptor = Reflect.getOwnPropertyDescriptor(init, key);
        if (typeof key === 'string' && descriptor !== undefined && descriptor.enumerable) {
          list.push([toUSVString(key), toUSVString(init[key])]);
        }
      }
      return list;
    }
    const string = init === undefined ? '' : toUSVString(init);
    return parseFormURLEncoded(string[0] === '?' ? string.slice(1) : string);
  }

  class URLSearchParams {
    constructor(init = undefined) {
      searchParamsLists.set(this, { list: initialList(init), url: null });
    }

    get size() { return paramsOf(this).list.length; }

    append(name, value) {
      requireArguments(arguments.length, 2, 'URLSearchParams.append');
      const state = paramsOf(this);
      state.list.push([toUSVString(name), toUSVString(value)]);
      update(state);
    }

    delete(name, value = undefined) {
      requireArguments(arguments.length, 1, 'URLSearchParams.delete');
      const state = paramsOf(this);
      name = toUSVString(name);
      const match = value === undefined ? (pair) => pair[0] === name : ((v) => (pair) => pair[0] === name && pair[1] === v)(toUSVString(value));
      state.list.splice(0, Infinity, ...state.list.filter((pair) => !match(pair)));
      update(state);
    }

    get(name) {
      requireArguments(arguments.length, 1, 'URLSearchParams.get');
      name = toUSVString(name);
      const pair = paramsOf(this).list.find((item) => item[0] === name);
      return pair === undefined ? null : pair[1];
    }

    getAll(name) {
      requireArguments(arguments.length, 1, 'URLSearchParams.getAll');
      name = toUSVString(name);
      return paramsOf(this).list.filter((pair) => pair[0] === name).map((pair) => pair[1]);
    }

    has(name, value = undefined) {
      requireArguments(arguments.length, 1, 'URLSearchParams.has');
      name = toUSVString(name);
      const v = value === undefined ? undefined : toUSVString(value);
      return paramsOf(this).list.some((pair) => pair[0] === name && (v === undefined || pair[1] === v));
    }

    set(name, value) {
      requireArguments(arguments.length, 2, 'URLSearchParams.set');
      const state = paramsOf(this);
      name = toUSVString(name);
      value = toUSVString(value);
      const first = state.list.findIndex((pair) => pair[0] === name);
      if (first < 0) {
        state.list.push([name, value]);
      } else {
        state.list[first] = [name, value];
        state.list.splice(0, Infinity, ...state.list.filter((pair, index) => index <= first || pair[0] !== name));
      }
      update(state);
    }

    // Stable, by UTF-16 code units (which is what < compares).
    sort() {
      const state = paramsOf(this);
      state.list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      update(state);
    }

    // Live: entries appended while iterating are reached, as the standard's iterator does.
    *entries() {
      const list = paramsOf(this).list;
      for (let i = 0; i < list.length; i++) yield [list[i][0], list[i][1]];
    }
    *keys() { for (const [name] of this.entries()) yield name; }
    *values() { for (const [, value] of this.entries()) yield value; }

    forEach(callback, thisArgument = undefined) {
      if (typeof callback !== 'function') throw new TypeError('URLSearchParams.forEach needs a function');
      const list = paramsOf(this).list;
      for (let i = 0; i < list.length; i++) callback.call(thisArgument, list[i][1], list[i][0], this);
    }

    toString() { return serializeFormURLEncoded(paramsOf(this).list); }
  }
  Object.defineProperty(URLSearchParams.prototype, Symbol.iterator,
    { value: URLSearchParams.prototype.entries, writable: true, configurable: true, enumerable: false });

  // The URL a URLSearchParams belongs to follows every change to it.
  function update(state) {
    if (state.url === null) return;
    const serialized = serializeFormURLEncoded(state.list);
    recordOf(state.url).url.query = serialized === '' ? null : serialized;
  }

  for (const [name, constructor] of [['URL', URL], ['URLSearchParams', URLSearchParams]]) {
    Object.defineProperty(constructor.prototype, Symbol.toStringTag, { value: name, configurable: true });
    Object.defineProperty(global, name, { value: constructor, writable: true, configurable: true, enumerable: false });
  }
})
