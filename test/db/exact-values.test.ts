import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DuckDBDateValue, DuckDBTimestampNanosecondsValue } from '@duckdb/node-api';
import { cellFromValue } from '../../src/db/cell-from-value.js';
import { parseJsonExact } from '../../src/db/parse-json-exact.js';
import { deepJsonText, jsonText } from '../../src/render/json-text.js';
import { type Cell, ExactNumber } from '../../src/render/types.js';
import { FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

describe('ExactNumber.from: a JavaScript number only when it is exact', () => {
  it.each([
    ['9007199254740991', 9007199254740991],
    ['-42', -42],
    ['1.50', 1.5],
    ['123456789012345', 123456789012345],
    ['1e3', 1000],
    ['0.000123', 0.000123],
  ])('%s is the number %d', (digits, n) => expect(ExactNumber.from(digits)).toBe(n));

  it.each(['9007199254740993', '-9223372036854775808', '12345678901234567890123', '123456789012345.678', '1e400', '0.1000000000000000055511151231257827', '-1e-400', '1.23456789012345e-320'])(
    '%s keeps its digits',
    (digits) => expect(ExactNumber.from(digits)).toEqual(new ExactNumber(digits)),
  );
});

describe('parseJsonExact and jsonText: JSON in, the same numbers out', () => {
  it('round-trips numbers JSON.parse would change, inside objects and arrays', () => {
    const text = '{"n":1e400,"m":12345678901234567890,"x":[1.5,"a\\"1e5",{"k":-0.5}],"t":true,"z":null,"e":{},"a":[]}';
    const cell = parseJsonExact(text);
    expect(cell).toEqual({ n: new ExactNumber('1e400'), m: new ExactNumber('12345678901234567890'), x: [1.5, 'a"1e5', { k: -0.5 }], t: true, z: null, e: {}, a: [] });
    expect(jsonText(cell)).toBe(text);
  });

  it('takes JSON.parse for text without long digit runs or exponents, and returns text that is not JSON as it is', () => {
    expect(parseJsonExact('{"a":[1,2.5,"x"]}')).toEqual({ a: [1, 2.5, 'x'] });
    expect(parseJsonExact('{"a":1e5')).toBe('{"a":1e5');
    expect(parseJsonExact('{"a":12345678901234567} x')).toBe('{"a":12345678901234567} x');
  });

  it('counts digits across a decimal point, and keeps a "__proto__" key as data', () => {
    expect(jsonText(parseJsonExact('[1234567890.123456789,12345678.12345678912]'))).toBe('[1234567890.123456789,12345678.12345678912]');
    const cell = parseJsonExact('{"__proto__":{"x":1},"n":12345678901234567890}');
    expect(Object.keys(cell as object)).toEqual(['__proto__', 'n']);
    expect(jsonText(cell)).toBe('{"__proto__":{"x":1},"n":12345678901234567890}');
  });

  it('a string that looks like the marker stays a string', () => {
    expect(jsonText({ s: '\u0000abc:1\u0000', n: new ExactNumber('1e400') }, 0)).toBe('{"s":"\\u0000abc:1\\u0000","n":1e400}');
  });
});

describe('dates and times, computed without JavaScript Date or the time zone', () => {
  it('agree with Date.toISOString wherever Date reaches (2,000 random days and nanoseconds)', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let k = 0; k < 2000; k++) {
      const days = Math.floor((random() * 2 - 1) * 100_000_000);
      expect(cellFromValue(new DuckDBDateValue(days))).toBe(new Date(days * 86_400_000).toISOString().slice(0, -14));
      const ms = Math.floor((random() * 2 - 1) * 8.64e15);
      expect(cellFromValue(new DuckDBTimestampNanosecondsValue(BigInt(ms) * 1_000_000n))).toBe(new Date(ms).toISOString());
    }
  });

  it('beyond that range, in the same form', () => {
    expect(cellFromValue(new DuckDBDateValue(2_100_000_000))).toBe('+5751574-09-19') // 2.1e9 days ≈ 5,749,604 years after 1970;
    expect(cellFromValue(new DuckDBTimestampNanosecondsValue(-1n))).toBe('1969-12-31T23:59:59.999999999Z');
  });
});

