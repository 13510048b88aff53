import { describe, expect, it, vi } from 'vitest';

describe('toasts loaded on demand', () => {
  it('an error toast asked for before sonner is here shows once it is, and later ones at once', async () => {
    // A fresh copy of the module, as the app starts: sonner not loaded yet.
    vi.resetModules();
    const toasts = await import('./toasts.tsx');
    const { toast } = await import('sonner');
    const shown = vi.spyOn(toast, 'error');
    toasts.toast.error('Server Not Responding');
    expect(shown).not.toHaveBeenCalled();
    await toasts.loadToasts();
    expect(shown).toHaveBeenCalledWith('Server Not Responding');
    toasts.toast.error('Unauthorized');
    expect(shown).toHaveBeenLastCalledWith('Unauthorized');
    shown.mockRestore();
  });

  it('a success toast goes the same way', async () => {
    vi.resetModules();
    const toasts = await import('./toasts.tsx');
    const { toast } = await import('sonner');
    const shown = vi.spyOn(toast, 'success');
    toasts.toast.success('Saved');
    expect(shown).not.toHaveBeenCalled();
    await toasts.loadToasts();
    expect(shown).toHaveBeenCalledWith('Saved');
    shown.mockRestore();
  });
});
