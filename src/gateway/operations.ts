/** Every call the merchant makes to the gateway: which base URL it goes to, and the path. */
export const OPERATIONS = {
  'wallet-a.create': { base: 'GATEWAY_WALLET_A_URL', path: '/api/trades/wallet-a' },
  'wallet-b.cancel': { base: 'GATEWAY_WALLET_B_URL', path: '/api/trades/wallet-b/revise' },
  'van.approve': { base: 'GATEWAY_VAN_URL', path: '/smpy/vanpay/reqAprv' },
  'van.net-cancel': { base: 'GATEWAY_VAN_URL', path: '/smpy/vanpay/reqRtran' },
  'van.cancel': { base: 'GATEWAY_VAN_URL', path: '/smpy/vanpay/reqCancel' },
} as const;

export type Operation = keyof typeof OPERATIONS;
export type BaseUrlVariable = (typeof OPERATIONS)[Operation]['base'];
export type GatewayBaseUrls = Partial<Record<BaseUrlVariable, string>>;
