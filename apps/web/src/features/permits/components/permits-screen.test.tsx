import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Permit, PermitType } from '@parkit/contract';
import { details, renderAt, stubApi } from '../../../testing/render.tsx';
import { PermitsScreen } from './permits-screen.tsx';

const permit = (over: Partial<Permit> = {}): Permit => ({
  Id: 5,
  OperatorId: 1,
  TypeId: 2,
  TypeName: 'Resident Zone A',
  Kind: 'resident',
  MemberId: 9,
  Plates: ['ABC123'],
  ZoneIds: [3],
  Status: 'pending',
  RefusalReason: null,
  ProofAttachmentId: null,
  PriceCents: 4500,
  ValidFrom: null,
  ValidUntil: null,
  VisitorDaysPerMonth: 0,
  CreatedAt: '2026-11-20T10:00:00Z',
  ...over,
});

const type: PermitType = {
  Id: 2,
  OperatorId: 1,
  Kind: 'resident',
  Name: 'Resident Zone A',
  ZoneIds: [3],
  ValidMonths: 12,
  PriceCents: 4500,
  ProofRequired: true,
  MaxPlates: 2,
  VisitorDaysPerMonth: 3,
  Retired: false,
};

/** Today as YYYY-MM-DD in the device's time, as the screen's date field starts. */
function today() {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

afterEach(() => vi.unstubAllGlobals());

describe('the Permits screen', () => {
  it('lists permits with their status: refused with its reason, active with its window and plates', async () => {
    stubApi({
      'GET /api/Account/Details': () => [200, details({ DefaultCard: null })],
      'GET /api/Permits/List': () => [
        200,
        [
          permit({ Id: 1, TypeName: 'Pending type' }),
          permit({ Id: 2, TypeName: 'Refused type', Status: 'refused', RefusalReason: 'No proof of address' }),
          permit({
            Id: 3,
            TypeName: 'Active type',
            Status: 'active',
            Plates: ['ABC123', 'XYZ9'],
            ValidFrom: '2026-11-01T00:00:00Z',
            ValidUntil: '2027-11-01T00:00:00Z',
          }),
          permit({ Id: 4, TypeName: 'Expired type', Status: 'expired' }),
        ],
      ],
    });
    renderAt('/permits', '/permits', <PermitsScreen />);
    const cards = await screen.findAllByRole('listitem');
    expect(cards).toHaveLength(4);
    expect(within(cards[0]!).getByText('Pending: waiting for a decision')).toBeTruthy();
    expect(within(cards[1]!).getByText('Refused')).toBeTruthy();
    expect(within(cards[1]!).getByText('Reason: No proof of address')).toBeTruthy();
    expect(within(cards[2]!).getByText('Active')).toBeTruthy();
    expect(within(cards[2]!).getByText('ABC123, XYZ9')).toBeTruthy();
    expect(within(cards[2]!).getByText(/ to /)).toBeTruthy();
    expect(within(cards[3]!).getByText('Expired')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /from the wallet/ })).toBeNull();
  });

  it('pays an approved permit once on a double tap', async () => {
    let paid = false;
    const calls = stubApi({
      'GET /api/Account/Details': () => [200, details({ DefaultCard: null })],
      'GET /api/Permits/List': () => [200, [paid ? permit({ Status: 'active' }) : permit({ Status: 'approved' })]],
      'POST /api/Permits/5/Pay': async () => {
        await new Promise((r) => setTimeout(r, 20));
        paid = true;
        return [200, permit({ Status: 'active' })];
      },
    });
    renderAt('/permits', '/permits', <PermitsScreen />);
    expect(await screen.findByText('Approved: to pay')).toBeTruthy();
    await userEvent.dblClick(screen.getByRole('button', { name: /Pay .*45\.00 from the wallet/ }));
    expect(await screen.findByText('Active')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /from the wallet/ })).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{}]);
  });

  it('pays an approved permit by the saved card the driver chose; a decline says why', async () => {
    let declined = true;
    const calls = stubApi({
      'GET /api/Account/Details': () => [
        200,
        details({ Balance: 0, DefaultCard: { PaymentMethodId: 9, Brand: 'Visa', Last4: '0341' } }),
      ],
      'GET /api/Permits/List': () => [200, [declined ? permit({ Status: 'approved' }) : permit({ Status: 'active' })]],
      'POST /api/Permits/5/Pay': () => {
        if (declined) return [402, { message: 'Your card was declined.', errors: [] }];
        return [200, permit({ Status: 'active' })];
      },
    });
    renderAt('/permits', '/permits', <PermitsScreen />);
    await userEvent.click(await screen.findByRole('radio', { name: /Card.*Visa •••• 0341/ }));
    await userEvent.click(screen.getByRole('button', { name: /Pay .*45\.00 by card/ }));
    expect(await screen.findByText('Your card was declined.')).toBeTruthy();
    declined = false;
    await userEvent.click(screen.getByRole('button', { name: /Pay .*45\.00 by card/ }));
    expect(await screen.findByText('Active')).toBeTruthy();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.body)).toEqual([{ PaymentMethodId: 9 }, { PaymentMethodId: 9 }]);
  });

  it('says so when there is no permit, and when the list cannot be loaded', async () => {
    stubApi({ 'GET /api/Permits/List': () => [200, []] });
    renderAt('/permits', '/permits', <PermitsScreen />);
    expect(await screen.findByText('No permits yet')).toBeTruthy();
    vi.unstubAllGlobals();
    stubApi({ 'GET /api/Permits/List': () => [500, { message: 'Internal error' }] });
    renderAt('/permits', '/permits', <PermitsScreen />);
    expect(await screen.findByText('Permits could not be loaded.')).toBeTruthy();
  });

  it('applies for a zone’s permit type with the vehicles’ plates and a proof', async () => {
    const calls = stubApi({
      'GET /api/Permits/List': () => [200, []],
      'GET /api/Parking/Zones/Search?q=7701&limit=20': () => [200, [{ ZoneId: 3, ZoneNumber: '7701' }]],
      'GET /api/Permits/Types?zoneId=3': () => [200, [type]],
      'POST /api/Permits/Proof': () => [
        201,
        { AttachmentId: '6f1c2a3b-1d2e-4f5a-8b9c-0d1e2f3a4b5c', FileName: 'lease.pdf', ContentType: 'application/pdf' },
      ],
      'POST /api/Permits/Apply': () => [201, permit()],
    });
    renderAt('/permits', '/permits', <PermitsScreen plates={['ABC123', 'XYZ9', 'THIRD1']} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Apply for a permit' }));
    await userEvent.type(screen.getByLabelText('Zone number'), '7701');
    await userEvent.click(screen.getByRole('button', { name: 'Find the permits of this zone' }));
    const choice = await screen.findByRole('radio', { name: /Resident Zone A/ });
    expect(screen.getByText(/12 months · Up to 2 plates/)).toBeTruthy();
    expect(screen.getByText('A proof of address is required')).toBeTruthy();
    await userEvent.click(choice);
    expect((screen.getByLabelText('Plates, separated by commas') as HTMLInputElement).value).toBe('ABC123, XYZ9');
    await userEvent.click(screen.getByRole('button', { name: 'Send the application' }));
    expect(await screen.findByText('Attach a proof of address (PDF, PNG or JPEG)')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/Permits/Apply')).toBeUndefined();
    await userEvent.upload(
      screen.getByLabelText('Proof of address (PDF, PNG or JPEG)'),
      new File(['%PDF-1.4'], 'lease.pdf', { type: 'application/pdf' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Send the application' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.path === '/api/Permits/Apply')?.body).toEqual({
        TypeId: 2,
        Plates: ['ABC123', 'XYZ9'],
        ProofAttachmentId: '6f1c2a3b-1d2e-4f5a-8b9c-0d1e2f3a4b5c',
      }),
    );
  });

  it('gives a visitor day and counts the month’s days left', async () => {
    const given = [{ Id: 1, PermitId: 5, Plate: 'GUEST1', Date: today() }];
    const calls = stubApi({
      'GET /api/Permits/List': () => [200, [permit({ Status: 'active', VisitorDaysPerMonth: 3 })]],
      'GET /api/Permits/5/VisitorDays': () => [200, given],
      'POST /api/Permits/5/VisitorDays': (body) => {
        const b = body as { Plate: string; Date: string };
        given.push({ Id: 2, PermitId: 5, ...b });
        return [201, given.at(-1)];
      },
    });
    renderAt('/permits', '/permits', <PermitsScreen />);
    expect(await screen.findByText('2 visitor days left this month')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Visitor’s plate'), 'vis42');
    await userEvent.click(screen.getByRole('button', { name: 'Give a visitor day' }));
    expect(await screen.findByText('1 visitor day left this month')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ Plate: 'VIS42', Date: today() });
    expect(within(screen.getByRole('list', { name: 'Visitor days given this month' })).getByText(/VIS42/)).toBeTruthy();
  });
});
