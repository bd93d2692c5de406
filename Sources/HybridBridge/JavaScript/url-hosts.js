// The URL Standard's code points, percent-encoding, IDNA and hosts (§1.3, §3): the parts
// url-parser.js and url.js stand on, returned to them (nothing global). Called once per
// context, before them.
//
// IDNA is a reduced UTS #46 without its tables: NFKC, lowercasing, the ignored code points and
// the ideographic full stops stand for the mapping table; non-ASCII labels are Punycode-encoded
// and `xn--` labels decoded to check them; the joiner and Bidi rules are approximated from
// scripts and general categories; CONTEXTO rules are not applied.
(function () {
  'use strict';

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

  return Object.freeze({
    DONE, EOF, FAILURE, asciiLowercase, c0ControlSet, codePoints, formSet, fragmentSet, isAlpha,
      isAlphanumeric, isDigit, parseHost, pathSet, percentDecode, percentEncode, percentEncodeString,
      querySet, specialQuerySet, toUSVString, userinfoSet, utf8DecodeWithoutBOM
  });
})
