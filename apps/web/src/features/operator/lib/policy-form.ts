import type { CreatePolicyRequest } from '@parkit/contract';

/** The policy editor's values: the contract's request to create a policy (name, effective time, body). */
export type PolicyForm = CreatePolicyRequest;
