import { describe, expect, it } from 'vitest';
import { loneSurrogateEscape } from '../../../src/ingest/lone-surrogate.js';

describe('loneSurrogateEscape', () => {
  it('finds half a pair, high or low, alone or in the wrong order', () => {
    expect(loneSurrogateEscape('{"s":"fix \\ud83d"}')).toEqual({ escape: '\\ud83d', position: 10 });
    expect(loneSurrogateEscape('["\\uDC00"]')).toEqual({ escape: '\\uDC00', position: 2 });
    expect(loneSurrogateEscape('["\\ude00\\ud83d"]')).toEqual({ escape: '\\ude00', position: 2 });
    expect(loneSurrogateEscape('["\\ud83d\\u0041"]')).toEqual({ escape: '\\ud83d', position: 2 });
  });

  it('passes whole pairs, other escapes, and a backslash that is itself escaped', () => {
    expect(loneSurrogateEscape('{"s":"\\ud83d\\ude00 \\uD83D\\uDE00 \\u00e9 \\n \\"","k":"\\\\ud800"}')).toBeNull();
    expect(loneSurrogateEscape('{"\\\\\\\\":"\\\\ud800"}')).toBeNull();
  });
});
