import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithData } from '../../../testing/render.tsx';
import userEvent from '@testing-library/user-event';
import { makeZone } from '../testing/zone-fixture.ts';
import { ZoneRow } from './zone-row.tsx';

function renderRow(zone = makeZone(), onOpen = vi.fn()) {
  renderWithData(
    <ul>
      <ZoneRow zone={zone} onOpen={onOpen} />
    </ul>,
  );
  return { row: screen.getByRole('button'), onOpen };
}

describe('ZoneRow', () => {
  it('shows the sign number, name, address, distance, rate, maximum stay and paid status', () => {
    const { row } = renderRow();
    const r = within(row);
    expect(row.textContent).toContain('Zone 1001');
    for (const shown of [
      '1001',
      'Congress Ave 100 block (east side)',
      '112 Congress Ave',
      '350 m',
      '$2.50/hr',
      '2 h max',
      'Paid until 18:00',
    ])
      expect(r.getByText(shown)).toBeTruthy();
  });

  it('says free now outside paid hours and leaves out an unknown distance', () => {
    const { row } = renderRow(
      makeZone({
        PaymentRequiredNow: false,
        PaidUntilNow: null,
        DistanceMeters: null,
        RatePerHour: 1.25,
        MaxStayMinutes: 90,
      }),
    );
    expect(within(row).getByText('Free now')).toBeTruthy();
    expect(within(row).getByText('$1.25/hr')).toBeTruthy();
    expect(within(row).getByText('1 h 30 min max')).toBeTruthy();
    expect(row.textContent).not.toMatch(/\d m\b|km/);
  });

  it('opens the zone when tapped or activated from the keyboard', async () => {
    const zone = makeZone();
    const { row, onOpen } = renderRow(zone);
    const user = userEvent.setup();
    await user.click(row);
    row.focus();
    await user.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledTimes(2);
    expect(onOpen).toHaveBeenCalledWith(zone);
  });
});
