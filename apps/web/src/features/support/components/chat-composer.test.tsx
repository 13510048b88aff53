import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatComposer } from './chat-composer.tsx';

describe('ChatComposer', () => {
  it('sends with Enter and with the button, trimmed, and empties the box', async () => {
    const onSend = vi.fn();
    render(<ChatComposer onSend={onSend} />);
    const box = screen.getByPlaceholderText('Ask your question...');
    await userEvent.type(box, '  Where do I park?  {Enter}');
    expect(onSend).toHaveBeenLastCalledWith({ text: 'Where do I park?', file: null });
    expect((box as HTMLInputElement).value).toBe('');
    await userEvent.type(box, 'Second');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledTimes(2);
    expect(onSend).toHaveBeenLastCalledWith({ text: 'Second', file: null });
  });

  it('does not send blank or whitespace-only text', async () => {
    const onSend = vi.fn();
    render(<ChatComposer onSend={onSend} />);
    const box = screen.getByPlaceholderText('Ask your question...');
    await userEvent.type(box, '{Enter}');
    await userEvent.type(box, '     {Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).not.toHaveBeenCalled();
  });

  it('sends a picked file without text, and refuses one over 5 MB', async () => {
    const onSend = vi.fn();
    render(<ChatComposer onSend={onSend} />);
    const picker = screen.getByLabelText('Attach a file');
    const small = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'meter.png', { type: 'image/png' });
    await userEvent.upload(picker, small);
    expect(screen.getByText('meter.png')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenLastCalledWith({ text: '', file: small });

    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await userEvent.upload(picker, big);
    expect(screen.queryByText('big.png')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledTimes(1);
  });
});
