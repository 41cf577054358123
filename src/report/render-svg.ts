// Vega-Lite spec → SVG string in Node, with no browser and no canvas (vega's 'none' renderer
// estimates text widths, which keeps the output the same on every machine).
import type * as Vega from 'vega';
import { InternalError } from '../errors.js';
import type { ChartSpec } from './charts.js';
import { escapeHtml } from './escape-html.js';

// Nothing in a chart may run or fetch: no script, no event handler, no link or url() that
// leaves the document. vega escapes data text already; this is the belt to that pair of braces.
const FORBIDDEN = [/<script/i, /<foreignObject/i, /<image/i, /<use\b/i, /\son[a-z]+\s*=/i, /\s(?:xlink:)?href\s*=/i, /url\(\s*['"]?(?!#)/i, /@import/i];

/** The markup without the places vega puts data text (text nodes, aria-label values), which may say anything. */
function markupOnly(svg: string): string {
  return svg.replace(/\saria-[a-z]+="[^"]*"/g, '').replace(/>[^<]*</g, '><');
}

export async function renderSvg(spec: ChartSpec, title: string): Promise<string> {
  // Loaded on first use: a report that fails on its arguments should not pay for vega.
  const [vega, { compile }, { expressionInterpreter }] = await Promise.all([import('vega'), import('vega-lite'), import('vega-interpreter')]);
  const compiled = compile(spec as never).spec;
  // Vega's expressions are interpreted, not compiled with `new Function`: no code is made from
  // strings (under `node --disallow-code-generation-from-strings`, a CSP-like policy, compiled
  // ones make every report fail as an internal error).
  const view = new vega.View(vega.parse(compiled, undefined, { ast: true }), { renderer: 'none', loader: refuseLoads(vega), expr: expressionInterpreter });
  try {
    const svg = (await view.toSVG())
      .replace(' xmlns:xlink="http://www.w3.org/1999/xlink"', '')
      .replace(/^<svg /, `<svg role="img" aria-label="${escapeHtml(title)}" `);
    assertInert(svg, title);
    return svg;
  } finally {
    view.finalize();
  }
}

/** Throws when the SVG holds anything that could run or fetch (data text aside). */
export function assertInert(svg: string, title: string): void {
  for (const pattern of FORBIDDEN) {
    if (pattern.test(markupOnly(svg))) throw new InternalError(`chart "${title}" produced SVG matching ${pattern}; refusing to embed it`);
  }
}

/** A loader that fails any load: every chart's data is inline. */
function refuseLoads(vega: typeof Vega): Vega.Loader {
  const loader = vega.loader();
  const refuse = async (uri: string) => {
    throw new InternalError(`chart tried to load ${uri}; report charts must carry their data inline`);
  };
  return Object.assign(loader, { load: refuse, sanitize: refuse, http: refuse, file: refuse });
}

