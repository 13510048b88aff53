import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n.ts';
import { LanguageMenu } from './language-menu.tsx';

describe('the first screens’ language menu', () => {
  afterEach(() => setLanguage('en'));

  it('is one button naming the language shown; its choices appear only once opened', async () => {
    render(<LanguageMenu />);
    const button = screen.getByRole('button', { name: 'Language: English' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('radio')).toBeNull();
    await userEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect((await screen.findAllByRole('radio')).map((r) => r.closest('label')!.textContent)).toEqual([
      'English',
      'हिन्दी',
      'Español',
    ]);
  });

  it('chooses Spanish from the keyboard, remembers it, and Escape closes it back on the button', async () => {
    render(<LanguageMenu />);
    const button = screen.getByRole('button', { name: 'Language: English' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await screen.findAllByRole('radio');
    await userEvent.tab(); // into the choices: the checked one, English
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'English' }));
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Idioma: Español' })).toBeTruthy());
    expect(localStorage.getItem('language')).toBe('es');
    expect(screen.getByRole('radio', { name: 'Español' })).toHaveProperty('checked', true);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('radio')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Idioma: Español' }));
  });

  it('closes when the driver presses outside it', async () => {
    render(
      <>
        <LanguageMenu />
        <p>outside</p>
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Language: English' }));
    await screen.findAllByRole('radio');
    await userEvent.click(screen.getByText('outside'));
    expect(screen.queryByRole('radio')).toBeNull();
  });

  it('shows the language already chosen', async () => {
    await act(() => setLanguage('es'));
    render(<LanguageMenu />);
    expect(screen.getByRole('button', { name: 'Idioma: Español' }).textContent).toBe('Español');
  });
});
