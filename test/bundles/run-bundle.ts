/**
 * Runs the member specs that scripts/spec-bundle-sequencer.mjs gave a bundle
 * file, in one module registry. Each member is imported inside a describe
 * block of its own (named by its path), so that its top-level hooks and tests
 * stay in that block as they would in a file of their own: jest-circus adds
 * what a module registers to its state's current describe block, which is set
 * to the member's block while the member's module is evaluated.
 */
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface DescribeBlock {
  name: string;
}

interface CircusState {
  currentDescribeBlock: DescribeBlock;
}

/** jest-circus keeps its state on the test environment's global under a symbol of its own. */
function circusState(): CircusState {
  const key = Object.getOwnPropertySymbols(globalThis).find((symbol) => symbol.description === 'JEST_STATE_SYMBOL');
  const state = key && (globalThis as unknown as Record<symbol, CircusState | undefined>)[key];
  if (!state?.currentDescribeBlock) {
    throw new Error('spec bundles need jest-circus (Jest’s default runner); run with SPEC_BUNDLES=off otherwise');
  }
  return state;
}

/** Imports the members of the bundle file at `bundleUrl`, each under a describe block named by its path. */
export async function runBundle(bundleUrl: string): Promise<void> {
  const bundle = fileURLToPath(bundleUrl);
  const manifest = JSON.parse(process.env.SPEC_BUNDLE_MEMBERS ?? '{}') as Record<string, string[]>;
  const members = manifest[bundle];
  if (!members) {
    throw new Error(
      `${relative(root, bundle)} runs the spec files Jest's sequencer (scripts/spec-bundle-sequencer.mjs) gives it; run a spec alone with npx jest <its path>`,
    );
  }
  const state = circusState();
  for (const member of members) {
    let block: DescribeBlock | undefined;
    describe(relative(root, member), () => {
      block = state.currentDescribeBlock;
    });
    const enclosing = state.currentDescribeBlock;
    state.currentDescribeBlock = block!;
    try {
      await import(pathToFileURL(member).href);
    } catch (error) {
      // A member that fails to load fails in its own block; the others still run.
      it('loads', () => {
        throw error;
      });
    } finally {
      state.currentDescribeBlock = enclosing;
    }
  }
}
