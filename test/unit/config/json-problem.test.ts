import { describe, expect, it } from 'vitest';
import { jsonProblem } from '../../../src/config/json-problem.js';

const problem = (text: string) => {
  try {
    JSON.parse(text);
  } catch (error) {
    const { line, column, reason, conflict } = jsonProblem(text, error as Error);
    return `${line}:${column} ${reason}${conflict ? ' (conflict)' : ''}`;
  }
  throw new Error(`valid JSON: ${text}`);
};

describe('jsonProblem: where JSON.parse failed, and why', () => {
  it('points at the first error, 1-based', () => {
    expect(problem('{\n  "a": [1, 2,]\n}')).toBe("2:13 trailing comma before ']'");
    expect(problem('{"a": 1,\n}')).toBe("1:8 trailing comma before '}'");
    expect(problem('{"a": }')).toBe("1:7 unexpected '}'");
    expect(problem('{"a" 1}')).toBe("1:6 expected ':' after a property name, found '1'");
    expect(problem("{'a': 1}")).toBe("1:2 expected a property name in double quotes, found '''");
    expect(problem('[1 2]')).toBe("1:4 expected ',' or ']', found '2'");
    expect(problem('{"a": [1}')).toBe("1:9 expected ',' or ']', found '}'");
    expect(problem('{"a": "x\n"}')).toBe('1:7 unterminated string');
    expect(problem('{"a": "\\q"}')).toBe('1:8 invalid escape in a string');
    expect(problem('{"a": tru}')).toBe("1:7 unexpected 't'");
    expect(problem('{"a": 1}\n{}')).toBe("2:1 unexpected '{' after the end of the document");
    expect(problem('\uFEFF{}')).toBe('1:1 unexpected U+FEFF');
    expect(problem('{"a": [')).toBe('1:8 unexpected end of file');
  });

  it('reports merge-conflict markers first', () => {
    expect(problem('{\n  "entries": [\n<<<<<<< HEAD\n    1,\n=======\n    2,\n>>>>>>> main\n  ]\n}')).toBe('3:1 merge-conflict markers (conflict)');
  });
});
