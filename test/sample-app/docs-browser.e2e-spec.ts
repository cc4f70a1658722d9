import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { CATALOG_PLATFORMS, startCatalog, UNKNOWN_ID, type CatalogTestApp } from './catalog-test-app.js';

/**
 * Swagger UI at /docs in a real browser: Debian's Chromium (`apt-get install
 * chromium`; `.ci/run` installs it), driven by playwright-core. Playwright's
 * own browser download is not used. CHROMIUM_PATH points elsewhere.
 */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const noBrowser = existsSync(CHROMIUM_PATH)
  ? undefined
  : `no Chromium at ${CHROMIUM_PATH}: install it (apt-get install chromium) or set CHROMIUM_PATH`;
if (noBrowser && process.env.CI) {
  // CI must never pass without having run this suite.
  throw new Error(`The Swagger UI browser test cannot run in CI: ${noBrowser}. .ci/run installs it.`);
}
if (noBrowser) console.warn(`Swagger UI browser test SKIPPED: ${noBrowser}`);
const describeInBrowser = noBrowser ? describe.skip : describe;

/** What Swagger UI shows for one "Try it out" → "Execute". */
interface ShownResponse {
  status: number;
  body: any;
}

describeInBrowser.each(CATALOG_PLATFORMS)(
  `Swagger UI in Chromium on %s${noBrowser ? ` (SKIPPED: ${noBrowser})` : ''}`,
  (platform) => {
    let catalog: CatalogTestApp;
    let browser: Browser;
    let page: Page;
    let categoryId: string;
    let product: { id: string; name: string };
    /** Paths the page asked the app for, to tell which requests "Execute" sent. */
    const requested: string[] = [];

    beforeAll(async () => {
      [catalog, browser] = await Promise.all([
        startCatalog(platform),
        chromium.launch({ executablePath: CHROMIUM_PATH }),
      ]);
      const http = catalog.http;
      categoryId = (await http().post('/categories').send({ name: 'Kitchen' }).expect(201)).body.id;
      product = (await http().post('/products').send({ name: 'Crème Brûlée Set', price: 24.9, categoryId }).expect(201))
        .body;

      const url = new URL(await catalog.app.getUrl());
      page = await browser.newPage();
      // Only the app is reachable: anything else the page asks for fails at once instead of leaving the machine.
      await page.route('**/*', (route) =>
        new URL(route.request().url()).host === url.host ? route.continue() : route.abort(),
      );
      page.on('request', (request) => requested.push(`${request.method()} ${new URL(request.url()).pathname}`));
      await page.goto(`${url.origin}/docs`);
      await page.locator(operation('products', 'ProductsController_findOne')).waitFor();
    });
    afterAll(async () => {
      await browser?.close();
      await catalog?.close();
    });

    it('should show 200 and the product for GET /products/{id} with the id of a product', async () => {
      const block = await openTryItOut(page, operation('products', 'ProductsController_findOne'));
      await block.locator('tr[data-param-name="id"] input').fill(product.id);

      const shown = await execute(block, 'GET', `/products/${product.id}`);

      expect(shown).toEqual({
        status: 200,
        body: expect.objectContaining({ id: product.id, name: 'Crème Brûlée Set' }),
      });
    });

    it("should show 404 with the app's message for GET /products/{id} with an id no product has", async () => {
      const block = await openTryItOut(page, operation('products', 'ProductsController_findOne'));
      await block.locator('tr[data-param-name="id"] input').fill(UNKNOWN_ID);

      const shown = await execute(block, 'GET', `/products/${UNKNOWN_ID}`);

      expect(shown).toEqual({
        status: 404,
        body: { statusCode: 404, message: `product ${UNKNOWN_ID} not found`, error: 'Not Found' },
      });
    });

    it('should refuse not-an-id as the {id} of GET /products/{id} in the page, by the documented pattern, sending nothing', async () => {
      const block = await openTryItOut(page, operation('products', 'ProductsController_findOne'));
      const input = block.locator('tr[data-param-name="id"] input');
      await input.fill('not-an-id');
      requested.length = 0;

      await block.locator('button.execute').click();

      // Swagger UI checks the parameter against the ObjectId pattern of @ApiObjectIdParam() before sending.
      await block.locator('tr[data-param-name="id"] input.invalid').waitFor();
      expect(await input.getAttribute('title')).toBe('Value must follow pattern ^[0-9a-fA-F]{24}$');
      expect(await block.locator('.live-responses-table').count()).toBe(0);
      expect(requested.filter((request) => request.includes('not-an-id'))).toEqual([]);
    });

    it('should show 400 with the library\'s message for POST /products with categoryId "not-an-id"', async () => {
      const block = await openTryItOut(page, operation('products', 'ProductsController_create'));
      await block
        .locator('textarea.body-param__text')
        .fill(JSON.stringify({ name: 'Ghost', price: 1, categoryId: 'not-an-id' }));

      const shown = await execute(block, 'POST', '/products');

      expect(shown).toEqual({
        status: 400,
        body: { statusCode: 400, message: ['categoryId must be a 24-character hex ObjectId'], error: 'Bad Request' },
      });
    });

    it('should create a product with POST /products and show 201 with it', async () => {
      const block = await openTryItOut(page, operation('products', 'ProductsController_create'));
      await block
        .locator('textarea.body-param__text')
        .fill(JSON.stringify({ name: 'Espresso Cup', price: 6.5, categoryId }));

      const shown = await execute(block, 'POST', '/products');

      expect(shown).toEqual({
        status: 201,
        body: expect.objectContaining({ name: 'Espresso Cup', slug: 'espresso-cup', price: 6.5, categoryId }),
      });
      const stored = await catalog.http().get(`/products/${shown.body.id}`).expect(200);
      expect(stored.body).toMatchObject({ name: 'Espresso Cup', categoryId });
    });

    it.each([
      [400, 'Bad Request'],
      [404, 'Not Found'],
      [503, 'Service Unavailable'],
    ])('should show the documented %i answer of GET /products/{id} as an ErrorResponse', async (status, error) => {
      const block = await openTryItOut(page, operation('products', 'ProductsController_findOne'));
      const documented = block.locator(`.responses-wrapper tr.response[data-code="${status}"]`);

      const example = JSON.parse(await documented.locator('pre.example').innerText());
      await documented.getByRole('tab', { name: 'Schema' }).click();
      const schema = await documented.locator('.model-box').innerText();

      expect(example).toEqual({ statusCode: status, message: expect.any(String), error });
      expect(schema).toMatch(/^ErrorResponse/);
      expect(schema).toEqual(expect.stringContaining('statusCode'));
    });
  },
);

