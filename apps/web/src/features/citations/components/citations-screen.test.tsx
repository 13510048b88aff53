import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Citation } from '@parkit/contract';
import { details, renderAt, stubApi } from '../../../testing/render.tsx';
import { CitationsScreen } from './citations-screen.tsx';

const citation = (over: Partial<Citation> = {}): Citation => ({
  CitationId: 12,
  ZoneId: 3,
  ZoneNumber: '7701',
  PlateNumber: 'ABC123',
  PlateState: 'TX',
  ViolationCode: 'NP',
  ViolationDescription: 'Parked without paying',
  Fine: 25,
  LateFee: 0,
  AmountDue: 25,
  AmountPaid: 0,
  Refunded: 0,
  Officer: 'officer1',
  IssuedAt: '2026-11-20T10:00:00Z',
  Location: 'Outside 12 Congress Ave',
  Status: 'issued',
  DueAt: '2026-12-04T10:00:00Z',
  Files: [{ FileId: 'f1', Kind: 'photo', FileName: 'car.pdf', ContentType: 'application/pdf', Size: 10 }],
  Contest: null,
  ...over,
});

afterEach(() => vi.unstubAllGlobals());

const VISA = { PaymentMethodId: 5, Brand: 'Visa', Last4: '4242' };

describe('the Citations screen', () => {
  it('lists a citation with its evidence, and pays it from the wallet once', async () => {
    let paid = false;
    const calls = stubApi({
      'GET /api/Account/Details': () => [200, details({ Balance: 100, DefaultCard: null })],
      'GET /api/Citations/List': () => [
        200,
        [paid ? citation({ Status: 'paid', AmountDue: 0, AmountPaid: 25 }) : citation()],
      ],
      'POST /api/Citations/12/Pay': () => {
        paid = true;
        return [200, { CitationId: 12, Amount: 25, Balance: 75, message: 'Paid' }];
      },
    });
    renderAt('/citations', '/citations', <CitationsScreen />);
    expect(await screen.findByText(/Parked without paying/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'car.pdf' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Pay .*25\.00 from the wallet/ }));
    expect(await screen.findByText('Paid', { selector: 'p' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /from the wallet/ })).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({});
    // Without a saved card the wallet is the only source: no choice is offered.
    expect(screen.queryByRole('radiogroup', { name: 'Pay with' })).toBeNull();
  });

  it('lets the driver choose their saved card, and pays by it', async () => {
    let paid = false;
    const calls = stubApi({
      'GET /api/Account/Details': () => [200, details({ Balance: 3, DefaultCard: VISA })],
      'GET /api/Citations/List': () => [
        200,
        [paid ? citation({ Status: 'paid', AmountDue: 0, AmountPaid: 25 }) : citation()],
      ],
      'POST /api/Citations/12/Pay': () => {
        paid = true;
        return [200, { CitationId: 12, Amount: 25, Balance: 3, message: 'Paid' }];
      },
    });
    renderAt('/citations', '/citations', <CitationsScreen />);
    const wallet = await screen.findByRole('radio', { name: /Wallet/ });
    expect((wallet as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('radio', { name: /Wallet.*3\.00/ })).toBeTruthy();
    await userEvent.click(screen.getByRole('radio', { name: /Card.*Visa •••• 4242/ }));
    expect(screen.queryByRole('button', { name: /from the wallet/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /Pay .*25\.00 by card/ }));
    expect(await screen.findByText('Paid', { selector: 'p' })).toBeTruthy();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.body)).toEqual([{ PaymentMethodId: 5 }]);
  });

  it('says so when there is no citation, and when the list cannot be loaded', async () => {
    stubApi({ 'GET /api/Citations/List': () => [200, []] });
    renderAt('/citations', '/citations', <CitationsScreen />);
    expect(await screen.findByText('No citation for your vehicles.')).toBeTruthy();
    vi.unstubAllGlobals();
    stubApi({ 'GET /api/Citations/List': () => [500, { message: 'Internal error' }] });
    renderAt('/citations', '/citations', <CitationsScreen />);
    expect(await screen.findByText('Citations could not be loaded.')).toBeTruthy();
  });

  it('sends a contest with its reason', async () => {
    const calls = stubApi({
      'GET /api/Account/Details': () => [200, details({ DefaultCard: null })],
      'GET /api/Citations/List': () => [200, [citation()]],
      'POST /api/Citations/12/Contest': () => [200, citation({ Status: 'contested' })],
    });
    renderAt('/citations', '/citations', <CitationsScreen />);
    await userEvent.click(await screen.findByRole('button', { name: 'Contest' }));
    await userEvent.type(screen.getByLabelText('Why do you contest this citation?'), 'I had paid');
    await userEvent.click(screen.getByRole('button', { name: 'Send the contest' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.path === '/api/Citations/12/Contest')?.body).toEqual({
        Reason: 'I had paid',
        AttachmentIds: [],
      }),
    );
  });
});
