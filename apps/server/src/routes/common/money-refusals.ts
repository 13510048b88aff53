import { ErrorResponse } from '@parkit/contract';

/**
 * The refusals of a route that moves money with an Idempotency-Key: 400 (input or key), 402 (the
 * wallet or card cannot pay), 404, 409 (a key in flight or a concurrent payment), 422 (a key reused
 * with another body), 503 (the card provider unreachable).
 */
export const moneyRefusals = {
  400: ErrorResponse,
  402: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  422: ErrorResponse,
  503: ErrorResponse,
};
