const MS_PER_SECOND = 1_000;
const MS_PER_MINUTE = 60 * MS_PER_SECOND;
const MS_PER_HOUR = 60 * MS_PER_MINUTE;
const MS_PER_DAY = 24 * MS_PER_HOUR;
const MS_PER_WEEK = 7 * MS_PER_DAY;

// Weeks and days are taken as fixed lengths (no calendar, no DST); a fraction is allowed only on
// seconds, as in java.time.Duration, so every accepted value has one exact millisecond length.
const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:[.,](\d{1,9}))?S)?)?$/i;
// Same outline with years and/or months in the date part: recognised only to explain the refusal.
const CALENDAR = /^P(?:\d+(?:[.,]\d+)?Y)?(?:\d+(?:[.,]\d+)?M)?(?:\d+W)?(?:\d+D)?(?:T.*)?$/i;

/**
 * Parses an ISO-8601 duration (`PT5M`, `PT0.5S`, `P1DT2H3M4.5S`, `P2W`) into milliseconds.
 * Fractions below a millisecond are rounded. Throws `Error` naming the value when it is not
 * a non-negative duration of fixed length.
 */
export function parseIsoDuration(text: string): number {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new Error(`Invalid ISO-8601 duration ${JSON.stringify(text)}: the value is empty`);
  }
  const value = text.trim();
  if (value.startsWith('-')) {
    throw new Error(`Invalid ISO-8601 duration "${value}": negative durations are not allowed`);
  }
  const match = DURATION.exec(value);
  if (match === null) {
    if (/^P\d/i.test(value) && CALENDAR.test(value) && /^P[^T]*[YM]/i.test(value)) {
      throw new Error(
        `Invalid ISO-8601 duration "${value}": years and months have no fixed length; use weeks, days, hours, minutes or seconds (e.g. P30D)`,
      );
    }
    throw new Error(`Invalid ISO-8601 duration "${value}": expected a form like PT5M, PT30S, PT0.5S, P1D or P1DT2H3M4.5S`);
  }
  const [, weeks, days, hours, minutes, seconds, fraction] = match;
  if (weeks === undefined && days === undefined && hours === undefined && minutes === undefined && seconds === undefined) {
    // Only "P" (the lookahead already rejects a bare "T").
    throw new Error(`Invalid ISO-8601 duration "${value}": it names no amount of time`);
  }
  const ms =
    num(weeks) * MS_PER_WEEK +
    num(days) * MS_PER_DAY +
    num(hours) * MS_PER_HOUR +
    num(minutes) * MS_PER_MINUTE +
    num(seconds) * MS_PER_SECOND +
    (fraction === undefined ? 0 : Math.round(Number(`0.${fraction}`) * MS_PER_SECOND));
  if (!Number.isSafeInteger(ms)) {
    throw new Error(`Invalid ISO-8601 duration "${value}": it is too large`);
  }
  return ms;
}

function num(digits: string | undefined): number {
  return digits === undefined ? 0 : Number(digits);
}
