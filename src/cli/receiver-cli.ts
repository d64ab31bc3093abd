#!/usr/bin/env node
import { loadDotEnv } from '../config/dotenv';
import { lowerThisThread } from '../thread-priority';
import { runCli } from './program';

// Exit codes: 0 ok, 1 not found / still invalid, 2 usage or configuration error, 3 store unavailable, 4 status read another store than the receiver's.
const fromDotEnv = loadDotEnv();
void runCli(process.argv.slice(2), {
  env: process.env,
  fromDotEnv,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stepAside: lowerThisThread,
}).then((code) => {
  process.exitCode = code;
});
