// Text for a terminal: control characters from the input (ESC, BEL, a carriage return, C1 codes)
// are shown as \u escapes, so that a malformed line or a payload cannot move the cursor, retitle
// the window or clear the screen when a table is printed; so are the line separators, the
// bidirectional overrides that can make text read other than it is, and the invisible characters
// (Unicode's default-ignorable code points: a zero-width space, a word joiner, U+FEFF, a soft
// hyphen, a Hangul filler…) that make two different names look the same: an event named
// "\ufeffStart" is not "Start". So are the noncharacters (U+FFFE, U+FFFF, U+FDD0…), which a
// terminal shows as nothing or as some other glyph, and the interlinear annotation marks
// (U+FFF9–U+FFFB), which can hide the text between them. Newlines and tabs stay; so do the zero-width (non-)joiners,
// variation selectors and tag characters that emoji and some scripts are written with.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u2028\u2029\u202a-\u202e\u2066-\u2069\ufff9-\ufffb]|\p{Noncharacter_Code_Point}|(?![\u200c\u200d\ufe00-\ufe0f\u{e0020}-\u{e007f}\u{e0100}-\u{e01ef}])\p{Default_Ignorable_Code_Point}/gu;

const escape = (c: string) => {
  const code = c.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

export function visibleText(text: string): string {
  return text.replace(CONTROL, escape);
}

/** Text for one line of a list (a file name): a newline or a tab in it is shown as an escape too. */
export function inlineText(text: string): string {
  return visibleText(text).replace(/[\n\t]/g, escape);
}
