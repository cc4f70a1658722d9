/**
 * Helpers of the packed-package specs: build and pack a workspace package in a
 * staging folder, write and install consumer apps outside the repository.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;
const consumerSources = join(root, 'test/packed-consumer');
/** Version of a package installed in this repository, so consumers test what we test. */
export const installed = (name: string) =>
  JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;

/** Runs a command and returns its stdout; a failure's message carries the command's own output. */
export function run(cmd: string, args: string[], cwd: string, nodeOptions = ''): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: nodeOptions },
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${(error as Error).message}\n${stdout ?? ''}${stderr ?? ''}`.slice(0, 20_000), { cause: error });
  }
}

export interface Packed {
  tarball: string;
  files: string[];
  manifest: { dependencies?: Record<string, string> };
}

/**
 * Builds package `dir` into a staging folder under `destination` and packs it
 * from there, so that the tests never write the repository's own dist/ folders
 * (other specs, and a developer's build, may be using them meanwhile).
 */
export function pack(dir: string, destination: string): Packed {
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const stage = join(destination, `stage-${manifest.name}`);
  mkdirSync(stage, { recursive: true });
  for (const file of ['package.json', 'README.md', 'LICENSE']) copyFileSync(join(root, dir, file), join(stage, file));
  run(process.execPath, [join(root, 'scripts/build.mjs'), join(root, dir), join(stage, 'dist')], root);
  const [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], stage),
  );
  return {
    tarball: join(destination, packed.filename),
    files: packed.files.map((f: { path: string }) => f.path),
    manifest,
  };
}

export function lastJsonLine(output: string): Record<string, unknown> {
  return JSON.parse(output.trim().split('\n').pop()!);
}

/** Writes a consumer app into `dir` and installs it. */
export function consumer(
  dir: string,
  packageJson: Record<string, unknown>,
  tsconfig: Record<string, unknown>,
  sources: string[],
  sourceDir = '.',
) {
  mkdirSync(join(dir, sourceDir), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, ...packageJson }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  for (const file of sources) copyFileSync(join(consumerSources, file), join(dir, sourceDir, file));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
}
