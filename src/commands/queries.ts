import type { CommandResult } from '../command-result.js';
import { ExitCode } from '../errors.js';
import { loadQueries } from '../queries/load-queries.js';
import { renderTabular, type TabularFormat } from '../render/index.js';

export async function queries(options: { format: TabularFormat; width?: number }): Promise<CommandResult> {
  const rows = loadQueries().map((q) => ({
    name: q.name,
    description: q.description,
    params: q.params.map((p) => `${p.name} ${p.type} = ${p.defaultText}`).join('; '),
  }));
  return { output: renderTabular({ columns: ['name', 'description', 'params'], rows }, options.format, { width: options.width }), exitCode: ExitCode.ok };
}
