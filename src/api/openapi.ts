import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  apiErrorSchema,
  commandListQuery,
  commandRecordSchema,
  cancelExceedsPaymentSchema,
  idempotencyConflictSchema,
  notRenderableSchema,
  tradeRecordSchema,
  vanApprovalRecordSchema,
  vanCancelRecordSchema,
  walletCancelRecordSchema,
} from '../commands/command-record-schema';
import {
  discrepancyListQuery, expectationBody, expectationConflictSchema, listedDiscrepancySchema, orderListQuery, orderParams, orderRecordSchema, resolveBody,
} from './schemas/ledger-schema';
import { dayParams as reconciliationDayParams, dayQuery, fileProblemsSchema, importQuery, importSummarySchema, reconciliationDaySchema } from './schemas/reconciliation-schema';
import { XLSX_TYPE } from './reconciliation-routes';
import { dayCloseBody, dayClosedSchema, dayParams, summaryQuery, summarySchema } from './schemas/summary-schema';
import { tradeCreationBody } from './schemas/trade-schema';
import { vanApprovalBody, vanCancelBody } from './schemas/van-schema';
import { walletCancelBody } from './schemas/wallet-cancel-schema';

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });
const error = (description: string): ResponseConfig => ({ description, ...json(apiErrorSchema) });
const id = z.object({ shopTransactionId: z.string().meta({ description: "the command's idempotency key", example: 'st-20261122-0001' }) });

/** What any route may answer before it runs: the token check and a store that cannot be read. */
const everyRoute = {
  401: {
    description: 'missing or wrong bearer token; nothing was done',
    headers: { 'WWW-Authenticate': { schema: { type: 'string' as const }, description: 'Bearer realm="internal-api"' } },
    ...json(apiErrorSchema),
  },
  503: error('storage unavailable; ask again (for a command, with the same shopTransactionId)'),
};

const CANCEL_CONFLICT = {
  description: 'shopTransactionId already used with another body, or (reason exceeds_remaining) the cancel does not fit in what is left of its payment; nothing was sent',
  ...json(z.union([idempotencyConflictSchema, cancelExceedsPaymentSchema])),
};

const commandAnswers = (record: z.ZodType, cancel = false) => ({
  200: { description: 'the command reached a final state', ...json(record) },
  202: {
    description:
      'not final when the answer was due (GATEWAY_TIMEOUT_MS plus 2 s after the request): still resending, net-cancelling, or its first attempt still running; Location names the record to poll',
    headers: { Location: { schema: { type: 'string' as const }, description: '/v1/commands/{shopTransactionId}' } },
    ...json(record),
  },
  400: error('the body failed validation (`issues` names each field), is not well-formed JSON or is nested deeper than 32 levels; nothing was sent'),
  403: error('mallId is not one of MALL_IDS; nothing was sent or stored'),
  409: cancel ? CANCEL_CONFLICT : { description: 'shopTransactionId already used with another body; nothing was sent', ...json(idempotencyConflictSchema) },
  413: error('the body is larger than 64 KiB; nothing was sent'),
  415: error('the body is not JSON in UTF-8 (send Content-Type: application/json); nothing was sent'),
  ...everyRoute,
  503: error(cancel
    ? "the route's gateway URL (or the HMAC key) is not set, the ledger is catching up (reason ledger_catching_up, Retry-After), or storage is unavailable (ask again with the same shopTransactionId); nothing was sent when not set or catching up"
    : "the route's gateway URL (or the HMAC key) is not set, or storage is unavailable (ask again with the same shopTransactionId); nothing was sent when not set"),
});

/** The internal API's commands; a `/cancellations` path is a cancel, held to what is left of its payment. */
const COMMANDS: Array<{ path: string; operationId: string; summary: string; body: z.ZodType; record: z.ZodType }> = [
  { path: '/v1/wallet-a/trades', operationId: 'createTrade', summary: 'Create a wallet-a trade (answers when final, or 202 while still resending)', body: tradeCreationBody, record: tradeRecordSchema },
  {
    path: '/v1/wallet-b/cancellations', operationId: 'cancelWalletPayment', summary: 'Cancel a wallet-b payment (answers after the first attempt)',
    body: walletCancelBody, record: walletCancelRecordSchema,
  },
  { path: '/v1/van/approvals', operationId: 'approveVan', summary: 'VAN approval; net-cancelled when its outcome is unknown', body: vanApprovalBody, record: vanApprovalRecordSchema },
  { path: '/v1/van/cancellations', operationId: 'cancelVan', summary: 'VAN cancellation', body: vanCancelBody, record: vanCancelRecordSchema },
];

const next = z.string().nullable().meta({ description: 'pass as `after` for the next page; null after the last' });

