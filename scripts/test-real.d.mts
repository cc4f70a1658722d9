/** Jest path patterns of the suites `npm run test:real` runs against a real MongoDB. */
export declare const TEST_REAL_SUITES: readonly string[];
/** What in a suite's source marks it as using server-wide state (it then runs alone). */
export declare const SERVER_WIDE: RegExp;
/** `files` split into those that may run side by side and those that must run alone. */
export declare function partitionSuites(
  files: readonly string[],
  read?: (file: string) => string,
): { together: string[]; alone: string[] };