describe('sql --format json: every DuckDB type in a stable, exact form', () => {
  it('numbers exact, times ISO-8601 UTC (more digits only when there are), dates, times, intervals as ISO-8601, infinities by name', async () => {
    const query = `SELECT 9007199254740993::BIGINT AS big, 18446744073709551615::UBIGINT AS ubig, 12345678901234567890123::HUGEINT AS huge,
      123456789012345.678::DECIMAL(18,3) AS wide, 1.5::DECIMAL(10,2) AS dec, 'nan'::DOUBLE AS nan,
      TIMESTAMPTZ '2026-08-15 09:15:00.123Z' AS ms, TIMESTAMP '2026-08-15 09:15:00.123456' AS us, TIMESTAMP_NS '2026-08-15 09:15:00.123456789' AS ns,
      'infinity'::TIMESTAMP AS inf, DATE '2026-08-15' AS day, TIME '01:02:03.5' AS t, INTERVAL '1 year 2 months 3 days 04:05:06.5' AS iv,
      INTERVAL 0 SECOND AS zero, '{"n":1e400,"m":12345678901234567890}'::JSON AS j`;
    const run = await runCli(['sql', query, path.join(FIXTURES, 'broken-documents'), '--format', 'json']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`[
  {
    "big": 9007199254740993,
    "ubig": 18446744073709551615,
    "huge": 12345678901234567890123,
    "wide": 123456789012345.678,
    "dec": 1.5,
    "nan": "NaN",
    "ms": "2026-08-15T09:15:00.123Z",
    "us": "2026-08-15T09:15:00.123456Z",
    "ns": "2026-08-15T09:15:00.123456789Z",
    "inf": "Infinity",
    "day": "2026-08-15",
    "t": "01:02:03.500",
    "iv": "P1Y2M3DT4H5M6.5S",
    "zero": "PT0S",
    "j": {
      "n": 1e400,
      "m": 12345678901234567890
    }
  }
]
`);
    const nested = await runCli(['sql', `SELECT '[1,2]'::JSON::JSON[] AS l, {'j': '{"a":12345678901234567890}'::JSON} AS s, DATE '5881580-07-10' AS far`, path.join(FIXTURES, 'broken-documents'), '--format', 'json']);
    expect(JSON.parse(nested.stdout.replace('12345678901234567890', '"big"'))).toEqual([{ l: [1, 2], s: { j: { a: 'big' } }, far: '+5881580-07-10' }]);
    const csv = await runCli(['sql', 'SELECT 9007199254740993::BIGINT AS big, INTERVAL 90 MINUTE AS iv', path.join(FIXTURES, 'broken-documents'), '--format', 'csv']);
    expect(csv.stdout).toBe('big,iv\r\n9007199254740993,PT1H30M\r\n');
  });
});

