import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runBundle } from './run-bundle.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '../..');
const members = ['member-hooks.ts', 'member-plain.ts', 'member-broken.ts'].map((name) => join(here, 'fixtures', name));
/** runBundle finds its members by its own path; this one is only a key of the manifest. */
const bundle = join(here, 'fixtures', 'bundle.ts');

interface Block {
  name: string;
  type: 'describeBlock';
  children: (Block | { type: 'test'; name: string; fn: () => unknown })[];
}
const stateKey = Object.getOwnPropertySymbols(globalThis).find((key) => key.description === 'JEST_STATE_SYMBOL')!;
const rootBlock = (globalThis as unknown as Record<symbol, { rootDescribeBlock: Block }>)[stateKey]!.rootDescribeBlock;

describe('runBundle (test/bundles/run-bundle.ts)', () => {
  it('should give each member a describe block named by its path, in order', () => {
    expect(rootBlock.children.slice(1).map((child) => child.name)).toEqual(
      members.map((member) => relative(root, member)),
    );
  });

  it("should keep a member's tests and nested blocks in its own block", () => {
    const [hooks, plain] = rootBlock.children.slice(1) as Block[];
    expect(hooks!.children.map((child) => child.name)).toEqual(['first', 'inner']);
    expect(plain!.children.map((child) => child.name)).toEqual(['runs with its own hook only']);
  });

  it('should report a member that fails to load as a failing test of its block, and run the others', () => {
    const broken = rootBlock.children[3] as Block;
    const [loads] = broken.children as { name: string; fn: () => unknown }[];
    expect(loads!.name).toBe('loads');
    expect(() => loads!.fn()).toThrow('member-broken fails to load');
    // Checked: the member's failure would otherwise fail this spec.
    loads!.fn = () => undefined;
  });

  it('should refuse a bundle file it has no members for, saying how to run a spec alone', async () => {
    await expect(runBundle(pathToFileURL(join(here, 'fixtures', 'unknown.ts')).href)).rejects.toThrow(
      /fixtures\/unknown\.ts runs the spec files .* run a spec alone with npx jest <its path>/,
    );
  });
});

const saved = process.env.SPEC_BUNDLE_MEMBERS;
process.env.SPEC_BUNDLE_MEMBERS = JSON.stringify({ [bundle]: members });
try {
  await runBundle(pathToFileURL(bundle).href);
} finally {
  if (saved === undefined) delete process.env.SPEC_BUNDLE_MEMBERS;
  else process.env.SPEC_BUNDLE_MEMBERS = saved;
}
