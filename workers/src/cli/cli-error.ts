/** A mistake of the operator's (bad arguments, unknown job): printed plainly, exit code 1. */
export class CliError extends Error {}
