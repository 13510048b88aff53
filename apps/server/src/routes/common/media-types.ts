import { z } from 'zod';

/**
 * An answer that is not JSON (a file, an event stream), documented under the media types it is
 * sent with, so that a client or a validator reading the OpenAPI document expects what arrives.
 * Fastify sends such a stream or buffer as it is: no serializer runs for it.
 * `text` bodies are strings; `binary` ones are bytes (format binary).
 */
export function mediaAnswer(description: string, mediaTypes: readonly string[], kind: 'text' | 'binary') {
  const schema = () => (kind === 'text' ? z.string() : z.string().meta({ format: 'binary' }));
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: schema() }])) };
}

/** A live stream of `data: {json}` events (Server-Sent Events). */
export const eventStream = (description: string) => mediaAnswer(description, ['text/event-stream'], 'text');
