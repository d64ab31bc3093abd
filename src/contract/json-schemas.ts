import { z } from 'zod';

export interface SchemaSet {
  /** Each named schema under components.schemas, the events' and the shared ones. */
  schemas: Record<string, unknown>;
}

const COMPONENTS = '#/components/schemas/';

/**
 * The events' zod schemas as JSON Schema draft 7 (AsyncAPI's default schema format), in one
 * components map: a schema zod names by `meta({ id })` (Discrepancy, OrderSummary, the gateway's
 * fields) is written once and referenced, as in the OpenAPI document.
 */
export function jsonSchemas(named: Record<string, z.ZodType>): SchemaSet {
  const schemas: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(named)) {
    const { $schema: _dialect, definitions, ...root } = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', override: examplesKeyword }) as Record<string, unknown> & {
      definitions?: Record<string, unknown>;
    };
    schemas[name] = relinked(root);
    for (const [id, shared] of Object.entries(definitions ?? {})) schemas[id] = relinked(shared);
  }
  return { schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) };
}

/** zod writes OpenAPI's `example`; JSON Schema's own keyword is `examples`, a list. */
function examplesKeyword({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  if (!('example' in jsonSchema)) return;
  jsonSchema.examples = [jsonSchema.example];
  delete jsonSchema.example;
}

function relinked(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/definitions/', `"${COMPONENTS}`));
}
