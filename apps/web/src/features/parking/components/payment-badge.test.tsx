import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import i18n from '../../../lib/i18n.ts';
import { makeZone } from '../testing/zone-fixture.ts';
import { PaymentBadge } from './payment-badge.tsx';

describe('PaymentBadge', () => {
  it('says "Free now" when no payment is required at the moment', () => {
    render(<PaymentBadge {...makeZone({ PaymentRequiredNow: false, PaidUntilNow: null })} />);
    expect(screen.getByText('Free now')).toBeTruthy();
  });

  it('says until when payment is required', () => {
    render(<PaymentBadge {...makeZone({ PaymentRequiredNow: true, PaidUntilNow: '18:00' })} />);
    expect(screen.getByText('Paid until 18:00')).toBeTruthy();
  });

  it('says midnight rather than 00:00 for an evening that ends at midnight', () => {
    render(<PaymentBadge {...makeZone({ PaidFrom: '11:00', PaidUntil: '00:00', PaidUntilNow: '00:00' })} />);
    expect(screen.getByText('Paid until midnight')).toBeTruthy();
  });

  it('is translated into Hindi', async () => {
    await i18n.changeLanguage('hi');
    try {
      render(<PaymentBadge {...makeZone({ PaymentRequiredNow: false, PaidUntilNow: null })} />);
      expect(screen.getByText('अभी मुफ़्त')).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
