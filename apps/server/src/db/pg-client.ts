import pg from 'pg';

/**
 * pg's Client, with one difference: a query given as a config object (drizzle sends its statements
 * so: name, text, rowMode and types) reaches pg as a new object that inherits that config.
 *
 * pg 8.23 copies every config object before it adds the values and the callback, so that the
 * caller's object is never changed (brianc/node-postgres#3720). It copies with
 * getOwnPropertyDescriptors and defineProperties: 1.7 µs a query alone, and about 6% of a signed-in
 * GET's server CPU in interleaved runs (issue 9). An object that inherits the config has no own property to copy, and pg still writes
 * only to its copy. Remove when brianc/node-postgres#3743 (read the config without copying it) is
 * released.
 */
export class Client extends pg.Client {
  // `never`: pg's overloads each return their own type; this returns whatever pg's query returns.
  override query(config: unknown, ...rest: unknown[]): never {
    const inherited = config !== null && typeof config === 'object' && typeof (config as { submit?: unknown }).submit !== 'function' ? Object.create(config) : config;
    return (super.query as (...args: unknown[]) => never)(inherited, ...rest);
  }
}
