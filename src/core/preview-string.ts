const PREVIEW_CHARS = 32;

/**
 * Quotes a string for an error message: at most 32 characters, everything
 * outside printable ASCII escaped as `\uXXXX`, so control characters, bidi
 * overrides and look-alike digits are visible and a huge input stays short.
 */
export function previewString(value: string): string {
  const chars = [...value];
  const head = chars.slice(0, PREVIEW_CHARS).join('');
  const escaped = head.replace(/["\\]|[^\x20-\x7e]/gu, (c) =>
    c === '"' || c === '\\' ? `\\${c}` : [...c].map(toUnicodeEscape).join(''),
  );
  return chars.length > PREVIEW_CHARS ? `"${escaped}"… (${chars.length} characters)` : `"${escaped}"`;
}

function toUnicodeEscape(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code > 0xffff) {
    // Astral characters: show both UTF-16 halves, as JSON would.
    return char
      .split('')
      .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('');
  }
  return `\\u${code.toString(16).padStart(4, '0')}`;
}
