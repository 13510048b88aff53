import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from '../fixtures.ts';

/**
 * The production build writes .br and .gz beside each asset and the server sends them
 * as the request accepts (never compressing a file per request), with Vary: Accept-Encoding.
 * Node's http client, so that exactly the Accept-Encoding given is sent and nothing is decoded.
 */
function get(baseURL: string, path: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = httpRequest(
        new URL(path, baseURL),
        { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
}

test('the built scripts and styles go out precompressed as the request accepts', async ({ baseURL }) => {
  const page = await get(baseURL!, '/parkit');
  const html = page.body.toString();
  const entry = /<script type="module" crossorigin src="(\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
  const css = /<link rel="stylesheet" crossorigin href="(\/assets\/[\w-]+\.css)"/.exec(html)?.[1];
  expect(entry, 'the entry script in index.html').toBeTruthy();
  expect(css, 'the stylesheet in index.html').toBeTruthy();

  for (const asset of [entry!, css!]) {
    const plain = await get(baseURL!, asset);
    expect(plain.status, asset).toBe(200);
    expect(plain.headers['content-encoding'], asset).toBeUndefined();
    expect(plain.headers['vary'], asset).toMatch(/accept-encoding/i);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const identity = await get(baseURL!, asset, 'identity');
    expect(identity.headers['content-encoding'], asset).toBeUndefined();
    expect(identity.body.equals(plain.body), asset).toBe(true);

    const br = await get(baseURL!, asset, 'gzip, deflate, br');
    expect(br.headers['content-encoding'], asset).toBe('br');
    expect(br.headers['vary'], asset).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).equals(plain.body), asset).toBe(true);
    expect(br.body.length, asset).toBeLessThan(plain.body.length / 2);

    const gz = await get(baseURL!, asset, 'gzip');
    expect(gz.headers['content-encoding'], asset).toBe('gzip');
    expect(gz.headers['vary'], asset).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.body).equals(plain.body), asset).toBe(true);
  }
});

test("a first screen's chunks are preloaded by its page, and the screen needs no other", async ({ baseURL, page }) => {
  // The build lists them (apps/web/route-preloads.ts); the server writes them into /homepage's page.
  const html = (await get(baseURL!, '/homepage')).body.toString();
  const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="(\/assets\/[\w-]+\.js)">/g)].map(
    (m) => m[1]!,
  );
  // Two chunks: the data layer, the tabs and the screen in one (a request fewer is a round trip
  // less), and what it shares with the sign-in screens (the API client, the fields).
  expect(preloads).toHaveLength(2);
  expect(preloads.some((f) => /^\/assets\/homepage-[\w-]+\.js$/.test(f))).toBe(true);
  expect(preloads.some((f) => /^\/assets\/first-shared-[\w-]+\.js$/.test(f))).toBe(true);
  for (const file of preloads) expect((await get(baseURL!, file)).status, file).toBe(200);
  // The landing page's page preloads nothing: its screen is in the entry.
  expect((await get(baseURL!, '/parkit')).body.toString()).not.toContain('modulepreload');

  // Opened cold, /homepage fetches the entry and the preloaded chunks, nothing after.
  const entry = /<script type="module" crossorigin src="(\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
  const scripts: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
  });
  await page.goto('/homepage');
  await expect(page.getByRole('heading', { name: 'Welcome to ParkIt' })).toBeVisible();
  expect(scripts.filter((s) => s !== entry && !preloads.includes(s))).toEqual([]);
});

// Defect 15: the sign-in screens a new driver meets first paint as /homepage does: their
// page preloads the screen's chunks beside the entry (no second round of fetches once the entry
// ran), not the data layer's (React Query loads with a sign-in's answer,
// features/auth/api/sign-in.ts), and nothing breaks the page's Content Security Policy.
for (const [path, heading] of [
  ['/login', 'Welcome back'],
  ['/register', 'Create your account'],
  ['/otp?phone=5125550199&purpose=register', 'Verify your mobile number'],
] as const) {
  test(`${path}: its chunks are preloaded by its page; no policy violation or console error`, async ({
    baseURL,
    page,
  }) => {
    const html = (await get(baseURL!, path)).body.toString();
    const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="(\/assets\/[\w-]+\.js)">/g)].map(
      (m) => m[1]!,
    );
    expect(
      preloads.some((f) => /^\/assets\/sign-in-[\w-]+\.js$/.test(f)),
      'the screen',
    ).toBe(true);
    expect(
      preloads.some((f) => /^\/assets\/homepage-[\w-]+\.js$/.test(f)),
      'the data layer',
    ).toBe(false);
    const entry = /<script type="module" crossorigin src="(\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
    const scripts: string[] = [];
    const problems: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
      ),
    );
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, exact: true }).first()).toBeVisible();
    // The toasts come after the screen (lib/toasts.ts): not part of its first paint.
    expect(scripts.filter((s) => s !== entry && !preloads.includes(s) && !/\/toasts-[\w-]+\.js$/.test(s))).toEqual([]);
    // React Query's provider names itself in its error, which survives minifying.
    for (const file of scripts)
      expect((await get(baseURL!, file)).body.toString(), file).not.toContain('No QueryClient set');
    expect(problems).toEqual([]);
  });
}

// The sign-in forms check with the contract's schemas, which load with the form's first use
// (lib/use-schema-form.ts): zod is a quarter of /login's JavaScript and no part of its first paint.
test('/login paints without zod; typing loads the schema, which checks the form', async ({ baseURL, page }) => {
  const scripts: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
  });
  // zod names its classes as strings (its $constructor), which survive minifying.
  const hasZod = async (paths: string[]) => {
    for (const path of paths) if ((await get(baseURL!, path)).body.toString().includes('ZodObject')) return true;
    return false;
  };
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Welcome back', exact: true })).toBeVisible();
  expect(await hasZod(scripts), 'a script of the first paint holds zod').toBe(false);
  const painted = scripts.length;

  await page.getByLabel('Username or Email').fill('riley');
  await expect.poll(() => hasZod(scripts.slice(painted))).toBe(true);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Password is required')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

// Before the app's code has run, the page paints ParkIt's mark (index.html) rather than nothing;
// the first screen replaces it once its code is here, with no grey placeholder between them.
test('the page shows the mark until its first screen’s code is here, then the screen alone', async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/login', { waitUntil: 'commit' });
  const mark = page.locator('#root > div[aria-hidden="true"] svg');
  await expect(mark).toBeVisible();
  await expect(page.getByRole('status')).toHaveCount(0);
  release();
  await expect(page.getByRole('heading', { name: 'Welcome back', exact: true })).toBeVisible();
  await expect(mark).toHaveCount(0);
});
