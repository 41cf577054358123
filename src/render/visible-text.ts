// Text for a terminal: control characters from the input (ESC, BEL, a carriage return, C1 codes)
// are shown as \u escapes, so that a malformed line or a payload cannot move the cursor, retitle
// the window or clear the screen when a table is printed. Newlines and tabs stay.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function visibleText(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