/** Selector of an operation's block: Swagger UI's id is `operations-{tag}-{operationId}`. */
function operation(tag: string, operationId: string): string {
  return `#operations-${tag}-${operationId}`;
}

/**
 * Expands the operation, switches it to "Try it out" and clears the response
 * of an earlier "Execute", so the tests can share one page in any order.
 */
async function openTryItOut(page: Page, selector: string): Promise<Locator> {
  const block = page.locator(selector);
  if (!(await block.evaluate((element) => element.classList.contains('is-open')))) {
    await block.locator('.opblock-summary-control').click();
  }
  // "Try it out", or "Cancel" once on ("Reset", of a request body, has the class too).
  const tryOut = block.locator('button.try-out__btn:not(.reset)');
  if ((await tryOut.innerText()).trim() === 'Try it out') await tryOut.click();
  await block.locator('button.execute').waitFor();
  const clear = block.locator('button.btn-clear');
  if (await clear.isVisible()) await clear.click();
  await block.locator('.live-responses-table').waitFor({ state: 'detached' });
  return block;
}

/** Clicks "Execute", waits for the app's answer and for the page to show it, and returns what the page shows. */
async function execute(block: Locator, method: string, path: string): Promise<ShownResponse> {
  const answered = block
    .page()
    .waitForResponse((response) => response.request().method() === method && new URL(response.url()).pathname === path);
  await block.locator('button.execute').click();
  await answered;
  const row = block.locator('.live-responses-table tr.response');
  return {
    status: Number(await row.locator('.response-col_status').innerText()),
    body: JSON.parse(await row.locator('.response-col_description .highlight-code pre').first().innerText()),
  };
}
