/**
 * `$dateFromString`'s parsing, as mongod 7 does it (TimeZoneDatabase::fromString
 * in date_time_support.cpp): without a format timelib_strtotime reads the
 * string, with one timelib_parse_from_format_with_map reads it by mongod's
 * format map. Any timelib error or warning fails the expression; then a
 * missing time is midnight, a missing date part fails, and a zone in the
 * string excludes a `timezone` argument.
 *
 * timelib_strtotime is an re2c scanner: at each position the longest of its
 * token shapes wins (the first listed on a tie) and that token's action sets
 * fields. It is reproduced over the string's UTF-8 bytes for the shapes dates
 * are written in (ISO 8601, SQL, RFC 2822, US and European dates, month and
 * day names, am/pm, offsets, abbreviations, `@` timestamps). Relative phrases
 * (`+1 day`) are recognised, so never misread, and refused: their arithmetic
 * is not ported. The shapes are bounded or single runs, memoised per position,
 * and scanning stops once a message is full, so hostile strings cost linear time.
 */
import { CommandError } from '../commands/command-error.js';
import {
  civilFromDays,
  dateFromIsoWeek,
  daysFromCivil,
  daysInMonth,
  isoDayOfWeek,
  TimeZone,
} from './date-time-zones.js';

/** timelib's marker of a field the string did not set; mongod tests the fields against it. */
const UNSET = -9_999_999;
const [ZONE_OFFSET, ZONE_ABBR] = [1, 2];
/** The bounds of a JavaScript Date, which the server's dates are. */
const MAX_MS = 8.64e15;
/** Errors and warnings kept (and reported) each: a hostile string can hold one per byte. */
const MAX_REPORTED = 100;
/** mongod's words for timelib's TIMELIB_ERR_TZID_NOT_FOUND: it never looks identifiers up. */
const TZID_NOT_FOUND = 'passing a time zone identifier as part of the string is not allowed';

const utf8 = new TextEncoder();
const latin1 = new TextDecoder('latin1');
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** C's isspace. */
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);
const text = (b: Uint8Array, from: number, to: number): string => latin1.decode(b.subarray(from, to));
/** A byte of the text, or the NUL timelib's copy of it ends with. */
const byteAt = (b: Uint8Array, i: number): number => b[i] ?? 0;

// === Token shapes: the ends of a shape's matches from a position (the scanner keeps the longest).

interface Pat {
  readonly ends: (b: Uint8Array, i: number) => number[];
  /** The bytes a match can start with, so that most shapes are skipped at once. */
  readonly first: Uint8Array;
  readonly nullable: boolean;
  /** A one-byte class: repeated, it is a run of bytes. */
  readonly single?: boolean;
}
type Part = Pat | string;

const toPat = (p: Part): Pat => (typeof p === 'string' ? lits([p], false) : p);
const run = (p: Pat, b: Uint8Array, i: number): number[] => (p.nullable || p.first[byteAt(b, i)] ? p.ends(b, i) : []);

/** One byte of a class written as re2c writes one (`a-z` ranges, `\0` the NUL after the text). */
function cls(spec: string): Pat {
  const first = new Uint8Array(256);
  for (let k = 0; k < spec.length; k++) {
    const range = spec[k + 1] === '-' && k + 2 < spec.length;
    for (let c = spec.charCodeAt(k); c <= spec.charCodeAt(range ? k + 2 : k); c++) first[c] = 1;
    if (range) k += 2;
  }
  return { ends: (b, i) => (first[byteAt(b, i)] ? [i + 1] : []), first, nullable: false, single: true };
}

/** Literals (`\xNN` for bytes); `caseless` as re2c's '…' strings (given in lower case). */
function lits(words: string[], caseless: boolean): Pat {
  const codes = words.map((w) => Array.from(w, (c) => c.charCodeAt(0)));
  const first = new Uint8Array(256);
  for (const [c] of codes) first[c!] = first[caseless ? String.fromCharCode(c!).toUpperCase().charCodeAt(0) : c!] = 1;
  const lower = (c: number): number => (caseless && c >= 65 && c <= 90 ? c + 32 : c);
  const ends = (b: Uint8Array, i: number): number[] => {
    const out: number[] = [];
    for (const w of codes) if (w.every((code, k) => lower(byteAt(b, i + k)) === code)) out.push(i + w.length);
    return out;
  };
  return { ends, first, nullable: false };
}
const words = (...ws: string[]): Pat => lits(ws, true);

function alt(...parts: Part[]): Pat {
  const ps = parts.map(toPat);
  const ends = (b: Uint8Array, i: number): number[] => {
    const out: number[] = [];
    for (const p of ps) out.push(...run(p, b, i));
    return out;
  };
  const first = new Uint8Array(256).map((_, c) => (ps.some((p) => p.first[c]) ? 1 : 0));
  return { ends, first, nullable: ps.some((p) => p.nullable) };
}

function seq(...parts: Part[]): Pat {
  const ps = parts.map(toPat);
  const ends = (b: Uint8Array, i: number): number[] => {
    let ends = [i];
    for (const p of ps) {
      const next = new Set<number>();
      for (const e of ends) for (const n of run(p, b, e)) next.add(n);
      if ((ends = [...next]).length === 0) break;
    }
    return ends;
  };
  const lead = ps.slice(0, ps.findIndex((p) => !p.nullable) + 1 || ps.length);
  return { ends, first: alt(...lead).first, nullable: ps.every((p) => p.nullable) };
}

