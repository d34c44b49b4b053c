// Headless Chromium with the SwiftShader WebGPU adapter and the WebGPU test page, for the
// browser tests of twinrt-web's WebGPU provider.
import path from 'node:path';
import { createRequire } from 'node:module';
import { serve } from './server.js';
import { ROOT } from '../js/native.js';

const require = createRequire(import.meta.url);
export const CHROMIUM = process.env.TWINRT_CHROMIUM || '/usr/bin/chromium';
// GPU work and readbacks must answer within this; a hang fails the case instead of the suite.
export const CASE_TIMEOUT_MS = 120000;

export function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${CASE_TIMEOUT_MS} ms`)), CASE_TIMEOUT_MS); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// { browser, server, page }: tests/browser/webgpu_page.html loaded and ready; `onPage(page)`
// runs before it loads (to listen for errors). The caller closes browser and server.
export async function openWebGpuPage(onPage = () => {}) {
  const { chromium } = require(path.join(ROOT, 'tools/node_modules/playwright-core'));
  const server = await serve(ROOT);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--disable-quic',
      '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage();
  onPage(page);
  await page.goto(`${server.url}/tests/browser/webgpu_page.html`);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'ready');
  return { browser, server, page };
}
