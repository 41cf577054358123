// The three spellings of one subagent (docs/formats.md#lifecycle-and-subagent-events): `subagent-<type>-<taskId>`
// (SubagentStart/Stop), `<session>-sub-<taskId>` (RetryTelemetry.agentId, StreamPhase.agent_id)
// and the bare `<taskId>` (warn.log messages, tasks/<taskId>.output). Task ids are one letter and
// 8 of [0-9a-z] (docs/formats.md#task-outputs); custom subagents (`subagent-custom-<ms>`) have none.
const TASK_ID = '[a-z][0-9a-z]{8}';

/** SQL expression: the task id inside an agent id of any form, or NULL. */
export function sqlTaskId(expr: string): string {
  return `coalesce(nullif(regexp_extract(${expr}, '-(${TASK_ID})$', 1), ''), nullif(regexp_extract(${expr}, '^(${TASK_ID})$', 1), ''))`;
}

/** The task id inside an agent id of any form, or null (custom subagents have none). */
export function taskIdOf(agentId: string): string | null {
  return new RegExp(`(?:^|-)(${TASK_ID})$`).exec(agentId)?.[1] ?? null;
}
