import { api } from './api-client.ts';

export interface SandboxCard {
  Number: string;
  ExpMonth: number;
  ExpYear: number;
  Cvc: string;
}

/**
 * The sandbox provider's own tokenizer (docs/operations.md#payments): the only request that carries
 * the card number, which never goes to the wallet's or the parking API.
 */
export const tokenizeSandboxCard = (card: SandboxCard) =>
  api.post<{ Token: string; Brand: string; Last4: string }>('/api/Sandbox/Tokens', card, { showError: false });

/** The test wallet's card: what Apple Pay or Google Pay hands over, a card for one payment only. */
export const testWalletCard = (): SandboxCard => ({
  Number: '4242424242424242',
  ExpMonth: 12,
  ExpYear: new Date().getFullYear() + 2,
  Cvc: '123',
});
