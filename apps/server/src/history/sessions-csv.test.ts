import { describe, expect, it } from 'vitest';
import { csvField } from '../lib/csv.ts';
import { csvHeaderLine, csvRow } from './sessions-csv.ts';

describe('sessions CSV', () => {
  it('quotes commas, quotes and line breaks', () => {
    expect(csvField('301 Congress Ave, Suite 2')).toBe('"301 Congress Ave, Suite 2"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('a\nb')).toBe('"a\nb"');
    expect(csvField(12)).toBe('12');
  });

  it('keeps formulas as text', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@cmd')).toBe("'@cmd");
  });

  it('writes one line per session with amounts in dollars and ISO times', () => {
    const line = csvRow({
      sessionId: 7,
      startedAt: new Date('2024-09-12T19:05:00Z'),
      endedAt: new Date('2024-09-12T19:28:00Z'),
      durationMinutes: 23,
      zoneNumber: '7012',
      address: '301 Congress Ave',
      city: 'Austin',
      state: 'TX',
      plateNumber: 'ABC1234',
      plateState: 'TX',
      amountCents: 323,
      feeCents: 25,
      paidVia: 'Wallet',
      status: 'Ended',
    });
    expect(line).toBe(
      '7,2024-09-12T19:05:00.000Z,2024-09-12T19:28:00.000Z,23,7012,301 Congress Ave,Austin,TX,ABC1234,TX,3.23,0.25,Wallet,Ended\r\n',
    );
    expect(csvHeaderLine().split(',')).toHaveLength(14);
  });
});
