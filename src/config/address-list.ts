import { BlockList, isIP } from 'node:net';

/**
 * An address list compared as parsed addresses (never as strings), so `::ffff:1.2.3.4`,
 * `1.2.3.4` and leading-zero tricks cannot slip past or be refused by spelling.
 */
export class AddressList {
  private readonly list = new BlockList();
  readonly entries: string[] = [];

  add(entry: string): this {
    // Exactly one optional "/prefix": "10.0.0.0/8/junk" is a typo, not 10.0.0.0/8.
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    if (!address || family === 0 || rest.length > 0) throw new Error(`"${entry}" is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      this.list.addAddress(address, type);
    } else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) throw new Error(`"${entry}" has a bad prefix length`);
      this.list.addSubnet(address, bits, type);
    }
    this.entries.push(entry);
    return this;
  }

  addAll(entries: readonly string[]): this {
    for (const entry of entries) this.add(entry);
    return this;
  }

  has(address: string): boolean {
    const normalized = normalizeAddress(address);
    const family = isIP(normalized);
    if (family === 0) return false;
    return this.list.check(normalized, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** A dual-stack socket reports IPv4 peers as `::ffff:a.b.c.d`; the allowlists are written in IPv4. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

export function parseAddressList(text: string): AddressList {
  const list = new AddressList();
  for (const entry of text.split(',').map((s) => s.trim()).filter(Boolean)) list.add(entry);
  return list;
}