/** The payment ledger's routes. */
function registerLedgerPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'put', path: '/v1/orders/{mallId}/{shopOrderNo}/expectation', operationId: 'putExpectation',
    summary: 'What the shop expects to be paid for an order (a payment window, a virtual account); repeating it is harmless',
    request: { params: orderParams, body: { required: true, ...json(expectationBody) } },
    responses: {
      200: { description: 'the order record, with the expectation', ...json(orderRecordSchema) },
      400: error('the body failed validation (`issues` names each field) or is nested deeper than 32 levels'),
      403: error('mallId is not one of MALL_IDS; nothing stored'),
      409: { description: "the order is already paid with another expected amount, currency or expiry, or the amount or currency differs from the order's wallet-a trade; nothing stored", ...json(expectationConflictSchema) },
      413: error('the body is larger than 64 KiB'),
      415: error('the body is not JSON in UTF-8'),
      ...everyRoute,
    },
  });
  registry.registerPath({
    method: 'get', path: '/v1/orders/{mallId}/{shopOrderNo}', operationId: 'getOrder', summary: "An order's payment record", request: { params: orderParams },
    responses: { 200: { description: 'the record', ...json(orderRecordSchema) }, 400: error('a malformed mall id or order number'), 404: error('nothing is known of this order, or its mall is not one of MALL_IDS'), ...everyRoute },
  });
  registry.registerPath({
    method: 'get', path: '/v1/orders', operationId: 'listOrders', summary: 'Order records in the order they were first seen, optionally of one status', request: { query: orderListQuery },
    responses: {
      200: { description: 'a page of records', ...json(z.object({ orders: z.array(orderRecordSchema), next })) },
      400: error('an unknown status, a limit outside 1-500 or a cursor this service did not give'),
      ...everyRoute,
    },
  });
  registry.registerPath({
    method: 'get', path: '/v1/discrepancies', operationId: 'listDiscrepancies', summary: 'Discrepancies in the order they opened (open ones by default)', request: { query: discrepancyListQuery },
    responses: {
      200: { description: 'a page of discrepancies, each with its order', ...json(z.object({ discrepancies: z.array(listedDiscrepancySchema), next })) },
      400: error('open other than true or false, a limit outside 1-500 or a cursor this service did not give'),
      ...everyRoute,
    },
  });
  registry.registerPath({
    method: 'get', path: '/v1/summary/daily', operationId: 'dailySummary',
    summary: "The day's money per KST day, mall and currency: payments, cancels, deposits, failed refunds, net, discrepancies, orders by status",
    request: { query: summaryQuery },
    responses: {
      200: { description: 'the days with money booked or orders held, by mall, currency and date; amounts in minor units', ...json(summarySchema) },
      400: error('from or to not a calendar day (YYYY-MM-DD), from after to, or more than 366 days'),
      ...everyRoute,
    },
  });
  registry.registerPath({
    method: 'post', path: '/v1/summary/days/{day}/close', operationId: 'closeDay',
    summary: "Close a KST day that is over (audited): its figures and exports stay as they are; money that arrives later for it is booked on the day it arrives, as an adjustment",
    request: { params: dayParams, body: { required: true, ...json(dayCloseBody) } },
    responses: {
      201: { description: 'closed: the figures the close keeps', ...json(dayClosedSchema) },
      200: { description: 'already closed: the first close stands, and says who closed it', ...json(dayClosedSchema) },
      400: error('not a calendar day, a day not over yet in Korea, more than 366 days ago, or a `by` that is not an operator name'),
      404: error('a mallId this service does not serve'),
      409: error('the whole store asked for while some malls are closed on their own'),
      413: error('the body is larger than 64 KiB'),
      415: error('the body is not JSON in UTF-8'),
      ...everyRoute,
    },
  });
  registry.registerPath({
    method: 'post', path: '/v1/summary/days/{day}/reopen', operationId: 'reopenDay',
    summary: 'Reopen a closed KST day (audited): it shows its live figures again, and the adjustments booked for it leave the days they were on',
    request: { params: dayParams, body: { required: true, ...json(dayCloseBody) } },
    responses: {
      200: { description: 'reopened', ...json(z.object({ day: z.string(), mallId: z.string().nullable(), reopened: z.literal(true) })) },
      400: error('not a calendar day, or a `by` that is not an operator name'),
      404: error('the day is not closed (for this mallId, or for the whole store when it is absent)'),
      409: error("adjustments of the day were booked on days closed since: those are reopened first"),
      413: error('the body is larger than 64 KiB'),
      415: error('the body is not JSON in UTF-8'),
      ...everyRoute,
    },
  });
  registry.registerPath({
    method: 'post', path: '/v1/discrepancies/{id}/resolve', operationId: 'resolveDiscrepancy', summary: 'Resolve a discrepancy with a note (audited); the order is recomputed',
    request: { params: z.object({ id: z.string().meta({ example: 'dsc_0f1e2d3c4b5a69788796a5b4c3d2e1f0' }) }), body: { required: true, ...json(resolveBody) } },
    responses: {
      200: { description: "the order's record; resolving again keeps the first resolution", ...json(orderRecordSchema) },
      400: error('no note, or a `by` that is not an operator name (control or bidi formatting characters, over 254 characters) or is reserved (`ledger`, `admin`)'),
      404: error('no discrepancy has this id'),
      413: error('the body is larger than 64 KiB'),
      415: error('the body is not JSON in UTF-8'),
      ...everyRoute,
    },
  });
}

