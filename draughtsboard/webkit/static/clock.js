// A game clock's time as every page shows it: the board's page and the hall's pages
// (cards, projector) format the same seconds the same way, so one game never shows two
// times.
//
// The rule is a tournament clock's: the time still left, rounded UP to the whole second.
// A running clock then shows 0:00 only when no time is left, i.e. when the flag falls,
// never while a fraction of a second remains (rounding to the nearest second would show
// 0:00 half a second early, and a player could believe the flag had fallen). A
// millionth of a second over a whole second is float noise, not a second more.

const NOISE = 1e-6;

// ``seconds`` left (a number) as "m:ss", or "h:mm:ss" from an hour; "" for no clock
// (null or undefined); a time below zero shows 0:00.
export function clockText(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.ceil(seconds - NOISE));
  const h = Math.floor(s / 3600);
  const m = Math.floor(s / 60) % 60;
  const rest = String(s % 60).padStart(2, "0");
  return h ? h + ":" + String(m).padStart(2, "0") + ":" + rest : m + ":" + rest;
}

// ``side``'s seconds left ``elapsed`` seconds after a reading of the game clock (an
// object with ``white``, ``black`` and ``running``, the side whose time goes): the
// running side's time goes down, the other's stands; null without a reading. Every page
// that counts a clock down counts it so, and formats it with clockText.
export function clockLeft(reading, side, elapsed) {
  if (!reading) return null;
  const left = reading[side];
  return reading.running === side ? left - Math.max(0, elapsed) : left;
}

// ``side``'s clock as every page shows it ``elapsed`` seconds after a reading (as
// clockLeft; the reading's ``flagged`` lists the sides whose flag the board saw fall):
// its text, a fallen flag marked "⚑ " (the board said so, or the running side's time is
// up), and whether the flag is down.
export function clockShown(reading, side, elapsed) {
  const left = clockLeft(reading, side, elapsed);
  const flagged = reading.flagged.includes(side) || (reading.running === side && left <= 0);
  return { text: (flagged ? "⚑ " : "") + clockText(left), flagged };
}
