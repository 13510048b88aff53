import { describe, expect, it } from 'vitest';
import { compileCatalog, toIcu } from '../../catalogs.ts';

describe('catalogs compiled at build time (apps/web/catalogs.ts)', () => {
  it('turns {{name}} into ICU placeholders, inside a count’s forms too, and keeps apostrophes', () => {
    expect(toIcu('Hello, {{ name }}')).toBe('Hello, {name}');
    expect(toIcu("Don't {{x}}'s")).toBe("Don''t {x}''s");
    expect(toIcu('{n, plural, one {{{zone}}: #} other {{{zone}}: # x}}')).toBe(
      '{n, plural, one {{zone}: #} other {{zone}: # x}}',
    );
    expect(toIcu('{{}} {{ }}')).toBe('{{}} {{ }}');
  });

  it('compiles texts and forms, leaves an empty text out, and names the text it cannot read', () => {
    expect(compileCatalog({ a: 'Hi {{name}}', b: '', c: "it's #", d: '{n, plural, one {# x} other {# xs}}' })).toEqual({
      a: ['Hi ', ['name']],
      c: ["it's #"],
      d: [['n', 'plural', { one: ['#', ' x'], other: ['#', ' xs'] }]],
    });
    expect(() => compileCatalog({ 'Broken {{n}}': '{n, plural, one {# x}' }, 'hi/x.json')).toThrow(
      /hi\/x\.json: the text of "Broken \{\{n\}\}"/,
    );
  });
});
