import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../lib/i18n.ts';
import { renderAt, stubApi } from '../../../testing/render.tsx';
import { RemindersCard } from './reminders-card.tsx';

const saved = { ReminderMinutes: 10, PushReminders: false, SmsReminders: true };

describe('reminders card', () => {
  afterEach(() => setLanguage('en'));

  it('shows the saved choice, saves another lead time and the SMS switch one at a time', async () => {
    const calls = stubApi({
      'GET /api/Account/Reminders': () => [200, saved],
      'POST /api/Account/Reminders': (body) => [200, { ...saved, ...(body as object) }],
    });
    renderAt('/profile', '/profile', <RemindersCard />);
    const ten = await screen.findByRole('radio', { name: '10 minutes' });
    expect((ten as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByRole('radio', { name: '30 minutes' }));
    await waitFor(() =>
      expect((screen.getByRole('radio', { name: '30 minutes' }) as HTMLInputElement).checked).toBe(true),
    );
    const sms = screen.getByRole('switch', { name: 'Text messages (SMS)' });
    expect(sms.getAttribute('aria-checked')).toBe('true');
    await userEvent.click(sms);
    await waitFor(() => expect(sms.getAttribute('aria-checked')).toBe('false'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { ReminderMinutes: 30 },
      { SmsReminders: false },
    ]);
  });

  it('says so when the browser cannot receive pushes, and saves nothing', async () => {
    // happy-dom, like some browsers, has no Push API.
    const calls = stubApi({ 'GET /api/Account/Reminders': () => [200, saved] });
    renderAt('/profile', '/profile', <RemindersCard />);
    const push = await screen.findByRole('switch', { name: 'Push notifications on this device' });
    await userEvent.click(push);
    expect(await screen.findByText('This browser cannot receive push notifications.')).toBeTruthy();
    expect(push.getAttribute('aria-checked')).toBe('false');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('reads in Hindi', async () => {
    await setLanguage('hi');
    stubApi({ 'GET /api/Account/Reminders': () => [200, saved] });
    renderAt('/profile', '/profile', <RemindersCard />);
    expect(await screen.findByRole('radio', { name: '15 मिनट' })).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'इस डिवाइस पर पुश सूचनाएँ' })).toBeTruthy();
  });
});