describe('sql --format json: types the tables do not use, as ad-hoc SQL may make them', () => {
  const docs = path.join(FIXTURES, 'broken-documents');

  it('one spelling for what has no end: infinite times, dates and doubles alike are "Infinity"/"-Infinity"', async () => {
    const run = await runCli(['sql', `SELECT 'infinity'::TIMESTAMP AS t, '-infinity'::TIMESTAMPTZ AS tz, 'infinity'::TIMESTAMP_NS AS ns, 'infinity'::TIMESTAMP_MS AS ms,
      'infinity'::TIMESTAMP_S AS s, 'infinity'::DATE AS d, '-infinity'::DATE AS nd, 'inf'::DOUBLE AS x, '-inf'::FLOAT AS nf, 'nan'::DOUBLE AS nan`, docs, '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([{ t: 'Infinity', tz: '-Infinity', ns: 'Infinity', ms: 'Infinity', s: 'Infinity', d: 'Infinity', nd: '-Infinity', x: 'Infinity', nf: '-Infinity', nan: 'NaN' }]);
    const csv = await runCli(['sql', `SELECT '-infinity'::TIMESTAMP AS t, '-inf'::DOUBLE AS x`, docs, '--format', 'csv']);
    expect(csv.stdout).toBe('t,x\r\n-Infinity,-Infinity\r\n');
  });

  it('intervals: a wholly negative one as an ISO-8601 duration with a leading minus, a mixed-sign one with a sign per part', async () => {
    const run = await runCli(['sql', `SELECT INTERVAL '-1 day' AS a, INTERVAL '-1 day -2 hours' AS b, INTERVAL '-90 minutes' AS c,
      INTERVAL '-1 year -2 months -3 days -04:05:06.5' AS d, INTERVAL '-0.25 seconds' AS e,
      INTERVAL 1 DAY - INTERVAL 2 HOUR AS f, INTERVAL '1 month -1 day' AS g, INTERVAL '-14 months 3 days' AS h, INTERVAL 0 DAY AS z`, docs, '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([{ a: '-P1D', b: '-P1DT2H', c: '-PT1H30M', d: '-P1Y2M3DT4H5M6.5S', e: '-PT0.25S', f: 'P1DT-2H', g: 'P1M-1D', h: 'P-1Y-2M3D', z: 'PT0S' }]);
  });

  it('a FLOAT with the digits it was written with, a TIMETZ as the same instant in UTC', async () => {
    const run = await runCli(['sql', `SELECT 0.1::FLOAT AS f, 3.14::FLOAT AS g, 16777217::FLOAT AS h, TIMETZ '23:30:00-05' AS a, TIMETZ '01:02:03.25+05:30' AS b`, docs, '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([{ f: 0.1, g: 3.14, h: 16777216, a: '04:30:00Z', b: '19:32:03.250Z' }]);
  });

  it('a non-finite double inside JSON by name, as in a DOUBLE column: the column keeps one shape', async () => {
    const run = await runCli(['sql', `SELECT json_object('n', x) AS j FROM (VALUES (1.5::DOUBLE), ('NaN'::DOUBLE), ('-inf'::DOUBLE)) t(x)`, docs, '--format', 'json']);
    expect(JSON.parse(run.stdout)).toEqual([{ j: { n: 1.5 } }, { j: { n: 'NaN' } }, { j: { n: '-Infinity' } }]);
    expect(parseJsonExact('{"n":NaN,"m":[Infinity,-Infinity],"s":"NaN"}')).toEqual({ n: 'NaN', m: ['Infinity', '-Infinity'], s: 'NaN' });
    expect(parseJsonExact('{"n":Nope}')).toBe('{"n":Nope}');
  });
});

describe('JSON nested thousands deep: read and written without recursion', () => {
  /** A random JSON value of plain numbers, strings, literals, arrays and objects ("__proto__" keys too). */
  function randomJson(seed: number): unknown {
    let state = seed;
    const next = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const make = (depth: number): unknown => {
      const pick = next();
      if (depth > 5 || pick < 0.3) return [1.5, -2, 'x"y\n', true, false, null, '', 0][Math.floor(next() * 8)];
      if (pick < 0.65) return Array.from({ length: Math.floor(next() * 4) }, () => make(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, i) => [['a', '__proto__', 'k"', ''][i], make(depth + 1)]));
    };
    return make(0);
  }

  it('the stack-free writer gives JSON.stringify’s text, with and without indentation, ExactNumbers as digits', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const value = randomJson(seed) as Cell;
      expect(deepJsonText(value, 0)).toBe(JSON.stringify(value));
      expect(deepJsonText(value, 2)).toBe(JSON.stringify(value, null, 2));
    }
    expect(deepJsonText([{ n: new ExactNumber('1e400') }], 2)).toBe('[\n  {\n    "n": 1e400\n  }\n]');
  });

  it('the exact parser reads what JSON.parse reads (a long number in the text takes it)', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const text = JSON.stringify({ big: 'BIG', v: randomJson(seed) }).replace('"BIG"', '12345678901234567890');
      expect(parseJsonExact(text)).toEqual({ big: new ExactNumber('12345678901234567890'), v: JSON.parse(JSON.stringify(randomJson(seed))) });
    }
  });

  it('sql, in every format, and timeline show a valid line nested 10,000 deep', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const session = path.join(dir, '20260815-091500-0badf00d');
      fs.mkdirSync(session);
      const data = `{"s":${'['.repeat(10000)}1${']'.repeat(10000)},"n":12345678901234567890}`;
      fs.writeFileSync(path.join(session, 'events.jsonl'), `{"event":"X","session_id":"s","timestamp":"2026-08-15T01:15:01.000Z","data":${data}}\n`);
      const json = await runCli(['sql', 'SELECT data FROM events', session, '--format', 'json']);
      expect([json.code, json.stderr]).toEqual([0, '']);
      expect(json.stdout.replace(/\s/g, '')).toBe(`[{"data":${data}}]`);
      for (const format of ['csv', 'md', 'table']) {
        const run = await runCli(['sql', 'SELECT data FROM events', session, '--format', format]);
        expect([run.code, run.stderr]).toEqual([0, '']);
        if (format !== 'table') expect(run.stdout).toMatch(/,"{1,2}n"{1,2}:12345678901234567890/);
      }
      const timeline = await runCli(['timeline', '20260815-091500-0badf00d', session]);
      expect([timeline.code, timeline.stderr]).toEqual([0, '']);
    } finally {
      cleanup();
    }
  });
});
