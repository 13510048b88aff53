// The citations domain's public entry (violations, citations, contests, their files, the late-fee
// job). Routes import from here, never from a file inside; what a file here imports is in citations/README.md.
export * from './citation-auto-cancel.ts';
export * from './citation-jobs.ts';
export * from './citation-notices.ts';
export * from './citation-issue.ts';
export * from './citation-contest.ts';
export * from './citation-dues.ts';
export * from './citation-payment.ts';
// citation-refund.ts's giveBack stays inside the domain (a decision's and an automatic cancellation's).
export { registerCitationRefundRefusals } from './citation-refund.ts';
// citation-view.ts's lockMemberCitation stays inside the domain (payments and contests).
export {
  citationPlate,
  getMemberCitation,
  getOperatorCitation,
  listMemberCitations,
  listOperatorCitations,
  ownedBy,
} from './citation-view.ts';
export * from './file-store.ts';
export * from './proof-pack-pdf.ts';
export * from './proof-pack-repository.ts';
export * from './violation-repository.ts';
