/** A spec file as Jest's sequencer sees it. */
export interface SequencedTest {
  path: string;
  context: unknown;
  duration?: number;
}
/** Spec files bundled together (by path relative to the repository) and into how many bundles. */
export declare const BUNDLE_GROUPS: readonly { pattern: RegExp; exclude?: RegExp; bundles: number }[];
/** Fewer selected files of a group than this run as separate files. */
export declare const MIN_MEMBERS: number;
/** The environment variable that tells each bundle file its members. */
export declare const MEMBERS_VARIABLE: string;
/** The bundle entry files, in the order groups take them. */
export declare function bundleFiles(): string[];
/** Splits `members` into at most `count` lists of about equal weight (longest processing time first). */
export declare function balance<T extends { path: string }>(
  members: readonly T[],
  count: number,
  weight: (member: T) => number,
): { weight: number; members: T[] }[];
/** Jest's default order, with bundles in place of their members. */
export default class SpecBundleSequencer {
  constructor(options: object);
  sort(tests: readonly SequencedTest[]): SequencedTest[];
}
/** The bundles of this run: bundle file path → its members' paths. */
export declare function bundleMembers(): Record<string, string[]>;
/** A bundle's test file result, as much of it as {@link memberTimes} reads. */
export interface BundleResult {
  perfStats: { start: number };
  testResults: readonly {
    ancestorTitles: readonly string[];
    startAt?: number | null;
    duration?: number | null;
    status: string;
  }[];
}
/** How long each member of a bundle took, from the end of the member before it to the end of its last test. */
export declare function memberTimes(
  suite: BundleResult,
  members: readonly string[],
): { path: string; ms: number; failed: boolean }[];
