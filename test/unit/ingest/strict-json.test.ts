import { describe, expect, it } from 'vitest';
import { strictJsonObject } from '../../../src/ingest/strict-json.js';
import { splitTrailingData } from '../../../src/formats/sid-code/adapters/warn-log.js';

describe('strictJsonObject (RFC 8259, one object per line)', () => {
  it.each([
    ['{"a":1}', true],
    ['  {"a":1}\r', true],
    ['{"a":1,}', false],
    ['{"a":[1,2,]}', false],
    ['{"a":NaN}', false],
    ['{"a":Infinity}', false],
    ['{"a":1} {"b":2}', false],
    ['{"a":1}{"b":2}', false],
    ['{"a":1 /* c */}', false],
    ['[1,2]', false],
    ['"text"', false],
    ['null', false],
    ['{"a":"x, }"}', true],
  ])('%s → %s', (line, ok) => {
    expect(strictJsonObject(line).ok).toBe(ok);
  });
});

describe('the reason for a second JSON value', () => {
  const reason = (text: string) => {
    const verdict = strictJsonObject(text);
    return verdict.ok ? null : verdict.reason;
  };
  it('on the same line: interleaved writers; on a line of its own (a document): written twice', () => {
    expect(reason('{"a":1} {"b":2}')).toMatch(/ \(two JSON values on one line: interleaved writers\?\)$/);
    expect(reason('{\n  "a": 1\n}\n{\n}\n')).toMatch(/ \(a second JSON value, on a line of its own: written twice\?\)$/);
    expect(reason('{\n  "a": 1\n} \r\n\t {}')).toMatch(/ \(a second JSON value, on a line of its own: written twice\?\)$/);
  });
});

describe('warn.log trailing data', () => {
  it('splits the JSON the logger appends after the message', () => {
    expect(splitTrailingData('API 错误: 429 "{\\"error\\":{\\"code\\":\\"limit_burst_rate\\"}}"')).toEqual({
      message: 'API 错误: 429',
      data: '"{\\"error\\":{\\"code\\":\\"limit_burst_rate\\"}}"',
    });
    expect(splitTrailingData('retrying {"attempt":2,"delayMs":5312}')).toEqual({ message: 'retrying', data: '{"attempt":2,"delayMs":5312}' });
  });

  it('leaves a message without trailing JSON whole', () => {
    expect(splitTrailingData('✗ OpenAI HTTP 429 model=glm-5.2 body={"error":1}')).toEqual({ message: '✗ OpenAI HTTP 429 model=glm-5.2 body={"error":1}', data: null });
  });
});