/** `min` to `max` repetitions (each end once: no repeated shape here needs a position twice). */
function rep(part: Part, min: number, max = Infinity): Pat {
  const p = toPat(part);
  const ends = (b: Uint8Array, i: number): number[] => {
    const out: number[] = [];
    if (p.single) {
      let n = 0;
      while (n < max && p.first[byteAt(b, i + n)]) n++;
      for (let k = min; k <= n; k++) out.push(i + k);
      return out;
    }
    const seen = new Set([i]);
    if (min === 0) out.push(i);
    for (let n = 1, frontier = [i]; n <= max && frontier.length > 0; n++) {
      frontier = frontier.flatMap((e) => run(p, b, e)).filter((e) => !seen.has(e) && seen.add(e));
      if (n >= min) out.push(...frontier);
    }
    return out;
  };
  return { ends, first: p.first, nullable: min === 0 || p.nullable };
}
const opt = (p: Part): Pat => rep(p, 0, 1);
const star = (p: Part): Pat => rep(p, 0);
const plus = (p: Part): Pat => rep(p, 1);

/** Remembers its last match: at one position many rules try the same shapes. */
function memo(p: Pat): Pat {
  let [lastB, lastI, last]: [Uint8Array, number, number[]] = [new Uint8Array(0), -1, []];
  const ends = (b: Uint8Array, i: number): number[] =>
    b === lastB && i === lastI ? last : ([lastB, lastI, last] = [b, i, p.ends(b, i)])[2];
  return { ...p, ends };
}

