/**
 * Exit codes scripts may rely on (docs/operations.md lists them). They are part of the
 * CLI's contract: change them only with a note to every operator who scripts against it.
 */
export const EXIT = {
  ok: 0,
  /** Unknown id, or a rejection that still fails validation. */
  notFound: 1,
  /** Bad arguments or a bad configuration value. */
  usage: 2,
  /** The database could not be opened or queried. */
  storeUnavailable: 3,
  /** `status`: the database the CLI read is not the one the running receiver serves. */
  otherStore: 4,
  /** `alerts test`: a channel did not take the message (each channel's answer is printed). */
  alertNotSent: 5,
  /** `reconcile import`: the file was refused whole (each reason is printed); nothing was imported. */
  fileRefused: 6,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A command's expected failure: its message is printed as is and the process exits with `code`. */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';
  constructor(
    message: string,
    readonly code: ExitCode,
  ) {
    super(message);
  }
}
