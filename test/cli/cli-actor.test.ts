import { userInfo } from 'node:os';
import { cliActor } from '../../src/cli/cli-actor';

const io = (env: NodeJS.ProcessEnv) => ({ env, stdout: () => undefined, stderr: () => undefined });

describe('who the audit names for a CLI call', () => {
  test('the user the environment names, as `<user> (cli)`', () => {
    expect(cliActor(io({ USER: 'kim' }))).toBe('kim (cli)');
    expect(cliActor(io({ LOGNAME: 'lee' }))).toBe('lee (cli)');
  });

  test('without USER or LOGNAME (docker exec, cron), still the operating-system user, never a bare `cli`', () => {
    expect(cliActor(io({}))).toBe(`${userInfo().username} (cli)`);
    expect(cliActor(io({ USER: '' }))).toBe(`${userInfo().username} (cli)`);
  });

  test('a uid the account database does not know is named by its number', () => {
    expect(cliActor(io({}), () => 'uid 1000690000')).toBe('uid 1000690000 (cli)');
  });
});
