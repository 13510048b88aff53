/** React Query keys of the account's wallet, cards and plans (one place). */
export const walletKeys = {
  all: ['wallet'] as const,
  transactions: ['wallet', 'transactions'] as const,
  spending: ['wallet', 'spending'] as const,
  cards: ['wallet', 'cards'] as const,
  plans: ['wallet', 'plans'] as const,
  currentPlan: ['wallet', 'current-plan'] as const,
};
