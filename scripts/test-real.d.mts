/** Jest path patterns of the suites `npm run test:real` runs against a real MongoDB. */
export declare const TEST_REAL_SUITES: readonly string[];
