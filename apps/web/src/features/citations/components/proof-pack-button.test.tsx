import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt, stubApi } from '../../../testing/render.tsx';
import { ProofPackButton } from './proof-pack-button.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the proof pack button', () => {
  it('downloads the citation’s proof pack in the app’s language', async () => {
    const calls = stubApi({ 'GET /api/Citations/12/ProofPack.pdf?lang=en': () => [200, {}] });
    // jsdom cannot save a file: the link's click is caught to read the name it would save under.
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderAt('/citations', '/citations', <ProofPackButton citationId={12} />);
    await userEvent.click(screen.getByRole('button', { name: 'Download proof pack' }));
    await vi.waitFor(() =>
      expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/Citations/12/ProofPack.pdf?lang=en']),
    );
    await vi.waitFor(() => expect(saved).toEqual(['parkit-proof-pack-12.pdf']));
    expect(screen.queryByText('The proof pack could not be downloaded.')).toBeNull();
    vi.restoreAllMocks();
  });

  it('says so when the proof pack cannot be downloaded', async () => {
    stubApi({ 'GET /api/Citations/12/ProofPack.pdf?lang=en': () => [404, { message: 'Citation not found' }] });
    renderAt('/citations', '/citations', <ProofPackButton citationId={12} />);
    await userEvent.click(screen.getByRole('button', { name: 'Download proof pack' }));
    expect(await screen.findByText('The proof pack could not be downloaded.')).toBeTruthy();
  });
});
