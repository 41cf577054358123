import deadCatch from './dead-catch.js';
import directProviderCall from './direct-provider-call.js';
import statefulConstruction from './stateful-construction.js';

/** Every rule, in report order. */
export const checks = [directProviderCall, statefulConstruction, deadCatch];
