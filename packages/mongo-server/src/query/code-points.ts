/**
 * Code points in `text` from `from` to `to` (UTF-16 indexes): a surrogate
 * pair counts once, as MongoDB counts characters (`$strLenCP`, `idx` of
 * `$regexFind`). Walks in place: spreading a 16 MiB string into an array of
 * characters would cost hundreds of MiB.
 */
export function countCodePoints(text: string, from = 0, to = text.length): number {
  let count = to - from;
  for (let i = from; i < to - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}
