import { SEQUENCE_MAX_PAD_WIDTH } from './sequence.constants.js';
import { SequenceFormatError } from './sequence-format.error.js';

/** Calendar fields of one instant in one time zone, as zero-padded strings. */
export interface SequenceDateParts {
  /** Four-digit year, e.g. `2026`. */
  year: string;
  /** Two-digit month, `01`–`12`. */
  month: string;
  /** Two-digit day of the month, `01`–`31`. */
  day: string;
}

/** What `SequenceFormat.render()` fills the tokens with. */
export interface SequenceFormatValues {
  /** The sequence number. */
  seq: bigint;
  /** Calendar date of the call, in the sequence's time zone. */
  date: SequenceDateParts;
  /** The explicit scope of the call, if any. */
  scope?: string;
}

type Segment =
  { kind: 'text'; text: string } | { kind: 'seq'; width: number } | { kind: 'YYYY' | 'YY' | 'MM' | 'DD' | 'scope' };

const HELP =
  'Use {seq}, {seq:N} (zero-padded to N digits), {YYYY}, {YY}, {MM}, {DD} or {scope}; write {{ and }} for literal braces.';

/**
 * A parsed sequence format such as `ORD-{YYYY}-{seq:6}` → `ORD-2026-000042`.
 *
 * Tokens: `{seq}` the number, `{seq:N}` the number zero-padded to N digits
 * (1–32; a wider number is printed in full, never truncated, so formatted
 * values stay unique), `{YYYY}` `{YY}` `{MM}` `{DD}` the date of the call in the
 * sequence's time zone, `{scope}` the explicit scope. `{{` and `}}` are literal
 * braces; everything else is literal text. At least one `{seq}` is required,
 * otherwise every number would format to the same text.
 *
 * Parsing happens once, when the sequence is defined, so a bad pattern fails
 * at module init or `define()`, not on the first order of the day.
 */
export class SequenceFormat {
  private constructor(
    /** The pattern as written. */
    readonly pattern: string,
    private readonly segments: readonly Segment[],
  ) {}

  /** Whether the pattern contains `{scope}`, which then must be given on every call. */
  get usesScope(): boolean {
    return this.segments.some((s) => s.kind === 'scope');
  }

  /**
   * Parses `pattern`.
   * @throws SequenceFormatError naming the bad token and its 0-based index.
   */
  static parse(pattern: string): SequenceFormat {
    if (typeof pattern !== 'string') {
      throw new SequenceFormatError(
        `Sequence format must be a string, got ${typeof pattern}. ${HELP}`,
        String(pattern),
        String(pattern),
        0,
      );
    }
    const segments: Segment[] = [];
    let text = '';
    let i = 0;
    const fail = (message: string, token: string, index: number): never => {
      throw new SequenceFormatError(
        `Invalid sequence format "${pattern}": ${message} at index ${index}. ${HELP}`,
        pattern,
        token,
        index,
      );
    };
    while (i < pattern.length) {
      const ch = pattern[i];
      if (ch === '{' && pattern[i + 1] === '{') {
        text += '{';
        i += 2;
      } else if (ch === '}' && pattern[i + 1] === '}') {
        text += '}';
        i += 2;
      } else if (ch === '}') {
        fail('unmatched "}"', '}', i);
      } else if (ch === '{') {
        const end = pattern.indexOf('}', i + 1);
        const nextOpen = pattern.indexOf('{', i + 1);
        if (end === -1 || (nextOpen !== -1 && nextOpen < end)) {
          fail('unclosed "{"', '{', i);
        }
        const token = pattern.slice(i, end + 1);
        const segment = SequenceFormat.token(token.slice(1, -1));
        if (segment === undefined) {
          fail(`unknown token "${token}"`, token, i);
        } else if (
          segment.kind === 'seq' &&
          segment.width !== 0 &&
          !(segment.width >= 1 && segment.width <= SEQUENCE_MAX_PAD_WIDTH)
        ) {
          fail(`padding width of "${token}" must be an integer from 1 to ${SEQUENCE_MAX_PAD_WIDTH}`, token, i);
        } else {
          if (text) segments.push({ kind: 'text', text });
          text = '';
          segments.push(segment);
        }
        i = end + 1;
      } else {
        text += ch;
        i += 1;
      }
    }
    if (text) segments.push({ kind: 'text', text });
    if (!segments.some((s) => s.kind === 'seq')) {
      throw new SequenceFormatError(
        `Invalid sequence format "${pattern}": it has no {seq} token, so every number would format to the same text. ${HELP}`,
        pattern,
        '',
        pattern.length,
      );
    }
    return new SequenceFormat(pattern, segments);
  }

  private static token(body: string): Segment | undefined {
    // width 0 means no padding; -1 marks an invalid width, reported by parse() with the token's index.
    if (body === 'seq') return { kind: 'seq', width: 0 };
    const padded = /^seq:(\d{1,3})$/.exec(body);
    if (padded) return { kind: 'seq', width: Number(padded[1]) || -1 };
    if (body.startsWith('seq:')) return { kind: 'seq', width: -1 };
    if (body === 'YYYY' || body === 'YY' || body === 'MM' || body === 'DD' || body === 'scope') return { kind: body };
    return undefined;
  }

  /** Fills the tokens. */
  render(values: SequenceFormatValues): string {
    let out = '';
    for (const segment of this.segments) {
      switch (segment.kind) {
        case 'text':
          out += segment.text;
          break;
        case 'seq':
          out += SequenceFormat.pad(values.seq, segment.width);
          break;
        case 'YYYY':
          out += values.date.year;
          break;
        case 'YY':
          out += values.date.year.slice(-2);
          break;
        case 'MM':
          out += values.date.month;
          break;
        case 'DD':
          out += values.date.day;
          break;
        case 'scope':
          out += values.scope ?? '';
          break;
      }
    }
    return out;
  }

  private static pad(value: bigint, width: number): string {
    const digits = (value < 0n ? -value : value).toString().padStart(width, '0');
    return value < 0n ? `-${digits}` : digits;
  }
}
