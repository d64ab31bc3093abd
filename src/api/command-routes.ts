import { Router, type Response } from 'express';
import { approveVan } from '../commands/approve-van';
import { cancelVan } from '../commands/cancel-van';
import { cancelWallet } from '../commands/cancel-wallet';
import type { CommandDeps } from '../commands/command-deps';
import { requestTraceContext } from './api-request-span';
import { createTrade } from '../commands/create-trade';
import { parseBody, passThroughBody } from './api-errors';
import { answerCommand } from './command-answer';
import type { MallScope } from './mall-scope';
import { tradeCreationBody } from './schemas/trade-schema';
import { vanApprovalBody, vanCancelBody } from './schemas/van-schema';
import { walletCancelBody } from './schemas/wallet-cancel-schema';

/** The four calls to the gateway: validate, then hand to the use case; nothing is sent for an invalid body or a mall not served. */
export function commandRoutes(deps: CommandDeps, malls: MallScope): Router {
  const router = Router();
  // With tracing on, the command is made in the request's trace: its first gateway call a child of the request's span.
  const depsFor = (res: Response): CommandDeps => {
    const traceParent = deps.tracing ? requestTraceContext(res) : undefined;
    return traceParent ? { ...deps, traceParent } : deps;
  };
  router.post('/v1/wallet-a/trades', async (req, res) => {
    const { command } = await createTrade(depsFor(res), malls.served(parseBody(tradeCreationBody, req.body)));
    answerCommand(res, command);
  });
  router.post('/v1/wallet-b/cancellations', async (req, res) => {
    const { command } = await cancelWallet(depsFor(res), malls.served(parseBody(walletCancelBody, req.body)));
    answerCommand(res, command);
  });
  router.post('/v1/van/approvals', async (req, res) => {
    const { command } = await approveVan(depsFor(res), malls.served(passThroughBody(vanApprovalBody, req.body)));
    answerCommand(res, command);
  });
  router.post('/v1/van/cancellations', async (req, res) => {
    const { command } = await cancelVan(depsFor(res), malls.served(passThroughBody(vanCancelBody, req.body)));
    answerCommand(res, command);
  });
  return router;
}
