import renderGithub from './github.js';
import renderJson from './json.js';
import renderMarkdown from './markdown.js';
import renderSarif from './sarif.js';
import renderText from './text.js';
import type { CheckRenderer } from './types.js';

export const checkRenderers = {
  text: renderText,
  json: renderJson,
  sarif: renderSarif,
  github: renderGithub,
  md: renderMarkdown,
} satisfies Record<string, CheckRenderer>;

export type CheckFormat = keyof typeof checkRenderers;
