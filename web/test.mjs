// Browser test of the web build: load the page in headless Chromium (SwiftShader WebGL2), wait
// for the game's ready signal, start a battle against the AI through real clicks and keys, play
// a few turns, take a screenshot, check the canvas is not blank, fail on any console error or
// panic; replay a save made by the native `umpire` and compare state hashes; time five loads.
//
// node web/test.mjs URL EXPECTED_HASH SCREENSHOT
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { readFileSync } from 'node:fs';

const [url, expectedHash, screenshot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

const problems = [];
async function open(address) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  page.on('console', (m) => {
    const text = m.text();
    if (m.type() === 'error' || /panicked/.test(text)) problems.push(`console ${m.type()}: ${text}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e}`));
  const start = Date.now();
  await page.goto(address);
  await page.waitForFunction(() => window.kriegsspielReady === 'true', null, { timeout: 180000 });
  return { page, ms: Date.now() - start };
}

const wait = (ms) => new Promise((r) => setTimeout(r, ms));
// Every state the page reported, in order, with the time since the test began: printed when
// something fails, so a failure in CI can be read without re-running it.
const began = Date.now();
const seen = [];
process.on('exit', (code) => {
  if (code !== 0) console.error(`states seen:\n${seen.map(({ s, ms }) => `  ${ms} ms: ${s}`).join('\n')}`);
});
const state = async (page) => {
  const s = await page.evaluate(() => window.kriegsspielState || '');
  if (seen.length === 0 || seen[seen.length - 1].s !== s) seen.push({ s, ms: Date.now() - began });
  return s;
};
async function until(page, test, what, ms = 120000) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await state(page);
    if (test(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (state: ${s})`);
    await wait(200);
  }
}
async function click(page, x, y) {
  seen.push({ s: `(click ${x},${y})`, ms: Date.now() - began });
  await page.mouse.move(x, y);
  await page.mouse.down();
  await wait(120);
  await page.mouse.up();
  await wait(400);
}

// 1. Load, start a battle against the AI with clicks, play a few turns with the keyboard.
const { page, ms: firstLoad } = await open(url);
console.log(`first load to the title screen: ${firstLoad} ms`);
await click(page, 640, 216);           // "New battle"
await click(page, 100, 89);            // the second battle: the Semyonovskoye flèches
await click(page, 708, 217);           // "Start the battle" (red: human, blue: AI Veteran)
await until(page, (s) => s.startsWith('battle'), 'the battle');
await page.locator('#kriegsspiel').focus();
// The flèches open with redoubt building and deployment (turn 0): play on until the fighting
// has reached turn 4, or the battle ends.
const advanced = (s) => /battle turn ([4-9]|\d\d)|over|result/.test(s);
for (let round = 0; round < 10 && !advanced(await state(page)); round++) {
  await until(page, (s) => s.endsWith('human') || advanced(s), 'the human turn');
  if (advanced(await state(page))) break;
  // Select the French grand battery and fire at the Pavlovsky regiment, then end the turn.
  await click(page, 591, 172);
  await click(page, 685, 390);
  // End the turn; a key pressed while an animation or dialog holds the input is pressed again.
  const before = await state(page);
  for (let tries = 0; tries < 4 && (await state(page)) === before; tries++) {
    await page.locator('#kriegsspiel').focus();
    seen.push({ s: '(Space)', ms: Date.now() - began });
    await page.keyboard.press('Space');
    await until(page, (s) => s !== before, 'the end of the turn', 8000).catch(() => {});
  }
}
const played = await state(page);
console.log(`after playing: ${played}`);
await page.screenshot({ path: screenshot });
const png = PNG.sync.read(readFileSync(screenshot));
const colours = new Set();
for (let i = 0; i < png.data.length; i += 4 * 97) colours.add(`${png.data[i]},${png.data[i + 1]},${png.data[i + 2]}`);
console.log(`screenshot ${screenshot}: ${colours.size} colours sampled`);
if (colours.size < 40) problems.push(`the canvas looks blank (${colours.size} colours)`);
if (!advanced(played)) problems.push(`the battle did not advance: ${played}`);

// 2. The browser replays a save made natively and reaches the same state hash.
await page.context().close();
const { page: replay } = await open(`${url}?replay=test-save.ron`);
const hash = await replay.waitForFunction(() => window.kriegsspielReplayHash, null, { timeout: 60000 }).then((h) => h.jsonValue());
await replay.context().close();
console.log(`replay hash in the browser: ${hash}, native: ${expectedHash}`);
if (hash !== expectedHash) problems.push(`replay hash ${hash} differs from the native ${expectedHash}`);

// 3. Time from navigation to the first interactive frame, five loads.
const times = [];
for (let i = 0; i < 5; i++) {
  const { page: p, ms } = await open(url);
  times.push(ms);
  await p.context().close();
}
times.sort((a, b) => a - b);
console.log(`navigation to first interactive frame: ${times.join(', ')} ms; median ${times[2]} ms`);

await browser.close();
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('browser test passed');
