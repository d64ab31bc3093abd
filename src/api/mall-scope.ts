/**
 * MALL_IDS on the internal API: a service set up for some malls sends nothing and stores
 * nothing for another (a mistyped mall id would otherwise reach the gateway signed with the
 * default key), and answers a read of another mall's record as it answers an unknown one.
 * Empty: every mall.
 */
export interface MallScope {
  serves(mallId: string): boolean;
  /** What a write names, when its mall is served; else MallNotServed. */
  served<T extends { mallId: string }>(subject: T): T;
}

/** A write for a mall outside MALL_IDS: 403, nothing sent or stored. */
export class MallNotServed extends Error {
  override readonly name = 'MallNotServed';
  constructor(mallId: string, mallIds: readonly string[]) {
    super(`mallId ${JSON.stringify(mallId)} is not one of this service's MALL_IDS (${mallIds.join(', ')}); nothing was sent or stored`);
  }
}

export function mallScope(mallIds: readonly string[]): MallScope {
  const served = new Set(mallIds);
  const serves = (mallId: string) => served.size === 0 || served.has(mallId);
  return {
    serves,
    served(subject) {
      if (!serves(subject.mallId)) throw new MallNotServed(subject.mallId, mallIds);
      return subject;
    },
  };
}
