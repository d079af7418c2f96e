// Preloaded into a server under test (`node --import`) to move its clock:
// TEST_CLOCK=2099-01-01T00:00:00Z makes the server believe it is that instant,
// so date-driven rules run without waiting for the date.
const target = process.env['TEST_CLOCK'];
if (target) {
  const RealDate = Date;
  const offset = RealDate.parse(target) - RealDate.now();
  if (Number.isNaN(offset)) throw new Error(`TEST_CLOCK is not a date: ${target}`);
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...(args as [number, number]));
    }
    static override now(): number {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
}
