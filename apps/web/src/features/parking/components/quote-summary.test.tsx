import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithData } from '../../../testing/render.tsx';
import type { Quote } from '@parkit/contract';
import i18n from '../../../lib/i18n.ts';
import { fundsCover, FundsNotice, QuoteSummary } from './quote-summary.tsx';

const quote = (over: Partial<Quote> = {}): Quote => ({
  QuoteId: '00000000-0000-4000-8000-000000000000',
  StartsAt: '2026-06-01T14:00:00.000Z',
  EndsAt: '2026-06-01T15:00:00.000Z',
  DurationMinutes: 60,
  RatePerHour: 2.5,
  PaidMinutes: 60,
  ParkingAmount: 2.5,
  DiscountPercent: 0,
  DiscountAmount: 0,
  FeeAmount: 0.35,
  TotalAmount: 2.85,
  ExpiresAt: '2026-06-01T14:05:00.000Z',
  Balance: 10,
  BalanceCovers: true,
  AutoReloadCovers: false,
  AutoReloadAmount: 0,
  OverMaxPayment: false,
  MaxMoreMinutes: 120,
  Spans: [],
  ...over,
});

describe('QuoteSummary and FundsNotice', () => {
  it('shows the plan discount only when there is one', () => {
    const { unmount } = renderWithData(<QuoteSummary quote={quote()} />);
    expect(screen.queryByText(/Plan discount/)).toBeNull();
    unmount();
    renderWithData(
      <QuoteSummary
        quote={quote({
          ParkingAmount: 2.25,
          DiscountPercent: 10,
          DiscountAmount: 0.25,
          FeeAmount: 0,
          TotalAmount: 2.25,
        })}
      />,
    );
    expect(screen.getByText('Plan discount (10%)')).toBeTruthy();
    expect(screen.getByText('−$0.25')).toBeTruthy();
  });

  it('lists the time spans the stay crosses, a free stretch as free time', () => {
    renderWithData(
      <QuoteSummary
        quote={quote({
          Spans: [
            {
              Name: 'Weekday',
              StartsAt: '2026-06-01T14:00:00.000Z',
              EndsAt: '2026-06-01T14:30:00.000Z',
              Minutes: 30,
              Amount: 1.25,
            },
            {
              Name: null,
              StartsAt: '2026-06-01T14:30:00.000Z',
              EndsAt: '2026-06-01T15:00:00.000Z',
              Minutes: 30,
              Amount: 0,
            },
          ],
        })}
      />,
    );
    const items = screen.getByRole('list', { name: 'Price by time of day' }).querySelectorAll('li');
    expect([...items].map((li) => li.textContent)).toEqual([
      expect.stringMatching(/–.* Weekday\$1\.25$/),
      expect.stringMatching(/–.* Free time\$0\.00$/),
    ]);
  });

  it('says auto-reload covers a short balance, and Pay may go ahead', () => {
    const q = quote({ Balance: 1, BalanceCovers: false, AutoReloadCovers: true, AutoReloadAmount: 20 });
    renderWithData(<FundsNotice quote={q} />);
    expect(screen.getByRole('status').textContent).toBe(
      'Your balance is $1.00. Auto-reload adds $20.00 from your card first, then pays $2.85.',
    );
    expect(fundsCover(q)).toBe(true);
  });

  it('offers Add Money when neither the balance nor auto-reload covers it', () => {
    const q = quote({ Balance: 1, BalanceCovers: false });
    renderWithData(<FundsNotice quote={q} addMoney={<a href="/addmoney">Add Money</a>} />);
    expect(screen.getByRole('alert').textContent).toContain('Your balance is $1.00: not enough for $2.85.');
    expect(screen.getByText('Add Money')).toBeTruthy();
    expect(fundsCover(q)).toBe(false);
  });

  it('is translated into Hindi', async () => {
    await i18n.changeLanguage('hi');
    try {
      renderWithData(
        <FundsNotice
          quote={quote({ Balance: 1, BalanceCovers: false, AutoReloadCovers: true, AutoReloadAmount: 20 })}
        />,
      );
      expect(screen.getByRole('status').textContent).toContain('ऑटो-रीलोड पहले आपके कार्ड से $20.00 जोड़ेगा');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
