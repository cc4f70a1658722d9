/** Bounds of {@link boundErrorMessage}. */
export interface ErrorMessageLimits {
  /** Most messages an error body lists; one more line counts the rest. */
  maxMessages: number;
  /** Longest message, in UTF-16 code units; a longer one is cut and ends with "…". */
  maxLength: number;
}

/**
 * The catalog's bounds. Its own messages are under 300 characters (the
 * longest echoes a 200-character name); a full list of what is wrong with one
 * product is about 15 messages.
 */
export const ERROR_MESSAGE_LIMITS: ErrorMessageLimits = { maxMessages: 20, maxLength: 500 };

/**
 * The `message` of an error body, bounded, so that an error answer never grows
 * with the request: class-validator reports every unknown key of a body
 * (`property <key> should not exist`, 2,000 of them in a 100 KB body, or one
 * key of 99 KB), and 404s echo the slug or number asked for. Strings are cut,
 * lists keep their first `maxMessages` entries and end with a count of the
 * rest. Anything else, and a message within bounds, is returned as it is (the
 * same object), so a caller can tell that nothing changed.
 */
export function boundErrorMessage(message: unknown, limits: ErrorMessageLimits = ERROR_MESSAGE_LIMITS): unknown {
  const { maxMessages, maxLength } = limits;
  if (typeof message === 'string') return cut(message, maxLength);
  if (!Array.isArray(message)) return message;
  const fits = (item: unknown) => typeof item !== 'string' || item.length <= maxLength;
  if (message.length <= maxMessages && message.every(fits)) return message;
  const kept = message
    .slice(0, maxMessages)
    .map((item: unknown) => (typeof item === 'string' ? cut(item, maxLength) : item));
  const omitted = message.length - kept.length;
  return omitted > 0 ? [...kept, `…and ${omitted} more; correct these and send the request again`] : kept;
}

/** `text` cut to `maxLength` code units with a final "…", never splitting a surrogate pair. */
function cut(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let end = maxLength - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
