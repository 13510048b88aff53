import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import '../lib/i18n.ts';
import { disconnectSession } from '../lib/session-store.ts';

// findBy*/waitFor wait up to 5 s, not 1 s: CI shares two cores with the server tests, and a
// screen that loads its lists lazily can take over a second there. A test still fails when the
// element never comes.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  disconnectSession();
  localStorage.clear();
});
