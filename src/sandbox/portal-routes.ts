import express, { Router } from 'express';
import { dayRangeProblem } from '../calendar-day';
import { addDays, kstDay } from '../ledger/summary/kst-day';
import { KST_OFFSET_MS } from '../notifications/kst-date';
import { approvalNotification, nextPgCno } from '../simulator/notification-builders';
import { text } from './ledger';
import { portalFile, type PortalFormat } from './portal-files';
import { settlementStatement, transactionList } from './portal-lists';
import type { SandboxContext } from './sandbox-context';

/** The portal lets a merchant ask for a month at a time. */
const MAX_DAYS = 31;

const LISTS = { transactions: transactionList, settlement: settlementStatement } as const;

/** The UTC instant a KST day starts. */
const kstMidnight = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - KST_OFFSET_MS).toISOString();

/**
 * The gateway's merchant portal, as far as a reconciliation needs it: its transaction list and its
 * settlement statement of the sandbox's own trades, for a mall and KST days, as `.xlsx` or CP949
 * CSV (`GET /sandbox/portal/transactions.xlsx?mallId=…&from=…&to=…`). And the one thing a portal
 * never does: `POST /sandbox/portal/forged-notification` sends a notification 10 from the
 * sandbox's address for a payment the gateway never made, as a forger past the address check would.
 */
export function portalRoutes(ctx: SandboxContext): Router {
  const router = Router();
  router.get('/sandbox/portal/:file', async (req, res, next) => {
    const asked = /^(transactions|settlement)\.(xlsx|csv)$/.exec(req.params.file);
    if (!asked) return void next();
    const [, name, format] = asked as unknown as [string, keyof typeof LISTS, PortalFormat];
    // The page's empty date fields mean "today", as a portal's default period does.
    const given = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
    const mallId = given(req.query.mallId) ?? '';
    const from = given(req.query.from) ?? kstDay(new Date().toISOString());
    const to = given(req.query.to) ?? from;
    const problem = mallId === '' ? 'mallId: the merchant whose list to give' : dayRangeProblem(from, to, MAX_DAYS);
    if (problem) return void res.status(400).json({ resCd: 'E101', resMsg: problem });
    const list = LISTS[name](ctx.books.between(mallId, kstMidnight(from), kstMidnight(addDays(to, 1))));
    try {
      const file = await portalFile(list, { mallId, from, to }, format);
      res.attachment(`${name}_${mallId.replace(/[^A-Za-z0-9_-]/g, '_')}_${from}_${to}.${format}`).send(file);
    } catch (error) {
      next(error);
    }
  });
  router.post('/sandbox/portal/forged-notification', express.json({ limit: '16kb' }), (req, res) => {
    const body = req.body !== null && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
    const mallId = text(body, 'mallId');
    const shopOrderNo = text(body, 'shopOrderNo');
    const amount = text(body, 'amount') ?? '10000';
    const url = text(body, 'notifyUrl') ?? ctx.settings.defaultNotifyUrl;
    if (!mallId || !shopOrderNo || !url || !/^[1-9]\d*$/.test(amount)) {
      return void res.status(400).json({ resCd: 'E101', resMsg: 'needs mallId, shopOrderNo, a positive integer amount and a notifyUrl (or the sandbox started with --notify-url)' });
    }
    const pgCno = nextPgCno();
    const notification = approvalNotification({ mallId, pgCno, shopOrderNo, shopTransactionId: `forged-${pgCno}`, amount });
    ctx.sender.send({
      notiType: '10', url, body: Buffer.from(JSON.stringify(notification), 'utf8'), contentType: 'application/json; charset=utf-8',
      ackForm: 'json', pgCno, cancelPgCno: null, shopOrderNo,
    });
    res.status(202).json({ pgCno, shopOrderNo, amount: Number(amount) });
  });
  return router;
}
