import type { Finding } from './validator.ts';

/** What the fixtures and the proxy (proxy.ts) say to each other. */

/** Each test's requests carry its id in this header; the proxy removes it before the server. */
export const TEST_HEADER = 'x-parkit-e2e-test';
/** The proxy's own routes, beside the app's: a test's findings, and the run's report. */
export const CONTROL_PATH = '/__contract';

export interface Report {
  /** Requests checked, and how many of them the document refuses (each answered with a 4xx). */
  exchanges: number;
  refusedRequests: number;
  /** Operations the run reached, of those the document has. */
  operations: number;
  documented: number;
  /** The document's operations no request of the run reached (`GET /api/...`). */
  unreached: string[];
  /** Findings no test collected: requests sent without a test's id, or after its end. */
  uncollected: Array<Finding & { test: string }>;
}

/** One line per operation and status, then each violation. */
export function describeFindings(findings: Finding[]): string {
  return findings
    .map((f) => `  ${f.operation} -> ${f.status}\n${f.violations.map((v) => `    - ${v}`).join('\n')}`)
    .join('\n');
}

/** A test's findings (an empty list when it kept to the document). */
export async function findingsOf(baseURL: string, testId: string): Promise<Finding[]> {
  const res = await fetch(new URL(`${CONTROL_PATH}/findings?test=${encodeURIComponent(testId)}`, baseURL));
  if (!res.ok)
    throw new Error(`the contract proxy answered ${res.status}: is the e2e server behind it (playwright.config.ts)?`);
  return (await res.json()) as Finding[];
}
