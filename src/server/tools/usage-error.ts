/** A command-line tool called the wrong way: it exits with code 2 and points at its --help. */
export class UsageError extends Error {}
