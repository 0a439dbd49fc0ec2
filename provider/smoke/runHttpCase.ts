/**
 * Runs one smoke-test case against a load-balancing endpoint: a single HTTP request to the workers'
 * own server (at the endpoint's requestUrls.base when known; cold start included in the time limit), judged on the answer's status and body.
 * Nothing is retried: the service does not retry on these endpoints, and a smoke test should see
 * what a user would see.
 */
import { isDeepStrictEqual } from "node:util";
import { ApiError } from "../../client/errors";
import type { EndpointHttpResponse, EndpointTarget, JobClient } from "../../client/jobClient";
import { DEFAULT_CASE_TIMEOUT_SECONDS, type HttpCase, type HttpExpectation } from "./caseSchema";
import { excerpt, predicateFailure, subsetMismatch } from "./expectations";
import type { CaseResult } from "../../model/components/caseResult";

export async function runHttpCase(
  client: JobClient,
  endpoint: EndpointTarget,
  testCase: HttpCase,
  now: () => number = Date.now,
): Promise<CaseResult> {
  const method = testCase.request.method ?? "GET";
  const target = `${method} ${testCase.request.path}`;
  const started = now();
  let answer: EndpointHttpResponse;
  try {
    answer = await client.request(endpoint, {
      method,
      path: testCase.request.path,
      headers: testCase.request.headers,
      body: testCase.request.body,
      timeoutMs: (testCase.timeoutSeconds ?? DEFAULT_CASE_TIMEOUT_SECONDS) * 1000,
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return {
      name: testCase.name,
      target,
      status: "NO_ANSWER",
      passed: false,
      problems: [`no answer: ${error.message}`],
      executionTime: now() - started,
    };
  }
  const body = answer.json !== undefined ? answer.json : answer.text;
  const problems = unmetHttpExpectations(answer, body, testCase.expect);
  return {
    name: testCase.name,
    target,
    status: `HTTP ${answer.status}`,
    httpStatus: answer.status,
    output: body,
    executionTime: now() - started,
    ...(answer.workerId !== undefined ? { workerId: answer.workerId } : {}),
    passed: problems.length === 0,
    problems,
  };
}

/** Every expectation on the answer that did not hold, in words; empty when the case passed. */
export function unmetHttpExpectations(
  answer: { status: number; text: string; json: unknown },
  body: unknown,
  expect: HttpExpectation = {},
): string[] {
  const problems: string[] = [];
  const wantStatus = expect.status ?? 200;
  if (answer.status !== wantStatus) problems.push(`status is ${answer.status}, expected ${wantStatus}`);
  if (expect.body !== undefined && !isDeepStrictEqual(body, expect.body))
    problems.push(`body is not equal to the expected ${excerpt(expect.body)}`);
  if (expect.bodySubset !== undefined) {
    // A text answer has no keys to match: say so, rather than "body is undefined".
    const mismatch =
      answer.json === undefined
        ? "body is not JSON (bodySubset needs a JSON answer with a JSON content-type); use bodyContains or bodyPredicates for text"
        : subsetMismatch(answer.json, expect.bodySubset, "body");
    if (mismatch) problems.push(mismatch);
  }
  for (const predicate of expect.bodyPredicates ?? []) {
    const failure = predicateFailure(body, predicate);
    if (failure) problems.push(failure.replace(/^output/, "body"));
  }
  if (expect.bodyContains !== undefined && !answer.text.includes(expect.bodyContains)) {
    problems.push(`body does not contain ${JSON.stringify(expect.bodyContains)}`);
  }
  return problems;
}
