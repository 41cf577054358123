// The one grapheme segmenter, made on first use: the first Intl.Segmenter of a process costs ~15 ms
// (ICU's break data), which a command that never cuts, wraps or points into text should not pay.
let segmenter: Intl.Segmenter | undefined;

/** The user-perceived characters of `text`. */
export function graphemes(text: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter();
  return segmenter.segment(text);
}
