// CommonJS on purpose, in both builds: snowball-stemmers is a CommonJS
// package of about 870 KB, and `require()` inside a function lets the server
// load it on the first text index or `$text` search instead of at start (an
// ES-module import cannot be deferred and stay synchronous).

/** A Snowball stemmer of one language (stateful, but each `stem` call runs to completion). */
interface SnowballStemmer {
  stem(word: string): string;
}

interface SnowballStemmers {
  newStemmer(language: string): SnowballStemmer;
}

/** Distinct words remembered per language before the memory starts over. */
const MAX_REMEMBERED = 50_000;

/**
 * A stemmer that remembers its stems: text repeats its words, and a Snowball
 * stem costs microseconds in Node but about ten times more inside a
 * `node:vm` context such as Jest's, where tests run this server.
 */
class RememberingStemmer implements SnowballStemmer {
  private readonly stems = new Map<string, string>();

  constructor(private readonly stemmer: SnowballStemmer) {}

  stem(word: string): string {
    let stem = this.stems.get(word);
    if (stem === undefined) {
      stem = this.stemmer.stem(word);
      if (this.stems.size >= MAX_REMEMBERED) this.stems.clear();
      this.stems.set(word, stem);
    }
    return stem;
  }
}

let library: SnowballStemmers | undefined;
const stemmers = new Map<string, SnowballStemmer>();

/**
 * The Snowball stemmer of `language` (a name `snowball-stemmers` knows, e.g.
 * "french"), made once per language; the library is loaded on the first call.
 * @see https://snowballstem.org/algorithms/
 */
export function snowballStemmer(language: string): SnowballStemmer {
  let stemmer = stemmers.get(language);
  if (stemmer === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the point of this file: deferred CommonJS loading
    library ??= require('snowball-stemmers') as SnowballStemmers;
    stemmer = new RememberingStemmer(library.newStemmer(language));
    stemmers.set(language, stemmer);
  }
  return stemmer;
}
