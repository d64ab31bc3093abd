import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { apiErrorSchema, commandListQuery, commandRecordSchema } from './schemas/command-record-schema';
import { tradeCreationBody } from './schemas/trade-schema';
import { vanApprovalBody, vanCancelBody } from './schemas/van-schema';
import { walletCancelBody } from './schemas/wallet-cancel-schema';

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });
const id = z.object({ shopTransactionId: z.string() });

const commandAnswers = {
  200: { description: 'final state', ...json(commandRecordSchema) },
  202: { description: 'still resending (or net-cancelling); Location names the record', headers: { Location: { schema: { type: 'string' as const } } }, ...json(commandRecordSchema) },
  400: { description: 'invalid body; nothing was sent', ...json(apiErrorSchema) },
  401: { description: 'missing or wrong bearer token; nothing was sent', ...json(apiErrorSchema) },
  409: { description: 'shopTransactionId already used with another body', ...json(apiErrorSchema) },
  503: { description: "the route's gateway URL (or key) is not set, or storage is unavailable", ...json(apiErrorSchema) },
};

const COMMANDS: Array<[string, string, z.ZodType]> = [
  ['/v1/wallet-a/trades', 'Create a wallet-a trade (answers when final)', tradeCreationBody],
  ['/v1/wallet-b/cancellations', 'Cancel a wallet-b payment (answers after the first attempt)', walletCancelBody],
  ['/v1/van/approvals', 'VAN approval; net-cancelled when its outcome is unknown', vanApprovalBody],
  ['/v1/van/cancellations', 'VAN cancellation', vanCancelBody],
];

/** The OpenAPI document, built from the very schemas the routes validate with. */
export function openApiDocument(): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  for (const [path, summary, body] of COMMANDS) {
    registry.registerPath({ method: 'post', path, summary, request: { body: { required: true, ...json(body) } }, responses: commandAnswers });
  }
  registry.registerPath({
    method: 'get', path: '/v1/commands', summary: 'List commands, optionally by state',
    request: { query: commandListQuery },
    responses: { 200: { description: 'commands, newest first', ...json(z.object({ commands: z.array(commandRecordSchema) })) } },
  });
  registry.registerPath({
    method: 'get', path: '/v1/commands/{shopTransactionId}', summary: 'One command', request: { params: id },
    responses: { 200: { description: 'the record', ...json(commandRecordSchema) }, 404: { description: 'unknown', ...json(apiErrorSchema) } },
  });
  registry.registerPath({
    method: 'get', path: '/v1/wallet-a/trades/{shopTransactionId}/qr.svg', summary: "A native trade's code URL as a QR image", request: { params: id },
    responses: { 200: { description: 'SVG', content: { 'image/svg+xml': { schema: z.string() } } }, 404: { description: 'unknown', ...json(apiErrorSchema) }, 409: { description: 'not a succeeded native trade', ...json(apiErrorSchema) } },
  });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'payment-noti-receiver internal API', version: '1', description: 'Calls to the payment gateway as durable commands (SPEC section 5)' },
    security: [{ bearer: [] }],
  });
}