function longest(p: Pat, b: Uint8Array, i: number): number {
  let best = 0;
  for (const e of run(p, b, i)) best = Math.max(best, e - i);
  return best;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const ROMAN = 'i ii iii iv v vi vii viii ix x xi xii'.split(' ');

const d09 = cls('0-9');
const space = memo(alt(plus(cls(' \t')), plus('\xc2\xa0'), plus('\xe2\x80\xaf')));
const tee = words('t');
const frac = seq('.', plus(d09));
const hour24 = memo(alt(seq(opt(cls('01')), d09), seq('2', cls('0-4'))));
const hour24lz = alt(seq(cls('01'), d09), seq('2', cls('0-4')));
const hour12 = memo(alt(seq(opt('0'), cls('1-9')), seq('1', cls('0-2'))));
const minute = seq(opt(cls('0-5')), d09);
const minutelz = seq(cls('0-5'), d09);
const second = alt(minute, '60');
const secondlz = alt(minutelz, '60');
const meridian = seq(cls('AaPp'), opt('.'), cls('Mm'), opt('.'), cls('\0\t '));
const tzName = seq(cls('A-Z'), plus(cls('a-z')), plus(seq(cls('_/-'), plus(cls('A-Za-z')))));
const tz = memo(alt(seq(opt('('), rep(cls('A-Za-z'), 1, 6), opt(')')), tzName));
const offsetDigits = alt(seq(hour24, opt(seq(opt(':'), minute))), seq(hour24lz, minutelz, secondlz));
const tzcorrection = memo(seq(opt('GMT'), cls('+-'), alt(offsetDigits, seq(hour24lz, ':', minutelz, ':', secondlz))));
const month = alt(seq(opt('0'), d09), seq('1', cls('0-2')));
const day = memo(seq(alt(seq(opt(cls('0-2')), d09), seq('3', cls('01'))), opt(alt('st', 'nd', 'rd', 'th'))));
const year = rep(d09, 1, 4);
const year2 = rep(d09, 2, 2);
const year4 = memo(rep(d09, 4, 4));
const monthlz = alt(seq('0', d09), seq('1', cls('0-2')));
const daylz = alt(seq('0', d09), seq(cls('12'), d09), seq('3', cls('01')));
const dayOfYear = alt(
  seq('00', cls('1-9')),
  seq('0', cls('1-9'), d09),
  seq(cls('12'), d09, d09),
  seq('3', cls('0-5'), d09),
);
const weekOfYear = alt(seq('0', cls('1-9')), seq(cls('1-4'), d09), seq('5', cls('0-3')));
const daytext = words(...WEEKDAYS.flatMap((w) => [`${w}s`, w, w.slice(0, 3)]), 'weekday', 'weekdays');
const monthNames = words(...MONTHS, ...MONTHS.map((m) => m.slice(0, 3)), 'sept');
const monthabbr = words(...MONTHS.map((m) => m.slice(0, 3)), 'sept');
const romanMonth = lits(
  ROMAN.map((r) => r.toUpperCase()),
  false,
);
const monthtext = memo(alt(monthNames, romanMonth));
const seps = star(cls(' .\t-'));
const daySeps = plus(cls(',.stndrh\t '));
const datenoyear = memo(seq(monthtext, seps, day, alt(daySeps, cls('\0'))));
const clock = (h: Pat, m: Pat, s?: Pat): Pat => seq(h, cls(':.'), m, ...(s ? [cls(':.'), s] : []));
const timeshort12 = seq(clock(hour12, minutelz), opt(space), meridian);
const timelong12 = seq(clock(hour12, minute, secondlz), opt(space), meridian);
const timeshort24 = seq(opt(tee), clock(hour24, minute));
const timelong24 = seq(opt(tee), clock(hour24, minute, second));
const iso8601normtz = seq(opt(tee), clock(hour24, minute, secondlz), opt(space), alt(tzcorrection, tz));
const units = 'msec millisecond \xc2\xb5sec microsecond usec sec second min minute hour day fortnight forthnight';
const relunit = alt(
  words('ms', '\xc2\xb5s', 'weeks', 'week'),
  seq(words(...units.split(' '), 'month', 'year'), opt(words('s'))),
  daytext,
);
// timelib allows a run of signs; one tells a relative phrase (more fail as unexpected characters anyway).
const relative = seq(opt(cls('+-')), star(cls(' \t')), rep(d09, 1, 13), opt(space), relunit);

// === The fields (timelib_time as mongod reads it) and timelib's readers of a token.

type Issue = { readonly pos: number; readonly ch: number; readonly msg: string };

/** The parsed fields, with timelib's cursor (`ptr`) over a NUL-terminated copy of the token or, by format, the text. */
class Scan {
  y = UNSET;
  m = UNSET;
  d = UNSET;
  h = UNSET;
  min = UNSET;
  s = UNSET;
  us = UNSET;
  /** The ISO year, week and day of a format's %G, %V and %u. */
  isoY = UNSET;
  isoW = UNSET;
  isoD = UNSET;
  /** The string's zone: seconds east of UTC (ZONE_OFFSET), or also an abbreviation (ZONE_ABBR). */
  z = 0;
  zoneType = 0;
  abbr = '';
  hasTime = 0;
  hasDate = 0;
  hasZone = 0;
  hasRelative = false;
  relD = 0;
  relS = 0;
  relUs = 0;
  /** 0 (Sunday) … 6 of a day name: the date moves forward to that day. */
  weekday = -1;
  /** Where the token starts (timelib reports a token's errors there), the cursor, the token's end. */
  tok = 0;
  pos = 0;
  end = 0;
  /** Digits the last nr() read. */
  len = 0;
  readonly errors: Issue[] = [];
  readonly warnings: Issue[] = [];

  constructor(readonly b: Uint8Array) {}

  issue(list: Issue[], msg: string, pos = this.tok): void {
    if (list.length < MAX_REPORTED) list.push({ pos, ch: byteAt(this.b, pos), msg });
  }
  readonly error = (msg: string): void => this.issue(this.errors, msg);

  // timelib's TIMELIB_HAVE_* / UNHAVE_* macros: a second time, date or zone fails its token.
  haveTime(): boolean {
    if (!this.hasTime) return (this.unhaveTime(1), true);
    return (this.error('Double time specification'), false);
  }
  unhaveTime(hasTime = 0): void {
    this.hasTime = hasTime;
    this.h = this.min = this.s = this.us = 0;
  }
  haveDate(): boolean {
    if (!this.hasDate) return ((this.hasDate = 1), true);
    return (this.error('Double date specification'), false);
  }
  haveTz(): boolean {
    if (this.hasZone++) this.issue(this.hasZone > 2 ? this.errors : this.warnings, 'Double timezone specification');
    return this.hasZone === 1;
  }

  at(k = 0): number {
    return this.pos + k < this.end ? byteAt(this.b, this.pos + k) : 0;
  }
  /** Moves past the bytes `ok` accepts, up to the terminating NUL. */
  skip(ok: (c: number) => boolean): void {
    while (this.at() && ok(this.at())) this.pos++;
  }
  /** timelib_get_nr_ex: up to `max` digits after any non-digits; UNSET at the end. */
  nr(max: number): number {
    this.skip((c) => !isDigit(c));
    const from = this.pos;
    while (isDigit(this.at()) && this.pos - from < max) this.pos++;
    this.len = this.pos - from;
    return this.len ? Number(text(this.b, from, this.pos)) : UNSET;
  }
  /** timelib_get_signed_nr: a sign and up to `max` digits, within int64. */
  signed(max: number): number {
    this.skip((c) => !isDigit(c) && c !== 43 && c !== 45);
    const negative = this.at() === 45;
    if (this.at() === 43 || negative) this.pos++;
    this.skip((c) => !isDigit(c));
    if (!this.at()) return (this.error('Found unexpected data'), 0);
    const from = this.pos;
    while (isDigit(this.at()) && this.pos - from < max) this.pos++;
    const value = BigInt(text(this.b, from, this.pos)) * (negative ? -1n : 1n);
    return value === BigInt.asIntN(64, value) ? Number(value) : (this.error('Number out of range'), 0);
  }
  /** timelib_get_frac_nr: microseconds from a run of `.`, `:` and digits, scaled by its length. */
  frac(): number {
    const inRun = (c: number): boolean => c === 46 || c === 58 || isDigit(c);
    this.skip((c) => !inRun(c));
    const from = this.pos;
    while (inRun(this.at())) this.pos++;
    const scaled = (parseFloat(text(this.b, from + 1, this.pos)) || 0) * 10 ** (7 - (this.pos - from));
    return Number.isFinite(scaled) ? Math.trunc(scaled) : 0;
  }
  /** timelib_lookup_month: the month the letters at the cursor name (Roman numerals too), 0 if none. */
  month(): number {
    const from = this.pos;
    this.skip((c) => /[A-Za-z]/.test(String.fromCharCode(c)));
    const word = text(this.b, from, this.pos).toLowerCase();
    const named = MONTHS.findIndex((m) => m === word || m.slice(0, 3) === word);
    return named >= 0 ? named + 1 : word === 'sept' ? 9 : ROMAN.indexOf(word) + 1;
  }
  /** timelib_get_month: the month after separators. */
  skipToMonth(): number {
    this.skip((c) => ' \t-./'.includes(String.fromCharCode(c)));
    return this.month();
  }
  eatSpaces(): void {
    for (let n = 1; n; this.pos += n) {
      const [c, c1, c2] = [this.at(), this.at(1), this.at(2)];
      n = c === 32 || c === 9 ? 1 : c === 0xc2 && c1 === 0xa0 ? 2 : c === 0xe2 && c1 === 0x80 && c2 === 0xaf ? 3 : 0;
    }
  }
  skipDaySuffix(): void {
    const two = String.fromCharCode(this.at(), this.at(1)).toLowerCase();
    if (!isSpace(this.at()) && ['nd', 'rd', 'st', 'th'].includes(two)) this.pos += 2;
  }
  /** timelib_meridian: the hours the am/pm (always the token's end) adds to `h`. */
  meridian(h: number): number {
    this.skip((c) => !'AaPp'.includes(String.fromCharCode(c)));
    return (this.at() | 32) === 97 ? (h === 12 ? -12 : 0) : h === 12 ? 0 : 12;
  }
}

/** The abbreviations timelib knows, with their offsets in seconds (the first of each name in its table). */
const ABBREVIATIONS = new Map<string, number>(
  `acdt+37800 acst+34200 addt-7200 adt-10800 aedt+39600 aest+36000 ahdt-32400 ahst-36000 akdt-28800 akst-32400
  amt-13840 apt-10800 ast-14400 awdt+32400 awst+28800 awt-10800 bdst+7200 bdt-36000 bmt-14309 bst+3600 cast+34200
  cat+7200 cddt-14400 cdt-18000 cemt+10800 cest+7200 cet+3600 cmt-15408 cpt-18000 cst-21600 cwt-18000 chst+36000
  dmt-1521 eat+10800 eddt-10800 edt-14400 eest+10800 eet+7200 emt-26248 ept-14400 est-18000 ewt-14400 ffmt-14660
  fmt-4056 gdt+39600 gmt+0 gst+36000 hdt-34200 hkst+32400 hkt+28800 hmt-19776 hpt-34200 hst-36000 hwt-34200
  iddt+14400 idt+10800 imt+25025 ist+7200 jdt+36000 jmt+8440 jst+32400 kdt+36000 kmt+5736 kst+30600 lst+9394
  mddt-18000 mdst+16279 mdt-21600 mest+7200 met+3600 mmt+9017 mpt-21600 msd+14400 msk+10800 mst-25200 mwt-21600
  nddt-5400 ndt-9052 npt-9000 nst-12600 nwt-9000 nzdt+46800 nzmt+41400 nzst+43200 pddt-21600 pdt-25200 pkst+21600
  pkt+18000 plmt+25590 pmt-13236 ppmt-17340 ppt-25200 pst-28800 pwt-25200 qmt-18840 rmt+5794 sast+7200 sdmt-16800
  sjmt-20173 smt-13884 sst-39600 tbmt+10751 tmt+12344 uct+0 utc+0 wast+7200 wat+3600 wemt+7200 west+3600 wet+0
  wib+25200 wita+28800 wit+32400 wmt+5040 yddt-25200 ydt-28800 ypt-28800 yst-32400 ywt-28800`
    .split(/\s+/)
    .map((e): [string, number] => [e.replace(/[+-].*/, ''), Number(e.replace(/^[a-z]+/, ''))])
    // The military zones: A–I are UTC+1…+9, K–M +10…+12, N–Y −1…−12, Z is UTC.
    .concat([...'abcdefghiklmnopqrstuvwxyz'].map((c, k) => [c, (k < 12 ? k + 1 : k < 24 ? 11 - k : 0) * 3600])),
);

/** timelib_parse_tz_cor: `H`, `HH`, `H:M`, `HHMM`, `HH:MM`, `HHMMSS`, `HH:MM:SS` in seconds; undefined otherwise. */
function tzCorrection(t: Scan): number | undefined {
  const from = t.pos;
  t.skip((c) => isDigit(c) || c === 58);
  const colon = (k: number): boolean => t.b[from + k] === 58;
  // strtol of the copy: digits up to a colon.
  const num = (k: number): number => Number(/^\d*/.exec(text(t.b, from + k, t.pos))![0]);
  const hm = (h: number, m: number, s = 0): number => h * 3600 + m * 60 + s;
  const n = t.pos - from;
  if (n === 1 || n === 2) return hm(num(0), 0);
  if (n === 3 || n === 4) {
    return colon(1) || colon(2) ? hm(num(0), num(colon(1) ? 2 : 3)) : hm(Math.trunc(num(0) / 100), num(0) % 100);
  }
  if (n === 5) return colon(2) ? hm(num(0), num(3)) : undefined;
  if (n === 6) return hm(Math.trunc(num(0) / 10000), Math.trunc(num(0) / 100) % 100, num(0) % 100);
  return n === 8 && colon(2) && colon(5) ? hm(num(0), num(3), num(6)) : undefined;
}

/** timelib_parse_zone: an offset (`+hh:mm`, `GMT-2`) or an abbreviation; false when there is none. */
function parseZone(t: Scan): boolean {
  t.skip((c) => c === 32 || c === 9 || c === 40);
  if (t.at() === 71 && t.at(1) === 77 && t.at(2) === 84 && (t.at(3) === 43 || t.at(3) === 45)) t.pos += 3;
  let found: boolean;
  if (t.at() === 43 || t.at() === 45) {
    const sign = t.at() === 45 ? -1 : 1;
    t.pos++;
    const seconds = tzCorrection(t);
    [t.zoneType, t.z, found] = [ZONE_OFFSET, seconds ? sign * seconds : 0, seconds !== undefined];
  } else {
    const from = t.pos;
    t.skip((c) => /[A-Za-z0-9/_+-]/.test(String.fromCharCode(c)));
    const word = text(t.b, from, t.pos);
    // Names of 6 characters or more are time zone identifiers, which mongod's lookup never finds.
    const offset = word.length < 6 ? ABBREVIATIONS.get(word.toLowerCase()) : undefined;
    if (offset !== undefined) [t.zoneType, t.z, t.abbr] = [ZONE_ABBR, offset, word.toUpperCase()];
    found = offset !== undefined;
  }
  t.skip((c) => c === 41);
  return found;
}
const zoneOrError = (t: Scan): void => void (parseZone(t) || t.error(TZID_NOT_FOUND));

/** timelib's TIMELIB_PROCESS_YEAR: a year of one or two digits is 1970–2069. */
const century = (y: number, digits: number): number =>
  y === UNSET || digits >= 4 || y >= 100 ? y : y + (y < 70 ? 2000 : 1900);

// === timelib_strtotime's rules, in its order (which breaks ties between equally long tokens).

type Action = (t: Scan) => void;
const isClockSep = (t: Scan): boolean => t.at() === 58 || t.at() === 46;

/** Hours; minutes, seconds and a fraction each after `:` or `.`; then am/pm when `twelve`. */
const clockAction =
  (twelve: boolean): Action =>
  (t) => {
    if (!t.haveTime()) return;
    t.h = t.nr(2);
    // Each test fails where the one before did: the cursor has not moved.
    if (isClockSep(t)) t.min = t.nr(2);
    if (isClockSep(t)) t.s = t.nr(2);
    if (isClockSep(t)) t.us = t.frac();
    if (twelve) t.h += t.meridian(t.h);
  };

/** `@seconds[.fraction]`: the epoch plus that many seconds, at UTC. */
const timestamp: Action = (t) => {
  t.hasRelative = true;
  t.hasDate = t.y = t.m = t.d = 0;
  t.unhaveTime();
  if (!t.haveTz()) return;
  const negative = t.at(1) === 45;
  t.relS += t.signed(24);
  const before = t.pos;
  if (t.at() === 46) t.relUs = Math.trunc(t.signed(6) * 10 ** (7 - (t.pos - before))) * (negative ? -1 : 1);
  [t.y, t.m, t.d, t.zoneType, t.z] = [1970, 1, 1, ZONE_OFFSET, 0];
};

/**
 * A date's fields in order: `y` a year of `yearDigits` (short ones get their
 * century), `Y`/`X` a signed year of 4/19 digits, `m`/`d` two digits, `j`
 * three, `M` a month name, `D` a day and its suffix, `1`/`J` a day/month of 1.
 */
const date =
  (order: string, yearDigits = 4): Action =>
  (t) => {
    if (!t.haveDate()) return;
    let digits = 4;
    for (const f of order) {
      if (f === 'y') [t.y, digits] = [t.nr(yearDigits), t.len];
      else if (f === 'Y' || f === 'X') t.y = t.signed(f === 'Y' ? 4 : 19);
      else if (f === 'M') t.m = t.skipToMonth();
      else if (f === 'm' || f === 'J') t.m = f === 'J' ? 1 : t.nr(2);
      else t.d = f === '1' ? 1 : t.nr(f === 'j' ? 3 : 2);
      if (f === 'D') t.skipDaySuffix();
    }
    t.y = century(t.y, digits);
  };

/** ISO week dates: January 1st moved by the week's days (timelib_daynr_from_weeknr). */
const isoWeek =
  (withDay: boolean): Action =>
  (t) => {
    if (!t.haveDate()) return;
    t.hasRelative = true;
    const [y, week, dow] = [t.nr(4), t.nr(2), withDay ? t.nr(1) : 1];
    [t.y, t.m, t.d, t.relD] = [y, 1, 1, dateFromIsoWeek(y, week, dow) - daysFromCivil(y, 1, 1)];
  };

/** Dates written with their time (xmlrpc, soap, wddx, exif): then a fraction, and after it a zone. */
const dateTime: Action = (t) => {
  if (!t.haveTime() || !t.haveDate()) return;
  [t.y, t.m, t.d, t.h, t.min, t.s] = [t.nr(4), t.nr(2), t.nr(2), t.nr(2), t.nr(2), t.nr(2)];
  if (t.at() !== 46) return;
  t.us = t.frac();
  if (t.at()) zoneOrError(t);
};

/** A month name and day, then a time, then am/pm or a zone. */
const shortDateTime =
  (twelve: boolean): Action =>
  (t) => {
    if (!t.haveDate()) return;
    [t.m, t.d] = [t.skipToMonth(), t.nr(2)];
    if (!t.haveTime()) return;
    [t.h, t.min] = [t.nr(2), t.nr(2)];
    if (t.at() === 58 || (twelve && t.at() === 46)) {
      t.s = t.nr(2);
      if (t.at() === 46) t.us = t.frac();
    }
    if (twelve) t.h += t.meridian(t.h);
    else if (t.at()) zoneOrError(t);
  };

const RULES: [Pat, Action][] = [
  [
    words('yesterday', 'tomorrow'),
    (t) => (t.unhaveTime(), (t.hasRelative = true), (t.relD = (t.at() | 32) === 121 ? -1 : 1)),
  ],
  [words('now'), () => undefined],
  [words('noon'), (t) => (t.unhaveTime(1), (t.h = 12))],
  [words('midnight', 'today'), (t) => t.unhaveTime()],
  [seq('@', opt('-'), plus(d09)), timestamp],
  [seq('@', opt('-'), plus(d09), '.', rep(d09, 0, 6)), timestamp],
  [alt(seq(hour12, opt(space), meridian), timeshort12, timelong12), clockAction(true)],
  [seq(clock(hour12, minutelz, secondlz), cls(':.'), plus(d09), meridian), clockAction(true)],
  [alt(seq(tee, hour24), timeshort24, timelong24, seq(timelong24, frac)), clockAction(false)],
  [
    seq(opt(tee), hour24lz, minutelz),
    (t) => {
      // gnunocolon: `hhmm` is a time (its microseconds left unset), after a time a year.
      if (t.hasTime > 1) return t.error('Double time specification');
      if (t.hasTime++) t.y = t.nr(4);
      else [t.h, t.min, t.s] = [t.nr(2), t.nr(2), 0];
    },
  ],
  [
    seq(opt(tee), hour24lz, minutelz, secondlz),
    (t) => t.haveTime() && ([t.h, t.min, t.s] = [t.nr(2), t.nr(2), t.nr(2)]),
  ],
  [
    seq(month, '/', day, opt(seq('/', year))),
    (t) => {
      if (!t.haveDate()) return;
      [t.m, t.d] = [t.nr(2), t.nr(2)];
      if (t.at() === 47) t.y = century(t.nr(4), t.len);
    },
  ],
  [
    alt(seq(opt(cls('+-')), year4, '-', monthlz, '-', daylz), seq(year4, '/', monthlz, '/', daylz, opt('/'))),
    date('Ymd'),
  ],
  [seq(year4, '/', month, '/', day), date('Ymd')],
  [seq(year2, '-', monthlz, '-', daylz), date('ymd')],
  [seq(cls('+-'), rep(d09, 5, 19), '-', monthlz, '-', daylz), date('Xmd')],
  [seq(year4, '-', month), date('ym1')],
  [seq(year, '-', month, '-', day), date('ymd')],
  [seq(day, seps, monthtext, seps, year), date('DMy')],
  [seq(day, cls('.\t-'), month, cls('.-'), year4), date('dmy')],
  [seq(day, cls('.\t'), month, '.', year2), date('dmy', 2)],
  [seq(monthtext, seps, year4), date('My1')],
  [seq(year4, seps, monthtext), date('yM1')],
  [alt(seq(monthtext, seps, day, daySeps, year), datenoyear), date('Mdy')],
  [seq(day, seps, monthtext), date('DM')],
  [seq(year4, monthlz, daylz), date('ymd')],
  [
    alt(
      seq(year4, monthlz, daylz, 'T', hour24, ':', minutelz, ':', secondlz),
      seq(year4, monthlz, daylz, tee, hour24, minutelz, secondlz),
      seq(year4, '-', monthlz, '-', daylz, 'T', hour24lz, ':', minutelz, ':', secondlz, frac, opt(tzcorrection)),
      seq(year4, '-', month, '-', day, 'T', hour24, ':', minute, ':', second),
      seq(year4, ':', monthlz, ':', daylz, ' ', hour24lz, ':', minutelz, ':', secondlz),
    ),
    dateTime,
  ],
  [seq(year4, opt(cls('.-')), alt(dayOfYear, seq('36', cls('0-6')))), date('yjJ')],
  [seq(year4, opt('-'), 'W', weekOfYear, opt('-'), cls('0-7')), isoWeek(true)],
  [seq(year4, opt('-'), 'W', weekOfYear), isoWeek(false)],
  [seq(monthabbr, '-', daylz, '-', year), date('Mdy')],
  [seq(year, '-', monthabbr, '-', daylz), date('yMd')],
  [
    // Common Log Format: `10/Oct/2000:13:55:36 -0700`.
    seq(day, '/', monthabbr, '/', year4, ':', hour24lz, ':', minutelz, ':', secondlz, space, tzcorrection),
    (t) => {
      if (!t.haveTime() || !t.haveDate()) return;
      [t.d, t.m, t.y, t.h, t.min, t.s] = [t.nr(2), t.skipToMonth(), t.nr(4), t.nr(2), t.nr(2), t.nr(2)];
      t.eatSpaces();
      zoneOrError(t);
    },
  ],
  [year4, (t) => (t.y = t.nr(4))],
  [
    daytext,
    (t) => {
      [t.hasRelative, t.weekday] = [
        true,
        WEEKDAYS.findIndex((w) => w.startsWith(text(t.b, t.pos, t.pos + 3).toLowerCase())),
      ];
      // timelib's unit table gives "weekday" the value of Monday.
      if (t.weekday < 0) t.weekday = 1;
      t.unhaveTime();
    },
  ],
  [monthNames, (t) => t.haveDate() && (t.m = t.month())],
  [alt(tzcorrection, tz), (t) => t.haveTz() && (t.eatSpaces(), zoneOrError(t))],
  [alt(seq(datenoyear, timeshort12), seq(datenoyear, timelong12)), shortDateTime(true)],
  [
    alt(seq(datenoyear, timeshort24), seq(datenoyear, timelong24), seq(datenoyear, iso8601normtz)),
    shortDateTime(false),
  ],
  [relative, (t) => t.error('Relative date/time expressions are not supported')],
];
/** The rules that can start with each byte. */
const RULES_BY_FIRST = Array.from({ length: 256 }, (_, c) => RULES.flatMap(([p], r) => (p.first[c] ? [r] : [])));
/** What timelib skips after its rules: spaces, `.`, `,`, NUL and newline (any other byte is unexpected). */
const SKIPPED = alt(space, cls('.,\0\n'));

const validTime = (t: Scan): boolean => t.h >= 0 && t.h <= 23 && t.min >= 0 && t.min <= 59 && t.s >= 0 && t.s <= 59;
const validDate = (t: Scan): boolean => t.m >= 1 && t.m <= 12 && t.d >= 1 && t.d <= daysInMonth(t.y, t.m);

/** timelib_strtotime: the string, trimmed, cut into the longest tokens, each token's action run. */
function strtotime(bytes: Uint8Array): Scan {
  let [from, to] = [0, bytes.length - 1];
  while (from < to && isSpace(bytes[from]!)) from++;
  while (to > from && isSpace(bytes[to]!)) to--;
  const t = new Scan(bytes.subarray(from, to + 1));
  if (to < from) t.issue(t.errors, 'Empty string', 0);
  // Past the errors a message lists, the answer is that message whatever follows: a hostile string stops there.
  for (let pos = 0; pos < t.b.length && t.errors.length < MAX_REPORTED;) {
    let [best, rule] = [0, 0];
    for (const r of RULES_BY_FIRST[t.b[pos]!]!) {
      const n = longest(RULES[r]![0], t.b, pos);
      if (n > best) [best, rule] = [n, r];
    }
    const skip = longest(SKIPPED, t.b, pos);
    [t.tok, t.pos, t.end] = [pos, pos, pos + Math.max(best, skip, 1)];
    if (best > 0 && best >= skip) RULES[rule]![1](t);
    else if (!skip) t.error('Unexpected character');
    pos = t.end;
  }
  // The scanner ends one byte past the text's terminating NUL: the checks report there.
  t.tok = t.b.length + 1;
  if (t.hasTime && !validTime(t)) t.issue(t.warnings, 'The parsed time was invalid');
  if (t.hasDate && !validDate(t)) t.issue(t.warnings, 'The parsed date was invalid');
  return t;
}

// === timelib_parse_from_format_with_map, with mongod's map: `%` then b B d G H j L m M S u V Y z Z, or `%%`.

/**
 * Specifiers read as numbers: digits, timelib's name for them, the field. A
 * non-digit is reported first except before ISO fields; fields but minutes,
 * seconds, day of year and milliseconds are stored before they are checked.
 */
const NUMERIC: Record<string, [number, string, NumericField]> = {
  d: [2, 'two digit day', 'd'],
  m: [2, 'two digit month', 'm'],
  Y: [4, 'four digit year', 'y'],
  H: [2, 'two digit hour', 'h'],
  M: [2, 'two digit minute', 'min'],
  S: [2, 'two digit second', 's'],
  j: [3, 'three digit day-of-year', 'd'],
  L: [3, 'three digit millisecond', 'us'],
  G: [4, 'four digit ISO year', 'isoY'],
  V: [2, 'two digit ISO week', 'isoW'],
  u: [1, 'single digit day of week', 'isoD'],
};
type NumericField = 'y' | 'm' | 'd' | 'h' | 'min' | 's' | 'us' | 'isoY' | 'isoW' | 'isoD';

/** timelib_do_normalize: fields out of range carry into the next (C's truncating division). */
function normalize(t: Scan): void {
  const carry = (start: number, end: number, a: number, b: number): [number, number] => {
    const [adj, under] = [end - start, Math.trunc((start - a - 1) / (end - start)) + 1];
    if (a < start) [a, b] = [a + adj * under, b - under];
    return a >= end ? [a % adj, b + Math.trunc(a / adj)] : [a, b];
  };
  if (t.us !== UNSET) [t.us, t.s] = carry(0, 1_000_000, t.us, t.s);
  if (t.s !== UNSET) {
    [t.s, t.min] = carry(0, 60, t.s, t.min);
    [t.min, t.h] = carry(0, 60, t.min, t.h);
    [t.h, t.d] = carry(0, 24, t.h, t.d);
  }
  [t.m, t.y] = carry(1, 13, t.m, t.y);
  ({ year: t.y, month: t.m, day: t.d } = civilFromDays(daysFromCivil(t.y, t.m, 1) + t.d - 1));
}

/** Reads one specifier of mongod's map at the cursor, reporting what timelib reports (at the specifier's start). */
function readSpecifier(t: Scan, spec: string, error: (msg: string) => void): void {
  const numeric = NUMERIC[spec];
  if (numeric) {
    const [digits, name, field] = numeric;
    const [begin, iso] = [t.pos, field.startsWith('iso')];
    if (!iso && !isDigit(t.at())) error('Unexpected data found.');
    if (spec === 'j' && t.y === UNSET) error("A 'day of year' can only come after a year has been found");
    const v = t.nr(digits);
    if (!'MSjL'.includes(spec)) t[field] = v;
    // Minutes and seconds take exactly two digits.
    if (v === UNSET || ('MS'.includes(spec) && t.len !== 2)) error(`A ${name} could not be found`);
    else if (spec === 'V' && (v < 1 || v > 53)) error('ISO Week must be between 1 and 53');
    else if (spec === 'u' && (v < 1 || v > 7)) error('Day of week must be between 1 and 7');
    else if (spec === 'M' || spec === 'S') t[field] = v;
    else if (spec === 'L') t.us = Math.trunc(v * 10 ** (3 - (t.pos - begin)) * 1000);
    // A day of the year counts from 0 (PHP's `z`), and only after a year.
    else if (spec === 'j' && t.y !== UNSET) [t.m, t.d] = [1, v + 1];
    if (spec === 'j' && v !== UNSET && t.y !== UNSET) normalize(t);
  } else if (spec === 'b' || spec === 'B') {
    const m = t.month();
    if (m) t.m = m;
    else error('A textual month could not be found');
  } else if (spec === 'z') {
    if (!parseZone(t)) error(TZID_NOT_FOUND);
  } else if (spec !== 'Z') {
    // Anything else is a literal to timelib (validateFromStringFormat lets none through).
    if (spec.charCodeAt(0) !== t.at()) error('The format separator does not match');
    t.pos++;
  } else if (t.at() !== 43 && t.at() !== 45) error('Invalid timezone offset in minutes');
  else {
    // timelib_parse_tz_minutes: a sign and minutes, read by a saturating strtol and kept in an int.
    const sign = t.at() === 45 ? -1 : 1;
    const from = ++t.pos;
    t.skip(isDigit);
    const digits = text(t.b, from, t.pos) || '0';
    const max = 2n ** 63n - 1n;
    const minutes = digits.length > 19 || BigInt(digits) > max ? max : BigInt(digits);
    [t.zoneType, t.z] = [ZONE_OFFSET, sign * Number(BigInt.asIntN(32, BigInt.asIntN(64, minutes * 60n)))];
  }
}

function parseByFormat(format: Uint8Array, bytes: Uint8Array): Scan {
  const t = new Scan(bytes);
  // Both are C strings to timelib: a NUL ends them.
  const fEnd = format.includes(0) ? format.indexOf(0) : format.length;
  t.end = bytes.includes(0) ? bytes.indexOf(0) : bytes.length;
  let [fi, prefixed] = [0, false];
  while (fi < fEnd && t.at()) {
    const [f, begin] = [format[fi++]!, t.pos];
    const error = (msg: string): void => t.issue(t.errors, msg, begin);
    if (prefixed === (f === 37)) {
      // A literal, or the second `%` of `%%`.
      if (f !== t.at()) error('Format literal not found');
      [t.pos, prefixed] = [t.pos + 1, false];
    } else if (!(prefixed = f === 37)) readSpecifier(t, String.fromCharCode(f), error);
  }
  const report = (list: Issue[], msg: string): void => t.issue(list, msg, t.pos);
  if (t.at()) report(t.errors, 'Trailing data');
  if (fi < fEnd) report(t.errors, 'Data missing');
  if (t.h !== UNSET || t.min !== UNSET || t.s !== UNSET || t.us !== UNSET) {
    for (const k of ['h', 'min', 's', 'us'] as const) if (t[k] === UNSET) t[k] = 0;
  }
  const isoSet = t.isoY !== UNSET || t.isoW !== UNSET || t.isoD !== UNSET;
  const mixing = 'Mixing of ISO dates with natural dates is not allowed';
  if (t.y !== UNSET && isoSet) report(t.errors, mixing);
  if (t.isoY !== UNSET && (t.y !== UNSET || t.m !== UNSET || t.d !== UNSET)) report(t.errors, mixing);
  if (t.isoY !== UNSET) {
    const week = [t.isoW, t.isoD].map((v) => (v === UNSET ? 1 : v)) as [number, number];
    ({ year: t.y, month: t.m, day: t.d } = civilFromDays(dateFromIsoWeek(t.isoY, ...week)));
  } else if (isoSet) report(t.warnings, 'The parsed date was invalid');
  if (t.h !== UNSET && t.min !== UNSET && t.s !== UNSET && !validTime(t))
    report(t.warnings, 'The parsed time was invalid');
  if (t.y !== UNSET && t.m !== UNSET && t.d !== UNSET && !validDate(t))
    report(t.warnings, 'The parsed date was invalid');
  return t;
}

// === mongod's TimeZoneDatabase::fromString around the parsers, and the exports.

const conversionFailure = (message: string): CommandError => new CommandError('ConversionFailure', message);

/** mongod's message: each timelib error, then each warning (a byte past ASCII shows as U+FFFD). */
function describe(dateString: string, t: Scan): string {
  const entry = (e: Issue): string => `; ${e.pos}: ${e.msg} '${e.ch < 128 ? String.fromCharCode(e.ch) : '\ufffd'}'`;
  return `Error parsing date string '${dateString}'${[...t.errors, ...t.warnings].map(entry).join('')}`;
}

/** mongod's checks of the fields, then timelib_update_ts: the date they name. */
function resolve(dateString: string, t: Scan, zone: TimeZone): number {
  if (t.errors.length || t.warnings.length) throw conversionFailure(describe(dateString, t));
  // A missing time is midnight (so that `%Y-%m-%d` is enough).
  if (t.h === UNSET && t.min === UNSET && t.s === UNSET) t.unhaveTime(t.hasTime);
  if ([t.y, t.m, t.d, t.h, t.min, t.s].includes(UNSET)) {
    throw conversionFailure(`an incomplete date/time string has been found, with elements missing: "${dateString}"`);
  }
  // mongod's UTC zone is also any zero offset (`+00:00`).
  if (zone.kind === 'olson' || zone.offset(0) !== 0) {
    if (t.zoneType === ZONE_OFFSET) {
      throw conversionFailure(
        'you cannot pass in a date/time string with GMT offset together with a timezone argument',
      );
    }
    if (t.zoneType === ZONE_ABBR) {
      const what = `time zone information ('${t.abbr}')`;
      throw conversionFailure(`you cannot pass in a date/time string with ${what} together with a timezone argument`);
    }
  }
  // A day name moves the date forward to that day (timelib's weekday relative).
  if (t.weekday >= 0) t.d += (t.weekday - (isoDayOfWeek(t.y, t.m, t.d) % 7) + 7) % 7;
  // Unset microseconds (after `hhmm`) stay timelib's marker, which mongod adds as they are.
  const us = t.us + (t.hasRelative ? t.relUs : 0);
  const carry = us === UNSET ? 0 : Math.floor(us / 1e6);
  const fields = [t.y, t.m, t.d + t.relD, t.h, t.min, t.s + t.relS + carry] as const;
  const seconds = t.zoneType ? TimeZone.UTC.fromParts(...fields) / 1000 - t.z : zone.fromParts(...fields) / 1000;
  // mongod adds whole seconds and microseconds, then truncates to milliseconds.
  const micros = BigInt(us - carry * 1e6);
  const ms = Number.isSafeInteger(seconds) ? Number((BigInt(seconds) * 1_000_000n + micros) / 1000n) : NaN;
  if (!(Math.abs(ms) <= MAX_MS)) throw conversionFailure(`${describe(dateString, t)}; the date is out of range`);
  return ms;
}

/**
 * mongod's validateFromStringFormat: 18535 for a `%` ending the format,
 * 18536 for a `%` before anything but b B d G H j L m M S u V Y z Z or `%`.
 */
export function validateFromStringFormat(format: string): void {
  const chars = [...format];
  for (let k = 0; k < chars.length; k++) {
    if (chars[k] !== '%') continue;
    const next = chars[++k];
    if (next === undefined) throw new CommandError('Location18535', "Unmatched '%' at end of format string");
    if (!'%bBdGHjLmMSuVYzZ'.includes(next)) {
      throw new CommandError('Location18536', `Invalid format character '%${next}' in format string`);
    }
  }
}

/**
 * The date (milliseconds since the epoch) `dateString` names: read by
 * `format` when given, else as timelib_strtotime reads free text; in `zone`
 * (the `timezone` argument, TimeZone.UTC without one) unless the string
 * carries its own offset or abbreviation. ConversionFailure, with mongod's
 * messages, when it names none.
 */
export function parseDateString(dateString: string, zone: TimeZone, format?: string): number {
  const bytes = utf8.encode(dateString);
  const fields = format === undefined ? strtotime(bytes) : parseByFormat(utf8.encode(format), bytes);
  return resolve(dateString, fields, zone);
}
