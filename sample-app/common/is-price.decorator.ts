import { isNumber, ValidateBy, type ValidationOptions } from 'class-validator';

/** At most two decimals, read from the number's shortest decimal form ("24.9", "1e-7"). */
function hasAtMostTwoDecimals(value: number): boolean {
  const [mantissa, exponent = '0'] = String(value).toLowerCase().split('e');
  const decimals = (mantissa.split('.')[1] ?? '').length - Number(exponent);
  return decimals <= 2;
}

/**
 * A finite number with at most two decimals. class-validator's own
 * `IsNumber({ maxDecimalPlaces })` (0.15.1) throws on numbers it prints in
 * exponent form such as 1e-7, which would turn a client's bad price into a 500.
 * The message is the one `IsNumber` gives.
 */
export function IsPrice(validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPrice',
      validator: {
        validate: (value: unknown) =>
          isNumber(value, { allowNaN: false, allowInfinity: false }) && hasAtMostTwoDecimals(value as number),
        defaultMessage: () => '$property must be a number conforming to the specified constraints',
      },
    },
    validationOptions,
  );
}
