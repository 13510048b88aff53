import type { FullConfig } from '@playwright/test';
import { checkUsed, dropDatabase } from '../postgres.ts';
import { CONTROL_PATH, describeFindings, type Report } from './protocol.ts';

/**
 * After every test: the run's contract report, and a failed run for any finding no test collected
 * (a request without a test's id, or answered after its test ended). Each test fails on its own
 * findings already (fixtures.ts).
 */
export default async function contractReport(config: FullConfig) {
  const pgDatabase = process.env.E2E_PG_DATABASE;
  if (!pgDatabase) return report(config);
  try {
    await report(config);
    console.log(`PostgreSQL: the run's database ${pgDatabase} holds ${await checkUsed(pgDatabase)} members.`);
  } finally {
    await dropDatabase(pgDatabase);
  }
}

async function report(config: FullConfig) {
  const baseURL = config.projects[0]!.use.baseURL!;
  const res = await fetch(new URL(`${CONTROL_PATH}/report`, baseURL));
  if (!res.ok) throw new Error(`the contract proxy answered ${res.status} for its report`);
  const report = (await res.json()) as Report;
  console.log(
    `OpenAPI contract: ${report.exchanges} requests checked against the document (${report.operations} of its ${report.documented} operations), ` +
      `${report.refusedRequests} of them outside it and refused, ${report.uncollected.length} violations outside a test.` +
      (report.unreached.length > 0 && report.unreached.length <= 12
        ? `\nNot reached by this run: ${report.unreached.join(', ')}.`
        : ''),
  );
  if (report.uncollected.length > 0) {
    const tests = [...new Set(report.uncollected.map((f) => f.test || 'sent without a test id'))].join(', ');
    throw new Error(
      `Answers that disagree with the OpenAPI document, outside any test (${tests}):\n${describeFindings(report.uncollected)}`,
    );
  }
}
