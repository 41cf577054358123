// A strict XML 1.0 well-formedness parser for the SVG files trajaudit writes, so a test can tell
// whether a browser or an image viewer would read one (they refuse the whole file on one error).
// It covers what such a file can hold: a declaration, comments, elements, attributes, text and
// character or entity references; a DTD, CDATA or a processing instruction is refused, as
// trajaudit writes none. Returns the root element's name; throws naming the offset otherwise.

// XML 1.0 §2.2 Char: no C0 control but tab, newline and CR; no surrogate, U+FFFE or U+FFFF.
const NOT_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
const NAME = /[A-Za-z_:][A-Za-z0-9_:.-]*/y;
const SPACE = /[ \t\r\n]*/y;
const REFERENCE = /&(?:[A-Za-z_:][A-Za-z0-9_:.-]*|#[0-9]+|#x[0-9A-Fa-f]+);/y;
const PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

export function parseXml(xml: string): string {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`not well-formed XML at offset ${at}: ${what} (…${JSON.stringify(xml.slice(Math.max(0, at - 30), at + 30))}…)`);
  };
  const bad = NOT_CHAR.exec(xml);
  if (bad) {
    at = bad.index;
    fail(`U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} is not an XML character`);
  }
  const match = (pattern: RegExp): string | null => {
    pattern.lastIndex = at;
    const found = pattern.exec(xml);
    if (!found) return null;
    at += found[0].length;
    return found[0];
  };
  // Text and attribute values: `&` only in a reference to a predefined entity or a character.
  const characterData = (text: string, start: number) => {
    for (let i = text.indexOf('&'); i >= 0; i = text.indexOf('&', i + 1)) {
      REFERENCE.lastIndex = i;
      const ref = REFERENCE.exec(text);
      at = start + i;
      if (!ref) fail('a bare &');
      const name = ref![0].slice(1, -1);
      if (!name.startsWith('#') && !PREDEFINED.has(name)) fail(`undeclared entity &${name};`);
    }
    if (text.includes(']]>')) fail(']]> in text');
  };

  const open: string[] = [];
  let root: string | null = null;
  if (xml.startsWith('<?xml')) {
    at = xml.indexOf('?>');
    if (at < 0) fail('unclosed declaration');
    at += 2;
  }
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    const text = xml.slice(at, lt < 0 ? xml.length : lt);
    if (open.length === 0 && text.trim()) fail('text outside the root element');
    characterData(text, at);
    if (lt < 0) break;
    at = lt;
    if (xml.startsWith('<!--', at)) {
      const end = xml.indexOf('-->', at + 4);
      if (end < 0 || xml.slice(at + 4, end).includes('--')) fail('a bad comment');
      at = end + 3;
    } else if (xml.startsWith('</', at)) {
      at += 2;
      const name = match(NAME) ?? fail('an end tag without a name');
      if (open.pop() !== name) fail(`</${name}> closes nothing open`);
      match(SPACE);
      if (!match(/>/y)) fail('an unclosed end tag');
    } else if (xml.startsWith('<!', at) || xml.startsWith('<?', at)) {
      fail('a DTD, CDATA or processing instruction');
    } else {
      at += 1;
      const name = match(NAME) ?? fail('a tag without a name');
      if (open.length === 0 && root !== null) fail('a second root element');
      root ??= name;
      const seen = new Set<string>();
      for (;;) {
        const space = match(SPACE);
        if (match(/\/>/y)) break;
        if (match(/>/y)) {
          open.push(name);
          break;
        }
        if (!space) fail('no space before an attribute');
        const attribute = match(NAME) ?? fail('a bad attribute name');
        if (seen.has(attribute)) fail(`attribute ${attribute} twice`);
        seen.add(attribute);
        match(SPACE);
        if (!match(/=/y)) fail(`attribute ${attribute} without a value`);
        match(SPACE);
        const quote = xml[at];
        if (quote !== '"' && quote !== "'") fail(`attribute ${attribute} unquoted`);
        const end = xml.indexOf(quote, at + 1);
        if (end < 0) fail(`attribute ${attribute} unclosed`);
        const value = xml.slice(at + 1, end);
        if (value.includes('<')) fail(`< in attribute ${attribute}`);
        characterData(value, at + 1);
        at = end + 1;
      }
    }
  }
  if (open.length > 0) fail(`<${open.at(-1)}> is never closed`);
  return root ?? fail('no root element');
}
