import { describe, expect, it } from 'vitest';
import { checkSlot, parseHours, zonedInstant } from './support-hours.ts';
import { cleanFileName, sniffType } from './attachment-store.ts';

const hours = parseHours('09:00-18:00', 'America/Chicago');

describe('support hours', () => {
  it('reads a wall-clock slot in the support time zone, across daylight saving', () => {
    expect(zonedInstant('2026-01-15', '10:00', 'America/Chicago')?.toISOString()).toBe('2026-01-15T16:00:00.000Z');
    expect(zonedInstant('2026-07-15', '10:00', 'America/Chicago')?.toISOString()).toBe('2026-07-15T15:00:00.000Z');
    expect(zonedInstant('2026-02-30', '10:00', 'America/Chicago')).toBeNull();
  });

  it('takes only future slots on the grid within hours and 30 days', () => {
    const now = new Date('2026-07-15T15:10:00Z'); // 10:10 in Chicago
    expect(checkSlot('2026-07-15', '10:30', hours, now)).toMatchObject({ ok: true });
    expect(checkSlot('2026-07-15', '10:00', hours, now)).toMatchObject({ ok: false, field: 'Time' });
    expect(checkSlot('2026-07-15', '10:15', hours, now)).toMatchObject({ ok: false, field: 'Time' });
    expect(checkSlot('2026-07-16', '18:00', hours, now)).toMatchObject({ ok: false, field: 'Time' });
    expect(checkSlot('2026-07-16', '08:30', hours, now)).toMatchObject({ ok: false, field: 'Time' });
    expect(checkSlot('2026-08-20', '10:00', hours, now)).toMatchObject({ ok: false, field: 'Date' });
  });
});

describe('attachment types', () => {
  it('knows a file by its first bytes, not its name', () => {
    expect(sniffType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))?.type).toBe('image/png');
    expect(sniffType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))?.type).toBe('image/jpeg');
    expect(sniffType(Buffer.from('GIF89a'))?.type).toBe('image/gif');
    expect(sniffType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))?.type).toBe('image/webp');
    expect(sniffType(Buffer.from('%PDF-1.7'))?.type).toBe('application/pdf');
    expect(sniffType(Buffer.from('MZ\x90\x00'))).toBeNull();
    expect(sniffType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffType(Buffer.alloc(0))).toBeNull();
  });

  it('keeps a safe file name with the extension of the real type', () => {
    expect(cleanFileName('../../etc/passwd', 'png')).toBe('passwd.png');
    expect(cleanFileName('C:\\Users\\x\\virus.exe', 'pdf')).toBe('virus.pdf');
    expect(cleanFileName('a"b<c>\u0007.png', 'png')).toBe('abc.png');
    expect(cleanFileName(undefined, 'jpg')).toBe('attachment.jpg');
  });
});
