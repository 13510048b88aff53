import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithData } from '../../../testing/render.tsx';
import { ZonePicker, ZONES_SHOWN } from './zone-picker.tsx';

const zones = Array.from({ length: 1200 }, (_, i) => ({
  ZoneId: i + 1,
  ZoneNumber: String(1001 + i),
  Name: i === 500 ? 'Riverside Garage' : `Street block ${i + 1}`,
}));

function Harness() {
  const [chosen, setChosen] = useState<number[]>([]);
  return <ZonePicker zones={zones} chosen={chosen} onChange={setChosen} />;
}

describe("the officer's zone picker", () => {
  it('shows a page of zones, not a whole city, and finds the others by number or name', async () => {
    const user = userEvent.setup();
    renderWithData(<Harness />);
    expect(screen.getAllByRole('checkbox')).toHaveLength(ZONES_SHOWN);
    screen.getByText('Type a zone number or name to see the others.');

    await user.type(screen.getByLabelText('Zone number or name'), 'riverside');
    const riverside = screen.getByRole('checkbox', { name: /Zone 1501 · Riverside Garage/ });
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
    await user.click(riverside);

    // A chosen zone stays on the list whatever is typed next.
    await user.clear(screen.getByLabelText('Zone number or name'));
    await user.type(screen.getByLabelText('Zone number or name'), '1002');
    expect((screen.getByRole('checkbox', { name: /Riverside Garage/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: /Zone 1002 ·/ }) as HTMLInputElement).checked).toBe(false);

    await user.clear(screen.getByLabelText('Zone number or name'));
    await user.type(screen.getByLabelText('Zone number or name'), 'no such place');
    screen.getByText('No zone has that number or name.');
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
  });

  it('needs no search box for a small operator', () => {
    renderWithData(<ZonePicker zones={zones.slice(0, 3)} chosen={[]} onChange={() => {}} />);
    expect(screen.getAllByRole('checkbox')).toHaveLength(3);
    expect(screen.queryByLabelText('Zone number or name')).toBeNull();
  });
});
