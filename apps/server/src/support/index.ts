// The support domain's public entry (support agents, call backs, the chat, its attachments and live bus, support hours). Routes and other domains import from here, never
// from a file inside; what a file here imports is in support/README.md.
export * from './agent-repository.ts';
export * from './attachment-store.ts';
export * from './callback-repository.ts';
export * from './chat-repository.ts';
export * from './create-agent.ts';
export * from './support-bus.ts';
export { default as supportBusPlugin } from './support-bus.ts';
export * from './support-hours.ts';
