// "did you mean X?" for a mistyped name, by the rule commander uses for commands and options
// (optimal string alignment distance of at most 3, more than 40 % of the longer name kept), so
// that a query name, an --event or a --param key gets the same help as a command or an option.
const MAX_DISTANCE = 3;

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The candidates nearest to `word` (a case-only difference first), none when nothing is close. */
export function similarNames(word: string, candidates: Iterable<string>): string[] {
  const unique = [...new Set(candidates)];
  const sameLetters = unique.filter((c) => c !== word && c.toLowerCase() === word.toLowerCase());
  if (sameLetters.length > 0) return sameLetters;
  let best = MAX_DISTANCE;
  let similar: string[] = [];
  for (const candidate of unique) {
    if (candidate.length <= 1) continue;
    const d = distance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    if ((length - d) / length <= 0.4) continue;
    if (d < best) {
      best = d;
      similar = [candidate];
    } else if (d === best) {
      similar.push(candidate);
    }
  }
  return similar.sort();
}

/** `did you mean "x"? ` (or "x" or "y"), or '' when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const similar = similarNames(word, candidates);
  return similar.length === 0 ? '' : `did you mean ${similar.map((s) => JSON.stringify(s)).join(' or ')}? `;
}
