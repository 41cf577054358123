// Opens the HTML report of the fixtures in real headless Chromium and checks what a reader's
// browser would do with it: run no script, fetch nothing, draw every chart. Chromium is driven
// over the DevTools protocol on a pipe (--remote-debugging-pipe: fd 3 in, fd 4 out, NUL-framed
// JSON), so the test needs no npm package and no network port.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
// In CI the browser test must run: a missing Chromium fails it instead of skipping it.
const skip = !CHROMIUM && !process.env.CI;
if (skip) console.warn('report-browser.test.ts skipped: no Chromium at /usr/bin/chromium (apt-get install -y chromium); it never skips under CI=true');

type Message = { id?: number; method?: string; params?: Record<string, unknown>; sessionId?: string; result?: Record<string, unknown>; error?: { message: string } };

class Cdp {
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  readonly events: Message[] = [];

  constructor(private readonly input: Writable, output: Readable) {
    let buffer = '';
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\0'); end >= 0; end = buffer.indexOf('\0')) {
        const message = JSON.parse(buffer.slice(0, end)) as Message;
        buffer = buffer.slice(end + 1);
        if (message.id === undefined) this.events.push(message);
        const waiter = message.id !== undefined ? this.pending.get(message.id) : undefined;
        if (waiter) {
          this.pending.delete(message.id!);
          if (message.error) waiter.reject(new Error(message.error.message));
          else waiter.resolve(message.result ?? {});
        }
      }
    });
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    this.input.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  async waitFor(method: string, timeoutMs = 20_000): Promise<Message> {
    const started = Date.now();
    for (;;) {
      const found = this.events.find((e) => e.method === method);
      if (found) return found;
      if (Date.now() - started > timeoutMs) throw new Error(`no ${method} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

describe.skipIf(skip)('report --format html in headless Chromium', () => {
  const { dir, cleanup } = tempDir('trajaudit-browser-');
  // A fixed place, overwritten on each run, so a person can look at the last one.
  const shots = path.join(os.tmpdir(), 'trajaudit-report-browser');
  fs.mkdirSync(shots, { recursive: true });
  const report = path.join(dir, 'report.html');
  let browser: ChildProcess;
  let cdp: Cdp;
  let session: string;
  const evaluate = async (expression: string) =>
    ((await cdp.send('Runtime.evaluate', { expression, returnByValue: true }, session)).result as { value: unknown }).value;

  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('no Chromium at /usr/bin/chromium, and CI=true does not allow skipping: install it with apt-get install -y chromium');
    // Week A holds the errors.jsonl line with <script> and <img onerror> in its error text.
    const run = await runCli(['report', path.join(FIXTURES, 'home'), '--since', '2026-08-10', '--until', '2026-08-17', '--format', 'html', '--out', report]);
    expect(run.code, run.stderr).toBe(0);
    browser = spawn(CHROMIUM!, [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      `--user-data-dir=${path.join(dir, 'profile')}`, '--remote-debugging-pipe', 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    cdp = new Cdp(browser.stdio[3] as Writable, browser.stdio[4] as Readable);
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] };
    const page = targetInfos.find((t) => t.type === 'page')!;
    session = (await cdp.send('Target.attachToTarget', { targetId: page.targetId, flatten: true })).sessionId as string;
    for (const domain of ['Page', 'Network', 'Debugger', 'Log']) await cdp.send(`${domain}.enable`, {}, session);
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1200, height: 900, deviceScaleFactor: 1, mobile: false }, session);
    cdp.events.length = 0;
    await cdp.send('Page.navigate', { url: pathToFileURL(report).href }, session);
    await cdp.waitFor('Page.loadEventFired');
  });

  afterAll(async () => {
    // The profile dir can only go once Chromium has exited and stopped writing into it.
    const exited = browser && browser.exitCode === null ? new Promise((r) => browser.once('exit', r)) : Promise.resolve();
    await cdp?.send('Browser.close').catch(() => undefined);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    browser?.kill();
    cleanup();
  });

  it('runs no script: nothing parsed, no dialog, no script or img element, the payload shown as text', async () => {
    // Read the page's events before our own Runtime.evaluate parses scripts of its own.
    const scripts = cdp.events.filter((e) => e.method === 'Debugger.scriptParsed' && e.sessionId === session);
    expect(scripts.map((e) => e.params?.url)).toEqual([]);
    expect(cdp.events.filter((e) => e.method === 'Page.javascriptDialogOpening')).toEqual([]);
    expect(cdp.events.filter((e) => e.method === 'Log.entryAdded').map((e) => (e.params?.entry as { text: string }).text)).toEqual([]);
    expect(await evaluate(`document.querySelectorAll('script, img, iframe, object, embed, foreignObject').length`)).toBe(0);
    const text = (await evaluate('document.body.innerText')) as string;
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('<img src=x onerror=alert(2)>');
  });

  it('attempts no network request beyond the file itself', () => {
    const requests = cdp.events.filter((e) => e.method === 'Network.requestWillBeSent')
      .map((e) => (e.params?.request as { url: string }).url);
    expect(requests).toEqual([pathToFileURL(report).href]);
  });

  it('draws every chart with a non-zero size, and takes a screenshot', async () => {
    const charts = (await evaluate(`[...document.querySelectorAll('figure.chart')].map((f) => {
      const r = f.querySelector('svg').getBoundingClientRect();
      return { id: f.id, width: r.width, height: r.height, marks: f.querySelectorAll('svg path, svg rect').length };
    })`)) as { id: string; width: number; height: number; marks: number }[];
    expect(charts.map((c) => c.id)).toEqual(['chart-retries-per-day', 'chart-subagent-outcomes', 'chart-pollution-share']);
    for (const chart of charts) {
      expect(chart.width, chart.id).toBeGreaterThan(100);
      expect(chart.height, chart.id).toBeGreaterThan(100);
      expect(chart.marks, chart.id).toBeGreaterThan(3);
    }
    const { cssContentSize: size } = (await cdp.send('Page.getLayoutMetrics', {}, session)) as { cssContentSize: { width: number; height: number } };
    const clip = { x: 0, y: 0, width: size.width, height: size.height, scale: 1 };
    const { data } = (await cdp.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip }, session)) as { data: string };
    const file = path.join(shots, 'report.png');
    fs.writeFileSync(file, Buffer.from(data, 'base64'));
    expect(fs.statSync(file).size).toBeGreaterThan(50_000);
    console.info(`report screenshot: ${file}`);
  });
});
