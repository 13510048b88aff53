/** React Query keys of support (one place, so live events update the right entries). */
export const supportKeys = {
  hours: ['support', 'hours'] as const,
  callBacks: ['support', 'callbacks'] as const,
  messages: ['support', 'messages'] as const,
  console: ['support', 'console'] as const,
  consoleMe: ['support', 'console', 'me'] as const,
  conversations: ['support', 'console', 'conversations'] as const,
  conversation: (memberId: number) => ['support', 'console', 'conversation', memberId] as const,
  queue: ['support', 'console', 'callbacks'] as const,
};
