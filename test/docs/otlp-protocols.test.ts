import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { tracingEnvSettings } from '../../src/config/tracing-env';
import { REPO } from './doc-blocks';

/** The OTLP encodings the configuration accepts, as .env.example and docs/configuration.md tell a reader. */
const accepted = (tracingEnvSettings.OTEL_EXPORTER_OTLP_PROTOCOL.unwrap() as z.ZodEnum).options as string[];

describe('the OTLP protocols a reader is told of', () => {
  it('are those the configuration accepts, in .env.example', () => {
    const example = readFileSync(join(REPO, '.env.example'), 'utf8');
    const comment = /^#.*\n(?=OTEL_EXPORTER_OTLP_PROTOCOL=)/m.exec(example)?.[0] ?? '';
    expect(accepted.length).toBeGreaterThan(1);
    for (const protocol of accepted) expect(comment).toContain(protocol);
    expect(comment).not.toMatch(/\bonly\b/i);
  });

  it('are those the configuration accepts, in docs/configuration.md', () => {
    const row = readFileSync(join(REPO, 'docs', 'configuration.md'), 'utf8').split('\n').find((line) => line.startsWith('| `OTEL_EXPORTER_OTLP_PROTOCOL`')) ?? '';
    for (const protocol of accepted) expect(row).toContain(protocol);
  });
});
