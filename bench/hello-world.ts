import Fastify from 'fastify';

// The yardstick of the http suite: a bare Fastify answering JSON, no plugins, no logging.
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

const port = Number(process.env.PORT ?? 3321);
await app.listen({ port, host: '127.0.0.1' });
console.log(`hello-world listening on ${port}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
process.on('SIGINT', () => void app.close().then(() => process.exit(0)));
