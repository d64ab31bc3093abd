import type { LedgerSettings } from '../../config/ledger-settings';

/**
 * The fold's version: a checkpoint kept by an earlier form of the fold is never gone on from.
 */
const VERSION = 2;

/**
 * The settings a checkpoint was folded under, and the fold's version: its history (what opened
 * when) depends on the settings, so a checkpoint of other settings is not gone on from; the order
 * is replayed from its facts.
 */
export const foldSettingsKey = (settings: LedgerSettings): string => `v${VERSION};grace=${settings.graceSeconds};require=${settings.requireExpectation}`;
