/** The gateway's published source addresses (its interface document); the only sender check it offers. */
export const GATEWAY_ADDRESSES = {
  production: ['203.233.72.150', '203.233.72.151', '61.33.211.180'],
  development: ['61.33.205.151'],
} as const;

export type GatewayEnv = keyof typeof GATEWAY_ADDRESSES;
