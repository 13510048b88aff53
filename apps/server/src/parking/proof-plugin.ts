import fp from 'fastify-plugin';
import { loadSigningKey } from '../infra/signing-keys.ts';
import { proofSigner, type ProofSigner } from './proof.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs the parking proof of payment; publishes its public keys (parking/proof.ts). */
    parkingProof: ProofSigner;
  }
}

export default fp<{ pem?: string; dataDir?: string }>(
  async (app, opts) => {
    app.decorate('parkingProof', proofSigner(await loadSigningKey(opts)));
  },
  { name: 'parking-proof' },
);
