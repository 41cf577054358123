// tasks/<taskId>.output (docs/formats.md#task-outputs): free text, no timestamps. A census row per file with
// enough of the head to classify test pollution; the content itself is not line-accounted.
import fs from 'node:fs';
import path from 'node:path';
import type { Adapter } from '../../../ingest/adapters/adapter.js';

const HEAD_BYTES = 256;
const TASK_TYPES: Record<string, string> = { a: 'local_agent', s: 'local_shell', w: 'local_workflow' };
/** File name = taskId = one-letter prefix + 8 chars of [0-9a-z]; any other name has no task id. */
const TASK_FILE = /^(([a-z])[0-9a-z]{8})\.output$/;

const taskOutputs: Adapter = {
  kind: 'task-output',
  tables: ['task_outputs'],
  appendable: false,
  timed: false,
  async read(target) {
    const stat = fs.statSync(target.file.absPath);
    const head = Buffer.alloc(Math.min(HEAD_BYTES, stat.size));
    const fd = fs.openSync(target.file.absPath, 'r');
    try {
      fs.readSync(fd, head, 0, head.length, 0);
    } finally {
      fs.closeSync(fd);
    }
    const [, taskId = null, prefix = null] = TASK_FILE.exec(path.basename(target.file.absPath)) ?? [];
    const store = async () => target.batch.add('task_outputs', ['file_id', 'path', 'task_id', 'prefix', 'task_type', 'bytes', 'mtime', 'head'], [[
      target.fileId, target.file.relPath, taskId, prefix, (prefix && TASK_TYPES[prefix]) ?? 'unknown',
      stat.size, stat.mtime.toISOString(), head.toString('utf8'),
    ]]);
    return { store, ledger: { lines: 0, valid: 0, blank: 0, malformed: 0, bytes: stat.size, completeBytes: stat.size, completeLines: 0, problems: [] } };
  },
};

export default taskOutputs;
