import { api } from './api-client.ts';

/** Fetches a file with the member's token and hands it to the browser as a download. */
export async function downloadFile(path: string, fileName: string): Promise<void> {
  const blob = await api.file(path);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The click has started the download; the URL can go once the event loop moves on.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
