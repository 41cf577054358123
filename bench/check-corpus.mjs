// Generates a realistic TypeScript tree for the check benchmark: 2,000 files, ~650k lines,
// an import graph, try/catch in a third of the files, a few async generators, and a sprinkling of
// direct provider calls and stateful constructions for the rules to find.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const words = ['session', 'turn', 'message', 'token', 'budget', 'retry', 'window', 'chunk', 'tool', 'result', 'agent', 'cache', 'index', 'range', 'buffer'];

function method(r, name, i, file) {
  const a = words[Math.floor(r() * words.length)];
  const b = words[Math.floor(r() * words.length)];
  const lines = [
    `  /** Computes the ${a} ${b} for step ${i}. */`,
    `  ${name}(input: ${'Item'}[], limit = ${10 + i}): Summary {`,
    `    const seen = new Map<string, number>();`,
    `    let total = 0;`,
    `    for (const item of input) {`,
    `      if (item.${a}Count > limit) {`,
    `        total += item.${a}Count - limit;`,
    `      } else if (item.label.startsWith('${b}')) {`,
    `        seen.set(item.label, (seen.get(item.label) ?? 0) + 1);`,
    `      }`,
    `    }`,
    `    const labels = [...seen.keys()].filter((label) => label.length > ${i % 7}).sort();`,
    `    const message = \`${a} \${labels.length} of \${input.length} in ${file}\`;`,
    `    this.log.push(message);`,
  ];
  if (r() < 0.3) {
    lines.push(
      `    try {`,
      `      total = this.normalize(total, labels);`,
      `    } catch (error) {`,
      `      this.log.push(String(error));`,
      `    }`,
    );
  } else {
    lines.push(`    // ${b} values are normalized lazily`, `    total = Math.max(0, total);`, `    if (labels.length === 0) return { total, labels, ratio: 0 };`, `    total = this.normalize(total, labels);`, `    this.counter++;`);
  }
  lines.push(`    const ratio = input.length ? total / input.length : 0;`, `    return { total, labels, ratio };`, `  }`, ``);
  return lines;
}

function fileText(index, r) {
  const file = `f${String(index).padStart(4, '0')}`;
  const imports = [];
  for (let k = 1; k <= 2 && index - k * 7 >= 0; k++) {
    const target = index - k * 7;
    imports.push(`import { Service${target} } from '../m${String(Math.floor(target / 100)).padStart(2, '0')}/f${String(target).padStart(4, '0')}.js';`);
  }
  const lines = [
    `import type { ModelClient } from '../../llm/model-client.js';`,
    `import { FileReadTracker } from '../../state/file-read-tracker.js';`,
    ...imports,
    ``,
    `export interface Item {`,
    ...words.map((w) => `  ${w}Count: number;`),
    `  label: string;`,
    `}`,
    ``,
    `export interface Summary {`,
    `  total: number;`,
    `  labels: string[];`,
    `  ratio: number;`,
    `}`,
    ``,
    `export class Service${index} {`,
    `  private readonly log: string[] = [];`,
    `  private counter = 0;`,
    ``,
    `  constructor(private readonly client: ModelClient, private readonly tracker?: FileReadTracker) {}`,
    ``,
    `  normalize(total: number, labels: string[]): number {`,
    `    if (labels.length > 1000) throw new RangeError('too many labels');`,
    `    return Math.round(total * 100) / 100;`,
    `  }`,
    ``,
  ];
  for (let i = 0; i < 12; i++) lines.push(...method(r, `compute${words[i]}${i}`, i, file));
  if (index % 50 === 3) {
    lines.push(`  async *ask(messages: string[]) {`, `    yield* this.client.sendMessageStream(messages);`, `  }`, ``);
  }
  if (index % 80 === 5) {
    lines.push(`  async *streamRecords${index}(limit: number) {`, `    for (let i = 0; i < limit; i++) yield i;`, `  }`, ``);
  }
  if (index % 80 === 9) {
    const gen = index - 4;
    lines.push(
      `  records(source: { streamRecords${gen}(limit: number): AsyncGenerator<number> }) {`,
      `    try {`,
      `      return source.streamRecords${gen}(10);`,
      `    } catch (error) {`,
      `      return undefined;`,
      `    }`,
      `  }`,
      ``,
    );
  }
  if (index % 100 === 7) lines.push(`  private readonly ownTracker = new FileReadTracker();`, ``);
  lines.push(`}`, ``);
  if (index % 250 === 11) lines.push(`export const sharedTracker = new FileReadTracker();`, ``);
  return lines.join('\n');
}

/** Writes the tree under `dir`; returns { files, lines }. */
export function generateCorpus(dir, count = 2000) {
  const r = rng(42);
  let lines = 0;
  const write = (rel, text) => {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    lines += text.split('\n').length;
  };
  write('src/llm/model-client.ts', 'export interface ModelClient {\n  sendMessageStream(messages: string[]): AsyncGenerator<string>;\n}\n');
  write('src/state/file-read-tracker.ts', 'export class FileReadTracker {\n  readonly seen = new Set<string>();\n}\n');
  for (let index = 0; index < count - 2; index++) {
    write(`src/modules/m${String(Math.floor(index / 100)).padStart(2, '0')}/f${String(index).padStart(4, '0')}.ts`, fileText(index, r));
  }
  return { files: count, lines };
}
