import { Router } from 'express';
import { COMMAND_STATES, type CommandState } from '../store/command-types';
import type { ConsoleDeps } from './console-deps';
import { commandPage, commandsPage, commandsUnavailablePage } from './pages/commands-page';
import { notFoundPage } from './pages/not-found-page';
import { sessionOf } from './require-session';

export function commandsRoutes(deps: ConsoleDeps): Router {
  const router = Router();

  router.get('/commands', async (req, res) => {
    const commands = deps.commands;
    if (!commands) return res.type('html').send(commandsUnavailablePage(sessionOf(res)));
    const state = COMMAND_STATES.includes(req.query.state as CommandState) ? (req.query.state as CommandState) : undefined;
    const [rows, counts] = await Promise.all([commands.listCommands({ state, limit: 200 }), commands.countByState()]);
    res.type('html').send(commandsPage(sessionOf(res), rows, counts, state ?? ''));
  });

  router.get('/commands/:id', async (req, res) => {
    const command = deps.commands ? await deps.commands.getCommand(req.params.id) : null;
    if (!command) return res.status(404).type('html').send(notFoundPage(sessionOf(res), 'commands', sessionOf(res).t('notFound.command', { id: req.params.id })));
    res.type('html').send(commandPage(sessionOf(res), command, await deps.commands!.listAttempts(command.shopTransactionId)));
  });

  return router;
}
