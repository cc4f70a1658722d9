import { RE2JS } from 're2js';

import { CommandError } from '../commands/command-error.js';

// Compiled patterns, by flags and source; bounded so a client cannot grow it without end.
const cache = new Map<string, RE2JS>();
const CACHE_SIZE = 500;

const FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/**
 * `pattern` compiled for RE2's linear-time engine: a regex sent by a client
 * (`(a+)+$` against a long string) must not hold the event loop, and with it
 * every other client and the hosting app, for seconds. JavaScript's
 * backtracking RegExp is never run on client patterns. What RE2 cannot do in
 * linear time (lookaround, backreferences) is refused with MongoDB's BadValue.
 */
/** A pattern's text and its MongoDB/JavaScript option letters, as a RegExp or `{ $regex, $options }` carry them. */
export interface RegexSpec {
  source: string;
  flags: string;
}

export function linearRegex(pattern: RegexSpec): RE2JS {
  const key = `${pattern.flags}/${pattern.source}`;
  let compiled = cache.get(key);
  if (compiled === undefined) {
    let flags = 0;
    for (const flag of pattern.flags) {
      // g, y (stateful in JavaScript) and u (RE2 is Unicode-aware) change nothing for a match test.
      if (flag in FLAGS) flags |= FLAGS[flag]!;
      else if (flag === 'x') {
        throw new CommandError('BadValue', "Regular expression option 'x' is not supported by the embedded server");
      } else if (!'guy'.includes(flag)) {
        throw new CommandError('BadValue', `invalid flag in regex options: ${flag}`);
      }
    }
    try {
      compiled = RE2JS.compile(pattern.source, flags);
    } catch (error) {
      throw new CommandError(
        'BadValue',
        `Regular expression is invalid: ${(error as Error).message}. The embedded server matches in linear time and supports no lookaround or backreferences`,
      );
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, compiled);
  }
  return compiled;
}

/** Whether `pattern` matches somewhere in `text`, in time linear in `text`. */
export function regexTest(pattern: RegexSpec, text: string): boolean {
  return linearRegex(pattern).matcher(text).find();
}
