import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import '../lib/i18n.ts';
import { disconnectSession } from '../lib/session-store.ts';

afterEach(() => {
  cleanup();
  disconnectSession();
  localStorage.clear();
});
