// While one long step runs (a query), the progress line says what and for how long: drawn only
// after `delayMs`, so that a quick answer draws nothing, and cleared as the step ends.
import type { Progress } from './command-result.js';

export interface WhileRunningOptions {
  delayMs?: number;
  everyMs?: number;
}

/** `step`'s result, with `running WHAT … 3.2 s` on `progress` from `delayMs` on until it settles. */
export async function whileRunning<T>(progress: Progress, what: string, step: () => Promise<T>, options: WhileRunningOptions = {}): Promise<T> {
  const { delayMs = 1000, everyMs = 100 } = options;
  const start = Date.now();
  let shown = false;
  let ticker: ReturnType<typeof setInterval> | undefined;
  const show = () => {
    shown = true;
    progress.update(`running ${what} … ${((Date.now() - start) / 1000).toFixed(1)} s`);
  };
  const delay = setTimeout(() => {
    show();
    ticker = setInterval(show, everyMs);
  }, delayMs);
  try {
    return await step();
  } finally {
    clearTimeout(delay);
    clearInterval(ticker);
    if (shown) progress.done();
  }
}
