import express, { Router, type Request, type Response } from 'express';
import { SANDBOX_CODES, text, type GatewayAnswer } from './ledger';
import type { SandboxContext } from './sandbox-context';
import { describeScenario, parseCallScenario, type CallOperation, type CallScenario } from './scenarios';
import { approveVan, cancelVan, netCancelVan } from './van';
import { createTrade } from './wallet-a';
import { reviseTrade } from './wallet-b';

const HANDLERS: Array<[string, CallOperation, (ctx: SandboxContext, body: Record<string, unknown>) => GatewayAnswer]> = [
  ['/api/trades/wallet-a', 'wallet-a.create', createTrade],
  ['/api/trades/wallet-b/revise', 'wallet-b.revise', reviseTrade],
  ['/smpy/vanpay/reqAprv', 'van.reqAprv', approveVan],
  ['/smpy/vanpay/reqCancel', 'van.reqCancel', cancelVan],
  ['/smpy/vanpay/reqRtran', 'van.reqRtran', netCancelVan],
];

export interface GatewayRoutes {
  router: Router;
  /** Drops every answer a `timeout` scenario is holding back, so the sandbox can close. */
  releaseHeld(): void;
}

/** The gateway's three services as the merchant calls them, each passing through the scenarios first. */
export function gatewayRoutes(ctx: SandboxContext): GatewayRoutes {
  const router = Router();
  const held = new Set<Response>();
  router.use(express.json({ limit: '256kb' }));
  for (const [path, operation, handle] of HANDLERS) {
    router.post(path, (req, res) => {
      const body = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
      let scenario: CallScenario | undefined;
      try {
        scenario = perCallScenario(req) ?? ctx.scenarios.takeCall(operation);
      } catch (error) {
        res.status(400).json({ resCd: 'E101', resMsg: (error as Error).message });
        return;
      }
      const call = ctx.timeline.recordCall({
        operation, path, shopTransactionId: text(body, 'shopTransactionId') ?? null, request: body,
        scenario: scenario ? describeScenario(scenario) : null, outcome: 'answered', answer: null,
      });
      // A code scenario stands for a refusal: the gateway did nothing. A time-out or a reset
      // stands for a lost answer: the work was done, only the reply never arrived.
      const answer = scenario?.kind === 'code' ? codeAnswer(scenario.code, body) : handle(ctx, body);
      call.answer = answer;
      if (scenario?.kind === 'timeout') {
        call.outcome = 'withheld';
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      if (scenario?.kind === 'reset') {
        call.outcome = 'reset';
        req.socket.destroy();
        return;
      }
      res.status(200).json(answer);
    });
  }
  return {
    router,
    releaseHeld() {
      for (const res of held) res.socket?.destroy();
      held.clear();
    },
  };
}

function perCallScenario(req: Request): CallScenario | undefined {
  const header = req.get('X-Sandbox-Scenario');
  const query = typeof req.query.sandbox === 'string' ? req.query.sandbox : undefined;
  const value = header ?? query;
  return value ? parseCallScenario(value) : undefined;
}

function codeAnswer(code: string, body: Record<string, unknown>): GatewayAnswer {
  return {
    resCd: code,
    resMsg: SANDBOX_CODES[code] ?? '샌드박스 시나리오 응답',
    mallId: text(body, 'mallId'),
    shopTransactionId: text(body, 'shopTransactionId'),
  };
}
