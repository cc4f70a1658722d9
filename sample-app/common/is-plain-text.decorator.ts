import { ValidateBy, type ValidationOptions } from 'class-validator';

// C0 and C1 control characters (tab and newline included: a name is one line),
// bidi embeddings, overrides and isolates (text that displays in another order
// than it is stored), zero-width and BOM characters, and unpaired surrogates,
// which are not text at all and break JSON and UTF-8 encoders downstream (in
// a `u` regex a lone surrogate is matched as one `\p{Cs}` code point).
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]|\p{Cs}/u;

/** Whether `value` is a string a person could have typed as a one-line name. */
export function isPlainText(value: unknown): value is string {
  return typeof value === 'string' && !FORBIDDEN.test(value);
}

/**
 * A one-line name without control, bidi-override, zero-width or unpaired
 * surrogate characters: what is stored displays as what was sent. Combine
 * with `@IsString()`, which reports values that are not strings.
 */
export function IsPlainText(validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPlainText',
      validator: {
        // Non-strings are @IsString()'s to report; one message per problem.
        validate: (value: unknown) => typeof value !== 'string' || isPlainText(value),
        defaultMessage: () =>
          '$property must be one line of text without control, bidi-override, zero-width or unpaired surrogate characters',
      },
    },
    validationOptions,
  );
}
