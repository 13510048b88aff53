/** docs/product.md#formats-and-limits: a chunk that has not loaded in 120 s has failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkLoadError';
  }
}

let chunkCount = 0;

function withTimeout<T>(p: Promise<T>, ms: number, n: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`Loading chunk ${n} failed`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/**
 * Loads a screen's chunk; a failure (a deploy replaced the files, a flaky network) is retried
 * once, then surfaces as ChunkLoadError for the error page, which offers a reload.
 */
export function lazyScreen<T>(load: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): () => Promise<T> {
  const n = ++chunkCount;
  return async () => {
    try {
      return await withTimeout(load(), timeoutMs, n);
    } catch {
      try {
        return await withTimeout(load(), timeoutMs, n);
      } catch {
        throw new ChunkLoadError(`Loading chunk ${n} failed`);
      }
    }
  };
}
