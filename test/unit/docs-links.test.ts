// Every reference in the docs resolves inside the repository: each relative Markdown link of
// README.md and docs/*.md names a file that exists, and its #anchor a heading of that file (by
// GitHub's slug rules); each `docs/<page>.md#anchor` cited in the docs, src/, queries/, test/ or
// bench/ does too. And nothing cites a document that is not in the repository.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.join(import.meta.dirname, '../..');
const DOCS = fs.readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
const PAGES = ['README.md', ...DOCS];

const read = (file: string) => fs.readFileSync(path.join(REPO, file), 'utf8');

/** The text outside fenced code blocks. */
function prose(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) fence = marker[0].repeat(marker.length);
    else if (fence !== null && marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    else if (fence === null) out.push(line);
  }
  return out.join('\n');
}

/** GitHub's anchor for a heading: the text as rendered, lower-cased, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    .replace(/`/g, '');
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings, a repeated one numbered as GitHub numbers it (-1, -2, …). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of prose(read(file)).matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)) {
    const base = slug(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Why `target`, as written in `from`, does not resolve; null when it does. */
function broken(from: string, target: string, base = path.dirname(from)): string | null {
  const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = rawPath === '' ? from : path.normalize(path.join(base, decodeURI(rawPath)));
  if (file.startsWith('..') || path.isAbsolute(file)) return `${target}: outside the repository`;
  if (!fs.existsSync(path.join(REPO, file))) return `${target}: no such file ${file}`;
  if (anchor === undefined || anchor === '') return null;
  if (!file.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  return anchors(file).has(anchor) ? null : `${target}: ${file} has no heading with the anchor #${anchor}`;
}

/** The destinations of a page's inline links and images, and of its link definitions, code spans left out. */
function links(markdown: string): string[] {
  const text = prose(markdown).replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '');
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1].replace(/^<|>$/g, ''));
  const definitions = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]);
  return [...inline, ...definitions].filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** `docs/<page>.md` and `docs/<page>.md#anchor` as cited in text, with nothing path-like before them. */
const CITED = /(?<![\w./-])docs\/[\w.-]+\.md(?:#[\w-]+)?/g;

function filesUnder(dir: string, pattern: RegExp): string[] {
  return (fs.readdirSync(path.join(REPO, dir), { recursive: true }) as string[])
    .map((f) => `${dir}/${f.split(path.sep).join('/')}`)
    .filter((f) => pattern.test(f) && !f.includes('/node_modules/') && !f.startsWith('bench/out/'));
}

describe('docs links', () => {
  it('the slug rules: GitHub anchors of headings', () => {
    expect(slug('Inputs, the input ledger and loading')).toBe('inputs-the-input-ledger-and-loading');
    expect(slug('`heartbeat.txt`')).toBe('heartbeattxt');
    expect(slug('The longest line: 8 MiB')).toBe('the-longest-line-8-mib');
    expect(slug("Guard the agent's source in CI")).toBe('guard-the-agents-source-in-ci');
    expect(slug('Static checks: `trajaudit check`')).toBe('static-checks-trajaudit-check');
    expect(slug('retry_budget and [links](x.md)')).toBe('retry_budget-and-links');
  });

  it('the pages are there', () => {
    expect(PAGES.length).toBeGreaterThan(5);
    for (const page of ['docs/formats.md', 'docs/inputs.md', 'docs/tables.md', 'docs/queries.md', 'docs/checks.md', 'docs/benchmarks.md']) {
      expect(PAGES).toContain(page);
    }
  });

  it.each(PAGES)('every relative link of %s resolves, anchors included', (page) => {
    const found = links(read(page));
    if (page === 'README.md') expect(found.length).toBeGreaterThan(10);
    expect(found.map((target) => broken(page, target)).filter((why) => why !== null)).toEqual([]);
  });

  it('every docs/<page>.md#anchor cited in the docs, src/, queries/, test/ and bench/ resolves', () => {
    const files = [
      ...PAGES,
      ...filesUnder('src', /\.(c|m)?ts$/),
      ...filesUnder('queries', /\.sql$/),
      ...filesUnder('test', /\.(c|m)?ts$/),
      ...filesUnder('bench', /\.(mjs|md)$/),
    ];
    const cited = files.flatMap((file) => [...read(file).matchAll(CITED)].map((m) => ({ file, target: m[0] })));
    expect(cited.length).toBeGreaterThan(30);
    expect(cited.map(({ file, target }) => broken(file, target, '.')).filter((why) => why !== null)).toEqual([]);
  });

  it('nothing in src/, queries/, docs/ or README.md cites a document that is not in the repository', () => {
    const files = ['README.md', ...filesUnder('docs', /\.md$/), ...filesUnder('src', /./), ...filesUnder('queries', /./)].filter(
      (f) => fs.statSync(path.join(REPO, f)).isFile(),
    );
    const outside = [/formats\s+doc/i, /\bSTYLE\.md\b/, /\bDESIGN\.md\b/, /\.\.\/shared\//, /\bshared\/formats\b/];
    const offenders = files.flatMap((file) => {
      const text = read(file);
      return outside.filter((pattern) => pattern.test(text)).map((pattern) => `${file}: ${pattern.source}`);
    });
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});
