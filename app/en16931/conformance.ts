/**
 * The CEN unit tests' format, for the conformance tests: a `testSet` of `test`s, each one partial invoice with
 * `<success>RULE</success>` (the rule must hold) or `<error>RULE</error>` (the rule must fire).
 * Pure text handling, so the tests and the benchmark read the same cases.
 */
export interface UnitTestCase {
  index: number;
  expect: 'success' | 'error';
  rule: string;
  description: string;
  xml: string;
}

export function unitTestCases(testSet: string): UnitTestCase[] {
  const cases: UnitTestCase[] = [];
  const tests = testSet.split(/<test>/).slice(1);
  tests.forEach((chunk, index) => {
    const body = chunk.slice(0, chunk.lastIndexOf('</test>'));
    const verdict = /<(success|error)>\s*([^<\s]+)\s*<\/\1>/.exec(body);
    const assertEnd = body.indexOf('</assert>');
    if (!verdict || assertEnd < 0) return;
    const description = /<description>([\s\S]*?)<\/description>/.exec(body)?.[1]?.trim() ?? '';
    cases.push({ index, expect: verdict[1] as 'success' | 'error', rule: verdict[2]!, description, xml: body.slice(assertEnd + '</assert>'.length).trim() });
  });
  return cases;
}