/** The gateway's own lists, matched with the ledger. */
function registerReconciliationPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post', path: '/v1/reconciliation/imports', operationId: 'importGatewayList',
    summary: "Import the gateway portal's transaction list (its file's bytes) and match it with the ledger; the same file again changes nothing (audited)",
    request: {
      query: importQuery,
      body: { required: true, content: { [XLSX_TYPE]: { schema: z.string().meta({ format: 'binary' }) }, 'text/csv': { schema: z.string().meta({ format: 'binary' }) } } },
    },
    responses: {
      201: { description: 'imported: its summary; the differences once the ledger matched the rows (null while it still matches)', ...json(importSummarySchema) },
      200: { description: 'the same file was imported for this mall before: nothing changed; its summary', ...json(importSummarySchema) },
      400: error('mall or fileName missing or too long'),
      403: error('mall is not one of MALL_IDS; nothing was stored'),
      413: error('the file is larger than 32 MiB; refused before it was read'),
      415: error('the body is not .xlsx or CSV (send its Content-Type)'),
      422: { description: 'the file was refused whole, with every reason (encoding, a missing key column, duplicated rows, too many days); nothing was stored', ...json(fileProblemsSchema) },
      ...everyRoute,
    },
  });
  registry.registerPath({
    method: 'get', path: '/v1/reconciliation/days/{day}', operationId: 'reconciliationDay',
    summary: "A KST day's reconciliation per mall: the files covering it, rows listed and matched (count and money), the differences",
    request: { params: reconciliationDayParams, query: dayQuery },
    responses: {
      200: { description: 'one entry per mall with a list covering the day (none when no list covers it); amounts in won', ...json(reconciliationDaySchema) },
      400: error('day is not a calendar day (YYYY-MM-DD)'),
      ...everyRoute,
    },
  });
}

/** The OpenAPI document, built from the very schemas the routes validate with (docs/openapi.json is a copy, checked by a test). */
export function openApiDocument(): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'API_TOKEN (or the content of API_TOKEN_FILE)' });
  for (const { path, operationId, summary, body, record } of COMMANDS) {
    registry.registerPath({
      method: 'post', path, operationId, summary,
      request: { body: { required: true, ...json(body) } },
      responses: commandAnswers(record, path.endsWith('/cancellations')),
    });
  }
  registry.registerPath({
    method: 'get', path: '/v1/commands', operationId: 'listCommands', summary: 'List commands, newest first, optionally by state',
    request: { query: commandListQuery },
    responses: {
      200: { description: 'commands, newest first', ...json(z.object({ commands: z.array(commandRecordSchema) })) },
      400: error('an unknown state or a limit outside 1-500'),
      ...everyRoute,
    },
  });
  registry.registerPath({
    method: 'get', path: '/v1/commands/{shopTransactionId}', operationId: 'getCommand', summary: 'One command', request: { params: id },
    responses: { 200: { description: 'the record', ...json(commandRecordSchema) }, 404: error('no command has this shopTransactionId, or its mall is not one of MALL_IDS'), ...everyRoute },
  });
  registry.registerPath({
    method: 'get', path: '/v1/wallet-a/trades/{shopTransactionId}/qr.svg', operationId: 'getTradeQrCode', summary: "A native trade's code URL as a QR image", request: { params: id },
    responses: {
      200: { description: 'SVG', content: { 'image/svg+xml': { schema: z.string() } } },
      404: error('no wallet-a trade has this shopTransactionId'),
      409: { description: 'not a succeeded native trade', ...json(notRenderableSchema) },
      ...everyRoute,
    },
  });
  registerLedgerPaths(registry);
  registerReconciliationPaths(registry);
  registry.registerPath({
    method: 'get', path: '/v1/openapi.json', operationId: 'getOpenApiDocument', summary: 'This document',
    responses: { 200: { description: 'the OpenAPI 3.1 document', ...json(z.looseObject({})) }, 401: everyRoute[401] },
  });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'payment-noti-receiver internal API',
      version: '1',
      description: 'Calls to the payment gateway as durable commands. Its own listener, never the notification port; every route needs the bearer token.',
      license: { name: 'UNLICENSED (proprietary)', identifier: 'UNLICENSED' },
    },
    servers: [
      {
        url: 'http://{host}:{port}',
        description: 'the internal API listener: API_HOST and API_PORT',
        variables: { host: { default: '127.0.0.1', description: 'API_HOST' }, port: { default: '8081', description: 'API_PORT' } },
      },
    ],
    security: [{ bearer: [] }],
  });
}
