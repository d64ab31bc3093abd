#!/usr/bin/env node
import { CliFailure } from '../exit-codes';
import { loadDotEnv } from '../config/dotenv';
import { sandboxCommand, untilSignal } from './sandbox-command';

// The same .env as `noti-receiver sandbox` and the receiver, so one GATEWAY_SECRET_KEY serves all three.
loadDotEnv();

sandboxCommand({ env: process.env, stdout: (text) => process.stdout.write(text), stopped: untilSignal })
  .parseAsync(process.argv)
  .catch((error: Error) => {
    process.stderr.write(`sandbox: ${error.message}\n`);
    process.exitCode = error instanceof CliFailure ? error.code : 1;
  });
