import { createMemoryStore } from './memory-store';
import { describeStoreContract } from './store-contract';

describeStoreContract('memory', { open: (opts) => createMemoryStore(opts) });
