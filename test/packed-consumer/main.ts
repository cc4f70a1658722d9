// The consumer's entry point: prints what run() saw as one JSON line.
import { run } from './app.js';

run().then(
  (results) => console.log(JSON.stringify(results)),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
