import { Router } from 'express';
import QRCode from 'qrcode';
import type { CommandStore } from '../store/command-store';
import { publicRecord } from '../commands/command-record';
import { parseBody } from './api-errors';
import { sendJsonList } from './json-in-slices';
import type { MallScope } from './mall-scope';
import { commandListQuery } from '../commands/command-record-schema';

/** Reading commands back: one record, a list by state, and a native trade's code URL as a QR image. */
export function queryRoutes(store: CommandStore, malls: MallScope): Router {
  const router = Router();
  // Another mall's command reads as an unknown one: MALL_IDS narrowed since it was made.
  const commandOf = async (id: string) => {
    const command = await store.getCommand(id);
    return command && malls.serves(command.mallId) ? command : null;
  };
  router.get('/v1/commands', async (req, res) => {
    const query = parseBody(commandListQuery, req.query);
    const commands = await store.listCommands({ state: query.state, limit: query.limit });
    await sendJsonList(res, 'commands', commands.filter((command) => malls.serves(command.mallId)).map(publicRecord));
  });
  router.get('/v1/commands/:shopTransactionId', async (req, res) => {
    const command = await commandOf(req.params.shopTransactionId);
    if (!command) return void res.status(404).json({ error: `no command with shopTransactionId ${req.params.shopTransactionId}` });
    res.json(publicRecord(command));
  });
  router.get('/v1/wallet-a/trades/:shopTransactionId/qr.svg', async (req, res) => {
    const command = await commandOf(req.params.shopTransactionId);
    if (!command || command.command !== 'wallet-a.create') {
      return void res.status(404).json({ error: `no wallet-a trade with shopTransactionId ${req.params.shopTransactionId}` });
    }
    const url = command.response?.paymentPageUrl;
    if (command.state !== 'succeeded' || typeof url !== 'string' || command.request.tradeType === 'mweb') {
      return void res.status(409).json({ error: 'only a succeeded native trade has a code URL to render', state: command.state });
    }
    const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    res.type('image/svg+xml').setHeader('Cache-Control', 'no-store');
    res.send(svg);
  });
  return router;
}
