#!/usr/bin/env node
import { CliFailure } from '../cli/exit-codes';
import { sandboxCommand, untilSignal } from './sandbox-command';

sandboxCommand({ env: process.env, stdout: (text) => process.stdout.write(text), stopped: untilSignal })
  .parseAsync(process.argv)
  .catch((error: Error) => {
    process.stderr.write(`sandbox: ${error.message}\n`);
    process.exitCode = error instanceof CliFailure ? error.code : 1;
  });
